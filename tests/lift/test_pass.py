"""Pass rate (fixed denominator), normalised gain and pass@k (CONTRACTS.md section 8)."""

from __future__ import annotations

import pytest

from skillforge.lift.compute import compute_lift
from skillforge.lift.stats import normalised_gain, pass_at_k
from tests.lift.builders import trial

W, B = "with_skill", "baseline"


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        # n=3, c=1, k=1: 1 - C(2,1)/C(3,1) = 1 - 2/3 = 1/3
        (3, 1, 1, 1 / 3),
        # n=3, c=1, k=2: 1 - C(2,2)/C(3,2) = 1 - 1/3 = 2/3
        (3, 1, 2, 2 / 3),
        # n=3, c=1, k=3: C(2,3) = 0, so 1 - 0/1 = 1
        (3, 1, 3, 1.0),
        # n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7
        (5, 2, 2, 0.7),
        # n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252 = 11/12
        (10, 3, 5, 11 / 12),
        # no pass: 1 - C(n,k)/C(n,k) = 0
        (4, 0, 3, 0.0),
        # fewer attempts than k: the missing attempt is a fail, n -> k = 3: 1 - C(2,3)/C(3,3) = 1
        (2, 1, 3, 1.0),
        (2, 0, 3, 0.0),
    ],
)
def test_pass_at_k_hand_computed(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_refuses_impossible_counts():
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)


def test_pass_at_k_curve_averages_cases():
    # Case a: 1 of 3 attempts pass; b: 0 of 3; c: 3 of 3 (with_skill side).
    # pass@1 = (1/3 + 0 + 1) / 3 = 4/9; pass@2 = (2/3 + 0 + 1) / 3 = 5/9;
    # pass@3 = (1 + 0 + 1) / 3 = 2/3.
    outcomes = {"a": [0.9, 0.1, 0.1], "b": [0.1, 0.1, 0.1], "c": [0.9, 0.9, 0.9]}
    trials = [
        trial(case, W, i, overall=v) for case, vals in outcomes.items() for i, v in enumerate(vals)
    ] + [trial(case, B, 0, overall=0.1) for case in outcomes]
    curve = compute_lift(trials).pass_.pass_at_k
    assert curve["with"] == pytest.approx({1: 4 / 9, 2: 5 / 9, 3: 2 / 3})
    assert curve["base"] == pytest.approx({1: 0.0})
    assert compute_lift(trials).pass_.with_ == pytest.approx(4 / 9)  # pass@1 = pass rate


def test_errored_trials_are_left_out_and_cases_never_run_count_as_zero():
    # Three cases. "ok": every attempt passes on both sides. "crashed": all three with-skill
    # attempts errored (the provider failed mid-run: infrastructure, left out), baseline
    # passes 1 of 3. "never-ran": planned, no trial at all.
    trials = [trial("ok", W, i, overall=0.9) for i in range(3)]
    trials += [trial("ok", B, i, overall=0.9) for i in range(3)]
    trials += [trial("crashed", W, i, status="error", error="model request failed: HTTP 503",
                     error_stage="agent") for i in range(3)]
    trials += [trial("crashed", B, i, overall=v) for i, v in enumerate([0.9, 0.2, 0.2])]
    report = compute_lift(trials, case_ids=["ok", "crashed", "never-ran"])
    assert report.n_cases == 3
    # with: (1 + 0) / 2 — "crashed" has no with-skill rate (every attempt left out), and
    # "never-ran" still counts 0 (the fixed denominator)
    assert report.pass_.with_ == pytest.approx(1 / 2)
    # base: (1 + 1/3 + 0) / 3
    assert report.pass_.base == pytest.approx(4 / 9)
    assert report.inventory.error == 3
    assert report.extra.errors.excluded == {"with": 3, "base": 0}
    assert report.inventory.missing_pairs == 2  # crashed and never-ran have no overall pair
    row = {r.case_id: r for r in report.extra.cases}["crashed"]
    assert row.pass_with is None and row.pass_base == pytest.approx(1 / 3)


def test_timed_out_trial_fails_even_with_high_scores():
    trials = [
        trial("a", W, 0, overall=0.95, status="timeout"),
        trial("a", B, 0, overall=0.95),
    ]
    report = compute_lift(trials)
    assert report.pass_.with_ == 0.0 and report.pass_.base == 1.0


def test_grader_decides_pass_when_the_case_has_one():
    trials = [
        # graded case: reward 1 passes even with a low overall; 0.99 fails with a high one
        trial("graded", W, 0, overall=0.1, grader=1.0),
        trial("graded", B, 0, overall=0.95, grader=0.99),
        # graded case whose grader crashed on one attempt: that attempt fails
        trial("graded", W, 1, overall=0.95),
        trial("graded", B, 1, overall=0.95, grader=1.0),
        # ungraded case: overall >= 0.6 passes (exactly 0.6 included)
        trial("plain", W, 0, overall=0.6),
        trial("plain", B, 0, overall=0.59),
    ]
    report = compute_lift(trials)
    # with: graded (1 + 0)/2 = 0.5, plain 1 -> 0.75; base: graded (0 + 1)/2, plain 0 -> 0.25
    assert report.pass_.with_ == pytest.approx(0.75)
    assert report.pass_.base == pytest.approx(0.25)
    # the grader is a row of its own and, as an outcome, one of overall's terms: the first
    # with-skill attempt's overall is (4 x 0.1 + grader 1) / 5
    assert "grader" in report.metrics
    assert report.extra.overall_of == ["grader", "accuracy", "goal_accuracy",
                                       "behavior_check", "security"]
    assert report.metrics["overall"].with_ == pytest.approx(((0.28 + 0.95) / 2 + 0.6) / 2)


def test_pass_threshold_is_configurable():
    trials = [trial("a", W, 0, overall=0.7), trial("a", B, 0, overall=0.5)]
    assert compute_lift(trials, pass_threshold=0.8).pass_.with_ == 0.0
    assert compute_lift(trials, pass_threshold=0.5).pass_.base == 1.0


@pytest.mark.parametrize(
    ("p_with", "p_base", "g"),
    [
        (0.75, 0.5, 0.5),  # (0.75 - 0.5) / (1 - 0.5)
        (0.25, 0.5, -0.5),  # a loss is negative
        (0.4, 0.0, 0.4),  # from zero, g is the with-skill rate
        (1.0, 0.8, 1.0),
    ],
)
def test_normalised_gain(p_with, p_base, g):
    assert normalised_gain(p_with, p_base) == pytest.approx(g)


def test_normalised_gain_undefined_when_baseline_always_passes():
    assert normalised_gain(1.0, 1.0) is None
    assert normalised_gain(0.5, 1.0) is None
    trials = [trial("a", W, 0, overall=0.9), trial("a", B, 0, overall=0.9)]
    report = compute_lift(trials)
    assert report.pass_.base == 1.0 and report.pass_.g is None


def test_a_condition_that_never_ran_has_no_pass_rate():
    report = compute_lift([trial("a", W, 0, overall=0.9)])
    assert report.pass_.with_ == 1.0
    assert report.pass_.base is None and report.pass_.g is None
    assert report.pass_.pass_at_k["base"] == {}
