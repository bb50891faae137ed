"""Reliability rules on a skill's evals (SF313-SF316): present, enough cases, parseable,
and naming files that exist.
"""

from __future__ import annotations

import json

from tests.linters.reliability_skill import fired, make_skill

# --- SF313-SF316 --------------------------------------------------------------------------

def evals_file(cases: list[dict] | dict) -> dict[str, str]:
    data = cases if isinstance(cases, dict) else {"skill_name": "csv-insights", "evals": cases}
    return {"evals/evals.json": json.dumps(data, indent=2)}


def test_sf313_no_evals(tmp_path):
    assert len(fired(make_skill(tmp_path, "# CSV\n"), "SF313")) == 1


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
