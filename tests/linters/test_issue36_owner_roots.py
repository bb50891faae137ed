"""The plugin's and the repository's own files, named from a skill that lacks them (issue 36:
holdouts 2, 6, 11, 12 and 16, checked in full checkouts of the repositories).

- SF116: the words say the path is the plugin's ("the plugin's shared `references/x.md`", a
  list led in from "the plugin's `references/` folder", a heading "(plugin level)"), and the
  file is at the plugin's root (the folder with `.claude-plugin/plugin.json`, or
  `plugins/<name>/`): a warning that names it;
- SF116: the text cites a source file as where something is done (a gloss in brackets, the
  subject of what it does), with no instruction, and the file is at the plugin's root or
  the repository's top: a warning;
- SF301: a run whose line or lead-in names the repository ("the repo's validator"), or a
  tool named for the collection's skills (`lint-skills.py`), with the script at the
  repository's top: a warning.

Each twin keeps its error: the file is nowhere on disk, the text does not say whose it is,
or it sends the agent to open or run it. Every skill text here is written for this file.
"""

from __future__ import annotations

from pathlib import Path

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}


def _write(path: Path, text: str = "x\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _plugin(tmp_path: Path, body: str, shared: tuple[str, ...] = ("references/TONE.md",),
            manifest: bool = True) -> Path:
    """A skill of the plugin `plugins/brand/` of a marketplace, with the plugin's files."""
    plugin = tmp_path / "market" / "plugins" / "brand"
    if manifest:
        _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "brand"}\n')
    for rel in shared:
        _write(plugin / rel)
    return make_skill(plugin / "skills", body, _REF, name="copy")


_SAYS_PLUGIN = """\
# Brand copy

Read `references/notes.md` first. Load the plugin's shared `references/TONE.md` before
writing anything.
"""


def test_a_file_the_text_gives_as_the_plugins_is_found_at_its_root(tmp_path):
    skill = _plugin(tmp_path, _SAYS_PLUGIN)
    assert found(skill, "SF116") == [("SKILL.md", 8, "warning")]


def test_the_plugins_file_missing_from_its_root_stays_an_error(tmp_path):
    skill = _plugin(tmp_path, _SAYS_PLUGIN, shared=())
    assert severe(skill, "SF116") == [("SKILL.md", 8, "error")]
    # A copied skill: no plugin root on disk, nothing found, the error stays.
    alone = make_skill(tmp_path / "copy", _SAYS_PLUGIN, _REF, name="copy")
    assert severe(alone, "SF116") == [("SKILL.md", 8, "error")]


def test_a_file_at_the_plugin_root_the_text_does_not_call_the_plugins_stays_an_error(tmp_path):
    body = _SAYS_PLUGIN.replace("the plugin's shared", "the shared")
    assert severe(_plugin(tmp_path, body), "SF116") == [("SKILL.md", 8, "error")]


_LEAD_AND_HEADING = """\
# Brand copy

Read `references/notes.md` first.

Load the shared brand files {lead}:

1. **Read** `./references/TONE.md` for the voice

## {title}

- **`./references/TONE.md`**: voice and style
"""


def test_a_list_led_in_or_titled_as_the_plugins_names_its_files(tmp_path):
    body = _LEAD_AND_HEADING.format(lead="from the plugin's `references/` folder",
                                    title="Shared references (plugin level)")
    # The plugin's root is where its manifest is, under `plugins/` or not.
    skill = _plugin(tmp_path, body)
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning"), ("SKILL.md", 16, "warning")]


def test_a_list_led_in_and_titled_as_the_skills_stays_an_error(tmp_path):
    body = _LEAD_AND_HEADING.format(lead="from the `references/` folder",
                                    title="Shared references")
    assert severe(_plugin(tmp_path, body), "SF116") == [
        ("SKILL.md", 12, "error"), ("SKILL.md", 16, "error")]


def test_a_plugin_root_is_the_folder_with_the_plugins_manifest(tmp_path):
    plugin = tmp_path / "repo" / "tools" / "brand"
    _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "brand"}\n')
    _write(plugin / "references" / "TONE.md")
    skill = make_skill(plugin / "skills", _SAYS_PLUGIN, _REF, name="copy")
    assert found(skill, "SF116") == [("SKILL.md", 8, "warning")]
    # Without the manifest (and not under `plugins/`) the folder is no plugin's root.
    (plugin / ".claude-plugin" / "plugin.json").unlink()
    assert severe(skill, "SF116") == [("SKILL.md", 8, "error")]


_CITED = """\
# Findings report

Read `references/notes.md` first.

## What it does

- **Ranks** every finding with one score (`scripts/lib/score.mjs`): severity times reach.
"""


def test_a_source_file_cited_as_where_the_work_is_done_is_the_plugins(tmp_path):
    skill = _plugin(tmp_path, _CITED, shared=("scripts/lib/score.mjs",))
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning")]


def test_a_cited_source_found_nowhere_or_one_to_run_stays_an_error(tmp_path):
    assert severe(_plugin(tmp_path / "a", _CITED, shared=()), "SF116") == [
        ("SKILL.md", 12, "error")]
    run = _CITED.replace("- **Ranks** every finding with one score",
                         "- Run the scorer on every finding")
    assert severe(_plugin(tmp_path / "b", run, shared=("scripts/lib/score.mjs",)),
                  "SF116") == [("SKILL.md", 12, "error")]
    # A document glossed so is one to read, not a source: the skill's, and missing.
    doc = _CITED.replace("scripts/lib/score.mjs", "references/score.md")
    assert severe(_plugin(tmp_path / "c", doc, shared=("references/score.md",)),
                  "SF116") == [("SKILL.md", 12, "error")]


_SUBJECT = """\
# Triage

Read `references/notes.md` first. Every report starts with the header. The reviewer
checks it again and `scripts/check-header.mjs` fails CI if a report lacks it.
"""


def _repository(tmp_path: Path, body: str, files: tuple[str, ...], git: bool = True) -> Path:
    """A skill of the repository's top `skills/` collection, with the repository's files."""
    top = tmp_path / "repo"
    if git:
        (top / ".git").mkdir(parents=True)
    for rel in files:
        _write(top / rel)
    return make_skill(top / "skills", body, _REF, name="triage")


def test_a_source_file_that_does_the_work_is_the_repositorys(tmp_path):
    skill = _repository(tmp_path, _SUBJECT, ("scripts/check-header.mjs",))
    assert found(skill, "SF116") == [("SKILL.md", 9, "warning")]


def test_a_subject_sent_to_be_run_or_missing_at_the_top_stays_an_error(tmp_path):
    assert severe(_repository(tmp_path / "a", _SUBJECT, ()), "SF116") == [
        ("SKILL.md", 9, "error")]
    run = _SUBJECT.replace("The reviewer\nchecks it again and", "Then run it:")
    assert severe(_repository(tmp_path / "b", run, ("scripts/check-header.mjs",)),
                  "SF116") == [("SKILL.md", 8, "error")]


_MAINTAINER = """\
# Triage

Read `references/notes.md` first.

## Check

{lead}

```bash
python3 scripts/{name}.py
```
"""


def test_a_run_its_lead_in_gives_as_the_repositorys_is_at_the_top(tmp_path):
    body = _MAINTAINER.format(lead="Run the repo's validator after editing the skill:",
                              name="validate")
    skill = _repository(tmp_path, body, ("scripts/validate.py",))
    assert found(skill, "SF301") == [("SKILL.md", 15, "warning")]


def test_a_run_without_the_repositorys_words_stays_the_skills(tmp_path):
    body = _MAINTAINER.format(lead="Validate the notes:", name="validate")
    skill = _repository(tmp_path, body, ("scripts/validate.py",))
    assert severe(skill, "SF301") == [("SKILL.md", 15, "error")]
    # Named the repository's, but not at its top: the error stays.
    body = _MAINTAINER.format(lead="Run the repo's validator after editing the skill:",
                              name="validate")
    assert severe(_repository(tmp_path / "b", body, ()), "SF301") == [
        ("SKILL.md", 15, "error")]


def test_a_tool_named_for_the_collections_skills_is_the_repositorys(tmp_path):
    body = _MAINTAINER.format(lead="After an edit:", name="lint-skills")
    # At the top of the repository's `skills/` collection, `.git` on disk or not.
    skill = _repository(tmp_path, body, ("scripts/lint-skills.py",), git=False)
    assert found(skill, "SF301") == [("SKILL.md", 15, "warning")]
    # Not there: the skill's own run of a missing script.
    assert severe(_repository(tmp_path / "b", body, ()), "SF301") == [
        ("SKILL.md", 15, "error")]
    # A tool for one thing of the skill's (`lint-notes`), at the top: still the skill's.
    body = _MAINTAINER.format(lead="After an edit:", name="lint-notes")
    assert severe(_repository(tmp_path / "c", body, ("scripts/lint-notes.py",)),
                  "SF301") == [("SKILL.md", 15, "error")]
