"""Errors count (issue 33): a trial whose agent run did not complete is left out and counted
by side, a grader that failed after the agent ran is a failed grade, and errors that fall on
one side more than chance allows withhold every "helps" and fail the gate."""

from __future__ import annotations

from skillforge.lift.compute import compute_lift, lift_for_run
from skillforge.models.trial import RunRecord, RunSpec
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


def _errored(case: str, condition: str, stage: str = "agent"):
    return trial(case, condition, 1, status="error", error="the run broke off",
                 error_stage=stage)


def test_errors_on_both_sides_alike_leave_the_verdict_alone():
    trials = _helping_run() + [_errored(f"c{i}", c) for i in range(3) for c in (W, B)]
    report = compute_lift(trials)
    assert report.extra.errors.excluded == {"with": 3, "base": 3}
    assert report.extra.errors.one_sided is None
    assert report.metrics["accuracy"].verdict == "helps"
    assert report.metrics["accuracy"].n == 12  # the errored attempts are not in any case


def test_errors_on_one_side_withhold_helps_and_fail_the_gate():
    # The skill crashes 10 of its 22 trials; the baseline none of its 12.
    trials = _helping_run() + [_errored(f"c{i}", W) for i in range(10)]
    report = compute_lift(trials)
    errors = report.extra.errors
    assert errors.excluded == {"with": 10, "base": 0} and errors.one_sided == "with"
    assert errors.p_value < 0.05
    assert "fall on the with_skill side more than chance allows" in errors.note
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
