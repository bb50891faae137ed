"""The anytime-valid statistics of --until-decided (skillforge.lift.sequential, issue 38).

Properties that hold for any data (Hypothesis), the martingale property of the discordant
pairs' e-value computed exactly, validity on a case set whose cases differ (the reason the
bet is the same for every case of a round), and the fixed examples a reader can check.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillforge.lift.sequential import (
    discordant_decision,
    e_value,
    log_mixture_e,
    sequence_bounds,
    sequence_interval,
)
from tests.hypothesis_budget import examples
from tests.lift.stopping_sim import MARGIN, sequential_metric

VALUE = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def runs(draw):
    """A run's rounds: R rounds of N cases' deltas in [-1, 1], some missing (None)."""
    n = draw(st.integers(1, 6))
    r = draw(st.integers(1, 5))
    cell = st.one_of(VALUE, st.sampled_from([-1.0, 0.0, 1.0, 0.5]), st.none())
    return [[draw(cell) for _ in range(n)] for _ in range(r)]


@settings(max_examples=examples(200), deadline=None)
@given(runs(), st.integers(0, 3))
def test_the_sequence_never_widens_and_stays_in_range(rounds, extra):
    horizon = len(rounds) + extra
    bounds = sequence_interval(rounds, horizon)
    assert len(bounds) == len(rounds)
    for (low, high), (low2, high2) in zip(bounds, bounds[1:]):
        assert low2 >= low - 1e-12 and high2 <= high + 1e-12
    for low, high in bounds:
        assert -1.0 <= low <= high <= 1.0


@settings(max_examples=examples(200), deadline=None)
@given(runs(), st.integers(0, 3))
def test_a_round_s_interval_does_not_depend_on_later_rounds(rounds, extra):
    # predictable bets: what the run printed after round r is what a report recomputes later
    horizon = len(rounds) + extra
    full = sequence_interval(rounds, horizon)
    for r in range(1, len(rounds)):
        np.testing.assert_allclose(sequence_interval(rounds[:r], horizon), full[:r],
                                   atol=1e-12)


@settings(max_examples=examples(150), deadline=None)
@given(runs(), st.randoms(use_true_random=False))
def test_the_order_of_cases_within_a_round_does_not_matter(rounds, rnd):
    shuffled = [rnd.sample(row, len(row)) for row in rounds]
    np.testing.assert_allclose(sequence_interval(shuffled, len(rounds)),
                               sequence_interval(rounds, len(rounds)), atol=1e-9)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 60))
def test_the_discordant_e_value_has_mean_one_under_no_effect(k):
    # E[E_k] = 1 when each discordant pair is a fair coin: the martingale Ville's inequality
    # needs, exactly (a sum over the binomial distribution of with-only pairs)
    s = np.arange(k + 1)
    log_weights = np.array([math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1)
                            for i in s]) - k * math.log(2.0)
    assert float(np.exp(log_weights + log_mixture_e(s, k)).sum()) == pytest.approx(1.0)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 40), st.integers(0, 40))
def test_the_discordant_test_is_symmetric_and_says_the_direction(w, b):
    assert e_value(w, b) == pytest.approx(e_value(b, w))
    d = int(discordant_decision(w, b))
    assert d == -int(discordant_decision(b, w))
    if d:
        assert np.sign(w - b) == d and e_value(w, b) >= 20 - 1e-9


def test_fixed_examples():
    # 8 cases failing only with the skill: the e-value passes 20 (McNemar's p was 0.0078)
    assert discordant_decision(0, 8) == -1 and e_value(0, 8) == pytest.approx(50.27, abs=0.01)
    # 5 of 5 one way is not enough, as at a fixed n (p = 0.0625)
    assert discordant_decision(5, 0) == 0
    # eight deltas of -1 in the first of 3 planned rounds: decided harm at once
    low, high = sequence_interval([[-1.0] * 8], 3)[0]
    assert low == -1.0 and high < -0.2


def test_a_true_lift_of_zero_over_cases_that_differ_gives_at_most_5_percent_verdicts():
    # The case set's lift is 0, but half the cases gain 0.4 and half lose 0.4 on average:
    # not identically distributed, which the round-wise bet is built for.
    rng = np.random.default_rng(381)
    runs_, rounds, cases = 500, 10, 10
    means = np.where(np.arange(cases) % 2 == 0, 0.4, -0.4)
    # clipping a symmetric noise around +0.4 and -0.4 keeps the two means opposite: lift 0
    d = np.clip(means[None, None, :] + rng.normal(0, 0.3, (runs_, rounds, cases)), -1, 1)
    low, high = sequence_bounds(d)
    ever = ((low > 1e-9) | (high < -1e-9)).any(axis=1)
    assert ever.mean() <= 0.05
    # and the interval does close in on 0 as rounds go by (the cases' spread is not noise)
    assert (high - low)[:, -1].mean() < 0.5 * (high - low)[:, 0].mean()


def test_the_simulation_s_rule_matches_its_parts():
    # the stop is the first round that is decided or narrower than the margin
    d = np.full((2, 4, 8), -1.0)
    d[1] = 0.0
    used, verdict = sequential_metric(d)
    assert list(used) == [1, 4] and list(verdict) == [-1, 0]
    assert MARGIN == 0.05
