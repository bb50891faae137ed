"""The lift CI formulas agree with scipy.stats on the same data."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from skillforge.lift.compute import compute_lift
from skillforge.lift.stats import (
    BOOTSTRAP_RESAMPLES,
    bootstrap_interval,
    t_interval,
    t_quantile,
    verdict,
)
from tests.lift.builders import paired_cases

DELTAS = [0.12, -0.05, 0.30, 0.08, 0.0, 0.22, -0.10, 0.15, 0.05, 0.18]


@pytest.mark.parametrize("df", [1, 2, 5, 19, 99])
def test_t_quantile_is_scipys(df):
    assert t_quantile(0.975, df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-12)


def test_t_interval_matches_scipy_t_interval_and_ttest():
    d = np.array(DELTAS)
    low, high = t_interval(DELTAS)
    ref = stats.t.interval(0.95, df=len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert (low, high) == pytest.approx(ref, abs=1e-12)
    tt = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert (low, high) == pytest.approx((tt.low, tt.high), abs=1e-12)


def test_t_interval_needs_two_cases():
    assert t_interval([]) is None
    assert t_interval([0.3]) is None
    assert verdict(None) == "inconclusive"


def test_lift_report_uses_the_t_interval():
    report = compute_lift(paired_cases(DELTAS))
    row = report.metrics["overall"]
    d = np.array(DELTAS)
    ref = stats.t.interval(0.95, df=len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert row.lift == pytest.approx(d.mean())
    assert (row.ci_low, row.ci_high) == pytest.approx(ref, abs=1e-9)
    assert row.n == 10
    assert row.positive_share == pytest.approx(7 / 10)  # 0.0 is not positive
    assert row.verdict == ("helps" if ref[0] > 0 else "inconclusive")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bootstrap_close_to_scipy_percentile_bootstrap(seed):
    # The RNG streams differ, so the bounds agree only up to Monte-Carlo error: with
    # B = 2000 the error of a 2.5% percentile is about 0.06 standard errors of the mean.
    rng = np.random.default_rng(100 + seed)
    d = rng.normal(0.1, 0.2, size=25)
    ours = bootstrap_interval(d.tolist(), seed=seed)
    ref = stats.bootstrap(
        (d,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES, method="percentile",
        confidence_level=0.95, rng=np.random.default_rng(seed),
    ).confidence_interval
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert ours[0] == pytest.approx(ref.low, abs=0.25 * se)
    assert ours[1] == pytest.approx(ref.high, abs=0.25 * se)
    # And both are near the t interval (a percentile bootstrap is slightly narrower).
    t_low, t_high = t_interval(d.tolist())
    assert abs(ours[0] - t_low) < 0.5 * se and abs(ours[1] - t_high) < 0.5 * se


def test_bootstrap_width_matches_scipy_on_average():
    # Averaged over 20 data sets the Monte-Carlo noise shrinks ~4.5x, so a systematic error
    # of a few percent in the bounds (a wrong percentile, a shrunk resample) shows up.
    rng = np.random.default_rng(11)
    ratios, shifts = [], []
    for i in range(20):
        d = rng.normal(0.0, 0.3, size=30)
        low, high = bootstrap_interval(d.tolist(), seed=i)
        ref = stats.bootstrap((d,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES,
                              method="percentile", rng=np.random.default_rng(1000 + i))
        ci = ref.confidence_interval
        se = d.std(ddof=1) / np.sqrt(len(d))
        ratios.append((high - low) / (ci.high - ci.low))
        shifts.append(((low + high) - (ci.low + ci.high)) / 2 / se)
    assert np.mean(ratios) == pytest.approx(1.0, abs=0.03)
    assert abs(np.mean(shifts)) < 0.05


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
    with pytest.raises(ValueError, match="'t' or 'bootstrap'"):
        compute_lift(paired_cases(DELTAS), ci="bca")  # type: ignore[arg-type]
