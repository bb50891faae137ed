"""`skillforge evals convert` as a user types it, and `skillforge trial` on a skill whose cases
are kept in another runner's format."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from skillforge.cli import main
from skillforge.evalformats import registry
from tests.conftest import SAMPLE_SKILLS
from tests.evalformats.test_readers import FIXTURES

CSV = SAMPLE_SKILLS / "csv-insights"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="skillforge")


def test_convert_lists_what_is_not_carried_per_case_and_field(tmp_path):
    out = tmp_path / "cc"
    res = invoke("evals", "convert", str(CSV), "--to", "cc-plugin-eval", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "6 case(s) from skillforge written as cc-plugin-eval" in res.output
    assert "case monthly-revenue: files: plugin-eval cases have no input files" in res.output
    assert "case csv-field-limit: grader: plugin-eval runs no command" in res.output
    assert "case csv-field-limit: files" not in res.output  # it has none
    assert (out / "monthly-revenue" / "prompt.md").is_file()
    assert registry.detect(out) == "cc-plugin-eval"


def test_convert_json_report_and_back_again(tmp_path):
    res = invoke("evals", "convert", str(FIXTURES / "waza"), "--to", "skillforge", "-o",
                 str(tmp_path / "sf" / "evals.json"), "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["source_format"] == "waza" and doc["cases"] == 2
    assert {"case": "monthly-revenue", "field": "tags", "reason": "no skillforge field"} \
        not in doc["not_carried"]  # skillforge keeps unknown fields
    back = invoke("evals", "convert", str(tmp_path / "sf" / "evals.json"), "--to", "waza",
                  "-o", str(tmp_path / "waza"))
    assert back.exit_code == 0, back.output
    again = registry.read(tmp_path / "waza").evalset
    assert again.case("monthly-revenue").extra["waza_graders"][0]["type"] == "code"


def test_convert_refuses_a_non_empty_output_and_unreadable_input(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("mine")
    res = invoke("evals", "convert", str(CSV), "--to", "waza", "-o", str(tmp_path / "taken"))
    assert res.exit_code == 2 and "not empty" in res.output
    assert (tmp_path / "taken" / "x").read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()
    res = invoke("evals", "convert", str(empty), "--to", "waza", "-o", str(tmp_path / "o"))
    assert res.exit_code == 2 and "no eval cases found" in res.output
    assert not (tmp_path / "o").exists()


def test_help_names_the_formats():
    res = invoke("evals", "convert", "--help")
    assert res.exit_code == 0
    for fmt in ("cc-plugin-eval", "waza", "vally", "skill-creator", "nvidia", "skillforge"):
        assert fmt in res.output
    assert "convert" in invoke("evals", "--help").output


def test_trial_dry_run_reads_plugin_eval_cases(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(CSV, skill)
    (skill / "evals" / "evals.json").unlink()
    res = invoke("evals", "convert", str(CSV), "--to", "cc-plugin-eval", "-o",
                 str(skill / "evals" / "cases"))
    assert res.exit_code == 0, res.output
    for case in (skill / "evals" / "cases").iterdir():
        case.rename(skill / "evals" / case.name)
    res = invoke("trial", str(skill), "--dry-run", "--state-dir", str(tmp_path / "state"),
                 "--cases", "monthly-revenue,convert-to-jsonl", "--attempts", "1",
                 "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["trials"] == 2 * 2


def test_trial_on_a_folder_without_cases_names_every_place_looked(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(CSV, skill)
    (skill / "evals" / "evals.json").unlink()
    res = invoke("trial", str(skill), "--dry-run", "--state-dir", str(tmp_path / "state"))
    assert res.exit_code == 2 and "plugin-eval folders under evals/" in res.output
