"""Errors count (issue 33): an infrastructure error is left out and counted by side, a run
that broke off otherwise is a failed trial, a grader that failed after the agent ran is a
failed grade, and one-sided errors withhold every "helps" and fail the gate."""

from __future__ import annotations

import pytest

from skillforge.lift.compute import compute_lift, lift_for_run
from skillforge.models.trial import RunRecord, RunSpec
from skillforge.report.headline import errors_text
from skillforge.trials.output import gate_failures
from tests.lift.builders import trial

W, B = "with_skill", "baseline"


def _helping_run(cases: int = 12) -> list:
    """Accuracy 0.1 -> 0.95 with the skill on every case: a clear "helps"."""
    out = []
    for i in range(cases):
        out.append(trial(f"c{i}", W, 0, metrics={"accuracy": 0.95, "security": 1.0}))
        out.append(trial(f"c{i}", B, 0, metrics={"accuracy": 0.1, "security": 1.0}))
    return out


def _errored(case: str, condition: str, stage: str = "agent",
             error: str = "model request failed: HTTP 503", attempt: int = 1):
    """An errored trial; by default the provider failed mid-run (infrastructure)."""
    return trial(case, condition, attempt, status="error", error=error, error_stage=stage,
                 turns=2 if stage == "agent" else 0)


def test_errors_on_both_sides_alike_leave_the_verdict_alone():
    trials = _helping_run() + [_errored(f"c{i}", c) for i in range(3) for c in (W, B)]
    report = compute_lift(trials)
    assert report.extra.errors.excluded == {"with": 3, "base": 3}
    assert report.extra.errors.one_sided is None
    assert report.metrics["accuracy"].verdict == "helps"
    assert report.metrics["accuracy"].n == 12  # the errored attempts are not in any case


def test_errors_on_one_side_withhold_helps_and_fail_the_gate():
    # The provider failed in 10 of the skill's 22 trials; the baseline in none of its 12.
    trials = _helping_run() + [_errored(f"c{i}", W) for i in range(10)]
    report = compute_lift(trials)
    errors = report.extra.errors
    assert errors.excluded == {"with": 10, "base": 0} and errors.one_sided == "with"
    assert errors.p_value < 0.05
    assert "The errors fall on the with_skill side" in errors.note
    for row in report.metrics.values():
        assert row.verdict != "helps"
    withheld = report.extra.withheld["accuracy"]
    assert withheld.reason == "one-sided errors" and "with_skill side errored" in withheld.note
    assert report.extra.headline.verdict != "helps"
    assert any(f.startswith("errors: ") for f in gate_failures(report))


def test_errors_before_the_agent_ran_are_told_apart_in_the_count():
    trials = _helping_run() + [_errored("c0", W, "setup"), _errored("c1", B, "agent")]
    errors = compute_lift(trials).extra.errors
    assert errors.setup == {"with": 1, "base": 0} and errors.excluded == {"with": 1, "base": 1}


def _crashing_run() -> list:
    """The audit's case: 12 graded cases that pass on both sides, but 4 of the 12 with-skill
    runs broke off mid-run (the harness CLI crashed after the agent's turns)."""
    out = []
    for i in range(12):
        if i < 4:
            out.append(_errored(f"c{i}", W, error="claude exited 1: Segmentation fault",
                                attempt=0))
        else:
            out.append(trial(f"c{i}", W, 0, metrics={"security": 1.0}, grader=1.0))
        out.append(trial(f"c{i}", B, 0, metrics={"security": 1.0}, grader=1.0))
    return out


def test_runs_that_broke_off_on_one_side_count_as_failures_and_fail_the_gate():
    # Left out, these four gave Fisher's p = 0.093: 100% vs 100%, inconclusive, gate passed.
    trials = _crashing_run()
    assert [t.error_cause for t in trials[:8:2]] == ["run"] * 4
    report = compute_lift(trials)
    errors = report.extra.errors
    assert errors.failed_runs == {"with": 4, "base": 0}
    assert errors.excluded == {"with": 0, "base": 0}
    assert errors.one_sided == "with" and errors.p_value > 0.05
    assert report.pass_.with_ == pytest.approx(8 / 12) and report.pass_.base == 1.0
    test = report.extra.pass_test
    assert test.with_.passes == 8 and test.base.passes == 12
    grader = report.metrics["grader"]
    assert grader.n == 12 and grader.lift == pytest.approx(-4 / 12)
    assert report.metrics["security"].lift == pytest.approx(-4 / 12)
    assert report.extra.headline.verdict != "helps"
    assert all(row.verdict != "helps" for row in report.metrics.values())
    failures = gate_failures(report)
    assert any(f.startswith("errors: ") for f in failures), failures
    assert "4 errored trial(s) whose agent run broke off, counted as failed trials" \
        in errors.note and "4 with_skill, 0 baseline" in errors.note
    said = errors_text(report)
    assert "counted as failed trials: 4 with_skill, 0 baseline (the agent's run broke " \
        "off)" in said and "--gate fails" in said


def test_a_failed_run_in_a_stored_record_is_classified_by_its_stage_and_message():
    assert _errored("c", W, "setup").error_cause == "infrastructure"
    assert _errored("c", W).error_cause == "infrastructure"  # the provider failed
    assert _errored("c", W, error="the sandbox stopped working: gone").error_cause == "run"
    assert _errored("c", W).excluded and not _errored("c", W).failed_run
    crashed = _errored("c", W, error="claude exited 1")
    assert crashed.failed_run and not crashed.excluded


def test_a_failed_grade_counts_and_is_not_left_out():
    trials = [trial(f"c{i}", W, 0, metrics={"security": 1.0}, grader=0.0,
                    error_stage="grader", error="grader: exit 1; graded 0 (fail-closed)")
              for i in range(8)]
    trials += [trial(f"c{i}", B, 0, metrics={"security": 1.0}, grader=1.0) for i in range(8)]
    report = compute_lift(trials)
    assert report.extra.errors.grader_failed == {"with": 8, "base": 0}
    assert report.extra.errors.excluded == {"with": 0, "base": 0}
    assert report.metrics["grader"].n == 8 and report.metrics["grader"].verdict == "hurts"


def test_a_run_scored_without_the_judge_says_so():
    spec = RunSpec(skill_path="x", judge=False)
    run = RunRecord(run_id="r", created_at="2026-12-01T00:00:00", spec=spec)
    report = lift_for_run(run, _helping_run())
    assert report.extra.no_judge is True
    judged = lift_for_run(run.model_copy(update={"spec": spec.model_copy(
        update={"judge": True})}), _helping_run())
    assert judged.extra.no_judge is False
