"""What the coverage simulation measured, for the report's Method section and the README.

tests/lift/coverage_sim.py runs the product's own interval and verdict code on 10,000
simulated runs per cell (seed 33): 25 families of paired deltas (17 with a lift, 8 with none)
and 9 of paired pass/fail tables, at 5, 10 and 30 cases. tests/lift/test_coverage_families.py
recomputes these figures in `make test` (and `make bench` prints them) and fails when they
no longer match, so the sentences below are measurements, not hopes.
"""

from __future__ import annotations

RUNS = 10_000
SEED = 33
FAMILIES = 25
PASS_FAMILIES = 9
# The bounded (betting) interval: its least coverage over every family and n, and the most
# often it gave a verdict at a true lift of 0.
BOUNDED_MIN_COVERAGE = 0.9912
BOUNDED_WRONG_AT_ZERO = 0.0078
# Its mean width over the t interval's on normal deltas at 30 cases: the price of validity.
WIDTH_VS_T_NORMAL_30 = 1.63
# The paired pass/fail analysis: Tango's interval, the per-arm Wilson (continuity-corrected)
# intervals, and verdicts (Tango with exact McNemar) in the wrong direction or at a true 0.
TANGO_MIN_COVERAGE = 0.9437
WILSON_MIN_COVERAGE = 0.9564
PASS_WRONG_VERDICT = 0.019
# The headline of a graded run (overall, the grader and the pass test together, as
# skillforge.lift.compute.headline_verdict combines them) on the same families.
HEADLINE_WRONG = 0.019
# The t interval skillforge used before (withdrawn): its least coverage at 5, 10, 30 cases.
T_MIN_COVERAGE = {5: 0.4028, 10: 0.6478, 30: 0.8946}
T_WRONG_AT_ZERO = 0.0546


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def coverage_sentence() -> str:
    """The measurement in one sentence (README and the report's Method section)."""
    return (f"In a simulation of {RUNS:,} runs per cell over {FAMILIES} families of paired "
            "deltas (normal, heavy-tailed, skewed, bounded, discrete, pass/fail, rare gains "
            "and losses, all-equal; 8 of them with no lift at all) at 5, 10 and 30 cases, the "
            f"bounded interval covered the true lift at least {pct(BOUNDED_MIN_COVERAGE)} of "
            f"the time and gave a verdict at a true lift of 0 at most "
            f"{pct(BOUNDED_WRONG_AT_ZERO)} of the time; it is about "
            f"{WIDTH_VS_T_NORMAL_30:.2f} times as wide as the t interval on normal deltas at "
            f"30 cases, the price of holding on every shape. The t interval it replaced "
            f"covered as little as {pct(T_MIN_COVERAGE[5])} at 5 cases, "
            f"{pct(T_MIN_COVERAGE[10])} at 10 and {pct(T_MIN_COVERAGE[30])} at 30 (rare "
            "gains, skewed deltas).")


def pass_sentence() -> str:
    """The pass/fail analysis's measurement in one sentence."""
    return (f"On {PASS_FAMILIES} families of paired pass/fail outcomes (rare gains, ceilings, "
            f"harm, no effect) Tango's interval covered at least {pct(TANGO_MIN_COVERAGE)}, "
            f"each side's Wilson interval at least {pct(WILSON_MIN_COVERAGE)}, and the "
            f"verdict (Tango and exact McNemar together) was wrong at most "
            f"{pct(PASS_WRONG_VERDICT)} of the time, the headline of a graded run with those "
            f"outcomes at most {pct(HEADLINE_WRONG)}.")
