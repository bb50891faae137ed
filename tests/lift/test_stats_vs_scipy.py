"""The lift CI formulas agree with scipy.stats (and, for the default skew-t interval, with
Hall's transformation inverted numerically by scipy.optimize) on the same data."""

from __future__ import annotations

import numpy as np
import pytest
import scipy  # its submodules load on first use, not in every worker's collection

from skillforge.lift.compute import compute_lift
from skillforge.lift.bootstrap import (
    BOOTSTRAP_MIN_CASES,
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap_interval,
)
from skillforge.lift.intervals import lift_interval
from skillforge.lift.skew_t import SKEW_MIN_CASES, skew_t_interval
from skillforge.lift.stats import t_interval, t_quantile, verdict
from tests.lift.builders import paired_cases

DELTAS = [0.12, -0.05, 0.30, 0.08, 0.0, 0.22, -0.10, 0.15, 0.05, 0.18]


@pytest.mark.parametrize("df", [1, 2, 5, 19, 99])
def test_t_quantile_is_scipys(df):
    assert t_quantile(0.975, df) == pytest.approx(scipy.stats.t.ppf(0.975, df), rel=1e-12)


def test_t_interval_matches_scipy_t_interval_and_ttest():
    d = np.array(DELTAS)
    low, high = t_interval(DELTAS)
    ref = scipy.stats.t.interval(0.95, df=len(d) - 1, loc=d.mean(), scale=scipy.stats.sem(d))
    assert (low, high) == pytest.approx(ref, abs=1e-12)
    tt = scipy.stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert (low, high) == pytest.approx((tt.low, tt.high), abs=1e-12)


def test_t_interval_needs_two_cases():
    assert t_interval([]) is None
    assert t_interval([0.3]) is None
    assert verdict(None, 1) == "inconclusive"


def _skew_t_by_hand(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The skew-t interval from its definition, computed another way: g1 from
    scipy.stats.skew, a = g1 / (3 sqrt(n)) capped at +-1 / (4q), Hall's
    g(T) = T + a T^2 + a^2 T^3 / 3 + b (b = a / 2) solved for T = +-q with brentq (no
    closed-form inverse), then the union with scipy's t interval."""
    n = len(d)
    q = scipy.stats.t.ppf((1 + confidence) / 2, n - 1)
    t_low, t_high = scipy.stats.t.interval(confidence, df=n - 1, loc=d.mean(),
                                           scale=scipy.stats.sem(d))
    if n < SKEW_MIN_CASES:
        return t_low, t_high
    g1 = scipy.stats.skew(d)  # bias=True: m3 / m2^1.5
    a = float(np.clip(g1 / (3 * np.sqrt(n)), -0.25 / q, 0.25 / q))
    b = a / 2

    def solve(y):
        return scipy.optimize.brentq(lambda t: t + a * t**2 + a**2 * t**3 / 3 + b - y, -1e3, 1e3,
                               xtol=1e-14, rtol=1e-14)

    se = scipy.stats.sem(d)
    return min(t_low, d.mean() - se * solve(q)), max(t_high, d.mean() - se * solve(-q))


SKEWED = [0.0, 0.05, -0.1, 0.02, 0.6, 0.0, 0.1, -0.05, 0.9, 0.03]


@pytest.mark.parametrize("deltas", [DELTAS, SKEWED, [-x for x in SKEWED], SKEWED[:5],
                                    SKEWED[:4], [0.5, 0.0, 0.5, 1.0, 0.5, 0.0, 1.0]])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_skew_t_interval_is_halls_transformation_joined_with_the_t_interval(deltas,
                                                                              confidence):
    d = np.array(deltas)
    assert skew_t_interval(deltas, confidence) == \
        pytest.approx(_skew_t_by_hand(d, confidence), abs=1e-10)


def test_skew_t_moves_only_the_long_side_out():
    t_low, t_high = t_interval(SKEWED)
    low, high = skew_t_interval(SKEWED)
    assert scipy.stats.skew(SKEWED) > 1  # a few large gains
    assert low == pytest.approx(t_low, abs=1e-12) and high > t_high + 0.05
    mirrored = skew_t_interval([-x for x in SKEWED])
    assert mirrored == pytest.approx((-high, -low), abs=1e-12)


def test_skew_t_is_the_t_interval_without_skewness_or_below_five_values():
    symmetric = [-0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4]
    assert skew_t_interval(symmetric) == pytest.approx(t_interval(symmetric), abs=1e-12)
    for n in (2, 3, 4):
        assert skew_t_interval(SKEWED[:n]) == pytest.approx(t_interval(SKEWED[:n]), abs=1e-12)
    assert skew_t_interval([0.3] * 6) == pytest.approx((0.3, 0.3))  # no spread: zero width
    assert skew_t_interval([0.3]) is None and skew_t_interval([]) is None


def test_lift_report_uses_the_skew_t_interval_by_default_and_t_on_request():
    for deltas in (DELTAS, SKEWED):
        d = np.array(deltas)
        row = compute_lift(paired_cases(deltas)).metrics["overall"]
        assert (row.ci_low, row.ci_high) == pytest.approx(_skew_t_by_hand(d), abs=1e-9)
        assert compute_lift(paired_cases(deltas)).extra.ci_method == "skew-t"
        t_row = compute_lift(paired_cases(deltas), ci="t").metrics["overall"]
        ref = scipy.stats.t.interval(0.95, df=len(d) - 1, loc=d.mean(), scale=scipy.stats.sem(d))
        assert (t_row.ci_low, t_row.ci_high) == pytest.approx(ref, abs=1e-9)
        assert row.lift == t_row.lift == pytest.approx(d.mean())
    row = compute_lift(paired_cases(DELTAS)).metrics["overall"]
    assert row.n == 10
    assert row.positive_share == pytest.approx(7 / 10)  # 0.0 is not positive
    assert row.verdict == ("helps" if row.ci_low > 0 else "inconclusive")
    assert lift_interval(DELTAS) == skew_t_interval(DELTAS)


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
    # the whole report, whatever order the trials arrive in
    trials = paired_cases(DELTAS)
    a = compute_lift(trials, ci="bootstrap").metrics["overall"]
    b = compute_lift(list(reversed(trials)), ci="bootstrap").metrics["overall"]
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)
    assert a.ci_low < a.lift < a.ci_high


def test_unknown_ci_method_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="'skew-t', 't', 'bootstrap'"):
        compute_lift(paired_cases(DELTAS), ci="bca")  # type: ignore[arg-type]
