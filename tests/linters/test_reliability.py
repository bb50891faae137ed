"""Reliability rules on scripts and references (SF301-SF307), on the edge cases the
fixtures do not show.

Each test writes a small skill, runs only the checks registered for one rule
(tests/linters/reliability_skill.py), and says what that rule reports. The other
reliability rules: test_reliability_wording.py (SF308-SF312, SF317, SF318) and
test_reliability_evals.py (SF313-SF316); the command helpers: test_commands.py.
"""

from __future__ import annotations

import pytest

from tests.linters.reliability_skill import fired, make_skill

# --- SF301 / SF305 --------------------------------------------------------------------------

def test_sf301_reports_each_missing_script_once(tmp_path):
    skill = make_skill(tmp_path, """
        # CSV insights
        ```bash
        python3 {baseDir}/scripts/report.py sales.csv
        python3 {baseDir}/scripts/report.py costs.csv
        ```
    """)
    [finding] = fired(skill, "SF301")
    assert "scripts/report.py" in finding.message and finding.line == 8


def test_sf301_accepts_files_known_but_not_on_disk(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\nRun `python3 scripts/report.py sales.csv`.\n")
    assert fired(skill, "SF301", missing=("scripts/report.py",)) == []


def test_sf301_ignores_the_users_project_and_placeholders(tmp_path):
    skill = make_skill(tmp_path, """
        # CSV insights
        ```bash
        python manage.py migrate
        node src/server.js
        python scripts/<your_script>.py
        ```
        The folders are (scripts/, references/).
    """)
    assert fired(skill, "SF301") == []


def test_sf305_only_for_scripts_run_without_an_interpreter(tmp_path):
    files = {"scripts/a.sh": "echo a\n", "scripts/b.sh": "echo b\n", "scripts/c.sh": "echo c\n"}
    skill = make_skill(tmp_path, """
        # CSV insights
        ```
        ./scripts/a.sh
        bash scripts/b.sh
        ```
        The logic lives in `scripts/c.sh`.
    """, files)
    found = fired(skill, "SF305")
    assert [f.path for f in found] == ["scripts/a.sh"]


def test_sf305_skips_scripts_not_on_disk(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\n```bash\n./scripts/run\n```\n")
    assert fired(skill, "SF305", missing=("scripts/run",)) == []


def test_sf305_executable_without_shebang_still_fires(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\n```bash\n./scripts/run.sh\n```\n",
                       {"scripts/run.sh": "echo hi\n"}, modes={"scripts/run.sh": 0o755})
    [finding] = fired(skill, "SF305")
    assert "shebang" in finding.message and "chmod" not in finding.message


def test_sf305_checks_a_direct_run_even_after_an_interpreter_run(tmp_path):
    body = "# CSV\n\n```bash\npython3 scripts/run.py --help\n./scripts/run.py in.csv\n```\n"
    skill = make_skill(tmp_path, body, {"scripts/run.py": "print(1)\n"})
    [finding] = fired(skill, "SF305")
    assert "#!/usr/bin/env python3" in finding.message


# --- SF302 / SF303 / SF304 ------------------------------------------------------------------

def test_sf302_helpers_imported_by_a_mentioned_script_are_fine(tmp_path):
    files = {
        "scripts/report.py": "from utils import fmt\nprint(fmt(1))\n",
        "scripts/utils.py": "def fmt(x):\n    return str(x)\n",
        "scripts/lib/colors.sh": "RED=1\n",
        "scripts/tests/test_report.py": "def test_x():\n    pass\n",
    }
    body = "# CSV\n\nRun `python3 scripts/report.py`. Shell helpers are in `scripts/lib/`.\n"
    skill = make_skill(tmp_path, body, files)
    assert fired(skill, "SF302") == []


def test_sf302_a_script_named_in_a_linked_reference_is_fine(tmp_path):
    files = {"references/advanced.md": "For huge files run `python3 scripts/sample.py`.\n",
             "scripts/sample.py": "print(1)\n"}
    skill = make_skill(tmp_path, "# CSV\n\nSee [advanced use](references/advanced.md).\n", files)
    assert fired(skill, "SF302") == []


def test_sf302_module_path_counts_as_a_mention(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\nRun `python -m scripts.report`.\n",
                       {"scripts/report.py": "print(1)\n"})
    assert fired(skill, "SF302") == []


def test_sf302_does_not_guess_when_a_reached_script_cannot_be_read(tmp_path):
    # scripts/main.py is known but not on disk: it may import scripts/helpers_io.py.
    skill = make_skill(tmp_path, "# CSV\n\nRun `python3 scripts/main.py`.\n",
                       {"scripts/helpers_io.py": "X = 1\n", "scripts/cleanup.sh": "rm -f out\n"})
    found = fired(skill, "SF302", missing=("scripts/main.py",))
    assert [f.path for f in found] == ["scripts/cleanup.sh"]


def test_sf303_mentions_ignore_case(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\nFor forms, read FORMS.md.\n", {"forms.md": "# Forms\n"})
    assert fired(skill, "SF303") == []


def test_sf303_and_sf304_split_the_work(tmp_path):
    files = {
        "references/a.md": "Next, read [b](b.md). ![diagram](flow.png)\n",
        "references/b.md": "# B\n",
        "references/flow.png": "png",
        "references/orphan.md": "# Orphan\n",
    }
    skill = make_skill(tmp_path, "# CSV\n\nRead [references/a.md](references/a.md).\n", files)
    assert [f.path for f in fired(skill, "SF303")] == ["references/orphan.md"]
    [deep] = fired(skill, "SF304")
    assert deep.path == "references/a.md" and "references/b.md" in deep.message


def test_sf304_cross_links_between_references_skill_md_names_are_fine(tmp_path):
    files = {"references/a.md": "See also [b](b.md).\n", "references/b.md": "See [a](a.md).\n"}
    skill = make_skill(tmp_path, "# CSV\n\nRead references/a.md and references/b.md.\n", files)
    assert fired(skill, "SF304") == []


def test_sf303_a_reference_a_script_loads_is_used(tmp_path):
    loader = "import json\nSCHEMA = json.load(open('references/schema.json'))\n"
    files = {"scripts/check.py": loader,
             "references/schema.json": "{}\n"}
    skill = make_skill(tmp_path, "# CSV\n\nRun `python3 scripts/check.py out.json`.\n", files)
    assert fired(skill, "SF303") == []


# --- SF306 --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("path", "code", "hit"),
    [
        ("scripts/a.py", "name = input('Name? ')\n", "input()"),
        ("scripts/a.py", "import getpass\npw = getpass.getpass()\n", "getpass.getpass()"),
        ("scripts/a.py", "import click\nclick.confirm('Go?')\n", "click.confirm()"),
        ("scripts/a.py", "import sys\nif sys.stdin.isatty():\n    x = input('x? ')\n", None),
        ("scripts/a.py", "def f(:\n    x = input('broken file')\n", "input()"),
        ("scripts/a.py", "data = sys.stdin.read()\n", None),
        ("scripts/a.sh", "#!/bin/bash\nread -p 'Continue? ' ok\n", "read -p"),
        ("scripts/a.sh", "#!/bin/bash\nread -r answer\n", "read"),
        ("scripts/a.sh", "#!/bin/bash\nread -r ok </dev/tty\n", "read"),
        ("scripts/a.sh", "#!/bin/bash\nwhile IFS= read -r line; do echo $line; done < in\n", None),
        ("scripts/a.sh", "#!/bin/bash\nls | while read f; do\n  read -r n <<< $f\ndone\n", None),
        ("scripts/a.sh", "#!/bin/bash\necho \"please read the docs\"\n", None),
        ("scripts/a.sh", "#!/bin/bash\nselect opt in a b; do break; done\n", "select"),
        ("scripts/a.mjs", "rl.question('Name? ', (a) => {})\n", ".question"),
    ],
)
def test_sf306_interactive_input(tmp_path, path, code, hit):
    skill = make_skill(tmp_path, f"# CSV\n\nRun `{path}` with its interpreter.\n", {path: code})
    found = fired(skill, "SF306")
    if hit is None:
        assert found == []
    else:
        assert len(found) == 1 and hit in found[0].message


BROKEN_WITH_DOCSTRING = '''"""Ask nothing: never call input() here; the agent has no keyboard.

Pass --name instead of waiting for input(...).
"""
import sys

def main(:
    name = input("Name? ")  # the real prompt, line 8
'''


def test_sf306_with_a_syntax_error_points_at_code_not_docstring_text(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\nRun `scripts/a.py` with python.\n",
                       {"scripts/a.py": BROKEN_WITH_DOCSTRING})
    [finding] = fired(skill, "SF306")
    assert finding.line == 8 and "line 8" in finding.message and "more" not in finding.message


def test_sf306_with_a_syntax_error_ignores_prompts_named_in_strings_and_comments(tmp_path):
    code = '"""Never input() here."""\nx = "input()"  # input() is not used\ndef f(:\n'
    skill = make_skill(tmp_path, "# CSV\n\nRun `scripts/a.py` with python.\n",
                       {"scripts/a.py": code})
    assert fired(skill, "SF306") == []


# --- SF307 --------------------------------------------------------------------------------

def test_sf307_reports_once_per_command_with_every_unpinned_package(tmp_path):
    skill = make_skill(tmp_path, """
        # CSV
        ```bash
        pip install pandas matplotlib "numpy==1.26.4"
        ```
        Or inline: `pip install pandas`.
    """)
    [finding] = fired(skill, "SF307")
    assert "`pip install pandas matplotlib`" in finding.message
