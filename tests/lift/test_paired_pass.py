"""Pass/fail outcomes as pairs (issue 33): per-side Wilson intervals, Tango's interval of the
paired difference and the exact McNemar test; with several attempts, each case's pass rate."""

from __future__ import annotations

import pytest

from skillforge.lift.compute import compute_lift
from skillforge.lift.proportions import mcnemar_p, tango_interval
from tests.lift.builders import trial

W, B = "with_skill", "baseline"


def _graded(outcomes: list[tuple[float, float]], attempts: int = 1) -> list:
    """One case per (with, base) grade, `attempts` identical attempts per side."""
    out = []
    for i, (w, b) in enumerate(outcomes):
        for a in range(attempts):
            out.append(trial(f"c{i}", W, a, metrics={"security": 1.0}, grader=w))
            out.append(trial(f"c{i}", B, a, metrics={"security": 1.0}, grader=b))
    return out


def test_eight_cases_failing_only_with_the_skill_are_hurts():
    test = compute_lift(_graded([(0.0, 1.0)] * 8)).extra.pass_test
    assert (test.kind, test.n, test.with_only, test.base_only, test.both, test.neither) == \
        ("pairs", 8, 0, 8, 0, 0)
    assert test.p_value == pytest.approx(mcnemar_p(0, 8)) == pytest.approx(2 / 256)
    assert (test.ci_low, test.ci_high) == pytest.approx(tango_interval(0, 8, 8))
    assert test.ci_high == pytest.approx(-0.351, abs=1e-3) and test.verdict == "hurts"
    assert (test.with_.passes, test.base.passes) == (0, 8)
    assert test.with_.ci_low == 0.0 and test.base.ci_high == 1.0
    assert test.interval == "Tango score" and test.test == "exact McNemar"


def test_five_discordant_cases_are_not_enough_whatever_their_direction():
    test = compute_lift(_graded([(1.0, 0.0)] * 5 + [(1.0, 1.0)] * 3)).extra.pass_test
    assert test.p_value == pytest.approx(0.0625) and test.verdict == "inconclusive"


def test_concordant_cases_only_tell_nothing():
    test = compute_lift(_graded([(1.0, 1.0)] * 6 + [(0.0, 0.0)] * 4)).extra.pass_test
    assert (test.with_only, test.base_only, test.diff) == (0, 0, 0.0)
    assert test.p_value == 1.0 and test.verdict == "inconclusive"
    assert test.ci_low < 0 < test.ci_high  # ten cases cannot exclude a rare flip


def test_several_attempts_analyse_each_cases_pass_rate():
    # Two attempts a side: with the skill every case passes both; without, one of two.
    trials = []
    for i in range(10):
        for a in range(2):
            trials.append(trial(f"c{i}", W, a, metrics={"security": 1.0}, grader=1.0))
            trials.append(trial(f"c{i}", B, a, metrics={"security": 1.0},
                                grader=1.0 if a == 0 else 0.0))
    test = compute_lift(trials).extra.pass_test
    assert (test.kind, test.n, test.with_only, test.base_only) == ("rates", 10, 10, 0)
    assert test.diff == pytest.approx(0.5)
    assert test.test == "exact sign test" and test.p_value == pytest.approx(2 / 1024)
    assert test.interval == "bounded betting" and test.ci_low > 0
    assert test.verdict == "helps"
    assert test.with_.value == 1.0 and test.base.value == 0.5


def test_the_verdict_needs_both_the_interval_and_the_exact_test():
    # Seven discordant cases all one way on 30: McNemar p = 0.016, Tango clears 0 -> helps;
    # the same with one the other way: p = 0.07 -> no verdict although Tango may clear 0.
    helps = compute_lift(_graded([(1.0, 0.0)] * 7 + [(1.0, 1.0)] * 23)).extra.pass_test
    assert helps.verdict == "helps"
    mixed = compute_lift(_graded([(1.0, 0.0)] * 7 + [(0.0, 1.0)] + [(1.0, 1.0)] * 22))
    assert mixed.extra.pass_test.p_value > 0.05
    assert mixed.extra.pass_test.verdict == "inconclusive"


def test_a_case_one_side_never_ran_is_not_paired():
    trials = _graded([(1.0, 0.0)] * 6)
    trials.append(trial("alone", W, 0, metrics={"security": 1.0}, grader=1.0))
    assert compute_lift(trials).extra.pass_test.n == 6
