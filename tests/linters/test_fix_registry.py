"""The catalogue and the fixers agree on which rules can fix, and plans stay sound."""

from __future__ import annotations

from pathlib import Path

from linters.fixes import finding_key, fixable_rules, fixes_for
from linters.fixes.apply import plan_fixes
from linters.fixes.registry import fixers
from linters.registry import catalogue
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import load_skill
from tests.linters.fix_helpers import failing_fixture, fired


def test_catalogue_fix_field_matches_the_registered_fixers():
    marked = {rid: r.fix for rid, r in catalogue().items() if r.fix}
    assert set(marked) == fixable_rules()
    assert set(marked.values()) <= {"safe", "unsafe"}
    assert all(catalogue()[rid].fix_summary for rid in marked)
    assert {"SF104", "SF110", "SF111", "SF112", "SF116", "SF118", "SF403", "SF405"} <= set(fixers())


def test_each_fixer_offers_the_safety_its_catalogue_entry_states(tmp_path: Path):
    for rid in sorted(fixable_rules() - {"SF116"}):  # SF116's failing fixture has no match
        skill_dir = failing_fixture(rid, tmp_path / rid)
        found = fixes_for(load_skill(skill_dir), fired(skill_dir, rid))
        assert found, f"{rid}: no fix for its failing fixture"
        for key, fixes in found.items():
            assert key[0] == rid
            assert {f.safety for f in fixes} == {catalogue()[rid].fix}


def test_fixes_for_keys_by_finding(tmp_path: Path):
    skill_dir = failing_fixture("SF405", tmp_path)
    findings = fired(skill_dir, "SF405")
    found = fixes_for(load_skill(skill_dir), findings)
    assert set(found) == {finding_key(f) for f in findings}


def test_overlapping_and_out_of_range_edits_are_refused(tmp_path: Path):
    skill_dir = failing_fixture("SF110", tmp_path)
    skill = load_skill(skill_dir)
    a = Fix(rule="SF110", title="a", safety="safe",
            edits=(TextEdit(path="SKILL.md", start_line=1, start_col=0, end_line=1, end_col=4, new_text="x"),
                   TextEdit(path="SKILL.md", start_line=1, start_col=2, end_line=1, end_col=6, new_text="y")))
    b = Fix(rule="SF110", title="b", safety="safe",
            edits=(TextEdit(path="SKILL.md", start_line=999, start_col=0, end_line=999, end_col=0, new_text="z"),))
    plan = plan_fixes(skill, [a, b])
    assert not plan.applied and not plan.changes
    (why_a, why_b) = [why for _f, why in plan.refused]
    assert why_a == "SKILL.md: two edits overlap"
    assert why_b.startswith("SKILL.md: line 1000 is past the end of the file")
