"""Reliability rules on a skill's evals (SF313-SF316): present, enough cases, parseable,
and naming files that exist.
"""

from __future__ import annotations

import json

from tests.conftest import ROOT
from tests.linters.reliability_skill import fired, make_skill

# --- SF313-SF316 --------------------------------------------------------------------------

def evals_file(cases: list[dict] | dict) -> dict[str, str]:
    data = cases if isinstance(cases, dict) else {"skill_name": "csv-insights", "evals": cases}
    return {"evals/evals.json": json.dumps(data, indent=2)}


def test_sf313_no_evals(tmp_path):
    assert len(fired(make_skill(tmp_path, "# CSV\n"), "SF313")) == 1


def test_sf313_accepts_cases_kept_in_another_runners_format(tmp_path):
    kept = {"waza": {"evals/eval.yaml": "skill: csv-insights\ntasks: [tasks/*.yaml]\n"},
            "plugin-eval": {"evals/monthly/prompt.md": "---\nname: monthly\n---\nSum it.\n"},
            "case-yaml": {"evals/monthly/case.yaml": "execution: {prompt: Sum it.}\n"}}
    for name, files in kept.items():
        assert fired(make_skill(tmp_path / name, "# CSV\n", files), "SF313") == [], name
    stray = {"evals/notes/readme.md": "not a case"}
    assert len(fired(make_skill(tmp_path / "stray", "# CSV\n", stray), "SF313")) == 1


def test_sf314_counts_cases_as_written_including_skill_creator_files(tmp_path):
    cases = [{"id": i, "prompt": f"question {i}", "expected_output": "x"} for i in range(3)]
    assert fired(make_skill(tmp_path / "a", "# CSV\n", evals_file(cases)), "SF314") == []
    [few] = fired(make_skill(tmp_path / "b", "# CSV\n", evals_file(cases[:1])), "SF314")
    assert "has 1 case;" in few.message


def test_sf315_reports_syntax_errors_with_their_line(tmp_path):
    broken = '{\n  "evals": [\n    {"id": 1,}\n  ]\n}\n'
    skill = make_skill(tmp_path, "# CSV\n", {"evals/evals.json": broken})
    [finding] = fired(skill, "SF315")
    assert finding.path == "evals/evals.json" and finding.line == 3
    assert finding.message.endswith(".")


def test_sf316_checks_scripts_files_and_grader_paths(tmp_path):
    cases = [
        {"id": "a", "prompt": "p", "files": ["evals/files/in.csv", "./evals/files/extra.csv"],
         "expected_script": "scripts/summarize.py", "grader": "python evals/graders/check.py"},
        {"id": "b", "prompt": "p", "files": ["evals/files/in.csv"]},
    ]
    files = {**evals_file(cases), "scripts/summarize.py": "print(1)\n", "evals/files/in.csv": "a\n"}
    found = fired(make_skill(tmp_path, "# CSV\n", files), "SF316")
    assert sorted(f.message.split(" name")[0] for f in found) == ["Eval case 'a'", "Eval case 'a'"]
    assert any("extra.csv" in f.message for f in found)
    assert any("evals/graders/check.py" in f.message for f in found)


# --- formats met in the wild (tests/evals/fixtures) -----------------------------------------

WILD = ROOT / "tests" / "evals" / "fixtures"
INPUTS = {"evals/files/sales.csv": "order_id,revenue\n1,39.90\n",
          "evals/files/customers.csv": "id,email\n1,\n"}


def wild_skill(tmp_path, fixture: str, **files: str):
    evals = {"evals/evals.json": (WILD / fixture).read_text()}
    return make_skill(tmp_path, "# CSV\n", {**evals, **INPUTS, **files})


def test_sf316_finds_a_bare_script_name_in_the_scripts_folder(tmp_path):
    # NVIDIA SkillEvaluator files write "expected_script": "summarize.py".
    skill = wild_skill(tmp_path, "nvidia_skill_evaluator.json",
                       **{"scripts/summarize.py": "print(1)\n"})
    assert fired(skill, "SF316") == []


def test_sf316_says_where_it_looked_for_a_bare_script_name(tmp_path):
    skill = wild_skill(tmp_path, "nvidia_skill_evaluator.json")
    [finding] = fired(skill, "SF316")
    assert "Eval cases 'revenue-by-region', 'missing-emails' name expected_script " \
           "'summarize.py'" in finding.message
    assert "(looked for summarize.py and scripts/summarize.py)" in finding.message


def test_sf315_warns_of_a_misspelt_key_at_its_line(tmp_path):
    skill = wild_skill(tmp_path, "skill_creator_typo.json")
    [finding] = fired(skill, "SF315")
    assert finding.severity == "warning" and finding.line == 7
    assert "'expected_ouput'" in finding.message and "'expected_output'?" in finding.message


def test_sf315_rejects_a_string_where_a_list_belongs(tmp_path):
    # Valid JSON of another shape: skillforge cannot run it as written, but it is the
    # author's format, not a broken file (issue 36): a warning at each place.
    skill = wild_skill(tmp_path, "string_lists.json")
    found = fired(skill, "SF315")
    assert [(f.severity, f.line) for f in found] == [("warning", 8), ("warning", 16)]
    assert 'write "files": ["evals/files/sales.csv"]' in found[0].message


def test_sf315_is_an_error_when_the_file_is_not_json(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n", {"evals/evals.json": '{"skill_name": "csv",\n'
                                              '  "evals": [{"id": 1, "prompt": "x"},]\n'})
    found = fired(skill, "SF315")
    assert found and all(f.severity == "error" for f in found)
