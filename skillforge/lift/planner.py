"""Sample-size planner: how many cases (or attempts) a CI half-width target needs.

Cases. The t interval is mean +- t(0.975, n-1) * sd / sqrt(n), with sd the spread of the
paired deltas D(i, m) seen so far. The default skew-t interval (skillforge.lift.skew_t) is
that interval widened on the skewed side by Hall's transformation; its half-width (width / 2)
at n cases is sd / sqrt(n) * (upper - lower) / 2, with (upper, lower) = skew_t_offsets(g1, n),
g1 the skewness of the deltas seen so far (assumed to stay), and equals the t half-width when
g1 = 0. The planner returns the smallest n whose half-width is <= h (h = 0.05 by default) for
the report's interval (the bootstrap is planned as the t interval); the half-width depends on
n through t and g1 / sqrt(n), so it searches upward from the t interval's answer, itself
searched upward from the normal-approximation bound, which is always below it.

Attempts. A case's delta averages a attempts per side, so its variance splits into a
between-case part and a within-case part (a one-way random-effects model per side):

    y(i, c, a) = mu(i, c) + e,  Var(e) = s2_c        (attempt noise within a case, side c)
    delta_i = mu(i, with) - mu(i, base),  Var over cases = tau2   (real case-to-case spread)
    Var(D_i) = tau2 + s2_with / a_with + s2_base / a_base

s2_c is the pooled within-case variance of the metric over cases with two or more attempts
on side c; tau2 = max(0, Var(D) - s2_with / A_with - s2_base / A_base) with A_c the harmonic
mean of attempts per case (the variance scales with 1/a, so the harmonic mean is the right
average). With a attempts on both sides, the half-width at n cases is
t(0.975, n-1) * sqrt((tau2 + (s2_with + s2_base) / a) / n) for the t interval (times the
skew-t factor (upper - lower) / (2 t) for the default). More attempts only shrink the
within-case part: when the half-width at tau2 alone already exceeds h, only more cases help.

Verdicts. A verdict needs at least MIN_VERDICT_CASES paired cases (skillforge.lift.stats),
so no plan asks for fewer cases than that, however small the spread.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from skillforge.lift.intervals import DEFAULT_CI
from skillforge.lift.skew_t import skew_t_offsets, skewness
from skillforge.lift.stats import (
    CONFIDENCE,
    MIN_VERDICT_CASES,
    mean,
    sample_sd,
    sample_var,
    t_quantile,
)
from skillforge.models.lift import CiMethod, SamplePlan

TARGET_HALF_WIDTH = 0.05
MAX_CASES = 1_000_000
MAX_ATTEMPTS = 50
ATTEMPT_OPTIONS = (1, 2, 3, 5, 10)


def half_width(var: float, n: int, confidence: float = CONFIDENCE,
               skew: float = 0.0) -> float | None:
    """The CI half-width (width / 2) for n cases of variance var: t((1+conf)/2, n-1) *
    sqrt(var / n) for skew = 0 (the t interval), the skew-t interval's for skewness g1."""
    if n < 2:
        return None
    se = math.sqrt(var / n)
    if skew == 0.0:
        return t_quantile((1.0 + confidence) / 2.0, n - 1) * se
    upper, lower = skew_t_offsets(skew, n, confidence)
    return float(se * (upper - lower) / 2.0)


def cases_for_variance(
    var: float, target: float = TARGET_HALF_WIDTH, confidence: float = CONFIDENCE,
    skew: float = 0.0,
) -> int | None:
    """Smallest n >= 2 with half_width(var, n, confidence, skew) <= target (None past
    MAX_CASES)."""
    if target <= 0:
        raise ValueError(f"the target half-width must be positive, got {target}")
    if var <= 0:
        return 2
    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    # t(p, n-1) > z for every n, and the skew-t interval is never narrower than the t
    # interval, so the answer is never below the normal-theory bound nor the t answer.
    n = max(2, math.ceil(z * z * var / (target * target)))
    for g1 in ((0.0, skew) if skew else (0.0,)):
        while n <= MAX_CASES:
            hw = half_width(var, n, confidence, g1)
            if hw is not None and hw <= target:
                break
            n += 1
        else:
            return None
    return n


def cases_needed(
    sd: float | None, target: float = TARGET_HALF_WIDTH, confidence: float = CONFIDENCE,
    skew: float = 0.0,
) -> int | None:
    """Smallest n with half_width(sd^2, n, confidence, skew) <= target (for skew = 0,
    t((1+conf)/2, n-1) * sd / sqrt(n) <= target); None when sd is unknown."""
    if sd is None:
        return None
    return cases_for_variance(sd * sd, target, confidence, skew)


def _pooled_within(attempts: Sequence[Sequence[float]]) -> float | None:
    """Pooled within-case variance: sum (n_i - 1) s_i^2 / sum (n_i - 1), cases with n_i >= 2."""
    num = 0.0
    dof = 0
    for values in attempts:
        v = sample_var(values)
        if v is not None:
            num += (len(values) - 1) * v
            dof += len(values) - 1
    return num / dof if dof else None


def _harmonic_attempts(attempts: Sequence[Sequence[float]]) -> float | None:
    counts = [len(v) for v in attempts if v]
    return len(counts) / math.fsum(1.0 / c for c in counts) if counts else None


def plan_sample(
    deltas: Sequence[float],
    with_attempts: Sequence[Sequence[float]] | None = None,
    base_attempts: Sequence[Sequence[float]] | None = None,
    *,
    metric: str = "overall",
    target: float = TARGET_HALF_WIDTH,
    confidence: float = CONFIDENCE,
    min_cases: int = MIN_VERDICT_CASES,
    ci: CiMethod = DEFAULT_CI,
) -> SamplePlan:
    """Plan cases (from the spread of deltas) and attempts (from the per-attempt values).

    `with_attempts[i]` / `base_attempts[i]` are the attempt values of paired case i on each
    side (same order as `deltas`); without them only the case plan is made. The cases
    needed are never fewer than `min_cases`, the least a verdict takes. The half-widths are
    those of the `ci` interval (`skew-t`: at the deltas' skewness; `t` and `bootstrap`: t).
    """
    n = len(deltas)
    sd = sample_sd(deltas)
    skew = skewness(deltas) if ci == "skew-t" else 0.0
    plan = SamplePlan(metric=metric, target_half_width=target, n_cases=n, sd=sd)
    if sd is None:
        plan.note = (
            f"{n} paired case(s): at least 2 are needed to estimate the spread and "
            f"{min_cases} for a verdict; run more cases."
        )
        return plan
    plan.half_width = half_width(sd * sd, n, confidence, skew)
    needed = cases_needed(sd, target, confidence, skew)
    plan.cases_needed = None if needed is None else max(min_cases, needed)
    notes = [_cases_note(plan, min_cases)]
    if with_attempts is not None and base_attempts is not None:
        notes.append(_plan_attempts(plan, deltas, with_attempts, base_attempts, confidence,
                                    skew))
    plan.note = " ".join(x for x in notes if x)
    return plan


def _cases_note(plan: SamplePlan, min_cases: int) -> str:
    if plan.cases_needed is None:
        return "The spread is too large for any practical number of cases."
    if plan.n_cases < min_cases:
        return (f"{plan.n_cases} paired case(s): a verdict needs at least {min_cases}; about "
                f"{plan.cases_needed} give +-{plan.target_half_width:g} at the observed spread "
                f"(sd {plan.sd:.3f}).")
    if plan.half_width is not None and plan.half_width <= plan.target_half_width:
        return (
            f"The CI is already within +-{plan.target_half_width:g} "
            f"(+-{plan.half_width:.3f}); the effect is smaller than that precision."
        )
    return (
        f"About {plan.cases_needed} cases give +-{plan.target_half_width:g} at the observed "
        f"spread (sd {plan.sd:.3f}); {plan.n_cases} so far."
    )


def _plan_attempts(
    plan: SamplePlan,
    deltas: Sequence[float],
    with_attempts: Sequence[Sequence[float]],
    base_attempts: Sequence[Sequence[float]],
    confidence: float,
    skew: float = 0.0,
) -> str:
    s2_w = _pooled_within(with_attempts)
    s2_b = _pooled_within(base_attempts)
    a_w = _harmonic_attempts(with_attempts)
    a_b = _harmonic_attempts(base_attempts)
    if s2_w is None or s2_b is None or a_w is None or a_b is None:
        return (
            "Attempt planning needs 2+ attempts on some case in each condition to separate "
            "attempt noise from case-to-case spread."
        )
    var_d = sample_var(deltas) or 0.0
    within = s2_w + s2_b
    tau2 = max(0.0, var_d - s2_w / a_w - s2_b / a_b)
    plan.attempts_observed = mean([a_w, a_b])
    plan.between_case_var = tau2
    plan.within_case_var = within
    plan.cases_by_attempts = {
        a: cases_for_variance(tau2 + within / a, plan.target_half_width, confidence, skew)
        for a in ATTEMPT_OPTIONS
    }
    n = plan.n_cases
    for a in range(1, MAX_ATTEMPTS + 1):
        hw = half_width(tau2 + within / a, n, confidence, skew)
        if hw is not None and hw <= plan.target_half_width:
            plan.attempts_needed = a
            return f"With {n} cases, {a} attempt(s) per side suffice."
    floor = half_width(tau2, n, confidence, skew)
    return (
        f"With {n} cases no number of attempts reaches +-{plan.target_half_width:g}: "
        f"the case-to-case spread alone gives +-{floor:.3f}; add cases."
    )
