"""How a lift report reached its verdicts, in words: the interval, the verdict rule, the
minimum of cases and what the coverage simulation measured (CONTRACTS.md section 8).

Shared by the Markdown and HTML reports (a "Method" section and the verdict cells of their
lift tables), so a verdict withheld by rule reads the same in both. Pure functions over a
`LiftReport`; the numbers come from the report's `extra.verdict_rule`, so an older
lift.json is described by its own settings.
"""

from __future__ import annotations

from skillforge.models.lift import LiftReport
from skillforge.report.facts import VERDICT_MARK, ci_method

# What tests/lift/test_coverage_families.py measured (seed 15; 10,000 runs per cell for the
# skew-t and t intervals, 4,000 for the bootstrap). Update together with that test.
COVERAGE_SKEW_T = ("the default skew-corrected t interval covers 93.8-96.5% of the true lift "
                   "from 10 cases on all five (normal, beta-difference, t3, discrete and "
                   "strongly skewed exponential deltas), 91.2-97.2% at 5 cases; its mean width "
                   "is 1.02-1.09 times the t interval's on normal, beta-difference and "
                   "discrete deltas from 10 cases (1.15 at 5), 1.11-1.15 on heavy-tailed t3 "
                   "deltas and 1.17-1.20 on the skewed ones, where the t interval is too short")
COVERAGE_T = ("the plain t interval covers 94.7-96.4% from 5 cases on the four symmetric "
              "families, but 88% at 5 cases, 90% at 10 and 93% at 30 on the skewed one")
COVERAGE_BOOTSTRAP = ("the studentized bootstrap covers 92.5-95.5% from 10 cases on all five "
                      "(93.5-95% on the skewed ones), where a percentile bootstrap covered "
                      "79-85% at 5 cases and 86-91% at 10")


def verdict_cell(report: LiftReport, metric: str) -> str:
    """A lift-table verdict: `▲ helps`, `◆ inconclusive`, or `◆ inconclusive: too few cases`
    when the rule withheld it; `not measured` without a paired case."""
    row = report.metrics[metric]
    if not row.n:
        return "not measured"
    text = f"{VERDICT_MARK[row.verdict]} {row.verdict}"
    withheld = report.extra.withheld.get(metric)
    return f"{text}: {withheld.reason}" if withheld is not None else text


def rule_text(report: LiftReport) -> str:
    """The verdict rule in one sentence, with this report's numbers."""
    rule = report.extra.verdict_rule
    return (f"A metric helps when its interval's lower bound is above {rule.tie_eps:g} and hurts "
            f"when its upper bound is below -{rule.tie_eps:g}, else it is inconclusive; a "
            f"verdict also needs at least {rule.min_cases} paired cases and an interval wider "
            f"than {rule.tie_eps:g}.")


def method_notes(report: LiftReport) -> list[str]:
    """The Method section: one paragraph per choice behind the verdicts."""
    rule = report.extra.verdict_rule
    notes = [
        f"Interval: {ci_method(report)}. The lift of a metric is the mean paired delta "
        "D = with - base over the cases that have both sides, and n is that number of "
        "cases (attempts are averaged within a case first).",
        rule_text(report) + f" The tolerance {rule.tie_eps:g} (TIE_EPS) absorbs float noise: "
        "the same score reached two ways (the mean of 0.1 and 0.2, or 0.15) differs by about "
        "3e-17, which is not an effect.",
        f"Why at least {rule.min_cases} cases and a non-zero width: with fewer cases the "
        "sample says too little about the shape of the deltas for an interval to be trusted, "
        "and when every delta is the same their spread, and so the interval, cannot be "
        "estimated. Such metrics read \"inconclusive: too few cases\" (or \"zero-width "
        "interval\") with the number of cases the sample-size planner asks for.",
        f"Coverage, from a simulation over five shapes of deltas: {COVERAGE_SKEW_T}; "
        f"{COVERAGE_T}; {COVERAGE_BOOTSTRAP}.",
    ]
    if report.extra.ci_method == "skew-t":
        notes.append(
            "Why skew-corrected: when a skill helps a lot on a few cases the deltas are "
            "skewed, a sample whose mean falls low also has a small spread, and the "
            "symmetric t interval is too short on the side where the truth lies. This "
            "interval is the t interval with its bound on the side of the sample's skewness "
            "moved out to Hall's (1992) skewness-corrected bound (a cubic transformation of "
            "the studentized mean, its correction capped so that side is at most about 1.5 "
            "times the t interval's); the other bound stays the t interval's, so it is never "
            "narrower than the t interval, and it equals it for symmetric samples and below "
            "5 cases. The option --ci t gives the plain t interval.")
    if report.extra.ci_method == "bootstrap" and rule.bootstrap_min_cases:
        notes.append(
            "The bootstrap resamples the studentized mean (bootstrap-t), not the mean: "
            "resampled means vary less than the mean does, which made the percentile "
            f"bootstrap too narrow. Below {rule.bootstrap_min_cases} paired cases it is "
            "refused (a resample then often repeats one value and has no spread) and the "
            "metric has no interval; use the t interval there.")
    return notes
