"""Frontmatter fixes: given a skill with the defect, the diff, then the rule quiet and every
other line (comments and quoting included) exactly as it was."""

from __future__ import annotations

from pathlib import Path

from linters.fixes.frontmatter_values import MAX_DESCRIPTION, shorten
from skillforge.models.skill import load_skill
from tests.linters.fix_helpers import (
    FIX_FIXTURES,
    copy_skill,
    failing_fixture,
    fired,
    fix_rule,
    fixes_of,
)


def test_sf104_quotes_the_value_a_colon_breaks(tmp_path: Path):
    skill = failing_fixture("SF104", tmp_path)
    before = (skill / "SKILL.md").read_text()
    (fix,) = fixes_of(skill, "SF104")
    assert fix.safety == "safe"
    plan = fix_rule(skill, "SF104")
    diff = plan.diff()
    assert "-description: Checks invoices: adds up" in diff
    assert '+description: "Checks invoices: adds up line items' in diff
    after = (skill / "SKILL.md").read_text()
    assert not fired(skill, "SF104")
    assert load_skill(skill).description.startswith("Checks invoices: adds up line items")
    assert before.splitlines()[3:] == after.splitlines()[3:]  # the body is untouched


def test_sf104_joins_continuation_lines_and_escapes_quotes(tmp_path: Path):
    skill = copy_skill(FIX_FIXTURES / "SF112" / "keyword-research", tmp_path)
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace(
        "description: >-\n  Finds keywords",
        'description: Finds "seed" keywords: a list\n  Finds keywords', 1))
    assert fired(skill, "SF104")
    fix_rule(skill, "SF104")
    assert not fired(skill, "SF104")
    desc = load_skill(skill).description
    assert desc.startswith('Finds "seed" keywords: a list Finds keywords worth targeting')
    assert "# same as the folder" in md.read_text()


def test_sf104_fix_that_would_not_parse_is_refused_and_nothing_is_written(tmp_path: Path):
    from linters.fixes.apply import plan_fixes

    skill = failing_fixture("SF104", tmp_path)
    md = skill / "SKILL.md"
    # A second error after the one the fix quotes: the quoted frontmatter still fails.
    md.write_text(md.read_text().replace("---\n\n# Invoice", "tags: [unclosed\n---\n\n# Invoice", 1))
    before = md.read_bytes()
    fixes = fixes_of(skill, "SF104")
    plan = plan_fixes(load_skill(skill), fixes)
    assert fixes and not plan.applied and not plan.changes
    (why,) = [w for _f, w in plan.refused]
    assert "SKILL.md would not parse after this fix" in why
    assert md.read_bytes() == before


def test_sf112_moves_unknown_scalar_keys_under_metadata_keeping_comments(tmp_path: Path):
    skill = copy_skill(FIX_FIXTURES / "SF112" / "keyword-research", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    assert {f.line for f in fired(skill, "SF112")} == {7, 8}
    plan = fix_rule(skill, "SF112")  # both keys touch SKILL.md: one per plan
    assert len(plan.applied) == 1 and "already changed by another fix" in plan.refused[0][1]
    assert "+metadata:\n+  category: seo" in plan.diff()
    fix_rule(skill, "SF112")  # the second round
    after = md.read_text()
    assert not fired(skill, "SF112")
    meta = load_skill(skill).frontmatter.get("metadata")
    assert dict(meta) == {"category": "seo", "revision": "2.0"}  # the number's text, as a string
    # Everything else, comments and quoting included, is as it was, in the same order.
    kept = [ln for ln in before.splitlines() if not ln.startswith(("category:", "revision:"))]
    moved = ("metadata:", "  category: seo        # where the catalogue lists it",
             "  revision: '2.0'")
    assert [ln for ln in after.splitlines() if ln not in moved] == kept
    assert all(ln in after.splitlines() for ln in moved)  # the comment went with its key


def test_sf112_leaves_claude_code_keys_and_nested_values(tmp_path: Path):
    skill = failing_fixture("SF112", tmp_path)  # `requires:` holds a nested mapping
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("category: seo\n", "category: seo\nmodel: haiku\n"))
    titles = [f.title for f in fixes_of(skill, "SF112")]
    assert titles == ["Move `category` under `metadata:`"]


def test_sf110_sets_name_to_the_folder_name_unsafe(tmp_path: Path):
    skill = failing_fixture("SF110", tmp_path)
    (fix,) = fixes_of(skill, "SF110")
    assert fix.safety == "unsafe"
    before = (skill / "SKILL.md").read_text()
    plan = fix_rule(skill, "SF110")
    assert "-name: youtube-downloader\n+name: video-downloader" in plan.diff()
    assert not fired(skill, "SF110")
    after = (skill / "SKILL.md").read_text()
    assert before.replace("name: youtube-downloader", "name: video-downloader") == after


def test_sf111_shortens_at_sentence_boundaries_keeping_when_to_use(tmp_path: Path):
    skill = failing_fixture("SF111", tmp_path)
    old = load_skill(skill).description
    (fix,) = fixes_of(skill, "SF111")
    assert fix.safety == "unsafe"
    fix_rule(skill, "SF111")
    assert not fired(skill, "SF111")
    new = load_skill(skill).description
    assert len(new) <= MAX_DESCRIPTION and new.endswith(".")
    assert "Use when the user asks" in new
    # Only whole sentences of the old description, in their order.
    assert all(s.strip() in " ".join(old.split()) for s in new.split(". ") if s)
    assert (skill / "SKILL.md").read_text().splitlines()[:3] == [
        "---", "name: database-lookup", "description: >-"]


def test_shorten_is_deterministic_and_keeps_the_first_and_when_sentences():
    text = "Does A. " + "Filler sentence here. " * 60 + "Use when the user asks for A."
    short = shorten(text, 200)
    assert short == shorten(text, 200)
    assert short.startswith("Does A.") and short.endswith("Use when the user asks for A.")
    assert len(short) <= 200
    assert shorten("x" * 300 + ".", 200) is None  # no sentence boundary in reach: no fix
