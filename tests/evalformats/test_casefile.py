"""Cases kept as waza, vally or plugin-eval files, edited and saved in place: the format and
layout stay, unchanged files stay byte-identical, and a file changed on disk is not overwritten."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.evalformats.casefile import CaseFile, open_cases
from skillforge.models.evals_io import ConflictError, EvalsFile, set_field
from tests.evalformats.test_readers import FIXTURES


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def skill(tmp_path):
    """A skill whose evals/ holds the plugin-eval fixture's case folders."""
    root = tmp_path / "demo"
    shutil.copytree(FIXTURES / "cc-plugin-eval", root)
    (root / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n# Demo\n")
    return root


def test_open_cases_finds_the_format_and_a_no_op_save_changes_nothing(skill, tmp_path):
    cf = open_cases(skill)
    assert isinstance(cf, CaseFile) and cf.fmt == "cc-plugin-eval" and cf.issues == []
    before = snapshot(skill)
    cf.save()
    assert snapshot(skill) == before
    waza = tmp_path / "w"
    shutil.copytree(FIXTURES / "waza", waza / "evals")
    cf = open_cases(waza)
    before = snapshot(waza)
    cf.save()
    assert cf.fmt == "waza" and snapshot(waza) == before  # its comment and task glob stay
    vally = tmp_path / "v"
    shutil.copytree(FIXTURES / "vally", vally / "evals")
    cf = open_cases(vally)
    before = snapshot(vally)
    cf.save()
    assert cf.fmt == "vally" and snapshot(vally) == before


def test_an_edit_rewrites_only_its_file_in_its_own_layout(skill):
    cf = open_cases(skill)
    before = snapshot(skill)
    set_field(cf.evalset.case("no-trigger"), "prompt", "Turn sales.csv into JSON Lines.")
    set_field(cf.evalset.case("monthly-revenue"), "notes", "Totals per month.")
    cf.save()
    after = snapshot(skill)
    changed = {k for k in after if after[k] != before.get(k)}
    assert changed == {"evals/no-trigger/case.yaml", "evals/monthly-revenue/prompt.md"}
    assert set(after) == set(before)  # still case.yaml, still prompt.md + graders/*.md
    again = CaseFile.load(skill / "evals")
    assert again.evalset.case("no-trigger").prompt == "Turn sales.csv into JSON Lines."
    assert again.evalset.case("no-trigger").is_negative
    assert again.evalset.case("monthly-revenue").notes == "Totals per month."


def test_a_deleted_case_loses_only_the_files_that_were_read(skill):
    (skill / "evals" / "no-trigger" / "notes.txt").write_text("the author's own")
    cf = open_cases(skill)
    cf.evalset.cases = [c for c in cf.evalset.cases if c.id != "no-trigger"]
    cf.save()
    assert sorted(p.name for p in (skill / "evals" / "no-trigger").iterdir()) == ["notes.txt"]
    cf = open_cases(skill)
    cf.evalset.cases = [c for c in cf.evalset.cases if c.id != "monthly-revenue"]
    cf.save()
    assert not (skill / "evals" / "monthly-revenue").exists()


def test_a_file_changed_on_disk_is_not_overwritten(skill):
    cf = open_cases(skill)
    grader = skill / "evals" / "monthly-revenue" / "graders" / "table.md"
    grader.write_text("---\ntype: llm\n---\nSomeone else's criteria.\n")
    assert cf.changed_on_disk()
    set_field(cf.evalset.case("no-trigger"), "prompt", "Mine.")
    with pytest.raises(ConflictError):
        cf.save()
    assert "Someone else's" in grader.read_text()
    cf.save(overwrite=True)
    assert "Someone else's" not in grader.read_text()


def test_vally_stays_vally_and_evals_json_stays_evals_file(tmp_path):
    root = tmp_path / "v"
    shutil.copytree(FIXTURES / "vally", root / "evals")
    cf = open_cases(root)
    assert cf.fmt == "vally"
    set_field(cf.evalset.case("convert-jsonl"), "prompt", "To JSON Lines, please.")
    cf.save()
    text = (root / "evals" / "eval.yaml").read_text()
    assert "stimuli:" in text and "To JSON Lines, please." in text
    assert not (root / "evals" / "evals.json").exists()
    assert type(open_cases(FIXTURES.parents[2] / "sample_skills" / "csv-insights")) is EvalsFile
