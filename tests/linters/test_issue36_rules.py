"""Rules that were wrong on skills nobody here had read (issue 36), one class per section.

- SF116 was switched off under any heading holding a history word, and for a whole file
  whose title held one ("# Database migrations"). It now checks every link; a list item of
  a real changelog section is only softened to a warning.
- SF301 read a `SKILL_DIR` set in an earlier block as the skill root, took "don't run this"
  blocks, placeholders (`<skill-scripts>/x.sh`) and the user's project scripts for the skill's.
- SF117 and SF121 are upload rules of claude.ai: warnings unless the author targets it.
- SF307 suggested `tool@latest@1.2.3`; SF306 took 1Password's `op read` for the shell's
  `read`; script lint skipped scripts outside `scripts/`.

Each test writes a small skill of its own and says what the rule reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from linters import lint_skill
from linters.context import LintContext
from linters.external.external_linters import run_external_linters
from linters.scripts.scripts import python_syntax
from linters.external.tool_cache import clear_memory_cache
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.linters.correctness_skill import findings, skill_md, write_skill
from tests.linters.reliability_skill import fired, make_skill

# --- SF116: every link is checked; a changelog may only soften its own entries --------------


def sf116(tmp_path: Path, body: str, files: dict[str, str] | None = None,
          name: str = "db-schema") -> list:
    root = write_skill(tmp_path / name, skill_md(body=body, name=name),
                       files if files is not None else {"references/schema.md": "# Schema\n"})
    return findings(root, "SF116")


MIGRATIONS = """
# Database migrations

Write each migration as a pair of up and down scripts.

1. Read [the naming rules](references/naming.md) before you add a file.
2. Check the column types in `references/schema.md`.
3. For rollbacks, follow `references/rollback.md`.
"""


def test_a_title_with_a_history_word_does_not_switch_the_file_off(tmp_path):
    found = sf116(tmp_path, MIGRATIONS)
    assert [(f.line, f.severity) for f in found] == [(10, Severity.error), (12, Severity.error)]
    assert "`references/naming.md`" in found[0].message
    assert "`references/rollback.md`" in found[1].message


RELEASE_SECTION = """
# Schema review

Review the schema change against `references/schema.md`.

## Release notes

Before you write the notes, read [the release checklist](references/release-checklist.md).

## History

The review steps follow `references/review-steps.md`.
"""


def test_prose_under_a_history_heading_is_checked(tmp_path):
    found = sf116(tmp_path, RELEASE_SECTION)
    assert [(f.line, f.severity) for f in found] == [(12, Severity.error), (16, Severity.error)]


CHANGELOG = """
# Schema review

Review the schema change against `references/schema.md`.

## Changelog

### 2.1.0

- Split the index advice out into [index tuning](references/index-tuning.md).

### Fixed

- The checklist in `references/checklist.md` now names every lock level.
"""


def test_a_changelog_entry_is_softened_to_a_warning_not_dropped(tmp_path):
    found = sf116(tmp_path, CHANGELOG)
    assert [(f.line, f.severity) for f in found] == [(14, Severity.warning),
                                                     (18, Severity.warning)]


def test_removed_files_in_a_changelog_are_still_left_alone(tmp_path):
    body = CHANGELOG + "- Removed `scripts/old_lint.sh`; use `references/schema.md`.\n"
    assert [f.line for f in sf116(tmp_path, body)] == [14, 18]


# --- SF301: variables, negations, placeholders and the user's project ------------------------


def sf301(tmp_path: Path, body: str, files: dict[str, str] | None = None) -> list[str]:
    """The skill-relative scripts SF301 says are missing (from its messages)."""
    skill = make_skill(tmp_path, body, files, name="log-triage")
    return [f.message.split(" runs ", 1)[1].split(",", 1)[0] for f in fired(skill, "SF301")]


ROTATE = {"scripts/rotate.sh": "#!/bin/sh\necho rotate\n"}


def test_a_folder_variable_set_in_an_earlier_block_is_followed(tmp_path):
    body = """
        # Log triage

        Set the scripts folder once:

        ```bash
        SKILL_DIR="$HOME/.claude/skills/log-triage/scripts"
        ```

        Then rotate and summarise:

        ```bash
        bash "$SKILL_DIR/rotate.sh" /var/log/app.log
        bash "$SKILL_DIR/summarise.sh"
        ```
    """
    assert sf301(tmp_path, body, ROTATE) == ["scripts/summarise.sh"]


def test_a_folder_variable_set_to_what_a_reading_cannot_know_is_not_the_root(tmp_path):
    body = """
        # Log triage

        ```bash
        SKILL_DIR="$(cd "$(dirname "$0")" && pwd)/scripts"

        bash "$SKILL_DIR/rotate.sh" /var/log/app.log
        ```
    """
    assert sf301(tmp_path, body, ROTATE) == []


def test_a_variable_never_set_that_names_the_scripts_folder(tmp_path):
    body = """
        # Log triage

        Run `bash $SKILL_DIR/rotate.sh /var/log/app.log`, where SKILL_DIR is this skill's
        scripts folder, and `bash ${SKILL_SCRIPTS}/summarise.sh`.
    """
    assert sf301(tmp_path, body, ROTATE) == []


def test_blocks_and_commands_shown_as_what_not_to_do(tmp_path):
    body = """
        # Log triage

        NEVER: `./scripts/wipe_logs.sh --all`

        Do not run this on a production host:

        ```bash
        ./scripts/truncate.sh /var/log
        ```

        ```bash
        # Wrong: deletes the evidence
        ./scripts/purge.sh
        # Right
        bash scripts/rotate.sh
        bash scripts/collect.sh
        ```

        ## Don'ts

        - `./scripts/chmod_all.sh`
        - Don't call `logrotate` by hand - always `./scripts/rotate_now.sh`.
    """
    # The right way offered in a section of don'ts is still an instruction.
    assert sf301(tmp_path, body, ROTATE) == ["scripts/collect.sh", "scripts/rotate_now.sh"]


def test_placeholders_for_a_folder_are_not_paths(tmp_path):
    body = """
        # Log triage

        Run `bash <skill-scripts>/rotate_all.sh` from the scripts folder of your install.

        ```bash
        python3 {script} --since 1h
        python3 <scripts-dir>/parse.py app.log
        ```
    """
    assert sf301(tmp_path, body, ROTATE) == []


def test_scripts_of_the_users_project_are_not_claimed(tmp_path):
    body = """
        # Log triage

        1. Run the project's tests with `./scripts/test.sh` and keep the output.
        2. In the user's repository, the log shipper is `bash scripts/ship_logs.sh`.

        From the repository root, check the build:

        ```bash
        npm run build
        ./scripts/build.sh --ci
        ```

        Then triage with the skill's own script: `bash scripts/triage.sh app.log`.
    """
    assert sf301(tmp_path, body, ROTATE) == ["scripts/triage.sh"]


# --- SF117 / SF121: upload rules of claude.ai are warnings unless it is the target ----------

POLICY_FM = ("name: claude-hooks-audit\n"
             "description: Audits Claude Code hooks -> a report. Use when a hook takes "
             "< 1s or coverage is >90 percent short.\n")


def policy_findings(tmp_path: Path, config: LintConfig | None = None) -> dict[str, Severity]:
    root = write_skill(tmp_path / "claude-hooks-audit",
                       skill_md(POLICY_FM, body="\n# Hooks audit\n\nRead the hooks.\n"))
    report = lint_skill(root, config, external=False)
    return {f.rule: f.severity for f in report.findings if f.rule in ("SF117", "SF121")}


def test_upload_rules_are_warnings_by_default(tmp_path):
    assert policy_findings(tmp_path) == {"SF117": Severity.warning, "SF121": Severity.warning}


def test_upload_rules_are_errors_for_the_claude_ai_target(tmp_path):
    found = policy_findings(tmp_path, LintConfig(target="claude-ai"))
    assert found == {"SF117": Severity.error, "SF121": Severity.error}


def test_an_unknown_target_is_refused():
    with pytest.raises(ValueError, match="target"):
        LintConfig(target="claude.ai")


# --- SF307 / SF306 messages; script lint over every script ------------------------------------


@pytest.mark.parametrize(("command", "suggested"), [
    ("npx -y feedback-cli@latest send", "`feedback-cli@1.2.3`"),
    ("npx @acme/report-cli@next build", "`@acme/report-cli@1.2.3`"),
    ("uvx log-parser@latest app.log", "`log-parser@1.2.3`"),
    ("pip install 'pandas>=2'", "`pandas==1.2.3`"),
    ("pip install 'rich[jupyter]'", "`rich[jupyter]==1.2.3`"),
])
def test_sf307_suggests_a_pin_in_place_of_the_tag(tmp_path, command, suggested):
    skill = make_skill(tmp_path, f"# Reports\n\nRun `{command}`.\n")
    [f] = fired(skill, "SF307")
    assert suggested in f.message and "@latest@" not in f.message


def test_sf306_one_password_read_is_not_the_shells_read(tmp_path):
    skill = make_skill(tmp_path, "# Deploy\n\nRun `bash scripts/deploy.sh`.\n", {
        "scripts/deploy.sh": """\
            #!/bin/bash
            TOKEN=$(op read "op://Deploy/api/token")
            export API_KEY=$(op read op://Deploy/api/key)
            curl -H "Authorization: Bearer $TOKEN" https://api.example.com/deploy
            read -r -p "Deploy to production? [y/N] " answer
            """,
    })
    [f] = fired(skill, "SF306")
    assert f.line == 5 and "read -p" in f.message


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SKILLFORGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SKILLFORGE_TOOL_PATH", raising=False)
    clear_memory_cache()
    yield
    clear_memory_cache()


SCRIPTS_EVERYWHERE = {
    "scripts/run.sh": "#!/bin/bash\necho \"run\"\n",
    "assets/install.sh": "#!/bin/bash\ncd $1\nrm -rf build\n",
    "examples/setup": "#!/usr/bin/env bash\nfor f in $(ls *.log); do echo $f; done\n",
    "tools/report.py": "import sys\nprint(totl, file=sys.stderr)\n",
    "examples/broken.py": "def main(:\n    pass\n",
    "assets/template.py": "{{ name }} = {{ value }}\n",
}


def test_script_lint_covers_every_script_of_the_skill(tmp_path, private_cache):
    skill = make_skill(tmp_path, "# Build\n\nRun `bash scripts/run.sh`.\n", SCRIPTS_EVERYWHERE,
                       name="build-kit")
    ctx = LintContext(load_skill(skill))
    external = {(f.rule, f.path) for f in run_external_linters(ctx) if f.line is not None}
    assert ("SF603", "assets/install.sh") in external
    assert ("SF603", "examples/setup") in external
    assert ("SF602", "tools/report.py") in external
    syntax = {f.path for f in python_syntax(ctx)}
    assert syntax == {"examples/broken.py"}  # not the template under assets/


@pytest.mark.timeout(60)
def test_a_long_unquoted_assignment_does_not_stall_the_read_check(tmp_path):
    # SF306's `read` finder once matched an assignment's value as `(?:[^\s...]+)*`: every
    # extra character doubled the backtracking (24 characters: 0.9 s), so one long
    # `VAR=...` line with no `read` after it hung the whole lint (seen on public skills).
    skill = tmp_path / "long-values"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: long-values\ndescription: Sets long values. Use when testing.\n---\n"
        "Run `scripts/set.sh`.\n", encoding="utf-8")
    value = "a1b2c3d4e5" * 30
    (skill / "scripts" / "set.sh").write_text(
        "#!/bin/sh\n" + "".join(f"X{i}={value}{i} echo done\n" for i in range(20))
        + "IFS= read -r answer\n", encoding="utf-8")
    report = lint_skill(skill)
    assert [f.rule for f in report.findings if f.rule == "SF306"] == ["SF306"]
