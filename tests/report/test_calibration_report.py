"""The calibration section in each report format, the "not calibrated" mark and the gate.

The stored fixture run (tests/widgets/lift_fixture.py, one judge) gets synthetic author
labels: goal_accuracy exactly as judged (calibrated), accuracy 0.3 under every judged value
(biased: not calibrated, and a map removes it), behavior_check the judged value turned upside down (the judge
ranks against the author: not calibrated).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from skillforge.cli import main
from skillforge.lift.calibration_run import run_judgments
from skillforge.models.labels import Label
from skillforge.report import render_html, render_json, render_markdown
from skillforge.report.source import load_run_report
from tests.widgets.lift_fixture import JUDGE, RUN_ID, build_store


def _author(metric: str, judged: float) -> float:
    if metric == "accuracy":
        return max(0.0, round(judged - 0.3, 3))
    if metric == "behavior_check":
        return round(1.0 - judged, 3)
    return judged


@pytest.fixture
def labelled(tmp_path):
    state = tmp_path / ".skillforge"
    with build_store(state) as store:
        judgments = run_judgments(store, RUN_ID)
        store.save_labels(Label.of(j, _author(j.metric, j.value), source="import")
                          for j in judgments)
    return state


def test_judgments_of_the_run_are_per_trial_metric_and_judge(labelled):
    from sessions.store import RunStore

    with RunStore(labelled) as store:
        js = run_judgments(store, RUN_ID)
    # 48 ok trials: three judged metrics each by the one judge, and each trial's pass.
    assert len(js) == 48 * 4
    assert {j.judge_model for j in js if j.metric != "pass"} == {JUDGE}
    assert {j.judge_model for j in js if j.metric == "pass"} == {"grader"}
    assert len({j.content_hash for j in js}) == 48


def test_each_format_has_the_section_and_marks_uncalibrated_metrics(labelled):
    report, traj = load_run_report(labelled, RUN_ID)
    cal = report.extra.calibration
    assert cal is not None and cal.labelled == cal.judgments == 48 * 4
    # A constant +0.3 is 3 of the 11 bins: weighted kappa counts a bias as disagreement.
    assert cal.status == {"accuracy": "not calibrated", "behavior_check": "not calibrated",
                          "goal_accuracy": "calibrated", "pass": "calibrated"}
    acc = next(r for r in cal.rows if r.metric == "accuracy")
    assert acc.n == 48 and acc.bias == pytest.approx(0.3, abs=0.02)
    assert acc.bias_ci[0] <= 0.3 <= acc.bias_ci[1] + 1e-9
    assert acc.mapping.applied
    # Raw and calibrated lift side by side; the raw one is still the report's lift.
    assert cal.lift["accuracy"].raw == report.metrics["accuracy"].lift
    assert cal.lift["accuracy"].calibrated is not None

    text = render_markdown(report, trajectories=traj)
    assert "## Judges against the author" in text
    assert "behavior\\_check (not calibrated)" in text or "behavior_check (not calibrated)" in text
    assert "### Raw and calibrated lift" in text
    assert "labelled 192 of this run's 192 judgments" in text
    html = render_html(report, trajectories=traj)
    assert '<section id="calibration">' in html
    assert 'data-calibration="behavior_check" data-judge="judge-model" data-status="not calibrated"' in html
    assert 'data-calibrated-lift="accuracy"' in html
    doc = json.loads(render_json(report))
    rows = doc["extra"]["calibration"]["rows"]
    assert {(r["judge"], r["metric"]) for r in rows} >= {(JUDGE, "accuracy"), ("grader", "pass")}
    assert doc["extra"]["calibration"]["status"]["behavior_check"] == "not calibrated"


def test_a_report_without_labels_has_no_section(tmp_path):
    build_store(tmp_path / ".skillforge").close()
    report, _ = load_run_report(tmp_path / ".skillforge", RUN_ID)
    assert report.extra.calibration is None
    assert "calibration" not in json.loads(render_json(report))["extra"]
    assert "Judges against the author" not in render_markdown(report)


def test_require_calibrated_gate(labelled, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["report", RUN_ID, "--state-dir", str(labelled), "--format",
                              "json"])
    assert ok.exit_code == 0, ok.output
    gated = runner.invoke(main, ["report", RUN_ID, "--state-dir", str(labelled), "--format",
                                 "json", "--require-calibrated"])
    assert gated.exit_code == 1
    assert "gate: behavior_check: not calibrated (judge-model" in gated.stderr
    assert "gate: accuracy: not calibrated" in gated.stderr
    assert "goal_accuracy" not in gated.stderr
    json.loads(gated.stdout)  # the report itself was still written
    bare = tmp_path / "bare"
    build_store(bare).close()
    none = runner.invoke(main, ["report", RUN_ID, "--state-dir", str(bare),
                                "--require-calibrated"])
    assert none.exit_code == 1 and "no author labels" in none.stderr
