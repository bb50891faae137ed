"""Readings from the twenty-sixth held-out part of issue 36 (holdout27): a SKILL.md a Claude
Code plugin keeps outside the skills folders its manifest names (SF108, SF110, SF106, SF102,
SF112).

A plugin whose `.claude-plugin/plugin.json` says `"skills": "./skills"` loads its skills from
there (and the default `skills/`). A SKILL.md-shaped file elsewhere in it (here a library of
prompt notes a hook pastes in by path, `notes/<topic>/<note>/SKILL.md`, with a display name
like `name: "Release Checklist"`) is looked up by nobody's name or folder: the lookup rules
are warnings that say so. Their twins keep the errors: the same file inside the named folder,
in a plugin whose manifest names no skills, in a repository that is no plugin, under another
harness's `.claude/skills/`, and with `--target claude-ai`.

Every skill text here is written for this file.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from skillforge.models.lint_config import LintConfig
from skillforge.models.findings import Severity
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe

_NOTE = """\
---
name: "Release Checklist"
description: Steps to follow before tagging a release of the service, from the changelog to the smoke test.
audience: maintainers
---

# Release checklist

1. Update CHANGELOG.md with the merged pull requests.
2. Bump the version in pyproject.toml.
3. Run the smoke test against staging and paste its summary into the release notes.
"""

_NO_FRONTMATTER = """\
# Release checklist

Update the changelog, bump the version, run the smoke test against staging.
"""

_RULES = ("SF108", "SF110", "SF112")


def _plugin(tmp: Path, manifest: dict | None = {"name": "notes-kit", "skills": "./skills"},
            where: tuple[str, ...] = ("notes", "ops", "release-checklist"),
            text: str = _NOTE) -> Path:
    plugin = tmp / "notes-kit"
    if manifest is not None:
        (plugin / ".claude-plugin").mkdir(parents=True)
        (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest), "utf-8")
    skill = plugin.joinpath(*where)
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(text, "utf-8")
    return skill


def _all_severe(skill: Path, rules=_RULES) -> list[str]:
    return [r for r in rules if severe(skill, r)]


def test_a_note_outside_the_named_skills_folder_gets_warnings_that_say_why(tmp_path):
    skill = _plugin(tmp_path)
    assert _all_severe(skill) == []
    assert all(found(skill, r) and found(skill, r)[0][2] == "warning" for r in _RULES)
    messages = {f.rule: f.message for f in lint_skill(skill, external=False).findings}
    assert "outside the skills folder" in messages["SF108"]
    assert "(`./skills`)" in messages["SF110"]
    assert "release-checklist" in messages["SF108"]  # the fix is still offered


def test_a_list_of_named_folders_is_read_too(tmp_path):
    skill = _plugin(tmp_path, {"name": "notes-kit", "skills": ["./skills/deploy", "./extra"]})
    assert _all_severe(skill) == []


def test_missing_frontmatter_and_missing_name_are_warnings_there(tmp_path):
    skill = _plugin(tmp_path, text=_NO_FRONTMATTER)
    assert severe(skill, "SF102") == [] and found(skill, "SF102")
    named = _plugin(tmp_path / "b", text="---\ndescription: Steps before a release.\n---\n\n"
                    "# Release\n\nBump the version.\n")
    assert severe(named, "SF106") == [] and found(named, "SF106")


def test_inside_the_named_folder_the_errors_stay(tmp_path):
    skill = _plugin(tmp_path, where=("skills", "release-checklist"))
    assert _all_severe(skill) == list(_RULES)


def test_inside_a_named_folder_other_than_skills_the_errors_stay(tmp_path):
    skill = _plugin(tmp_path, {"name": "notes-kit", "skills": ["./notes"]})
    assert _all_severe(skill) == list(_RULES)


def test_a_plugin_that_names_no_skills_folder_keeps_the_errors(tmp_path):
    skill = _plugin(tmp_path, {"name": "notes-kit"})
    assert _all_severe(skill) == list(_RULES)


def test_skills_named_in_an_unread_form_keep_the_errors(tmp_path):
    skill = _plugin(tmp_path, {"name": "notes-kit", "skills": [{"path": "./skills"}]})
    assert _all_severe(skill) == list(_RULES)


def test_a_repository_that_is_no_plugin_keeps_the_errors(tmp_path):
    skill = _plugin(tmp_path, None)
    assert _all_severe(skill) == list(_RULES)
    bare = _plugin(tmp_path / "b", None, text=_NO_FRONTMATTER)
    assert severe(bare, "SF102")


def test_another_harness_folder_inside_the_plugin_keeps_the_errors(tmp_path):
    skill = _plugin(tmp_path, where=(".claude", "skills", "release-checklist"))
    assert _all_severe(skill) == list(_RULES)
    nested = _plugin(tmp_path / "b", where=("extras", "skills", "release-checklist"))
    assert _all_severe(nested) == list(_RULES)


def test_a_marketplace_entry_naming_the_folder_keeps_the_errors(tmp_path):
    skill = _plugin(tmp_path)
    market = tmp_path / ".claude-plugin"
    market.mkdir()
    (market / "marketplace.json").write_text(json.dumps({"plugins": [
        {"name": "notes-kit", "source": "./notes-kit",
         "skills": ["./notes/ops/release-checklist"]}]}), "utf-8")
    assert _all_severe(skill) == list(_RULES)


def test_the_claude_ai_upload_target_keeps_the_errors(tmp_path):
    skill = _plugin(tmp_path)
    report = lint_skill(skill, LintConfig(target="claude-ai"), external=False)
    assert {f.rule for f in report.findings
            if f.severity == Severity.error and f.rule in _RULES} == set(_RULES)


_WORDS = st.from_regex(r"[a-z]{3,8}", fullmatch=True)


@settings(max_examples=examples(40), deadline=None)
@given(top=_WORDS, folder=_WORDS, title=_WORDS, inside=st.booleans(), declared=st.booleans())
def test_the_warning_needs_a_named_folder_and_a_place_outside_it(
        tmp_path_factory, top, folder, title, inside, declared):
    manifest = {"name": "kit", **({"skills": "./skills"} if declared else {})}
    where = ("skills", folder) if inside else (f"{top}x", folder)
    text = f"---\nname: \"{title.title()} Notes\"\ndescription: Notes about {title}.\n---\n\nBody.\n"
    skill = _plugin(tmp_path_factory.mktemp("p"), manifest, where, text)
    relaxed = declared and not inside
    assert (_all_severe(skill, ("SF108", "SF110")) == []) == relaxed
