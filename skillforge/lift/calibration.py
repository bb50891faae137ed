"""Does a judge agree with the author? Pure statistics over (judge value, author value) pairs.

For one judge model and one metric or rubric criterion, over the items the author labelled:

- `mae` = mean |judge - author|, `bias` = mean (judge - author), on the metric's own scale
  (0-1 for trial metrics, 0-10 for criteria); intervals: the studentized bootstrap of the
  mean (`skillforge.lift.bootstrap.bootstrap_interval`, fixed B and seed, none below its
  minimum of cases);
- `rho`: Spearman's rank correlation (scipy.stats.spearmanr), None when a side is constant;
- `kappa`: Cohen's kappa with quadratic weights over 11 bins (the 0-10 scale, or 0-1 in
  tenths; goal_accuracy's 0 / 0.5 / 1 and pass's 0 / 1 fall on bins 0, 5, 10),
  kappa = 1 - sum(W O) / sum(W E), W_ij = (i - j)^2 / 10^2;
- rho's and kappa's intervals: percentiles of the statistic over the same bootstrap
  resamples of items (B = BOOTSTRAP_RESAMPLES, seed BOOTSTRAP_SEED), none below
  BOOTSTRAP_MIN_CASES labels, as for the mean;
- self-consistency: over contents the same judge judged more than once (same prompt), the
  mean absolute difference between its answers and the share of identical pairs.

Calibration (`fit_mapping`): isotonic regression of the author's value on the judge's
(scipy.optimize.isotonic_regression), cross-validated over `folds` folds of the labels (a
fixed shuffle): each held-out label is predicted by the map fitted on the others
(interpolated between knots, flat beyond them). The map, refitted on every label, is applied
only when its held-out MAE is lower than the raw MAE on the same labels.

numpy and scipy are imported inside the functions, like the rest of the lift statistics.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from skillforge.lift.bootstrap import (
    BOOTSTRAP_MIN_CASES,
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap_interval,
)
from skillforge.lift.stats import CONFIDENCE, mean
from skillforge.models.labels import (
    CalibrationBar,
    IsotonicMapping,
    JudgeAgreement,
    SelfConsistency,
    Status,
    scale_max,
)

BINS = 11  # 0..10
CV_FOLDS = 5
# A map is only fitted on at least this many labels (as many as a bootstrap interval needs).
MIN_MAPPING_LABELS = BOOTSTRAP_MIN_CASES


def to_bins(values: Sequence[float], metric: str) -> list[int]:
    """Values on the metric's scale as bins 0..10 (tenths of a 0-1 scale)."""
    top = scale_max(metric)
    return [min(BINS - 1, max(0, int(round(v / top * (BINS - 1))))) for v in values]


def _kappa_rows(a: Any, b: Any) -> Any:
    """Quadratic-weighted kappa of each row pair of bin arrays (rows, n); NaN where undefined."""
    import numpy as np

    rows, n = a.shape
    flat = (np.arange(rows)[:, None] * BINS * BINS + a * BINS + b).ravel()
    obs = np.bincount(flat, minlength=rows * BINS * BINS).reshape(rows, BINS, BINS) / n
    exp = obs.sum(axis=2)[:, :, None] * obs.sum(axis=1)[:, None, :]
    i = np.arange(BINS)
    w = (i[:, None] - i[None, :]) ** 2 / (BINS - 1) ** 2
    num, den = (w * obs).sum(axis=(1, 2)), (w * exp).sum(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, 1.0 - num / np.where(den > 0, den, 1.0), np.nan)


def weighted_kappa(judge_bins: Sequence[int], author_bins: Sequence[int]) -> float | None:
    """Quadratic-weighted Cohen's kappa of two raters' bins 0..10; None when undefined
    (every item in one bin for both: chance agreement is already perfect)."""
    import numpy as np

    if not judge_bins:
        return None
    k = _kappa_rows(np.array([judge_bins]), np.array([author_bins]))[0]
    return None if math.isnan(k) else float(k)


def _spearman_rows(x: Any, y: Any) -> Any:
    """Spearman's rho of each row pair (rows, n): Pearson on average ranks; NaN if constant."""
    import numpy as np
    from scipy.stats import rankdata

    rx, ry = rankdata(x, axis=1), rankdata(y, axis=1)
    rx, ry = rx - rx.mean(axis=1, keepdims=True), ry - ry.mean(axis=1, keepdims=True)
    den = np.sqrt((rx ** 2).sum(axis=1) * (ry ** 2).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, (rx * ry).sum(axis=1) / np.where(den > 0, den, 1.0), np.nan)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho (scipy.stats.spearmanr); None below 3 items or with a constant side."""
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


def _percentile_ci(stat: Any, confidence: float) -> tuple[float, float] | None:
    import numpy as np

    stat = stat[~np.isnan(stat)]
    if stat.size < 2:
        return None
    alpha = 1.0 - confidence
    lo, hi = np.quantile(stat, (alpha / 2, 1 - alpha / 2))
    return (float(lo), float(hi))


def _resample_index(n: int, resamples: int, seed: int) -> Any:
    import numpy as np

    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def agreement(judge: Sequence[float], author: Sequence[float], *, judge_name: str,
              metric: str, kind: str = "trial", confidence: float = CONFIDENCE,
              resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
              bar: CalibrationBar | None = None) -> JudgeAgreement:
    """Agreement of one judge with the author on one metric (see the module docstring)."""
    import numpy as np

    if len(judge) != len(author):
        raise ValueError(f"{len(judge)} judge values but {len(author)} author values")
    n = len(judge)
    row = JudgeAgreement(judge=judge_name, metric=metric, kind=kind, n=n)  # type: ignore[arg-type]
    if n == 0:
        row.status = status(row, bar or CalibrationBar())
        return row
    diffs = [j - a for j, a in zip(judge, author, strict=True)]
    row.bias, row.mae = mean(diffs), mean([abs(d) for d in diffs])
    row.bias_ci = bootstrap_interval(diffs, confidence, resamples, seed)
    row.mae_ci = bootstrap_interval([abs(d) for d in diffs], confidence, resamples, seed)
    row.rho = spearman(judge, author)
    jb, ab = to_bins(judge, metric), to_bins(author, metric)
    row.kappa = weighted_kappa(jb, ab)
    if n >= BOOTSTRAP_MIN_CASES:
        idx = _resample_index(n, resamples, seed)
        row.kappa_ci = _percentile_ci(_kappa_rows(np.array(jb)[idx], np.array(ab)[idx]),
                                      confidence) if row.kappa is not None else None
        row.rho_ci = _percentile_ci(_spearman_rows(np.array(judge, float)[idx],
                                                   np.array(author, float)[idx]),
                                    confidence) if row.rho is not None else None
    row.status = status(row, bar or CalibrationBar())
    return row


def status(row: JudgeAgreement, bar: CalibrationBar) -> Status:
    """"too few labels" under bar.min_labels; else "not calibrated" when kappa is under
    bar.min_kappa (or undefined), else "calibrated"."""
    if row.n < bar.min_labels:
        return "too few labels"
    if row.kappa is None or row.kappa < bar.min_kappa:
        return "not calibrated"
    return "calibrated"


def self_consistency(repeats: Sequence[Sequence[float]]) -> SelfConsistency:
    """From each content's repeated values by one judge (lists of two or more)."""
    groups = [list(g) for g in repeats if len(g) >= 2]
    if not groups:
        return SelfConsistency()
    pairs = [list(combinations(g, 2)) for g in groups]
    return SelfConsistency(
        n_items=len(groups), n_judgments=sum(len(g) for g in groups),
        mean_abs_diff=mean([mean([abs(a - b) for a, b in p]) or 0.0 for p in pairs]),
        exact_share=mean([1.0 if abs(a - b) < 1e-9 else 0.0 for p in pairs for a, b in p]))


# --- isotonic calibration ------------------------------------------------------------------


def isotonic_knots(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    """The isotonic (non-decreasing) fit of y on x, as knots: each distinct x and its value."""
    import numpy as np
    from scipy.optimize import isotonic_regression

    xs = np.asarray(x, float)
    ys = np.asarray(y, float)
    ux, inverse = np.unique(xs, return_inverse=True)
    weights = np.bincount(inverse).astype(float)
    means = np.bincount(inverse, weights=ys) / weights
    fitted = isotonic_regression(means, weights=weights, increasing=True).x
    return [float(v) for v in ux], [float(v) for v in fitted]


def apply_knots(knots_x: Sequence[float], knots_y: Sequence[float], values: Any) -> Any:
    """The map at `values`: linear between knots, flat beyond them (monotone)."""
    import numpy as np

    return np.interp(np.asarray(values, float), knots_x, knots_y)


def fit_mapping(judge: Sequence[float], author: Sequence[float], *, folds: int = CV_FOLDS,
                seed: int = BOOTSTRAP_SEED) -> IsotonicMapping:
    """Cross-validated isotonic map judge -> author (applied only when it helps held out)."""
    import numpy as np

    n = len(judge)
    if n < MIN_MAPPING_LABELS:
        return IsotonicMapping(note=f"no map: {n} labels, at least {MIN_MAPPING_LABELS} needed "
                                    "to fit and cross-validate one")
    j, a = np.asarray(judge, float), np.asarray(author, float)
    k = min(folds, n)
    fold = np.random.default_rng(seed).permutation(n) % k
    predicted = np.empty(n)
    for f in range(k):
        train, test = fold != f, fold == f
        kx, ky = isotonic_knots(j[train], a[train])
        predicted[test] = apply_knots(kx, ky, j[test])
    raw = float(np.mean(np.abs(j - a)))
    cal = float(np.mean(np.abs(predicted - a)))
    kx, ky = isotonic_knots(j, a)
    applied = cal < raw - 1e-9
    note = (f"applied: held-out MAE {cal:.3g} < raw {raw:.3g} ({k}-fold)" if applied else
            f"not applied: held-out MAE {cal:.3g} is not below raw {raw:.3g} ({k}-fold)")
    return IsotonicMapping(x=kx, y=ky, folds=k, heldout_mae_raw=raw,
                           heldout_mae_calibrated=cal, applied=applied, note=note)


def heldout_errors(judge: Sequence[float], author: Sequence[float],
                   train_judge: Sequence[float], train_author: Sequence[float]) -> dict[str, float]:
    """MAE and bias of raw and calibrated values on held-out labels, the map fitted on the
    training labels only (what the calibration promises: less error on unseen labels)."""
    import numpy as np

    kx, ky = isotonic_knots(train_judge, train_author)
    j, a = np.asarray(judge, float), np.asarray(author, float)
    c = apply_knots(kx, ky, j)
    return {"raw_mae": float(np.mean(np.abs(j - a))), "raw_bias": float(np.mean(j - a)),
            "calibrated_mae": float(np.mean(np.abs(c - a))),
            "calibrated_bias": float(np.mean(c - a))}
