"""The lift's confidence interval, one place for the lift, the run comparison, the parts and
the trigger comparison to take it from.

`bounded` is the only method: the betting interval of skillforge.lift.betting, valid for any
distribution on the deltas' range. Until issue 33 `--ci` also offered the t interval, a
skew-corrected t interval (the default then) and a studentized bootstrap; on bounded deltas
of shapes the tests had not used they covered 82-89% at 10 cases (41% on rare gains at 5),
so they were withdrawn rather than kept as options that print a promise they do not keep.
Reports written with them still read (their `extra.ci_method` names them).
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.betting import bounded_interval
from skillforge.lift.stats import CONFIDENCE
from skillforge.models.lift import CiMethod

DEFAULT_CI: CiMethod = "bounded"
CI_METHODS: tuple[CiMethod, ...] = ("bounded",)
WITHDRAWN = ("skew-t", "t", "bootstrap")
# The range of a paired delta of two scores in [0, 1].
DELTA_RANGE = (-1.0, 1.0)


def check_ci_method(ci: str) -> None:
    """ValueError saying what to use for an unknown or withdrawn method."""
    if ci in CI_METHODS:
        return
    if ci in WITHDRAWN:
        raise ValueError(f"the {ci} interval was withdrawn: it under-covers on bounded deltas "
                         "(41-89% in the coverage simulation); skillforge computes every lift "
                         "with the bounded interval, which holds for any data")
    raise ValueError(f"unknown CI method {ci!r}: skillforge uses 'bounded'")


def lift_interval(
    values: Sequence[float],
    ci: CiMethod = DEFAULT_CI,
    confidence: float = CONFIDENCE,
    value_range: tuple[float, float] = DELTA_RANGE,
) -> tuple[float, float] | None:
    """The interval of the mean of `values` (paired deltas in `value_range`); None for none."""
    check_ci_method(ci)
    return bounded_interval(values, *value_range, confidence=confidence)
