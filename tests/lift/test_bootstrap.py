"""The studentized bootstrap the judges' calibration uses (skillforge.lift.bootstrap) against
the same method written the slow, obvious way, and against scipy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy  # its submodules load on first use, not in every worker's collection

from skillforge.lift.bootstrap import (
    BOOTSTRAP_MIN_CASES,
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap_interval,
)

DELTAS = [0.12, -0.05, 0.30, 0.08, 0.0, 0.22, -0.10, 0.15, 0.05, 0.18]


def t_interval(values):
    d = np.asarray(values)
    return scipy.stats.t.interval(0.95, df=len(d) - 1, loc=d.mean(), scale=scipy.stats.sem(d))


def _bootstrap_t_by_hand(d, seed, resamples=BOOTSTRAP_RESAMPLES, confidence=0.95):
    """The studentized bootstrap written the slow, obvious way (same random draws)."""
    n = len(d)
    idx = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    m, se = d.mean(), d.std(ddof=1) / np.sqrt(n)
    t = []
    for row in idx:
        sample = d[row]
        se_star = sample.std(ddof=1) / np.sqrt(n)
        if se_star > 1e-6 * se:
            t.append((sample.mean() - m) / se_star)
    q_low, q_high = np.quantile(t, [(1 - confidence) / 2, (1 + confidence) / 2])
    return m - q_high * se, m - q_low * se


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bootstrap_is_the_studentized_bootstrap_written_by_hand(seed):
    rng = np.random.default_rng(100 + seed)
    d = rng.normal(0.1, 0.2, size=25)
    assert bootstrap_interval(d.tolist(), seed=seed) == \
        pytest.approx(_bootstrap_t_by_hand(d, seed), abs=1e-12)
    # Discrete deltas: resamples that repeat one value have no t and are left out.
    d = np.array([0.0, 0.5, 0.5, 0.0, 1.0, 0.5, 0.5, 0.5, 0.0, 0.5])
    assert bootstrap_interval(d.tolist(), seed=seed) == \
        pytest.approx(_bootstrap_t_by_hand(d, seed), abs=1e-12)


def test_bootstrap_is_near_the_t_interval_on_normal_data():
    # Both hold their level on normal data, so over 20 data sets of 30 cases the widths
    # agree within a few percent and the centres within a small share of a standard error.
    rng = np.random.default_rng(11)
    ratios, shifts = [], []
    for i in range(20):
        d = rng.normal(0.0, 0.3, size=30)
        low, high = bootstrap_interval(d.tolist(), seed=i)
        t_low, t_high = t_interval(d.tolist())
        se = d.std(ddof=1) / np.sqrt(len(d))
        ratios.append((high - low) / (t_high - t_low))
        shifts.append(((low + high) - (t_low + t_high)) / 2 / se)
    assert np.mean(ratios) == pytest.approx(1.0, abs=0.05)
    assert abs(np.mean(shifts)) < 0.1


def test_bootstrap_is_wider_than_scipys_percentile_bootstrap_at_ten_cases():
    # The percentile bootstrap under-covers at small n because its interval is too narrow.
    rng = np.random.default_rng(5)
    ratios = []
    for i in range(20):
        d = rng.normal(0.0, 0.3, size=BOOTSTRAP_MIN_CASES)
        low, high = bootstrap_interval(d.tolist(), seed=i)
        ref = scipy.stats.bootstrap((d,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES,
                              method="percentile", rng=np.random.default_rng(i))
        ratios.append((high - low) / (ref.confidence_interval.high - ref.confidence_interval.low))
    assert np.mean(ratios) > 1.15


def test_bootstrap_is_refused_below_its_minimum():
    assert bootstrap_interval(DELTAS[: BOOTSTRAP_MIN_CASES - 1]) is None
    assert bootstrap_interval(DELTAS[:BOOTSTRAP_MIN_CASES]) is not None
    assert BOOTSTRAP_SEED == 20260101  # a report recomputed later gives the same interval


def test_bootstrap_is_reproducible_with_the_fixed_seed():
    first = bootstrap_interval(DELTAS)
    assert bootstrap_interval(DELTAS) == first
    assert bootstrap_interval(DELTAS, seed=12345) != first
