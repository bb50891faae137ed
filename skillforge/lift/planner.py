"""Sample-size planner: how many cases (or attempts) the lift's interval needs for a target.

Cases. The interval is the bounded betting one (skillforge.lift.betting), whose width has no
closed form: it depends on n, on the spread of the deltas and on where their mean sits in
[-1, 1]. The planner measures it on a model sample: n deltas with the observed mean and
standard deviation (normal quantiles, standardised, clipped to [-1, 1], in a fixed shuffled
order), and returns the smallest n whose half-width (width / 2) is <= h (0.05 by default),
searching upward from the asymptotic answer. Past EXACT_UP_TO cases the interval's
half-width is its asymptote sd * sqrt(2 log(2 / alpha) / n) to within 1% (measured while
writing this at sd 0.1 and 0.3; at sd 0.6 clipping makes it 9% narrower), so there the
planner answers from the formula instead of building samples of many thousands.

Attempts. A case's delta averages a attempts per side, so its variance splits into a
between-case part and a within-case part (a one-way random-effects model per side):

    y(i, c, a) = mu(i, c) + e,  Var(e) = s2_c        (attempt noise within a case, side c)
    delta_i = mu(i, with) - mu(i, base),  Var over cases = tau2   (real case-to-case spread)
    Var(D_i) = tau2 + s2_with / a_with + s2_base / a_base

s2_c is the pooled within-case variance of the metric over cases with two or more attempts
on side c; tau2 = max(0, Var(D) - s2_with / A_with - s2_base / A_base) with A_c the harmonic
mean of attempts per case (the variance scales with 1/a, so the harmonic mean is the right
average). With a attempts on both sides the model sample's sd is sqrt(tau2 + (s2_with +
s2_base) / a). More attempts only shrink the within-case part: when the half-width at tau2
alone already exceeds h, only more cases help.

Never fewer than the run has: the plan is for an interval that is not yet narrow enough, so
it asks for at least one case more than the run holds (and never fewer than
MIN_VERDICT_CASES, the least a verdict takes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist

from skillforge.lift.betting import bounded_interval
from skillforge.lift.stats import CONFIDENCE, MIN_VERDICT_CASES, mean, sample_sd, sample_var
from skillforge.models.lift import SamplePlan

TARGET_HALF_WIDTH = 0.05
# Past this many cases no practical run reaches the target: the planner says so.
MAX_CASES = 1_000_000
MAX_ATTEMPTS = 50
ATTEMPT_OPTIONS = (1, 2, 3, 5, 10)
# Model samples are built and measured up to this size; above it the asymptote is used.
EXACT_UP_TO = 3000
# Orders averaged for a model sample (the lift averages 8; 2 keeps a plan cheap, and a model
# sample's values are evenly spread, so its order matters little).
PLAN_PERMUTATIONS = 2
_SHUFFLE_SEED = 33


def _asymptote(sd: float, n: int, confidence: float) -> float:
    return sd * math.sqrt(2.0 * math.log(2.0 / (1.0 - confidence)) / n)


@lru_cache(maxsize=4096)
def _model_half_width(centre: float, sd: float, n: int, confidence: float) -> float:
    import random

    dist = NormalDist()
    q = [dist.inv_cdf((i + 0.5) / n) for i in range(n)] if n > 1 else [0.0]
    m = math.fsum(q) / n
    s = math.sqrt(math.fsum((v - m) ** 2 for v in q) / (n - 1)) if n > 1 else 1.0
    values = [min(1.0, max(-1.0, centre + sd * (v - m) / s)) for v in q]
    random.Random(_SHUFFLE_SEED).shuffle(values)
    interval = bounded_interval(values, confidence=confidence, permutations=PLAN_PERMUTATIONS)
    assert interval is not None
    return (interval[1] - interval[0]) / 2.0


def half_width(sd: float, n: int, centre: float = 0.0,
               confidence: float = CONFIDENCE) -> float:
    """The bounded interval's half-width at n cases whose deltas have mean `centre` and
    standard deviation `sd` (measured on a model sample up to EXACT_UP_TO cases)."""
    if n < 1:
        raise ValueError(f"a half-width needs at least one case, got {n}")
    if n > EXACT_UP_TO:
        return _asymptote(sd, n, confidence)
    return _model_half_width(round(centre, 4), round(sd, 4), n, confidence)


def cases_needed(sd: float | None, target: float = TARGET_HALF_WIDTH, centre: float = 0.0,
                 confidence: float = CONFIDENCE) -> int | None:
    """Smallest n with half_width(sd, n, centre) <= target; None when sd is unknown or
    the answer is past MAX_CASES."""
    if sd is None:
        return None
    if target <= 0:
        raise ValueError(f"the target half-width must be positive, got {target}")
    z2 = 2.0 * math.log(2.0 / (1.0 - confidence))
    guess = max(2, math.ceil(z2 * sd * sd / (target * target)))
    if guess > EXACT_UP_TO:
        return cases_needed_asymptotic(sd, target, confidence)
    # The half-width falls with n (one case is never enough): grow a bracket from the
    # asymptotic guess, then bisect.
    low, high = 1, guess
    while half_width(sd, high, centre, confidence) > target:
        if high == EXACT_UP_TO:
            return cases_needed_asymptotic(sd, target, confidence)
        low, high = high, min(2 * high, EXACT_UP_TO)
    while high - low > 1:
        mid = (low + high) // 2
        if half_width(sd, mid, centre, confidence) <= target:
            high = mid
        else:
            low = mid
    return high


def cases_needed_asymptotic(sd: float, target: float,
                            confidence: float = CONFIDENCE) -> int | None:
    """n from the asymptote alone (past EXACT_UP_TO): at least EXACT_UP_TO + 1, None past
    MAX_CASES."""
    z2 = 2.0 * math.log(2.0 / (1.0 - confidence))
    n = max(EXACT_UP_TO + 1, math.ceil(z2 * sd * sd / (target * target)))
    return n if n <= MAX_CASES else None


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
) -> SamplePlan:
    """Plan cases (from the spread of deltas) and attempts (from the per-attempt values).

    `with_attempts[i]` / `base_attempts[i]` are the attempt values of paired case i on each
    side (same order as `deltas`); without them only the case plan is made. `half_width` is
    the half-width of the interval the report shows for these deltas.
    """
    n = len(deltas)
    sd = sample_sd(deltas)
    plan = SamplePlan(metric=metric, target_half_width=target, n_cases=n, sd=sd)
    interval = bounded_interval(deltas, confidence=confidence)
    if interval is not None:
        plan.half_width = (interval[1] - interval[0]) / 2.0
    if sd is None:
        plan.note = (
            f"{n} paired case(s): at least 2 are needed to estimate the spread and "
            f"{min_cases} for a verdict; run more cases."
        )
        return plan
    centre = mean(deltas) or 0.0
    needed = cases_needed(sd, target, centre, confidence)
    plan.cases_needed = None if needed is None else _at_least(needed, plan, min_cases)
    notes = [_cases_note(plan, min_cases)]
    if with_attempts is not None and base_attempts is not None:
        notes.append(_plan_attempts(plan, deltas, with_attempts, base_attempts, centre,
                                    confidence))
    plan.note = " ".join(x for x in notes if x)
    return plan


def _at_least(needed: int, plan: SamplePlan, min_cases: int) -> int:
    """Never below the least a verdict takes, nor (while the target is not met) below one
    case more than the run has: a plan must never ask for fewer cases than are in hand."""
    floor = min_cases
    if plan.half_width is None or plan.half_width > plan.target_half_width:
        floor = max(floor, plan.n_cases + 1)
    return max(floor, needed)


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
    centre: float,
    confidence: float,
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
    target = plan.target_half_width
    plan.cases_by_attempts = {
        a: cases_needed(math.sqrt(tau2 + within / a), target, centre, confidence)
        for a in ATTEMPT_OPTIONS
    }
    n = plan.n_cases
    for a in range(1, MAX_ATTEMPTS + 1):
        if half_width(math.sqrt(tau2 + within / a), n, centre, confidence) <= target:
            plan.attempts_needed = a
            return f"With {n} cases, {a} attempt(s) per side suffice."
    floor = half_width(math.sqrt(tau2), n, centre, confidence)
    return (
        f"With {n} cases no number of attempts reaches +-{target:g}: "
        f"the case-to-case spread alone gives +-{floor:.3f}; add cases."
    )
