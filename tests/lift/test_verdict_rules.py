"""No verdict from noise (issue 15, item 3): tie tolerance, a minimum of cases, a real width.

Each example is one the audit found giving "helps" where nothing was shown.
"""

from __future__ import annotations

import json

import pytest

from skillforge.lift.bootstrap import BOOTSTRAP_MIN_CASES
from skillforge.lift.compute import compute_lift
from skillforge.lift.stats import MIN_VERDICT_CASES, TIE_EPS, t_interval, verdict
from skillforge.models.lift import dump_lift_report
from tests.lift.builders import paired_cases, trial


def _noise_only_trials(cases: int) -> list:
    """Security 0.1 and 0.2 with the skill, 0.15 without: equal scores, but the float
    mean (0.1 + 0.2) / 2 is 0.15000000000000002, so each delta is 2.8e-17."""
    out = []
    for i in range(cases):
        out += [trial(f"c{i}", "with_skill", 1, metrics={"security": 0.1}),
                trial(f"c{i}", "with_skill", 2, metrics={"security": 0.2}),
                trial(f"c{i}", "baseline", 1, metrics={"security": 0.15})]
    return out


def test_float_noise_is_a_tie_not_a_lift():
    row = compute_lift(_noise_only_trials(8)).metrics["security"]
    assert 0 < row.lift < 1e-16 and row.positive_share == 0
    assert row.verdict == "inconclusive"


def test_a_bound_within_the_tie_tolerance_is_not_evidence():
    assert verdict((TIE_EPS / 2, 0.3), 20) == "inconclusive"
    assert verdict((-0.3, -TIE_EPS / 2), 20) == "inconclusive"
    assert verdict((2 * TIE_EPS, 0.3), 20) == "helps"
    assert verdict((-0.3, -2 * TIE_EPS), 20) == "hurts"


def test_two_equal_deltas_are_too_few_cases_not_a_zero_width_helps():
    report = compute_lift(paired_cases([0.3, 0.3]))
    row = report.metrics["overall"]
    assert (row.ci_low, row.ci_high) == pytest.approx((0.3, 0.3))
    assert row.verdict == "inconclusive"
    withheld = report.extra.withheld["overall"]
    assert withheld.reason == "too few cases" and withheld.n == 2
    assert withheld.cases_needed == MIN_VERDICT_CASES  # no spread: the minimum decides
    assert withheld.note.startswith("inconclusive: too few cases (2 paired; a verdict needs "
                                    f"at least {MIN_VERDICT_CASES})")


def test_two_close_deltas_give_no_verdict_under_either_interval():
    low, high = t_interval([0.5, 0.4])
    assert low == pytest.approx(-0.185, abs=0.01) and high == pytest.approx(1.085, abs=0.01)
    for ci in ("t", "bootstrap"):
        report = compute_lift(paired_cases([0.5, 0.4]), ci=ci)
        assert report.metrics["overall"].verdict == "inconclusive", ci
        assert report.extra.withheld["overall"].reason == "too few cases"
    boot = compute_lift(paired_cases([0.5, 0.4]), ci="bootstrap")
    assert boot.metrics["overall"].ci_low is None  # refused, not given at a level it misses
    assert f"at least {BOOTSTRAP_MIN_CASES} paired cases" in boot.extra.withheld["overall"].note


def test_many_equal_deltas_are_a_zero_width_interval():
    report = compute_lift(paired_cases([0.2] * 8))
    assert report.metrics["overall"].verdict == "inconclusive"
    withheld = report.extra.withheld["overall"]
    assert withheld.reason == "zero-width interval"
    assert "all 8 paired deltas are equal" in withheld.note


def test_the_bootstrap_between_the_two_minimums_says_why_it_gave_no_interval():
    deltas = [0.3, 0.25, 0.31, 0.28, 0.35, 0.27][: BOOTSTRAP_MIN_CASES - 1]
    report = compute_lift(paired_cases(deltas), ci="bootstrap")
    withheld = report.extra.withheld["overall"]
    assert withheld.reason == "no interval" and "--ci t" in withheld.note
    assert compute_lift(paired_cases(deltas)).metrics["overall"].verdict == "helps"


def test_below_the_minimum_the_planner_number_is_given():
    report = compute_lift(paired_cases([0.3, 0.1, 0.5]))
    withheld = report.extra.withheld["overall"]
    plan = report.extra.plans["overall"]
    assert withheld.cases_needed == plan.cases_needed > MIN_VERDICT_CASES
    assert f"about {plan.cases_needed} cases needed for ±0.05" in withheld.note


def test_lift_json_states_the_rule_under_extra_and_keeps_its_shape():
    report = compute_lift(paired_cases([0.3, 0.3]), ci="bootstrap")
    doc = json.loads(dump_lift_report(report))
    assert set(doc["metrics"]["overall"]) == {"with", "base", "lift", "ci_low", "ci_high", "n",
                                             "positive_share", "verdict"}
    assert doc["extra"]["verdict_rule"] == {"tie_eps": TIE_EPS, "min_cases": MIN_VERDICT_CASES,
                                            "bootstrap_min_cases": BOOTSTRAP_MIN_CASES}
    assert doc["extra"]["bootstrap_kind"] == "studentized"
    assert doc["extra"]["withheld"]["overall"]["reason"] == "too few cases"
    # A verdict that its interval decided carries no "withheld" entry.
    decided = compute_lift(paired_cases([0.2, 0.25, 0.3, 0.22, 0.27]))
    assert decided.metrics["overall"].verdict == "helps" and not decided.extra.withheld
