"""Readings from the sixteenth held-out part of issue 36: scripts of the user's project or of
the repository that holds the skill (SF301), each a warning that names the assumption:

- a project skill (`<repo>/.claude/skills/<name>/`) whose run names the repository ("Run the
  repo checks: `scripts/x.py`") runs in the repository that holds it, even when its text
  never says "this repo": the script is checked there when the top is on disk (`.git`);
- a skill about "this repo" that gives the layout it sits in (`skills/<category>/<name>/`)
  is one for adding to that collection, run in the repository's checkout;
- a setup step that links or copies files into the project's `scripts/` (`ln -s
  "$SKILLS_DIR/x/scripts/a.sh" scripts/a`) makes the skill's `./scripts/...` runs the
  project's;
- text that handles the script's absence ("when available", "If the command is missing")
  or calls it the project's ("the required project adapter").

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing script is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}

_PROJECT_SKILL = """\
# Tidy the changelog

Read `references/notes.md` first.

1. Sort the entries of `CHANGELOG.md` by date.
2. **Run the repo checks**: `python3 scripts/check_changelog.py`
"""


def test_a_project_skill_runs_the_repositorys_script(tmp_path):
    agent = tmp_path / "repo" / ".claude" / "skills"
    skill = make_skill(agent, _PROJECT_SKILL, _REF, name="tidy-changelog")
    assert found(skill, "SF301") == [("SKILL.md", 11, "warning")]
    # With the repository's top on disk the script is looked up there.
    (tmp_path / "repo" / ".git").mkdir()
    assert severe(skill, "SF301") == [("SKILL.md", 11, "error")]
    (tmp_path / "repo" / "scripts").mkdir()
    (tmp_path / "repo" / "scripts" / "check_changelog.py").write_text("print(1)\n")
    assert found(skill, "SF301") == []


def test_a_project_skill_with_its_own_scripts_or_no_repo_words_stays_an_error(tmp_path):
    agent = tmp_path / "repo" / ".claude" / "skills"
    files = {**_REF, "scripts/other.py": "print(1)\n"}
    skill = make_skill(agent, _PROJECT_SKILL, files, name="tidy-changelog")
    assert severe(skill, "SF301") == [("SKILL.md", 11, "error")]
    body = _PROJECT_SKILL.replace("Run the repo checks", "Check the result")
    skill = make_skill(tmp_path / "b" / ".claude" / "skills", body, _REF, name="tidy-changelog")
    assert severe(skill, "SF301") == [("SKILL.md", 11, "error")]


_ADD_SKILL = """\
# Add a skill

Add a new skill to this repo.

1. Put it in `skills/<category>/<skill-name>/` with a `SKILL.md`; see `references/notes.md`.
2. Rebuild the index:

   ```bash
   python3 scripts/build_index.py
   ```
"""


def test_a_skill_that_gives_its_own_layout_runs_in_the_collections_checkout(tmp_path):
    category = tmp_path / "repo" / "skills" / "authoring"
    skill = make_skill(category, _ADD_SKILL, _REF, name="add-skill")
    assert found(skill, "SF301") == [("SKILL.md", 14, "warning")]


def test_a_layout_the_skill_does_not_sit_in_stays_an_error(tmp_path):
    # The same text one folder shallower: `skills/<category>/<skill-name>/` is not where it is.
    skill = make_skill(tmp_path / "repo" / "skills", _ADD_SKILL, _REF, name="add-skill")
    assert severe(skill, "SF301") == [("SKILL.md", 14, "error")]


_LINKED = """\
# Board sync

Read `references/notes.md` first.

## Setup

```bash
mkdir -p scripts
ln -sf "$SKILLS_DIR/board-sync/scripts/board.sh" scripts/board
```

## Use

```bash
./scripts/board pull
```
"""


def test_a_setup_step_links_scripts_into_the_project(tmp_path):
    files = {**_REF, "scripts/board.sh": "#!/bin/sh\necho hi\n"}
    skill = make_skill(tmp_path, _LINKED, files, name="board-sync")
    assert found(skill, "SF301") == [("SKILL.md", 20, "warning")]


def test_a_setup_step_into_another_folder_leaves_the_run_an_error(tmp_path):
    body = _LINKED.replace("scripts/board\n```\n\n## Use", "bin/board\n```\n\n## Use")
    files = {**_REF, "scripts/board.sh": "#!/bin/sh\necho hi\n"}
    skill = make_skill(tmp_path, body, files, name="board-sync")
    assert severe(skill, "SF301") == [("SKILL.md", 20, "error")]


_ADAPTER = """\
# Release board

Read `references/notes.md` first.

1. **Gather the digest.**

   ```bash
   ./scripts/release-digest
   ```

   {said}

2. **Gather the order.** Run `./scripts/release-order`{inline}.
"""


def test_text_that_handles_the_scripts_absence_names_it_the_projects(tmp_path):
    body = _ADAPTER.format(said="The digest is the required project adapter; stop if it fails.",
                           inline=" when available")
    skill = make_skill(tmp_path, body, _REF, name="release-board")
    assert found(skill, "SF301") == [("SKILL.md", 13, "warning"), ("SKILL.md", 18, "warning")]


def test_a_skills_own_missing_script_without_such_words_stays_an_error(tmp_path):
    body = _ADAPTER.format(said="Read its output and report the services.", inline="")
    skill = make_skill(tmp_path, body, _REF, name="release-board")
    assert severe(skill, "SF301") == [("SKILL.md", 13, "error"), ("SKILL.md", 18, "error")]
