"""Evals files met in the wild: NVIDIA SkillEvaluator's negatives and bare script names,
skill-creator files with a misspelt key, and strings where a list belongs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.evals import (
    EvalsFile,
    dumps_evals,
    expected_script_paths,
    load_evals,
    new_case,
    parse_evals,
    set_field,
)

FIXTURES = Path(__file__).parent / "fixtures"
NVIDIA = FIXTURES / "nvidia_skill_evaluator.json"
TYPO = FIXTURES / "skill_creator_typo.json"
STRING_LISTS = FIXTURES / "string_lists.json"


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# --- NVIDIA SkillEvaluator ------------------------------------------------------------------

def test_nvidia_negatives_need_no_kind():
    evalset, issues = load_evals(NVIDIA)

    assert issues == [] and evalset.warnings == []
    kinds = {c.id: (c.is_negative, c.effective_kind) for c in evalset.cases}
    assert kinds == {
        "revenue-by-region": (False, "explicit"),
        "missing-emails": (False, "explicit"),
        "regex-help": (True, "negative"),  # "expected_skill": null
        "xlsx-chart": (True, "negative"),  # "should_trigger": false
    }


def test_leaving_expected_skill_out_is_still_a_positive_case():
    # skill-creator files never name the skill: absent is not null.
    evalset, _ = load_evals(TYPO)
    assert not any(c.is_negative for c in evalset.cases)


def test_should_trigger_true_outweighs_a_null_expected_skill():
    case = new_case("x", "Summarise sales.csv", expected_skill=None, should_trigger=True)
    case.field_names["expected_skill"] = "expected_skill"
    assert not case.is_negative


def test_kind_decides_and_a_disagreeing_should_trigger_is_a_warning():
    text = NVIDIA.read_text().replace('"should_trigger": false',
                                      '"kind": "implicit",\n      "should_trigger": false')
    evalset, issues = parse_evals(text)

    assert issues == []
    assert evalset.case("xlsx-chart").effective_kind == "implicit"
    [warning] = evalset.warnings
    assert warning.pointer == "/evals/3/should_trigger"
    assert "kind 'implicit' and should_trigger false disagree" in warning.message


def test_should_trigger_must_be_a_boolean():
    evalset, [issue] = parse_evals(NVIDIA.read_text().replace('"should_trigger": false',
                                                              '"should_trigger": "no"'))
    assert issue.pointer == "/evals/3/should_trigger" and "true, false or null" in issue.message
    assert evalset.case("xlsx-chart") is None


def test_should_trigger_survives_an_edit(tmp_path):
    path = Path(shutil.copy(NVIDIA, tmp_path / "evals.json"))
    f = EvalsFile.load(path)
    set_field(f.evalset.case("xlsx-chart"), "prompt", "Chart budget.xlsx for me.")
    f.save()

    again, _ = load_evals(path)
    assert again.case("xlsx-chart").should_trigger is False and again.case("xlsx-chart").is_negative
    assert '"question": "Chart budget.xlsx for me."' in path.read_text()


@pytest.mark.parametrize(("declared", "paths"), [
    ("calc.py", ("calc.py", "scripts/calc.py")),
    ("scripts/calc.py", ("scripts/calc.py",)),
    ("tools/calc.py", ("tools/calc.py",)),
])
def test_a_bare_script_name_also_names_the_scripts_folder(declared, paths):
    assert expected_script_paths(declared) == paths


# --- misspelt keys --------------------------------------------------------------------------

def test_a_misspelt_key_is_a_warning_naming_the_nearest_known_key():
    evalset, issues = load_evals(TYPO)

    assert issues == []
    [warning] = evalset.warnings
    assert warning.pointer == "/evals/0/expected_ouput"
    assert warning.line == line_of(TYPO, '"expected_ouput"')
    assert "unknown key 'expected_ouput'" in warning.message
    assert "did you mean 'expected_output'?" in warning.message
    # Kept as written, and the file still round-trips byte for byte.
    assert evalset.cases[0].ground_truth is None
    assert evalset.cases[0].extra["expected_ouput"].startswith("Jul")
    assert dumps_evals(evalset) == TYPO.read_text()


def test_extra_fields_unlike_any_known_key_are_not_flagged():
    # ACES keeps difficulty, tags and source beside each case on purpose.
    evalset, issues = load_evals(FIXTURES / "aces.json")
    assert issues == [] and evalset.warnings == []


# --- strings where a list belongs -----------------------------------------------------------

def test_a_string_where_a_list_belongs_is_an_error_with_line_and_fix():
    evalset, issues = load_evals(STRING_LISTS)

    assert [(i.pointer, i.line) for i in issues] == [
        ("/evals/0/files", line_of(STRING_LISTS, '"files": "evals')),
        ("/evals/1/expectations", line_of(STRING_LISTS, '"expectations": "Names')),
    ]
    assert issues[0].message == (
        "case 1: 'files' is a string but must be a list of strings; write "
        '"files": ["evals/files/sales.csv"]')
    assert 'write "expectations": ["Names email and phone"]' in issues[1].message
    assert [c.id for c in evalset.cases] == [3]  # not silently read as one-item lists


def test_a_set_with_such_a_case_is_not_saved_over_the_authors_file(tmp_path):
    path = Path(shutil.copy(STRING_LISTS, tmp_path / "evals.json"))
    before = path.read_bytes()
    f = EvalsFile.load(path)
    with pytest.raises(ValueError, match="could not be read"):
        f.save()
    assert path.read_bytes() == before
