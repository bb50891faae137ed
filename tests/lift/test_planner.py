"""The sample-size planner: hand-computed n, monotone in sd, and the attempts model."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
import scipy  # scipy.stats loads on first use, not in every worker's collection

from skillforge.lift.compute import compute_lift
from skillforge.lift.planner import cases_needed, half_width, plan_sample
from skillforge.lift.skew_t import skew_t_interval
from tests.lift.builders import paired_cases, trial


def test_cases_needed_hand_computed():
    # sd 0.2, target +-0.05: need t(0.975, n-1) / sqrt(n) <= 0.25.
    #   n = 63: t(62) = 1.99897, / sqrt(63) = 7.93725 -> 0.25185 > 0.25
    #   n = 64: t(63) = 1.99834, / sqrt(64) = 8       -> 0.24979 <= 0.25
    assert cases_needed(0.2) == 64
    # sd 0.1: need t / sqrt(n) <= 0.5.
    #   n = 17: t(16) = 2.11991 / 4.12311 = 0.51416 > 0.5
    #   n = 18: t(17) = 2.10982 / 4.24264 = 0.49729 <= 0.5
    assert cases_needed(0.1) == 18


def test_cases_needed_is_the_smallest_n_scipy_agrees_with():
    for sd in (0.03, 0.12, 0.31, 0.5):
        n = cases_needed(sd)
        def hw(k: int, sd: float = sd) -> float:
            return scipy.stats.t.ppf(0.975, k - 1) * sd / np.sqrt(k)

        assert hw(n) <= 0.05 < (hw(n - 1) if n > 2 else np.inf)


def test_cases_needed_is_monotone_in_sd():
    needed = [cases_needed(sd) for sd in np.linspace(0.0, 0.6, 61)]
    assert needed[0] == 2  # no spread: the minimum for an interval
    assert all(a <= b for a, b in pairwise(needed))
    assert needed[-1] > needed[len(needed) // 2]
    assert cases_needed(None) is None


def test_a_wider_target_needs_fewer_cases():
    assert cases_needed(0.2, target=0.1) < cases_needed(0.2, target=0.05)


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
    assert by_a[1] > by_a[3] > by_a[10] >= cases_needed(np.sqrt(plan.between_case_var))
    # with 200 cases the current spread reaches +-0.05 already or with few attempts
    assert plan.attempts_needed is not None and plan.attempts_needed <= 3


def test_attempts_cannot_beat_case_spread():
    # 5 cases whose true deltas differ a lot, and no attempt noise: only cases help
    deltas = [0.3, -0.2, 0.1, 0.4, -0.3]
    with_att = [[0.5 + d] * 3 for d in deltas]
    base_att = [[0.5] * 3 for _ in deltas]
    plan = plan_sample(deltas, with_att, base_att)
    assert plan.within_case_var == pytest.approx(0.0, abs=1e-12)
    assert plan.attempts_needed is None
    assert "add cases" in plan.note
    sd = float(np.std(deltas, ddof=1))
    # planned for the default skew-t interval at the deltas' skewness; the t plan on request
    assert plan.cases_needed == cases_needed(sd, skew=float(scipy.stats.skew(deltas)))
    assert plan_sample(deltas, with_att, base_att, ci="t").cases_needed == cases_needed(sd)


def test_plan_needs_two_cases_and_two_attempts():
    assert plan_sample([0.1]).cases_needed is None
    assert "at least 2" in plan_sample([0.1]).note
    single = plan_sample([0.1, 0.3], [[0.6], [0.8]], [[0.5], [0.5]])
    assert single.cases_needed is not None and single.attempts_needed is None
    assert "2+ attempts" in single.note


def test_inconclusive_metrics_carry_a_plan_conclusive_ones_do_not():
    # overall: deltas spread around 0 -> inconclusive -> planned
    report = compute_lift(paired_cases([0.2, -0.15, 0.05, -0.1, 0.12]))
    assert report.metrics["overall"].verdict == "inconclusive"
    deltas = [0.2, -0.15, 0.05, -0.1, 0.12]
    assert report.extra.plans["overall"].cases_needed == cases_needed(
        float(np.std(deltas, ddof=1)), skew=float(scipy.stats.skew(deltas)))
    # clear positive lift -> helps -> no plan
    helped = compute_lift(paired_cases([0.3, 0.31, 0.29, 0.3, 0.32]))
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


SKEWED = [0.0, 0.05, -0.1, 0.02, 0.6, 0.0, 0.1, -0.05, 0.9, 0.03]


def test_the_planned_half_width_is_the_default_intervals():
    # The plan's half-width at the current n is half the width of the interval the report
    # shows, skewed deltas included; the t plan gives the t interval's half-width.
    low, high = skew_t_interval(SKEWED)
    plan = plan_sample(SKEWED)
    assert plan.half_width == pytest.approx((high - low) / 2, abs=1e-12)
    t_half = scipy.stats.t.ppf(0.975, 9) * scipy.stats.sem(SKEWED)
    assert plan_sample(SKEWED, ci="t").half_width == pytest.approx(t_half, abs=1e-12)
    assert plan.half_width > t_half * 1.1
    # so skewed deltas need more cases for the same target, never fewer
    sd, g1 = float(np.std(SKEWED, ddof=1)), float(scipy.stats.skew(SKEWED))
    assert plan.cases_needed == cases_needed(sd, skew=g1) > cases_needed(sd)


def test_cases_needed_with_skewness_is_the_smallest_n_reaching_the_target():
    for sd, g1 in ((0.2, 1.5), (0.35, -2.0), (0.1, 0.4)):
        n = cases_needed(sd, skew=g1)
        assert half_width(sd * sd, n, skew=g1) <= 0.05 < half_width(sd * sd, n - 1, skew=g1)
        assert n >= cases_needed(sd)
