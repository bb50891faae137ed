"""The small statistics behind Skill Lift (CONTRACTS.md section 8): pure functions over numbers.

The interval itself is skillforge.lift.betting's (valid for any distribution on the metric's
range); pass/fail pairs are skillforge.lift.proportions'. Nothing here imports numpy or
scipy, so importing this module (and the CLI that imports it) stays cheap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from skillforge.models.lift import Verdict

CONFIDENCE = 0.95

# Sums of floats carry ~1e-16 noise: a paired delta (or a CI bound) this close to 0 is a tie,
# so an equal score never shows up as a "negative case", a "positive share" or a verdict.
TIE_EPS = 1e-9
# A verdict other than inconclusive needs this many paired cases. The bounded interval holds
# its level at any n, but below 6 cases no sample can exclude 0 at 95% whatever its values
# (five deltas of +1 leave room for a 52% mass at -1; five discordant pairs all one way give
# McNemar's p = 0.0625), so the rule says so in words, with the cases that would settle it.
MIN_VERDICT_CASES = 6
# A paired pass/fail verdict also needs its exact test (McNemar, or the sign test) below this.
ALPHA = 1.0 - CONFIDENCE


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


def verdict_withheld(ci: tuple[float, float] | None, n: int) -> str | None:
    """Why the CI of n paired cases may not give helps/hurts (None when it may): "too few
    cases" below MIN_VERDICT_CASES, "no interval" without one.

    Equal deltas are evidence like any others: the bounded interval of eight -1s is
    [-1, -0.26], so they read "hurts" (the t interval gave them zero width and no verdict).
    """
    if n < MIN_VERDICT_CASES:
        return "too few cases"
    if ci is None:
        return "no interval"
    return None


def verdict(ci: tuple[float, float] | None, n: int) -> Verdict:
    """helps when the CI's lower bound > TIE_EPS, hurts when its upper bound < -TIE_EPS, else
    inconclusive; always inconclusive when `verdict_withheld` gives a reason."""
    if ci is None or verdict_withheld(ci, n) is not None:
        return "inconclusive"
    low, high = ci
    if is_positive(low):
        return "helps"
    if is_negative(high):
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
