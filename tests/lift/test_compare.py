"""Comparing two runs metric by metric, paired by case where both runs have the case."""

from __future__ import annotations

import numpy as np
import pytest

from skillforge.lift.compute import compute_lift
from skillforge.lift.compare import compare_reports, compare_trial_sets
from tests.lift.builders import paired_cases

A = [-0.05, -0.20, 0.15, -0.10, 0.07, -0.14]
# run b: every case gains 0.10 more lift, give or take 0.01
B = [d + 0.10 + e for d, e in zip(A, [0.01, -0.01, 0.0, 0.01, -0.01, 0.0])]


def test_compare_trial_sets_pairs_cases_and_tests_the_change():
    # 40 cases whose lift in run a spreads over [-0.7, 0.5]; run b adds 0.3 +- 0.01 to each
    rng = np.random.default_rng(4)
    a = rng.uniform(-0.7, 0.5, 40)
    b = a + 0.3 + rng.uniform(-0.01, 0.01, 40)
    cmp = compare_trial_sets(paired_cases(list(a), run_id="old"),
                             paired_cases(list(b), run_id="new"), run_a="old", run_b="new")
    row = cmp.metrics["overall"]
    assert (cmp.run_a, cmp.run_b) == ("old", "new")
    assert row.change == pytest.approx(0.3, abs=0.01)
    assert row.n_common == 40
    assert row.verdict_a == "inconclusive"
    # paired by case, the case spread cancels; the interval is the bounded one over the
    # changes' range [-2, 2], so it holds whatever the two runs' deltas look like
    assert row.verdict == "helps" and 0 < row.ci_low < 0.3 < row.ci_high <= 2.0


def test_compare_reports_aligns_metrics_and_lists_unshared_cases():
    a = compute_lift(paired_cases(A[:4], run_id="a"), run_id="a")
    b = compute_lift(paired_cases(B, run_id="b"), run_id="b")
    cmp = compare_reports(a, b)
    assert list(cmp.metrics) == list(a.metrics)
    assert cmp.only_in_a == [] and cmp.only_in_b == ["case-4", "case-5"]
    row = cmp.metrics["overall"]
    assert row.lift_a == pytest.approx(a.metrics["overall"].lift)
    assert row.lift_b == pytest.approx(b.metrics["overall"].lift)
    assert row.n_common == 4
    assert cmp.pass_with == (a.pass_.with_, b.pass_.with_)


def test_reports_without_case_rows_compare_without_intervals():
    a = compute_lift(paired_cases(A), run_id="a")
    b = compute_lift(paired_cases(B), run_id="b")
    a.extra.cases = []
    row = compare_reports(a, b).metrics["overall"]
    assert row.change == pytest.approx(b.metrics["overall"].lift - a.metrics["overall"].lift)
    assert row.ci_low is None and row.verdict is None and row.n_common is None


def test_version_delta_reports_keep_their_labels():
    a = compute_lift(paired_cases(A), baseline_version="v1")
    b = compute_lift(paired_cases(B))
    cmp = compare_reports(a, b)
    assert (cmp.label_a, cmp.label_b) == ("version delta", "Skill Lift")
