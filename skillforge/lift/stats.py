"""The small statistics behind Skill Lift (CONTRACTS.md section 8): pure functions over numbers.

numpy and scipy are imported inside the functions that need them, so importing this module
(and the CLI that imports it) stays cheap; the first CI pays about half a second.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from skillforge.models.lift import Verdict

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
# Fixed so a report recomputed from the same trials gives the same bootstrap interval.
BOOTSTRAP_SEED = 20260101


# Sums of floats carry ~1e-16 noise: a paired delta this close to 0 is a tie, so an equal
# score never shows up as a "negative case" or a "positive share".
TIE_EPS = 1e-9


def is_positive(x: float) -> bool:
    """x > 0 beyond float noise."""
    return x > TIE_EPS


def is_negative(x: float) -> bool:
    """x < 0 beyond float noise."""
    return x < -TIE_EPS


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, None for no values."""
    return math.fsum(values) / len(values) if values else None


def sample_sd(values: Sequence[float]) -> float | None:
    """Sample standard deviation (n - 1 denominator), None below two values."""
    n = len(values)
    if n < 2:
        return None
    m = math.fsum(values) / n
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def sample_var(values: Sequence[float]) -> float | None:
    """Sample variance (n - 1 denominator), None below two values."""
    sd = sample_sd(values)
    return None if sd is None else sd * sd


@lru_cache(maxsize=512)
def t_quantile(p: float, df: int) -> float:
    """Student t quantile t(p, df), e.g. t(0.975, n - 1) for a two-sided 95% interval."""
    if df < 1:
        raise ValueError(f"t quantile needs at least 1 degree of freedom, got {df}")
    from scipy.special import stdtrit  # lazy: scipy costs ~0.5 s to import

    return float(stdtrit(df, p))


def t_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """mean +- t((1+conf)/2, n-1) * sd / sqrt(n) for n >= 2, else None."""
    n = len(values)
    if n < 2:
        return None
    m = math.fsum(values) / n
    sd = sample_sd(values) or 0.0
    half = t_quantile((1.0 + confidence) / 2.0, n - 1) * sd / math.sqrt(n)
    return (m - half, m + half)


def bootstrap_interval(
    values: Sequence[float],
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the mean, resampling cases with replacement (n >= 2)."""
    n = len(values)
    if n < 2:
        return None
    import numpy as np

    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    means = data[idx].mean(axis=1)
    alpha = 1.0 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return (float(low), float(high))


def verdict(ci: tuple[float, float] | None) -> Verdict:
    """helps when the CI's lower bound > 0, hurts when its upper bound < 0, else inconclusive."""
    if ci is None:
        return "inconclusive"
    low, high = ci
    if low > 0:
        return "helps"
    if high < 0:
        return "hurts"
    return "inconclusive"


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one case: 1 - C(n-c, k) / C(n, k) (n attempts, c passes).

    When fewer than k attempts exist, the missing ones count as failed attempts (the same
    fixed-denominator rule as the pass rate), i.e. n is raised to k; so pass@1 always equals
    the case's pass rate and a case with no attempts scores 0.
    """
    if k < 1:
        raise ValueError(f"pass@k needs k >= 1, got {k}")
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= passes <= attempts, got {c} of {n}")
    n = max(n, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def normalised_gain(p_with: float | None, p_base: float | None) -> float | None:
    """g = (p_with - p_base) / (1 - p_base); None when p_base = 1 or a rate is missing."""
    if p_with is None or p_base is None or p_base >= 1.0:
        return None
    return (p_with - p_base) / (1.0 - p_base)


def relative_diff(mean_with: float | None, mean_base: float | None) -> float | None:
    """SkillCraft's Diff = (mean_with - mean_base) / mean_base; None when base is 0 or missing."""
    if mean_with is None or mean_base is None or mean_base == 0:
        return None
    return (mean_with - mean_base) / mean_base
