"""Readings from the fifteenth held-out part of issue 36: paths that are not the skill's.

- SF301: a path in a table cell that is a setting's value (a "Default" or "Value" column,
  or the row of an environment variable) is not a command that runs a script; a "Command"
  column's `./scripts/x.sh` still is;
- SF116: the paths of a list led in by "Examples:" illustrate (a file name pattern the text
  just gave, say), as they do when a blank line separates the label from the list; "See
  `./reports/guide.md`" still sends the agent to a file;
- SF116/SF301: a skill of a collection kept flat at the repository's top
  (`<repo>/<name>/SKILL.md`, beside the other skills) that keeps the collection runs from the
  repository's top, as one in the top `skills/` folder does: a warning.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing file is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}
_ASSETS = {**_REF, "assets/logo.txt": "logo\n"}  # the skill has `assets/`, not the layouts

_SETTINGS = """\
# Invoice renderer

Read `references/notes.md` first.

## Settings

| {first} | Meaning | {last} |
|---------|---------|--------|
| {name} | Folder of page layouts | `./assets/layouts` |
"""


def test_a_default_column_holds_a_settings_value_not_a_run(tmp_path):
    body = _SETTINGS.format(first="Variable", last="Default", name="`INVOICE_LAYOUTS`")
    assert found(make_skill(tmp_path, body, _ASSETS), "SF301") == []


def test_a_value_column_and_an_environment_variables_row_are_settings(tmp_path):
    body = _SETTINGS.format(first="Setting", last="Value", name="layouts")
    assert found(make_skill(tmp_path / "a", body, _ASSETS), "SF301") == []
    body = _SETTINGS.format(first="Name", last="Where", name="`INVOICE_LAYOUTS`")
    assert found(make_skill(tmp_path / "b", body, _ASSETS), "SF301") == []


def test_a_command_column_still_runs_its_script(tmp_path):
    body = """\
    # Invoice renderer

    | Task | Command |
    |------|---------|
    | Render | `./scripts/render.sh` |
    | `RENDER_ALL` | `./scripts/render-all.sh` |
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF301") == [
        ("SKILL.md", 10, "error"), ("SKILL.md", 11, "error")]


_REPORTS = """\
# Weekly digest

## Step 1: Name the file

Build the name from the parts:
```
{{OUT_DIR}}/{{TOPIC}}_{{YYYYMMDD}}.md
```
{label}
- `./digests/billing_20250301.md`
- `./digests/outages_20250308.md`

## Step 2: Write the file

Save the digest to the constructed path. See `./digests/guide.md` for the layout.
"""


def test_a_list_led_in_by_examples_illustrates_a_name_pattern(tmp_path):
    skill = make_skill(tmp_path, _REPORTS.format(label="Examples:"), _REF)
    assert severe(skill, "SF116") == [("SKILL.md", 20, "error")]  # only the guide


def test_a_list_led_in_by_other_words_is_still_read_as_the_skills(tmp_path):
    skill = make_skill(tmp_path, _REPORTS.format(label="Read these first:"), _REF)
    assert severe(skill, "SF116") == [
        ("SKILL.md", 15, "error"), ("SKILL.md", 16, "error"), ("SKILL.md", 20, "error")]


_FLAT_KEEPER = """\
# Add a skill

Create or edit skills in this repository; every skill is `<skill-name>/SKILL.md` at the top.
Use when editing any existing skill's SKILL.md.

## Check

1. **Detection**: `./scripts/count-skills.sh`
"""


def _flat_collection(top, body=_FLAT_KEEPER, name="add-skill"):
    for other in ("tidy", "review"):
        make_skill(top, "# Other\n\nA skill of the collection.\n", name=other)
    return make_skill(top, body, _REF, name=name)


def test_a_keeper_of_a_flat_collection_runs_from_the_repository_top(tmp_path):
    skill = _flat_collection(tmp_path / "repo")
    assert found(skill, "SF116") == [("SKILL.md", 13, "warning")]
    # On disk at the checked top: a warning that says it is there.
    top = tmp_path / "checkout"
    (top / ".git").mkdir(parents=True)
    (top / "scripts").mkdir()
    (top / "scripts" / "count-skills.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    assert found(_flat_collection(top), "SF116") == [("SKILL.md", 13, "warning")]


def test_a_flat_skill_that_does_not_keep_the_collection_stays_an_error(tmp_path):
    body = _FLAT_KEEPER.replace("any existing skill's SKILL.md", "the notes")
    body = body.replace("every skill is `<skill-name>/SKILL.md` at the top", "it is short")
    skill = _flat_collection(tmp_path / "repo", body)
    assert severe(skill, "SF116") == [("SKILL.md", 13, "error")]
    # Alone in its folder, a keeper's words do not make that folder a repository's top.
    alone = make_skill(tmp_path / "solo", _FLAT_KEEPER, _REF, name="add-skill")
    assert severe(alone, "SF116") == [("SKILL.md", 13, "error")]
    # A checked top without the script: the error stays.
    top = tmp_path / "checkout"
    (top / ".git").mkdir(parents=True)
    assert severe(_flat_collection(top), "SF116") == [("SKILL.md", 13, "error")]
