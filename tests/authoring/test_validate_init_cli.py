"""`skillforge evals validate` and `skillforge evals init`: exit codes and what they say."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from skillforge.authoring.scaffold import evals_template
from tests.conftest import ROOT


def test_a_valid_file_exits_0_with_its_mix_of_kinds(aces_skill, evals_cli):
    run = evals_cli("validate", aces_skill)
    as_json = evals_cli("validate", aces_skill / "evals" / "evals.json", "--format", "json")

    assert run.exit_code == 0 and "valid — 6 case(s)" in run.stdout
    assert as_json.exit_code == 0
    doc = json.loads(as_json.stdout)
    assert doc["valid"] is True and doc["cases"] == 6 and doc["findings"] == []
    assert doc["kinds"] == {"explicit": 1, "implicit": 2, "contextual": 1, "negative": 2}


def test_skill_creator_files_without_kinds_count_as_explicit(skill, evals_cli):
    run = evals_cli("validate", skill / "SKILL.md", "--format", "json")
    assert run.exit_code == 0
    assert json.loads(run.stdout)["kinds"]["explicit"] == 3


def test_invalid_json_exits_1_with_the_line(aces_skill, evals_cli):
    (aces_skill / "evals" / "evals.json").write_text('{"evals": [\n  {"id": 1,}\n]}\n')

    run = evals_cli("validate", aces_skill)

    assert run.exit_code == 1
    assert "invalid" in run.stdout and "evals/evals.json:2" in run.stdout and "SF315" in run.stdout


def test_a_case_naming_a_missing_file_exits_1(aces_skill, evals_cli):
    evals = aces_skill / "evals" / "evals.json"
    evals.write_text(evals.read_text().replace("evals/files/customers.csv",
                                               "evals/files/clients.csv"))

    run = evals_cli("validate", aces_skill, "--format", "json")

    assert run.exit_code == 1
    [finding] = json.loads(run.stdout)["findings"]
    assert finding["rule"] == "SF316" and "clients.csv" in finding["message"]


def test_too_few_cases_is_advice_not_a_failure(aces_skill, evals_cli):
    evals = aces_skill / "evals" / "evals.json"
    data = json.loads(evals.read_text())
    data["evals"] = data["evals"][:2]
    evals.write_text(json.dumps(data, indent=2))

    run = evals_cli("validate", aces_skill, "--format", "json")

    assert run.exit_code == 0
    assert [f["rule"] for f in json.loads(run.stdout)["findings"]] == ["SF314"]


def test_a_missing_file_exits_1_and_init_writes_the_template_once(aces_skill, evals_cli):
    evals = aces_skill / "evals" / "evals.json"
    evals.unlink()

    missing = evals_cli("validate", aces_skill)
    created = evals_cli("init", aces_skill)
    valid = evals_cli("validate", aces_skill)
    evals.write_text(evals.read_text().replace("Use the csv insights", "My own words:"))
    mine = evals.read_bytes()
    again = evals_cli("init", aces_skill)

    assert missing.exit_code == 1 and "missing" in missing.stdout and "SF313" in missing.stdout
    assert "skillforge evals init" in missing.stdout  # SF313 tells users what to run
    assert created.exit_code == 0 and "created" in created.stdout
    assert valid.exit_code == 0
    assert json.loads(mine)["evals"][1:] == evals_template("csv-insights")["evals"][1:]
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert evals.read_bytes() == mine


def test_init_needs_a_skill_folder(tmp_path, evals_cli):
    (tmp_path / "empty").mkdir()
    run = evals_cli("init", tmp_path / "empty")
    nowhere = evals_cli("validate", tmp_path / "nope")
    assert run.exit_code == 2 and "has no SKILL.md" in run.stderr
    assert nowhere.exit_code == 2 and "no such file or folder" in nowhere.output
    assert not (tmp_path / "empty" / "evals").exists()


# --- validate FILE --------------------------------------------------------------------------

WILD = ROOT / "tests" / "evals" / "fixtures"


def test_validate_file_checks_that_file_not_the_skills_evals_json(aces_skill, evals_cli):
    smoke = Path(shutil.copy(WILD / "nvidia_skill_evaluator.json",
                             aces_skill / "evals" / "smoke.json"))

    run = evals_cli("validate", smoke, "--format", "json")

    assert run.exit_code == 0
    doc = json.loads(run.stdout)
    assert doc["evals_path"].endswith("evals/smoke.json") and doc["paths_checked"] is True
    assert doc["cases"] == 4 and doc["findings"] == []  # bare summarize.py is in scripts/
    assert doc["kinds"] == {"explicit": 2, "implicit": 0, "contextual": 0, "negative": 2}


def test_validate_file_warns_of_a_misspelt_key_and_stays_valid(aces_skill, evals_cli):
    typo = Path(shutil.copy(WILD / "skill_creator_typo.json", aces_skill / "evals" / "v2.json"))
    before = typo.read_bytes()

    run = evals_cli("validate", typo)

    assert run.exit_code == 0 and "valid — 3 case(s) (explicit 3)" in run.stdout
    assert "evals/v2.json:7" in run.stdout and "SF315 warning" in run.stdout
    assert "did you mean 'expected_output'?" in " ".join(run.stdout.split())
    assert typo.read_bytes() == before  # validate never rewrites the author's file


def test_validate_file_rejects_a_string_where_a_list_belongs(aces_skill, evals_cli):
    bad = Path(shutil.copy(WILD / "string_lists.json", aces_skill / "evals" / "v2.json"))

    run = evals_cli("validate", bad)

    assert run.exit_code == 1 and "evals/v2.json: invalid" in run.stdout
    assert "evals/v2.json:8" in run.stdout and "evals/v2.json:16" in run.stdout
    assert 'write "files": ["evals/files/sales.csv"]' in " ".join(run.stdout.split())


def test_validate_file_outside_a_skill_skips_only_the_path_checks(tmp_path, evals_cli):
    loose = Path(shutil.copy(WILD / "nvidia_skill_evaluator.json", tmp_path / "nvidia.json"))

    run = evals_cli("validate", loose)
    as_json = json.loads(evals_cli("validate", loose, "--format", "json").stdout)

    assert run.exit_code == 0 and "valid — 4 case(s)" in run.stdout
    assert "were not checked" in run.stdout
    assert as_json["path"] is None and as_json["paths_checked"] is False
