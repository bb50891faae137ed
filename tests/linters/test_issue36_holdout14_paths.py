"""Readings from the fourteenth held-out part of issue 36: paths that are not the skill's.

- SF116: a marker of what the target is built with ("Identify the framework: Hermes
  (`assets/app.hbc`)") is where the file sits in the target, not a file of the skill;
- SF301: a block that first stages `rules/` files with `git add` works in the user's
  checkout, so a missing relative script there is a warning;
- SF301: an inline command whose sentence says it is planned, not yet shipped: a warning;
- SF301: `<SKILL_ROOT>/<this skill's name>/scripts/x.py` is this skill's `scripts/x.py`;
- SF116: a kit of template variants (`templates/base/scripts/sync.sh`) installs
  `scripts/sync.sh` in the project: a warning;
- SF116/SF301: a skill in a repository's top `skills/` that keeps the collection ("not
  linked from any SKILL.md") runs from the repository's top: a warning;
- links: a "link" whose target is in quotes (`obj[k]("fs")`) is code, not a link.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing file is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}


def test_a_framework_marker_in_parentheses_is_the_targets(tmp_path):
    body = """\
    # Triage of a phone app

    1. **Detect the framework**: Hermes (`assets/app.hbc`), Cordova (`assets/www/cordova.js`)
    2. Read `references/notes.md`.
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == []


def test_a_path_in_parentheses_without_the_identifying_words_stays_the_skills(tmp_path):
    body = """\
    # Triage of a phone app

    1. **Summarise the framework**: see the table (`references/frameworks.md`)
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == [("SKILL.md", 8, "error")]


_GIT_BLOCK = """\
# Alert tuning

```bash
git add {folder}/windows/lsass-read.yml
git commit -m "new rule"

# Refresh the coverage layer
python3 scripts/to_layer.py --out layer.json
```
"""


def test_a_block_that_commits_the_users_folder_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _GIT_BLOCK.format(folder="detections"), _REF)
    assert found(skill, "SF301") == [("SKILL.md", 13, "warning")]


def test_a_block_that_commits_the_skills_own_folder_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _GIT_BLOCK.format(folder="references"), _REF)
    assert severe(skill, "SF301") == [("SKILL.md", 13, "error")]


def test_a_planned_inline_command_is_a_warning_and_a_plain_one_an_error(tmp_path):
    body = """\
    # Lens kit

    - Replay (phase 3, planned, not yet shipped): `python3 scripts/replay.py <lens>`.
    - Index: `python3 scripts/index.py <lens>` rebuilds the index.
    """
    skill = make_skill(tmp_path, body, _REF)
    assert found(skill, "SF301") == [("SKILL.md", 8, "warning"), ("SKILL.md", 9, "error")]


def test_the_skills_own_name_after_a_skills_folder_placeholder_is_its_folder(tmp_path):
    body = """\
    # Charts

    ```bash
    python "<SKILL_ROOT>/expense-reports/scripts/draw.py" in.csv
    python "<SKILL_ROOT>/expense-reports/scripts/plot.py" in.csv
    ```
    """
    skill = make_skill(tmp_path, body, {"scripts/draw.py": "print()\n"})
    assert severe(skill, "SF301") == [("SKILL.md", 10, "error")]


def test_a_template_variants_file_is_a_warning_and_an_unshipped_one_an_error(tmp_path):
    body = """\
    # New service

    Secrets land in `.env` through `scripts/sync-env.sh`; see `scripts/other.sh` too.
    """
    files = {"templates/base/scripts/sync-env.sh": "echo\n"}
    skill = make_skill(tmp_path, body, files)
    assert found(skill, "SF116") == [("SKILL.md", 8, "error"), ("SKILL.md", 8, "warning")]


_KEEPER = """\
# Tidy the collection

Remove reference files not linked from any SKILL.md.

## Steps

1. Run `scripts/find_orphans.py --all` to list them.
"""


def test_a_skill_that_keeps_the_collection_runs_from_the_repository_top(tmp_path):
    skill = make_skill(tmp_path / "repo" / "skills", _KEEPER, _REF, name="tidy-skills")
    assert found(skill, "SF301") == [("SKILL.md", 12, "warning")]
    assert found(skill, "SF116") == []


def test_a_skill_without_collection_words_or_with_a_checked_top_stays_an_error(tmp_path):
    body = _KEEPER.replace("any SKILL.md", "the report")
    skill = make_skill(tmp_path / "repo" / "skills", body, _REF, name="tidy-notes")
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error")]
    top = tmp_path / "other"
    (top / ".git").mkdir(parents=True)
    skill = make_skill(top / "skills", _KEEPER, _REF, name="tidy-skills")
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error")]


def test_a_quoted_link_target_is_code_not_a_link(tmp_path):
    body = """\
    # Payloads

    Try #{global[r]("child_process")} and [the notes](missing.md).
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == [("SKILL.md", 8, "error")]


def test_a_collection_keeper_inside_a_plugin_stays_an_error(tmp_path):
    """A plugin's root is installed apart from the user's project: `scripts/x.py` there is
    not reached by a bare relative path (the shared corpus's labels read it so)."""
    skill = make_skill(tmp_path / "repo" / "plugins" / "fuzzing" / "skills", _KEEPER, _REF,
                       name="tidy-skills")
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error")]
    # A repository that is itself one plugin is still the repository the keeper works in.
    top = tmp_path / "repo2"
    (top / ".claude-plugin").mkdir(parents=True)
    skill = make_skill(top / "skills", _KEEPER, _REF, name="tidy-skills")
    assert found(skill, "SF301") == [("SKILL.md", 12, "warning")]
