"""`skillforge import harbor`: a Harbor job folder (built by hand as Harbor writes one) into a
stored run whose lift report is right."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.harbor.importer import HarborImportError, import_harbor_job
from skillforge.harbor.results import HarborFileError, load_trial_result
from skillforge.lift.compute import lift_for_run
from tests.harbor.jobs import TrialSpec, trial_result_dict, write_job, write_trial_files
from tests.harbor.scenario import (
    BASELINE,
    CASES,
    WITH_SKILL,
    check_scenario,
    scenario_specs,
)


def add_unusable_trials(job: Path, dataset: Path) -> None:
    """Three folders a real job can hold that must be skipped, not fatal."""
    # A trial that never finished: Harbor writes result.json last.
    write_trial_files(job / "monthly-revenue__with_skill__dead000", TrialSpec(
        "csv-insights/monthly-revenue__with_skill", str(dataset), 200))
    # A result.json cut short (disk full, killed process).
    broken = job / "monthly-revenue__baseline__trunc00"
    broken.mkdir()
    (broken / "result.json").write_text('{"id": "7f3c", "task_name": "csv-insi')
    # A trial of a task this dataset never had (a second dataset in the same job).
    other = TrialSpec("someone/else__baseline", str(dataset / "elsewhere"), 300)
    write_trial_files(job / other.trial_name, other)
    (job / other.trial_name / "result.json").write_text(
        json.dumps(trial_result_dict(other, str(uuid.uuid4()), str(job))))


@pytest.fixture
def scenario(export_csv, tmp_path):
    export = export_csv(case_ids=CASES, attempts=2)
    dataset = Path(export.dataset_dir)
    job = write_job(tmp_path / "jobs" / "2026-11-20__10-00-00", dataset,
                    scenario_specs(export), attempts=2)
    add_unusable_trials(job, dataset)
    return export, job


def test_the_scenario_job_becomes_a_run_with_the_right_lift(scenario, tmp_path):
    export, job = scenario
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        check_scenario(store, report, export)


def test_importing_the_same_job_again_replaces_its_run(scenario, tmp_path):
    _, job = scenario
    with RunStore(tmp_path / "state") as store:
        first = import_harbor_job(job, store)
        again = import_harbor_job(job, store)
        assert [r.run_id for r in again.runs] == [r.run_id for r in first.runs]
        assert again.runs[0].replaced and not first.runs[0].replaced
        assert len(store.runs()) == 1
        assert len(store.trials(first.runs[0].run_id)) == 8


def test_each_agent_and_model_of_a_job_is_a_run_of_its_own(export_csv, tmp_path):
    export = export_csv(case_ids=["monthly-revenue"], attempts=1)
    path = {t.name: f"{export.dataset_dir}/{t.folder}" for t in export.tasks}
    specs = []
    for agent, model, start in (("terminus-2", "openai/gpt-4o", 0),
                                ("claude-code", "anthropic/claude-sonnet-4-5", 1)):
        for cond, traj in (("with_skill", WITH_SKILL), ("baseline", BASELINE)):
            name = f"csv-insights/monthly-revenue__{cond}"
            specs.append(TrialSpec(name, path[name], start, agent=agent, model=model,
                                   provider=model.split("/")[0], trajectory=traj,
                                   reward_file=("reward.txt", "1")))
    job = write_job(tmp_path / "jobs" / "two-agents", Path(export.dataset_dir), specs)
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        runs = {(r.agent, r.model): r for r in report.runs}
        assert set(runs) == {("terminus-2", "openai/gpt-4o"),
                             ("claude-code", "anthropic/claude-sonnet-4-5")}
        assert len({r.run_id for r in report.runs}) == 2
        for r in report.runs:
            trials = store.trials(r.run_id)
            # One attempt per condition in each run: the agents are never pooled.
            assert sorted((t.condition, t.attempt) for t in trials) == [
                ("baseline", 1), ("with_skill", 1)]
            assert store.run(r.run_id).spec.agent == r.agent


def test_the_dataset_is_found_from_the_job_config_or_given(export_csv, tmp_path):
    export = export_csv(case_ids=["monthly-revenue"], attempts=1)
    task = next(t for t in export.tasks if t.condition == "with_skill")
    spec = TrialSpec(task.name, f"{export.dataset_dir}/{task.folder}", 0, trajectory=WITH_SKILL,
                     reward_file=("reward.txt", "1"))
    job = write_job(tmp_path / "jobs" / "moved", Path(export.dataset_dir), [spec])
    moved = tmp_path / "elsewhere" / "dataset"
    moved.parent.mkdir()
    shutil.move(export.dataset_dir, moved)  # the paths Harbor recorded no longer exist
    with RunStore(tmp_path / "state") as store:
        with pytest.raises(HarborImportError, match="--dataset"):
            import_harbor_job(job, store)
        report = import_harbor_job(job, store, dataset_dirs=[moved])
        assert report.runs[0].trials == 1
        assert report.runs[0].cases_without_trials == []


def test_a_relative_dataset_path_is_read_from_where_harbor_ran(export_csv, tmp_path,
                                                               monkeypatch):
    export = export_csv(out="ds", case_ids=["monthly-revenue"], attempts=1)
    task = next(t for t in export.tasks if t.condition == "baseline")
    spec = TrialSpec(task.name, f"ds/{task.folder}", 0, trajectory=BASELINE,
                     reward_file=("reward.txt", "0.25"))
    # `harbor run -p ds` started in tmp_path: config.json says "ds", jobs/ is beside it.
    job = write_job(tmp_path / "jobs" / "rel", Path("ds"), [spec])
    monkeypatch.chdir(tmp_path / "jobs")  # the import runs from somewhere else
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        trial = store.trials(report.runs[0].run_id)[0]
        assert (trial.condition, trial.grader) == ("baseline", 0.25)
        # Its with_skill side never ran, but the case has a trial, so it is not listed.
        assert report.runs[0].cases_without_trials == []


def test_a_reward_outside_0_1_is_refused_like_a_local_grader(export_csv, tmp_path):
    export = export_csv(case_ids=["monthly-revenue"], attempts=1)
    task = next(t for t in export.tasks if t.condition == "with_skill")
    spec = TrialSpec(task.name, f"{export.dataset_dir}/{task.folder}", 0, trajectory=WITH_SKILL,
                     reward_file=("reward.txt", "7"), rewards={"reward": 7.0})
    job = write_job(tmp_path / "jobs" / "big-reward", Path(export.dataset_dir), [spec])
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        trial = store.trials(report.runs[0].run_id)[0]
        # the agent ran; the grade it cannot read is a failed grade (0), as locally
        assert (trial.status, trial.grader, trial.error_stage) == ("ok", 0.0, "grader")
        assert "between 0 and 1" in trial.error and "fail-closed" in trial.error
        assert trial.metrics["skill_execution"] == 1.0  # the trajectory is still scored


def test_rewards_are_taken_from_result_json_when_the_verifier_folder_is_missing(
        export_csv, tmp_path):
    export = export_csv(case_ids=["monthly-revenue"], attempts=1)
    task = next(t for t in export.tasks if t.condition == "baseline")
    spec = TrialSpec(task.name, f"{export.dataset_dir}/{task.folder}", 0, trajectory=BASELINE,
                     rewards={"reward": 0.75})
    job = write_job(tmp_path / "jobs" / "no-files", Path(export.dataset_dir), [spec])
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        trial = store.trials(report.runs[0].run_id)[0]
        assert (trial.status, trial.grader) == ("ok", 0.75)
        evidence = {m.metric: m.evidence for m in store.metrics(report.runs[0].run_id)}
        assert evidence["grader"]["from"] == "result.json verifier_result"


def test_a_case_without_a_grader_is_passed_by_its_metrics(export_csv, tmp_path):
    skill = tmp_path / "src" / "csv-insights"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_skills" / "csv-insights",
                    skill)
    evals = json.loads((skill / "evals" / "evals.json").read_text())
    for case in evals["evals"]:
        if case["id"] == "monthly-revenue":
            del case["grader"]
    (skill / "evals" / "evals.json").write_text(json.dumps(evals, indent=2))
    export = export_csv(skill=skill, case_ids=["monthly-revenue"], attempts=1)
    assert export.ungraded == ["monthly-revenue"]
    path = {t.name: f"{export.dataset_dir}/{t.folder}" for t in export.tasks}
    marker = ("reward.json", '{"no_grader": 0}\n')
    specs = [TrialSpec(name, path[name], i, trajectory=traj, reward_file=marker,
                       rewards={"no_grader": 0.0})
             for i, (name, traj) in enumerate([
                 ("csv-insights/monthly-revenue__with_skill", WITH_SKILL),
                 ("csv-insights/monthly-revenue__baseline", BASELINE)])]
    job = write_job(tmp_path / "jobs" / "ungraded", Path(export.dataset_dir), specs)
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        run = store.run(report.runs[0].run_id)
        trials = store.trials(run.run_id)
        assert all(t.status == "ok" and t.grader is None for t in trials)
        assert all("grader" not in t.metrics for t in trials)
        lift = lift_for_run(run, trials)
        # Ungraded and unjudged: pass = overall >= 0.6, and overall is the outcome metrics
        # only: security 1 on both sides, so both pass. (Before issue 33 the baseline
        # "failed" on skill_execution 0, which the baseline can never earn.)
        assert (lift.pass_.with_, lift.pass_.base) == (1.0, 1.0)
        assert lift.extra.overall_of == ["security"]
        assert "grader" not in lift.metrics


def test_no_trial_folders_or_no_folder_at_all_is_an_error(tmp_path):
    with RunStore(tmp_path / "state") as store:
        with pytest.raises(HarborImportError, match="no such folder"):
            import_harbor_job(tmp_path / "nope", store)
        (tmp_path / "empty").mkdir()
        with pytest.raises(HarborImportError, match="no trial folders"):
            import_harbor_job(tmp_path / "empty", store)


def test_a_trial_result_that_is_not_harbors_names_the_file(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"task_name": "x/y", "trial_name": "y__1"}))
    with pytest.raises(HarborFileError, match=r"result.json: not a Harbor trial result: /id"):
        load_trial_result(path)


@pytest.mark.parametrize("content", [
    "{\"schema_version\": \"ATIF-v1.5\", \"ste",  # cut short
    json.dumps({"schema_version": "ATIF-v1.5", "agent": {"name": "terminus-2",
                                                         "version": "2"},
                "steps": {"step_id": 1}}),  # steps of the wrong type
    json.dumps({"schema_version": "ATIF-v1.5", "agent": {"name": "x", "version": "1"},
                "steps": []}),  # no steps
])
def test_a_damaged_trajectory_costs_that_trajectory_only(export_csv, tmp_path, content):
    export = export_csv(case_ids=["monthly-revenue"], attempts=1)
    task = next(t for t in export.tasks if t.condition == "with_skill")
    spec = TrialSpec(task.name, f"{export.dataset_dir}/{task.folder}", 0, trajectory=WITH_SKILL,
                     reward_file=("reward.txt", "1"))
    job = write_job(tmp_path / "jobs" / "damaged", Path(export.dataset_dir), [spec])
    (job / spec.trial_name / "agent" / "trajectory.json").write_text(content)
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        (trial,) = store.trials(report.runs[0].run_id)
        # The trial keeps its status, reward and tokens; it has no trajectory, no metrics.
        assert (trial.status, trial.grader, trial.tokens_in) == ("ok", 1.0, 1000)
        assert trial.trajectory_path is None and set(trial.metrics) == {"grader"}
        (note,) = report.runs[0].notes
        assert note.startswith("agent/trajectory.json unreadable")


def test_a_trial_that_breaks_the_import_is_skipped_with_its_reason(scenario, tmp_path,
                                                                   monkeypatch):
    _, job = scenario
    from skillforge.harbor import importer

    real = importer.build_trial

    def flaky(trial_dir, result, **kw):
        if trial_dir.name == "monthly-revenue__baseline__zzzz999":
            raise RuntimeError("simulated bug")
        return real(trial_dir, result, **kw)

    monkeypatch.setattr(importer, "build_trial", flaky)
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        assert report.runs[0].trials == 7
        assert report.skipped_reasons["not importable"] == 1
        assert any(s.reason == "not importable: RuntimeError: simulated bug"
                   for s in report.skipped)
