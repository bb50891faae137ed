"""The two commands: `skillforge export harbor` and `skillforge import harbor`, then
`skillforge report` on the imported run, unchanged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from skillforge.cli.export import export
from skillforge.cli.import_harbor import harbor as import_harbor
from skillforge.cli.report import report
from skillforge.harbor.manifest import load_manifest
from skillforge.harbor.task_model import load_task_toml
from tests.harbor.conftest import CSV
from tests.harbor.jobs import write_job
from tests.harbor.scenario import CASES, scenario_specs
from tests.harbor.test_export import SUPPORT
from tests.harbor.test_import import add_unusable_trials


def skill_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "skills" / "csv-insights"
    shutil.copytree(CSV, dest)
    return dest


def test_export_takes_the_trial_options(tmp_path):
    skill = skill_copy(tmp_path)
    out = tmp_path / "ds"
    result = CliRunner().invoke(export, [
        "harbor", str(skill / "SKILL.md"), "-o", str(out), "--cases", "monthly-revenue",
        "--cases", "order-stats,missing-values", "--conditions", "baseline,with_skill",
        "-k", "2", "--image", "debian-py:12", "--network", "--timeout", "300", "--cpus", "2",
        "--memory-mb", "1024", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert len(doc["tasks"]) == 6 and doc["ungraded"] == []
    manifest = load_manifest(out)
    assert manifest.spec.case_ids == ["monthly-revenue", "order-stats", "missing-values"]
    assert manifest.spec.conditions == ["baseline", "with_skill"]
    assert manifest.spec.attempts == 2 and manifest.spec.network
    toml = load_task_toml(out / "csv-insights__order-stats__baseline" / "task.toml")
    assert (toml.environment.cpus, toml.environment.memory_mb) == (2, 1024)
    assert toml.agent.timeout_sec == 300 and toml.agent.network_mode is None
    dockerfile = (out / "csv-insights__order-stats__baseline" / "environment" / "Dockerfile")
    assert "FROM debian-py:12" in dockerfile.read_text()
    assert "-k 2 -n 4" in (out / "README.md").read_text()


def test_export_text_output_says_what_to_run_next(tmp_path, monkeypatch):
    skill = skill_copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(export, ["harbor", str(skill), "-o", "ds", "--cases",
                                         "order-stats", "--support-skill", SUPPORT])
    assert result.exit_code == 0, result.output
    assert "note: support/decoy skills given: using --workspace group" in result.output
    assert "wrote Harbor dataset ds/ for csv-insights: 2 tasks" in result.output
    assert "export HARBOR_TELEMETRY=0" in result.output
    assert "harbor run -p ds -e docker -a nop -k 1 -n 4" in result.output
    assert "harbor run -p ds -e docker -a <agent> -m <model> -k 3 -n 4" in result.output
    assert "warning: Harbor's docker environment cannot enforce no-network" in result.stderr
    assert "skillforge import harbor jobs/<job name> --dataset ds" in result.output
    assert load_manifest(tmp_path / "ds").spec.workspace == "group"


def test_export_bad_input_exits_2_with_the_reason(tmp_path):
    skill = skill_copy(tmp_path)
    runner = CliRunner()
    bad = runner.invoke(export, ["harbor", str(skill), "-o", str(tmp_path / "a"),
                                 "--conditions", "with_skill,without"])
    assert bad.exit_code == 2 and "without: use with_skill, baseline" in bad.output
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("x")
    taken = runner.invoke(export, ["harbor", str(skill), "-o", str(tmp_path / "mine")])
    assert taken.exit_code == 2 and "not an earlier `skillforge export harbor`" in taken.output
    unknown = runner.invoke(export, ["harbor", str(skill), "-o", str(tmp_path / "b"),
                                     "--cases", "nope"])
    assert unknown.exit_code == 2 and "no case 'nope'" in unknown.output


def test_import_then_report_on_the_imported_run(export_csv, tmp_path):
    exported = export_csv(case_ids=CASES, attempts=2)
    job = write_job(tmp_path / "jobs" / "cli-job", Path(exported.dataset_dir),
                    scenario_specs(exported), attempts=2)
    state = tmp_path / "state"
    runner = CliRunner()
    clean = runner.invoke(import_harbor, [str(job), "--state-dir", str(state), "--format",
                                          "json"])
    assert clean.exit_code == 0, clean.output
    doc = json.loads(clean.output)
    run_id = doc["runs"][0]["run_id"]
    assert doc["runs"][0]["statuses"] == {"ok": 6, "timeout": 1, "error": 1}
    assert doc["skipped"] == [] and doc["skipped_reasons"] == {}

    add_unusable_trials(job, Path(exported.dataset_dir))
    again = runner.invoke(import_harbor, [str(job), "--state-dir", str(state)])
    assert again.exit_code == 1, again.output  # some trial folders were skipped
    assert f"run {run_id}: csv-insights · terminus-2 / openai/gpt-4o · 8 trials" in again.output
    assert "replaced an earlier import" in again.output
    assert "skipped 3 trial folder(s)" in again.output
    assert f"next: skillforge report {run_id}" in again.output

    lift = runner.invoke(report, [run_id, "--format", "json", "--state-dir", str(state)])
    assert lift.exit_code == 0, lift.output
    data = json.loads(lift.output)
    assert data["run_id"] == run_id and data["n_cases"] == 2
    assert data["pass"]["with"] == 0.75 and data["pass"]["base"] == 0.25
    assert data["inventory"] == {"trials": 8, "ok": 6, "error": 1, "timeout": 1,
                                 "missing_pairs": 0}
    assert "skill_execution" not in data["metrics"]
    assert data["extra"]["use"]["metrics"]["skill_execution"] == {"with": 1.0, "base": 0.5}


def test_import_without_a_dataset_exits_2(export_csv, tmp_path):
    exported = export_csv(case_ids=CASES, attempts=2)
    job = write_job(tmp_path / "jobs" / "lost", Path(exported.dataset_dir),
                    scenario_specs(exported)[:2], attempts=2)
    shutil.rmtree(exported.dataset_dir)
    result = CliRunner().invoke(import_harbor, [str(job), "--state-dir",
                                                str(tmp_path / "state")])
    assert result.exit_code == 2
    assert "pass the folder `skillforge export harbor` wrote with --dataset DIR" in result.output
