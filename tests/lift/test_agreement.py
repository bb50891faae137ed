"""Agreement between several judge models on the same trials."""

from __future__ import annotations

import pytest

from skillforge.lift.agreement import judge_agreement, krippendorff_alpha_interval


def test_krippendorff_alpha_on_the_published_example():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 coders, 12 units,
    # missing values allowed; the paper gives alpha = 0.849 for the interval metric.
    coders = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [[c[u] for c in coders if c[u] is not None] for u in range(12)]
    assert krippendorff_alpha_interval(units) == pytest.approx(0.849, abs=5e-4)


def test_alpha_hand_computed_two_judges():
    # Units (0, 1) and (1, 1): n = 4 pairable values.
    # D_o = (1/4) * [ (2 * 1^2) / 1 + 0 ] = 0.5
    # D_e = (1/(4*3)) * sum over ordered pairs of all 4 values {0,1,1,1}: 6 pairs differ by 1
    #     = 6/12 = 0.5  -> alpha = 1 - 0.5/0.5 = 0
    assert krippendorff_alpha_interval([[0, 1], [1, 1]]) == pytest.approx(0.0)
    # perfect agreement with variation: alpha = 1; no variation at all: undefined
    assert krippendorff_alpha_interval([[0, 0], [1, 1], [0.5, 0.5]]) == pytest.approx(1.0)
    assert krippendorff_alpha_interval([[1, 1], [1, 1]]) is None
    assert krippendorff_alpha_interval([[1], [0]]) is None


def test_judge_agreement_per_metric():
    scores = {
        "judge-a": {
            "t1": {"goal_accuracy": 1.0, "accuracy": 0.8},
            "t2": {"goal_accuracy": 0.5, "accuracy": 0.6},
            "t3": {"goal_accuracy": 0.0, "accuracy": None},
        },
        "judge-b": {
            "t1": {"goal_accuracy": 1.0, "accuracy": 0.7},
            "t2": {"goal_accuracy": 0.0, "accuracy": 0.6},
            "t3": {"goal_accuracy": 0.0, "accuracy": 0.3},
        },
    }
    report = judge_agreement(scores)
    assert report.judges == ["judge-a", "judge-b"]
    goal = report.metrics["goal_accuracy"]
    # |1-1|, |0.5-0|, |0-0| -> mean 1/6; two of three items agree exactly
    assert goal.n_items == 3
    assert goal.mean_abs_diff == pytest.approx(0.5 / 3)
    assert goal.percent_agreement == pytest.approx(2 / 3)
    assert goal.max_abs_diff == pytest.approx(0.5)
    acc = report.metrics["accuracy"]
    # t3 has one judge only -> not pairable; |0.8-0.7| and 0 -> mean 0.05
    assert acc.n_items == 2
    assert acc.mean_abs_diff == pytest.approx(0.05)
    assert acc.percent_agreement is None  # continuous scores: no exact-agreement share
    assert acc.alpha is not None


def test_three_judges_pairwise():
    scores = {j: {"t1": {"goal_accuracy": v}} for j, v in zip("abc", (1.0, 1.0, 0.0))}
    goal = judge_agreement(scores).metrics["goal_accuracy"]
    # pairs (a,b) agree, (a,c) and (b,c) differ by 1 -> agreement 1/3, mean |diff| 2/3
    assert goal.n_judges == 3
    assert goal.percent_agreement == pytest.approx(1 / 3)
    assert goal.mean_abs_diff == pytest.approx(2 / 3)
