"""`skillforge trial --require-calibrated` gates on the judges' agreement with the author's
labels, as `skillforge report --require-calibrated` does (issue 19), under the skill's own
[judge] bar. The run is a stored one whose every trial is ok, finished with `--resume` (no
container and no model call: nothing is left to run); its accuracy judge has the author's
labels backwards, so the gate fails naming accuracy; labels that agree let it pass.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.lift.calibration_run import run_judgments
from skillforge.models.labels import Label
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from tests.widgets.lift_fixture import ATTEMPTS, CASES, JUDGE, _metrics, evidence, trajectory

RUN = "20261120T100302-cal001"
# Cases of the fixture run that the sample skill's evals.json also has.
CASE_IDS = ["monthly-revenue", "missing-values", "q4-top-region"]
SKILL_TOML = "[judge]\ncalibration_kappa = 0.5\ncalibration_min_labels = 6\n"


@pytest.fixture
def provider(monkeypatch):
    """A provider that is configured but never called (nothing is left to run)."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "local-model")


def _stored_run(state: Path, skill: Path, agree: bool) -> None:
    """A finished local run of `skill` judged by JUDGE, with every accuracy judgment
    labelled: as the judge said (agree) or backwards (author = 1 - judge)."""
    spec = RunSpec(skill_path=str(skill), case_ids=CASE_IDS, attempts=ATTEMPTS,
                   sandbox="local", model="local-model", judge=True, judge_models=[JUDGE])
    with RunStore(state) as store:
        store.create_run(RunRecord(run_id=RUN, created_at=datetime.now(UTC),
                                   skill_name=skill.name, skill_path=str(skill), spec=spec,
                                   engine="local"))
        for case in CASE_IDS:
            kind, _task, w_levels, b_levels, _activated = CASES[case]
            for side, levels in (("with_skill", w_levels), ("baseline", b_levels)):
                for attempt in range(1, ATTEMPTS + 1):  # as a run numbers them
                    metrics = _metrics(levels, attempt)
                    traj = trajectory(case, side, attempt)
                    path = store.save_trajectory(traj, run_id=RUN, case_id=case,
                                                 condition=side, attempt=attempt)
                    t = TrialRecord(run_id=RUN, case_id=case, condition=side, attempt=attempt,
                                    metrics=metrics, case_kind=kind,
                                    grader=1.0 if metrics["goal_accuracy"] == 1 else 0.0,
                                    trajectory_path=str(path.relative_to(store.state_dir)))
                    store.upsert_trial(t, evidence(case, side, traj, metrics))
        store.finish_run(RUN)
        acc = [j for j in run_judgments(store, RUN) if j.metric == "accuracy"]
        assert len(acc) == 2 * ATTEMPTS * len(CASE_IDS)
        store.save_labels(Label.of(j, j.value if agree else round(1 - j.value, 3)) for j in acc)


def _resume(state: Path, *extra: str):
    return CliRunner().invoke(main, ["trial", "--resume", RUN, "--state-dir", str(state),
                                     "--require-calibrated", *extra])


def test_an_uncalibrated_metric_fails_the_gate_naming_it(csv_skill, tmp_path, provider):
    (csv_skill / "skillforge.toml").write_text(SKILL_TOML, "utf-8")
    state = tmp_path / "state"
    _stored_run(state, csv_skill, agree=False)
    res = _resume(state)
    assert res.exit_code == 1, res.output
    assert "gate: calibration: accuracy: not calibrated" in res.output
    assert f"{JUDGE} κ" in res.output and "on 18 labels" in res.output
    # behavior_check and goal_accuracy have no labels: not shown calibrated either
    assert "calibration: goal_accuracy: no author labels" in res.output

    doc = _resume(state, "--format", "json")
    assert doc.exit_code == 1
    gate = json.loads(doc.stdout)["gate"]
    assert gate["passed"] is False
    assert any(f.startswith("calibration: accuracy: not calibrated") for f in gate["failures"])
    with RunStore(state) as store:  # the resume ran nothing: every trial was ok already
        trials = store.trials(RUN)
    assert len(trials) == 18 and {t.status for t in trials} == {"ok"}


def test_labels_that_agree_pass_accuracy_under_the_skills_own_bar(csv_skill, tmp_path,
                                                                   provider):
    """18 agreeing labels: calibrated under the skill's bar (6 labels); under the default
    bar (20) the same labels would be too few."""
    (csv_skill / "skillforge.toml").write_text(SKILL_TOML, "utf-8")
    state = tmp_path / "state"
    _stored_run(state, csv_skill, agree=True)
    doc = _resume(state, "--format", "json")
    assert doc.exit_code == 1  # goal_accuracy and behavior_check have no labels
    failures = json.loads(doc.stdout)["gate"]["failures"]
    assert not any(f.startswith("calibration: accuracy") for f in failures), failures
    assert json.loads(doc.stdout)["lift"]["extra"]["calibration"]["status"]["accuracy"] == \
        "calibrated"
    (csv_skill / "skillforge.toml").unlink()  # the default bar: 20 labels
    again = json.loads(_resume(state, "--format", "json").stdout)["gate"]["failures"]
    assert "calibration: accuracy: too few labels (" in " ".join(again), again
