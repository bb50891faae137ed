"""The lift's statistics against independent computations: the betting interval against its
definition evaluated on a grid, Tango's interval against a grid inversion of its score
statistic, exact McNemar, Fisher and Wilson against scipy.stats; and properties that must
hold for any data (Hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy  # its submodules load on first use, not in every worker's collection
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skillforge.lift.betting import BET_CAP, PERMUTATIONS, _orders, bounded_interval
from skillforge.lift.compute import compute_lift
from skillforge.lift.intervals import lift_interval
from skillforge.lift.proportions import fisher_p, mcnemar_p, tango_interval, wilson
from tests.hypothesis_budget import examples
from tests.lift.builders import paired_cases

DELTAS = [0.12, -0.05, 0.30, 0.08, 0.0, 0.22, -0.10, 0.15, 0.05, 0.18]
GRID = 20_001


def _betting_by_grid(values, low=-1.0, high=1.0, confidence=0.95):
    """The hedged-capital interval from its definition, the slow way: every candidate mean on
    a grid, every order, every round, in plain Python floats."""
    x = [(v - low) / (high - low) for v in values]
    n, alpha = len(x), 1 - confidence
    orders = _orders(n, PERMUTATIONS).tolist()
    bets = []
    for order in orders:
        xs = [x[i] for i in order]
        row, total, sq = [], 0.0, 0.0
        for t in range(n):
            sigma2 = 0.25 if t == 0 else (0.25 + sq) / (t + 1)
            row.append(math.sqrt(2 * math.log(2 / alpha) / (n * sigma2)))
            total += xs[t]
            mu = (0.5 + total) / (t + 2)
            sq += (xs[t] - mu) ** 2
        bets.append((xs, row))

    def capital(m, side):
        out = []
        for xs, row in bets:
            room = m if side > 0 else 1 - m
            logk = sum(math.log1p(side * min(lam, BET_CAP / room) * (xi - m))
                       for xi, lam in zip(xs, row))
            out.append(math.exp(logk))
        return sum(out) / len(out)

    kept = [m for m in np.linspace(1e-9, 1 - 1e-9, GRID)
            if capital(m, +1) < 2 / alpha and capital(m, -1) < 2 / alpha]
    return low + (high - low) * kept[0], low + (high - low) * kept[-1]


@pytest.mark.parametrize("values", [DELTAS, [1.0] * 8, [-1.0] * 8, [0.0] * 6,
                                    [1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
                                    [0.5, -0.5, 0.25, 1.0, -1.0, 0.0, 0.75]])
def test_the_betting_interval_is_its_definition(values):
    step = 2.0 / (GRID - 1)
    low, high = bounded_interval(values)
    ref_low, ref_high = _betting_by_grid(values)
    assert low == pytest.approx(ref_low, abs=1.5 * step)
    assert high == pytest.approx(ref_high, abs=1.5 * step)


def test_the_range_is_the_metrics_own():
    # A change of lift lives in [-2, 2]: the same values on a wider range give a wider
    # interval (a larger mass could hide at the far ends).
    narrow = bounded_interval(DELTAS)
    wide = bounded_interval(DELTAS, -2.0, 2.0)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]
    assert bounded_interval(DELTAS, -2.0, 2.0) == pytest.approx(
        _betting_by_grid(DELTAS, -2.0, 2.0), abs=4 * 2.0 / (GRID - 1))


def test_the_lift_uses_the_bounded_interval():
    row = compute_lift(paired_cases(DELTAS)).metrics["overall"]
    assert (row.ci_low, row.ci_high) == pytest.approx(bounded_interval(DELTAS), abs=1e-12)
    assert lift_interval(DELTAS) == bounded_interval(DELTAS)
    assert row.lift == pytest.approx(np.mean(DELTAS))
    assert row.positive_share == pytest.approx(7 / 10)  # 0.0 is not positive
    assert compute_lift(paired_cases(DELTAS)).extra.ci_method == "bounded"


delta = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(delta, min_size=1, max_size=40))
@example([1.0] * 6)
@example([-1.0, 1.0])
@example([0.0])
def test_any_data_gives_an_interval_inside_the_range_around_the_mean_and_its_mirror(values):
    low, high = bounded_interval(values)
    mean = math.fsum(values) / len(values)
    assert -1.0 <= low <= mean + 1e-9 and mean - 1e-9 <= high <= 1.0
    # the mapping x -> -x swaps the two bettors exactly: the interval mirrors
    m_low, m_high = bounded_interval([-v for v in values])
    assert (m_low, m_high) == pytest.approx((-high, -low), abs=1e-8)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(delta, min_size=2, max_size=30), st.floats(min_value=0.01, max_value=0.5))
def test_moving_every_value_up_never_moves_the_lower_bound_down(values, shift):
    # Each bettor's capital is monotone in each value, so a sample that is better
    # everywhere cannot be judged worse.
    up = [min(1.0, v + shift) for v in values]
    assert bounded_interval(up)[0] >= bounded_interval(values)[0] - 1e-8


def _tango_by_grid(b, c, n, confidence=0.95):
    z = scipy.stats.norm.ppf(0.5 + confidence / 2)
    kept = []
    for d in np.linspace(-1, 1, 40_001):
        a2, bq, cq = 2 * n, -b - c + (2 * n - b + c) * d, -c * d * (1 - d)
        q = (math.sqrt(max(bq * bq - 4 * a2 * cq, 0.0)) - bq) / (2 * a2)
        var = n * (2 * q + d * (1 - d))
        num = b - c - n * d
        if var <= 1e-15:
            ok = abs(num) < 1e-12
        else:
            ok = abs(num / math.sqrt(var)) <= z
        if ok:
            kept.append(d)
    return kept[0], kept[-1]


@pytest.mark.parametrize(("b", "c", "n"), [(0, 8, 8), (0, 0, 5), (7, 0, 10), (3, 2, 12),
                                           (5, 1, 30), (0, 1, 6), (10, 10, 20)])
def test_tango_is_its_score_statistic_inverted(b, c, n):
    low, high = tango_interval(b, c, n)
    ref = _tango_by_grid(b, c, n)
    assert (low, high) == pytest.approx(ref, abs=1e-4)
    assert -1.0 <= low <= (b - c) / n <= high <= 1.0


@pytest.mark.parametrize(("b", "c"), [(0, 8), (0, 5), (3, 3), (7, 1), (12, 30), (0, 0)])
def test_mcnemar_is_scipys_exact_binomial_test(b, c):
    ref = scipy.stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0
    assert mcnemar_p(b, c) == pytest.approx(ref, rel=1e-12)


def test_eight_cases_failing_only_with_the_skill_are_significant_five_are_not():
    assert mcnemar_p(0, 8) == pytest.approx(2 / 256)
    assert mcnemar_p(0, 5) == pytest.approx(0.0625)


@pytest.mark.parametrize("table", [(3, 8, 0, 8), (15, 27, 0, 27), (2, 10, 5, 10),
                                   (0, 5, 0, 5), (1, 24, 1, 24), (9, 9, 0, 12)])
def test_fisher_is_scipys(table):
    x1, n1, x2, n2 = table
    ref = scipy.stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]]).pvalue
    assert fisher_p(*table) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize(("k", "n"), [(0, 8), (8, 8), (3, 10), (1, 1), (17, 40)])
def test_wilson_is_scipys(k, n):
    ref = scipy.stats.binomtest(k, n).proportion_ci(method="wilsoncc")
    got = wilson(k, n)
    assert (got.ci_low, got.ci_high) == pytest.approx((ref.low, ref.high), abs=1e-12)
