"""The lift's confidence intervals by name (`--ci`), one place for the lift, the run
comparison and the planner to pick them from.

- `skew-t` (the default): the t interval widened on the skewed side by Hall's cubic
  transformation (skillforge.lift.skew_t); holds 93.8% or more from 10 cases on every
  family of the coverage simulation, skewed deltas included.
- `t`: the plain t interval mean +- t(0.975, n-1) * sd / sqrt(n) (skillforge.lift.stats);
  under-covers on skewed deltas (about 90% at 10 cases on exponential ones).
- `bootstrap`: the studentized bootstrap (skillforge.lift.bootstrap), refused below 10 cases.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.bootstrap import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrap_interval
from skillforge.lift.skew_t import skew_t_interval
from skillforge.lift.stats import CONFIDENCE, t_interval
from skillforge.models.lift import CiMethod

DEFAULT_CI: CiMethod = "skew-t"
CI_METHODS: tuple[CiMethod, ...] = ("skew-t", "t", "bootstrap")


def check_ci_method(ci: str) -> None:
    """ValueError naming the choices for an unknown method."""
    if ci not in CI_METHODS:
        choices = ", ".join(repr(m) for m in CI_METHODS)
        raise ValueError(f"unknown CI method {ci!r}: use one of {choices}")


def lift_interval(
    values: Sequence[float],
    ci: CiMethod = DEFAULT_CI,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float] | None:
    """The `ci` interval of the mean of `values` (paired deltas); None where it gives none."""
    check_ci_method(ci)
    if ci == "bootstrap":
        return bootstrap_interval(values, confidence, resamples, seed)
    if ci == "t":
        return t_interval(values, confidence)
    return skew_t_interval(values, confidence)
