"""Pass/fail outcomes analysed as pairs (CONTRACTS.md section 8).

A case passes or fails on each side, so the natural analysis is that of paired binary
outcomes, not of a mean delta: per side a pass rate with its Wilson interval, the paired
difference with an interval built for paired proportions, and an exact test on the cases
where the two sides disagree.

- One attempt per side on every paired case (`pairs`): the 2x2 table of the cases (both
  pass, only with the skill, only without, neither), Tango's score interval for the
  difference and the exact McNemar test on the discordant cases. Eight cases that fail only
  with the skill give McNemar p = 0.0078 and Tango's [-1, -0.35]: hurts.
- Several attempts (`rates`): a case's outcome is its pass rate on each side (attempts of
  one case are not independent pairs), the difference's interval is the bounded betting one
  over the cases' rate differences, the test the exact sign test over the cases whose rates
  differ (McNemar's test is its one-attempt case), and each side's Wilson interval is taken
  over cases with the mean rate as the share (a rate in [0, 1] varies no more than a pass
  with the same mean does).

A verdict needs both the interval and the exact test, in the same direction, and at least
MIN_VERDICT_CASES paired cases. Pure: case groups in, a `PassTest` out.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.betting import bounded_interval
from skillforge.lift.cases import CaseTrials
from skillforge.lift.proportions import mcnemar_p, tango_interval, wilson_bounds
from skillforge.lift.stats import ALPHA, CONFIDENCE, MIN_VERDICT_CASES, is_negative, is_positive
from skillforge.models.verdicts import PassArm, PassTest, Verdict


def _arm(passes: float, n: int, confidence: float) -> PassArm:
    low, high = wilson_bounds(passes / n, n, confidence)
    return PassArm(passes=passes, n=n, value=passes / n, ci_low=low, ci_high=high)


def pass_verdict(low: float | None, high: float | None, p_value: float | None,
                 n: int) -> Verdict:
    """helps / hurts when the interval clears 0 and the exact test agrees; else
    inconclusive (also below MIN_VERDICT_CASES)."""
    if low is None or high is None or p_value is None or n < MIN_VERDICT_CASES:
        return "inconclusive"
    if p_value >= ALPHA:
        return "inconclusive"
    if is_positive(low):
        return "helps"
    if is_negative(high):
        return "hurts"
    return "inconclusive"


def pass_test(cases: Sequence[CaseTrials], threshold: float,
              confidence: float = CONFIDENCE) -> PassTest | None:
    """The paired pass/fail analysis over the cases with an attempt on both sides; None
    when there is no such case."""
    paired = [c for c in cases if c.with_ and c.base]
    if not paired:
        return None
    n = len(paired)
    if all(len(c.with_) == 1 and len(c.base) == 1 for c in paired):
        flags = [(c.pass_flags("with", threshold)[0], c.pass_flags("base", threshold)[0])
                 for c in paired]
        with_only = sum(1 for w, b in flags if w and not b)
        base_only = sum(1 for w, b in flags if b and not w)
        both = sum(1 for w, b in flags if w and b)
        out = PassTest(kind="pairs", n=n, with_only=with_only, base_only=base_only,
                       both=both, neither=n - both - with_only - base_only,
                       with_=_arm(both + with_only, n, confidence),
                       base=_arm(both + base_only, n, confidence),
                       diff=(with_only - base_only) / n, interval="Tango score",
                       test="exact McNemar")
        interval = tango_interval(with_only, base_only, n, confidence)
    else:
        rates = [(c.pass_rate("with", threshold), c.pass_rate("base", threshold))
                 for c in paired]
        diffs = [w - b for w, b in rates]
        out = PassTest(kind="rates", n=n,
                       with_only=sum(1 for d in diffs if is_positive(d)),
                       base_only=sum(1 for d in diffs if is_negative(d)),
                       with_=_arm(sum(w for w, _ in rates), n, confidence),
                       base=_arm(sum(b for _, b in rates), n, confidence),
                       diff=sum(diffs) / n, interval="bounded betting",
                       test="exact sign test")
        interval = bounded_interval(diffs, confidence=confidence)
    if interval is not None:
        out.ci_low, out.ci_high = interval
    out.p_value = mcnemar_p(out.with_only, out.base_only)
    out.verdict = pass_verdict(out.ci_low, out.ci_high, out.p_value, n)
    return out
