"""The sample-size planner: the smallest n for the bounded interval, monotone in sd, never
below the cases in hand, and the attempts model."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest

from skillforge.lift.betting import bounded_interval
from skillforge.lift.compute import compute_lift
from skillforge.lift.planner import EXACT_UP_TO, cases_needed, half_width, plan_sample
from tests.lift.builders import paired_cases, trial


@pytest.mark.parametrize(("sd", "centre"), [(0.0, 0.0), (0.1, 0.0), (0.2, 0.3), (0.35, -0.1)])
def test_cases_needed_is_the_smallest_n_reaching_the_target(sd, centre):
    n = cases_needed(sd, centre=centre)
    assert half_width(sd, n, centre) <= 0.05 < half_width(sd, n - 1, centre)


def test_the_half_width_is_the_bounded_intervals_on_the_model_sample():
    # Built another way: normal quantiles with the wanted mean and sd, in a shuffled order.
    from statistics import NormalDist

    n, sd, centre = 40, 0.25, 0.1
    q = np.array([NormalDist().inv_cdf((i + 0.5) / n) for i in range(n)])
    values = centre + sd * (q - q.mean()) / q.std(ddof=1)
    low, high = bounded_interval(list(np.random.default_rng(1).permutation(values)))
    # the planner averages fewer orders than the lift: close, not equal
    assert half_width(sd, n, centre) == pytest.approx((high - low) / 2, rel=0.1)


def test_no_spread_still_needs_cases():
    # Eighty equal deltas cannot exclude a 5% mass at +-1 until 0.95^n < 0.025: n > 72.
    assert 70 <= cases_needed(0.0) <= 90


def test_cases_needed_is_monotone_in_sd():
    needed = [cases_needed(sd) for sd in np.linspace(0.0, 0.6, 25)]
    assert all(a <= b for a, b in pairwise(needed))
    assert needed[-1] > 5 * needed[0]
    assert cases_needed(None) is None


def test_a_wider_target_needs_fewer_cases():
    assert cases_needed(0.2, target=0.1) < cases_needed(0.2, target=0.05)


def test_far_out_the_asymptote_answers():
    # sd 0.6 and +-0.02: n = 2 log(40) 0.36 / 0.0004 = 6,640, past the measured range
    n = cases_needed(0.6, target=0.02)
    assert n > EXACT_UP_TO
    assert n == math.ceil(2 * math.log(40) * 0.36 / 0.0004)
    assert cases_needed(0.9, target=0.0005) is None  # past any practical run


def test_attempts_plan_separates_case_spread_from_attempt_noise():
    # Simulate the model the planner assumes: 200 cases, 3 attempts per side,
    # true case deltas with sd 0.1 (tau2 = 0.01), attempt noise sd 0.2 per side (s2 = 0.04).
    rng = np.random.default_rng(3)
    n, a = 200, 3
    mu_base = rng.uniform(0.3, 0.7, n)
    mu_with = mu_base + 0.05 + rng.normal(0, 0.1, n)
    with_att = mu_with[:, None] + rng.normal(0, 0.2, (n, a))
    base_att = mu_base[:, None] + rng.normal(0, 0.2, (n, a))
    deltas = with_att.mean(1) - base_att.mean(1)
    plan = plan_sample(deltas.tolist(), with_att.tolist(), base_att.tolist())
    assert plan.between_case_var == pytest.approx(0.01, abs=0.006)
    assert plan.within_case_var == pytest.approx(0.08, rel=0.15)
    assert plan.attempts_observed == pytest.approx(3)
    # Var(D) = tau2 + within / a -> more attempts need fewer cases, never below tau2's need
    by_a = plan.cases_by_attempts
    centre = float(deltas.mean())
    assert by_a[1] > by_a[3] > by_a[10] >= cases_needed(
        math.sqrt(plan.between_case_var), centre=centre)


def test_attempts_cannot_beat_case_spread():
    # 6 cases whose true deltas differ a lot, and no attempt noise: only cases help
    deltas = [0.3, -0.2, 0.1, 0.4, -0.3, 0.2]
    with_att = [[0.5 + d] * 3 for d in deltas]
    base_att = [[0.5] * 3 for _ in deltas]
    plan = plan_sample(deltas, with_att, base_att)
    assert plan.within_case_var == pytest.approx(0.0, abs=1e-12)
    assert plan.attempts_needed is None
    assert "add cases" in plan.note
    sd = float(np.std(deltas, ddof=1))
    assert plan.cases_needed == cases_needed(sd, centre=float(np.mean(deltas)))


def test_plan_needs_two_cases_and_two_attempts():
    assert plan_sample([0.1]).cases_needed is None
    assert "at least 2" in plan_sample([0.1]).note
    single = plan_sample([0.1, 0.3], [[0.6], [0.8]], [[0.5], [0.5]])
    assert single.cases_needed is not None and single.attempts_needed is None
    assert "2+ attempts" in single.note


def test_the_planned_half_width_is_the_reports_interval():
    deltas = [0.0, 0.05, -0.1, 0.02, 0.6, 0.0, 0.1, -0.05, 0.9, 0.03]
    report = compute_lift(paired_cases(deltas, base=0.05))
    row, plan = report.metrics["overall"], report.extra.plans["overall"]
    assert plan.half_width == pytest.approx((row.ci_high - row.ci_low) / 2, abs=1e-12)


def test_a_plan_never_asks_for_fewer_cases_than_the_run_has():
    # The uniform-harm run of issue 33 was told "about 5 cases needed" with 8 in hand. Here:
    # 40 cases of small deltas whose interval is still wider than +-0.05, but whose model
    # sample (a smooth normal) would reach it sooner.
    deltas = [0.01 * ((i % 5) - 2) for i in range(40)]
    report = compute_lift(paired_cases(deltas))
    plan = report.extra.plans["overall"]
    assert plan.half_width > 0.05
    assert plan.cases_needed > 40
    for n in (8, 12, 30):
        row_plan = compute_lift(paired_cases([0.0] * n)).extra.plans["overall"]
        assert row_plan.cases_needed > n


def test_inconclusive_metrics_carry_a_plan_conclusive_ones_do_not():
    deltas = [0.2, -0.15, 0.05, -0.1, 0.12, 0.03]
    report = compute_lift(paired_cases(deltas))
    assert report.metrics["overall"].verdict == "inconclusive"
    assert report.extra.plans["overall"].cases_needed == cases_needed(
        float(np.std(deltas, ddof=1)), centre=float(np.mean(deltas)))
    helped = compute_lift(paired_cases([0.8, 0.82, 0.78, 0.8, 0.81, 0.79, 0.8, 0.8], base=0.1))
    assert helped.metrics["overall"].verdict == "helps"
    assert "overall" not in helped.extra.plans


def test_report_plan_uses_attempts_when_there_are_several():
    trials = []
    for i, (w, b) in enumerate([(0.7, 0.5), (0.4, 0.6), (0.8, 0.75), (0.55, 0.5)]):
        for k, noise in enumerate((-0.05, 0.05)):
            trials.append(trial(f"c{i}", "with_skill", k, overall=w + noise))
            trials.append(trial(f"c{i}", "baseline", k, overall=b - noise))
    plan = compute_lift(trials).extra.plans["overall"]
    # within-case variance per side: each case has values x-0.05, x+0.05 -> s^2 = 0.005
    assert plan.within_case_var == pytest.approx(0.01)
    assert plan.attempts_observed == 2
    assert set(plan.cases_by_attempts) == {1, 2, 3, 5, 10}
