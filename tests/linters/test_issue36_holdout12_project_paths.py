"""Readings from the twelfth held-out part of issue 36: SF116 paths that name a file of the
user's project (or of a project the skill describes), not a file of the skill.

- the sentence says the repository already has it ("Repo already has a bootstrap script
  (`scripts/bootstrap.sh` etc.) -> call it"): a file found in the user's repository;
- the path is what the repository's thing is ("the repository's nightly check
  (`scripts/check.py`)"), in English or in another language ("저장소의 ... (`...`)");
- the list holding it is led in as a sample for a typical repository ("Sample split for a
  typical repo:") or as what a file would contain ("The root index would contain:");
- the sentence runs over every candidate file of kinds it lists with a pattern ("For every
  candidate `Makefile`, `*.mk`, `scripts/dev.sh`: read it first");
- `./.hooks/lint.sh`: a hidden folder at the top of the working folder, which the skill
  lacks, is the project's;
- a helper that "does **not** run `scripts/x.py`": likely the file of the project that
  helper works in, a warning;
- a path the document gives in full under a placeholder folder (`migrations/<project>/
  scripts/mint.sh`) is that generated project's, for SF116 and SF301 alike: a warning.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing file is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill

_SCRIPT = {"scripts/run.sh": "echo\n"}  # the skill has a scripts/ folder of its own


def _sf116(tmp_path, body: str, files: dict[str, str] | None = None) -> list:
    return _severe(make_skill(tmp_path, body, files if files is not None else _SCRIPT),
                   "SF116")


def test_a_script_the_repo_already_has_is_the_repos(tmp_path):
    body = """\
    # Worktree setup

    ## Rules

    - Repo already has a bootstrap script (`scripts/bootstrap.sh` etc.) -> call it
      instead of copying its steps.
    """
    assert _sf116(tmp_path, body) == []


def test_a_script_the_skill_has_the_agent_run_is_still_missing(tmp_path):
    body = """\
    # Worktree setup

    ## Rules

    - The repo is set up by the bootstrap script (`scripts/bootstrap.sh`): read it first.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 10, "error")]


def test_the_repositorys_check_named_in_a_parenthesis_is_the_repos(tmp_path):
    body = """\
    # Links

    Link health is watched by the repository's nightly check (`scripts/check.py`).

    링크 상태는 저장소의 야간 점검(`scripts/check_links.py`)이 본다.
    """
    assert _sf116(tmp_path, body) == []


def test_a_check_of_the_skill_named_in_a_parenthesis_is_still_missing(tmp_path):
    body = """\
    # Links

    Link health is watched by the skill's nightly check (`scripts/check.py`).
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


def test_a_list_led_in_as_a_sample_for_a_typical_repo_names_its_files(tmp_path):
    body = """\
    # Audit

    Dispatch one reviewer per group. Sample split for a typical repo:

    - Reviewer A: root `AGENTS.md` + `scripts/AGENTS.md` (pipeline)
    - Reviewer B: `src/AGENTS.md`

    The root index would contain:
    - **Overview**: what the code does
    - **Sub-file ref**: Storage -> `scripts/_INDEX.md`
    """
    assert _sf116(tmp_path, body) == []


def test_a_list_of_the_skills_files_is_still_missing(tmp_path):
    body = """\
    # Audit

    Dispatch one reviewer per group. Give each reviewer these files:

    - Reviewer A: `scripts/AGENTS.md` (pipeline)
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 10, "error")]


def test_every_candidate_of_kinds_given_by_pattern_is_the_projects(tmp_path):
    body = """\
    # Makefiles

    For every candidate `Makefile`, `*.mk`, `scripts/dev.sh`, and `scripts/ship.sh`: read
    the file before deleting it.
    """
    assert _sf116(tmp_path, body) == []


def test_a_list_of_the_skills_scripts_without_a_pattern_is_still_missing(tmp_path):
    body = """\
    # Makefiles

    For every target, read `scripts/dev.sh` and `scripts/ship.sh` first.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error"), ("SKILL.md", 8, "error")]


def test_a_hidden_folder_of_the_working_folder_is_the_projects(tmp_path):
    body = """\
    # Commit

    - For the import gate, direct invocation is:
      - `./.hooks/imports_diff.sh`
    """
    assert _sf116(tmp_path, body) == []


def test_a_hidden_folder_the_skill_has_is_still_its_own(tmp_path):
    body = """\
    # Commit

    - For the import gate, direct invocation is:
      - `./.hooks/imports_diff.sh`
    """
    files = {".hooks/other.sh": "echo\n"}
    assert _sf116(tmp_path, body, files) == [("SKILL.md", 9, "error")]


def test_a_script_a_helper_does_not_run_is_not_sent_to(tmp_path):
    body = """\
    # Review worktrees

    What the helper leaves alone:

    - it does **not** run `scripts/sync_modules.py`
    """
    skill = make_skill(tmp_path, body, _SCRIPT)
    assert _severe(skill, "SF116") == []
    assert _found(skill, "SF116") == [("SKILL.md", 10, "warning")]


def test_a_script_the_agent_is_told_not_to_run_bare_is_still_missing(tmp_path):
    body = """\
    # Review worktrees

    - Do not run `scripts/sync_modules.py` without `--dry-run` first.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


# --- SF116 and SF301: the short form of a path given in full under a placeholder folder ---

_MIGRATION = """\
# Import

Every migration project holds `migrations/<project>/scripts/mint.sh`, copied in while
scaffolding. Keep `scripts/mint.sh` there.

Before the import:

```bash
bash scripts/mint.sh
```
"""


def test_a_path_given_in_full_under_a_placeholder_folder_is_that_projects(tmp_path):
    skill = make_skill(tmp_path, _MIGRATION, _SCRIPT)
    assert _severe(skill, "SF116") == []
    assert _severe(skill, "SF301") == []


def test_a_script_no_placeholder_folder_holds_is_still_missing(tmp_path):
    text = _MIGRATION.replace("<project>/scripts/mint.sh", "<project>/scripts/other.sh")
    skill = make_skill(tmp_path, text, _SCRIPT)
    assert _severe(skill, "SF116") == [("SKILL.md", 9, "error")]
    assert _severe(skill, "SF301") == [("SKILL.md", 14, "error")]
