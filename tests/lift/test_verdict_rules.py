"""No verdict from noise, and no excuse for evidence (issues 15 and 33): a tie tolerance, a
minimum of cases, equal deltas as evidence, and withdrawn intervals refused by name."""

from __future__ import annotations

import json

import pytest

from skillforge.lift.compute import compute_lift
from skillforge.lift.intervals import check_ci_method
from skillforge.lift.stats import ALPHA, MIN_VERDICT_CASES, TIE_EPS, verdict
from skillforge.models.lift import dump_lift_report, parse_lift_report
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


def test_eight_deltas_of_minus_one_are_harm_not_a_zero_width_excuse():
    # The uniform-harm run of issue 33: the grader went 1 -> 0 on all 8 cases. The t
    # interval gave them zero width and "inconclusive"; they are the strongest evidence of
    # harm a grader can give.
    report = compute_lift(paired_cases([-1.0] * 8, base=1.0))
    row = report.metrics["overall"]
    assert row.verdict == "hurts" and not report.extra.withheld
    assert row.ci_low == pytest.approx(-1.0) and row.ci_high < -0.2
    # ... and eight equal small gains are an interval like any other, not a reason to stop
    small = compute_lift(paired_cases([0.2] * 8)).metrics["overall"]
    assert small.ci_high - small.ci_low > 0.5 and small.verdict == "inconclusive"


def test_two_equal_deltas_are_too_few_cases_not_a_zero_width_helps():
    report = compute_lift(paired_cases([0.3, 0.3]))
    row = report.metrics["overall"]
    assert row.ci_low < 0 < 0.3 < row.ci_high  # two values cannot exclude a hidden mass
    assert row.verdict == "inconclusive"
    withheld = report.extra.withheld["overall"]
    assert withheld.reason == "too few cases" and withheld.n == 2
    assert withheld.cases_needed == report.extra.plans["overall"].cases_needed
    assert withheld.cases_needed > MIN_VERDICT_CASES
    assert withheld.note.startswith("inconclusive: too few cases (2 paired; a verdict needs "
                                    f"at least {MIN_VERDICT_CASES})")


def test_no_sample_below_the_minimum_could_decide_anyway():
    # The rule only names what the interval already says: five deltas of +1 (the most a
    # sample can show) leave the lower bound below 0; six do not.
    five = compute_lift(paired_cases([1.0] * 5, base=0.0)).metrics["overall"]
    six = compute_lift(paired_cases([1.0] * 6, base=0.0)).metrics["overall"]
    assert five.ci_low < 0 and five.verdict == "inconclusive"
    assert six.ci_low > 0 and six.verdict == "helps" and MIN_VERDICT_CASES == 6


def test_below_the_minimum_the_planner_number_is_given():
    report = compute_lift(paired_cases([0.3, 0.1, 0.5]))
    withheld = report.extra.withheld["overall"]
    plan = report.extra.plans["overall"]
    assert withheld.cases_needed == plan.cases_needed > MIN_VERDICT_CASES
    assert f"about {plan.cases_needed} cases needed for ±0.05" in withheld.note


@pytest.mark.parametrize("method", ["t", "skew-t", "bootstrap"])
def test_the_withdrawn_intervals_are_refused_saying_why(method):
    with pytest.raises(ValueError, match=f"the {method} interval was withdrawn: it "
                                         "under-covers"):
        check_ci_method(method)
    with pytest.raises(ValueError, match="withdrawn"):
        compute_lift(paired_cases([0.1, 0.2]), ci=method)  # type: ignore[arg-type]


def test_a_lift_json_written_with_a_withdrawn_interval_still_reads():
    old = json.loads(dump_lift_report(compute_lift(paired_cases([0.3, 0.3]))))
    old["extra"].update(ci_method="bootstrap", bootstrap_kind="studentized",
                        bootstrap_resamples=2000, bootstrap_seed=1)
    old["extra"]["verdict_rule"]["bootstrap_min_cases"] = 10
    old["extra"]["withheld"]["overall"]["reason"] = "zero-width interval"
    report = parse_lift_report(json.dumps(old))
    assert report.extra.ci_method == "bootstrap"
    assert report.extra.verdict_rule.bootstrap_min_cases == 10


def test_lift_json_states_the_rule_under_extra_and_keeps_its_shape():
    report = compute_lift(paired_cases([0.3, 0.3]))
    doc = json.loads(dump_lift_report(report))
    assert set(doc["metrics"]["overall"]) == {"with", "base", "lift", "ci_low", "ci_high", "n",
                                             "positive_share", "verdict"}
    assert doc["extra"]["verdict_rule"] == {"tie_eps": TIE_EPS, "min_cases": MIN_VERDICT_CASES,
                                            "alpha": ALPHA}
    assert doc["extra"]["ci_method"] == "bounded"
    assert doc["extra"]["withheld"]["overall"]["reason"] == "too few cases"
    # A verdict that its interval decided carries no "withheld" entry.
    decided = compute_lift(paired_cases([0.8, 0.82, 0.78, 0.8, 0.81, 0.79, 0.8, 0.8],
                                        base=0.1))
    assert decided.metrics["overall"].verdict == "helps" and not decided.extra.withheld
