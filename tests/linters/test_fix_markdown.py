"""Markdown fixes: SF403's table of contents, SF116's link to the file under another case or
folder."""

from __future__ import annotations

from pathlib import Path

from linters.fixes.toc import anchor
from skillforge.models.lint_config import LintConfig
from skillforge.workspace.fixing import fix_skill, write_plan
from tests.conftest import RULE_FIXTURES
from tests.linters.fix_helpers import FIX_FIXTURES, copy_skill, failing_fixture, fired, fix_rule, fixes_of


def test_sf403_adds_contents_from_the_files_own_headings(tmp_path: Path):
    skill = failing_fixture("SF403", tmp_path)
    ref = skill / "references" / "endpoints.md"
    before = ref.read_text()
    (fix,) = fixes_of(skill, "SF403")
    assert fix.safety == "safe"
    plan = fix_rule(skill, "SF403")
    assert "+## Contents\n+\n+- [GET /v1/forecast](#get-v1forecast)\n" in plan.diff()
    assert not fired(skill, "SF403")
    # The result is the rule's own passing fixture, byte for byte; nothing else moved.
    passing = RULE_FIXTURES / "SF403" / "pass" / "weather-api" / "references" / "endpoints.md"
    assert ref.read_text() == passing.read_text()
    after = ref.read_text().splitlines()
    assert after[:4] + after[14:] == before.splitlines()  # ten lines inserted, none changed


def test_anchor_is_githubs():
    seen: dict[str, int] = {}
    assert anchor("DELETE /v1/subscriptions/{id}", seen) == "delete-v1subscriptionsid"
    assert anchor("Use `rate_limit` **well**", seen) == "use-rate_limit-well"
    assert [anchor("Errors", seen), anchor("Errors", seen)] == ["errors", "errors-1"]


def test_sf116_links_to_the_file_under_another_case_and_folder(tmp_path: Path):
    skill = copy_skill(FIX_FIXTURES / "SF116" / "grant-deadlines", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    titles = sorted(f.title for f in fixes_of(skill, "SF116"))
    assert titles == ["Link to `references/Grants-API.md` instead of `references/grants-api.md`",
                      "Link to `references/forms.md` instead of `forms.md`"]
    # Both edit SKILL.md, on lines of their own: fix_skill applies them in one plan.
    outcome = fix_skill(skill, LintConfig(scripts=False))
    assert len(outcome.applied) == 2 and not outcome.refused
    diff = outcome.plan.diff()
    assert "+1. Read [the API reference](references/Grants-API.md) for the query parameters." in diff
    assert "+4. Draft the application as [the form guide](references/forms.md) shows." in diff
    assert md.read_text() == before  # planned in a scratch copy: nothing written yet
    write_plan(skill, outcome.plan, "test")
    assert not fired(skill, "SF116")
    after = md.read_text()
    assert before.replace("references/grants-api.md", "references/Grants-API.md").replace(
        "(forms.md)", "(references/forms.md)") == after


def test_sf116_no_fix_when_no_single_file_matches(tmp_path: Path):
    skill = failing_fixture("SF116", tmp_path)  # links grants-api.md; only api.md exists
    assert fired(skill, "SF116") and fixes_of(skill, "SF116") == []
