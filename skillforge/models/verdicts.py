"""What a lift report says beside its metric rows (CONTRACTS.md section 8, under `extra`):
the headline's verdict, the paired pass/fail analysis, the errors by side, and how the skill
was used. Part of `lift.json` (skillforge.models.lift), apart so that file stays one concept:
the metric rows and their report.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["helps", "hurts", "inconclusive"]


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class PassArm(_Model):
    """One side's pass rate over the paired cases, with its Wilson interval."""

    # Passing cases (one attempt a side), or the sum of the cases' pass rates (several).
    passes: float = 0.0
    n: int = 0
    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None


class PassTest(_Model):
    """Pass/fail outcomes analysed as pairs (section 8), over the cases both sides ran.

    `pairs` (one attempt a side on every case): `with_only`/`base_only` are the discordant
    pairs, the difference's interval is Tango's and the test exact McNemar. `rates` (several
    attempts): a case's outcome is its pass rate, `with_only`/`base_only` count the cases
    whose rate is higher on that side, the interval is the bounded betting one over the
    rate differences and the test the exact sign test over the untied cases.
    """

    kind: Literal["pairs", "rates"] = "pairs"
    n: int = 0
    with_: PassArm = Field(default_factory=PassArm, alias="with")
    base: PassArm = Field(default_factory=PassArm)
    with_only: int = 0
    base_only: int = 0
    both: int | None = None
    neither: int | None = None
    diff: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    interval: str = ""
    test: str = ""
    p_value: float | None = None
    verdict: Verdict = "inconclusive"
    # Why a verdict the data gave was withheld (one-sided errors); None otherwise.
    withheld: str | None = None


# The headline of a run that measured no task metric (`Headline.note`; every renderer).
NO_TASK_METRIC = ("No task metric was measured (no grader, no judge, no security scan), so "
                  "there is no overall lift: how the skill was used is not a lift.")


class Headline(_Model):
    """The verdict a report leads with: over the task, never the routing (section 8).

    `by` names what decided it, of overall, the grader and the paired pass rate: a verdict
    any of them reaches while none reaches the opposite one. They disagree: inconclusive,
    and `note` says so."""

    verdict: Verdict = "inconclusive"
    by: list[str] = Field(default_factory=list)
    note: str = ""


class ErrorSummary(_Model):
    """Trials that errored, by side: excluded ones (infrastructure, contaminated), failed
    runs and failed grades (both counted, as failures), and whether they fell on one side
    (skillforge.lift.errors says when)."""

    trials: dict[str, int] = Field(default_factory=dict)
    excluded: dict[str, int] = Field(default_factory=dict)
    # Of the excluded, those that failed before the agent took a turn.
    setup: dict[str, int] = Field(default_factory=dict)
    # Runs that broke off for a cause that is not infrastructure: failed trials, counted.
    failed_runs: dict[str, int] = Field(default_factory=dict)
    # Of the excluded, baselines whose model requests carried the target skill (the harness
    # proxy's contamination check).
    contaminated: dict[str, int] = Field(default_factory=dict)
    grader_failed: dict[str, int] = Field(default_factory=dict)
    # Fisher's exact test of the errored trials (excluded and failed runs) between the sides.
    p_value: float | None = None
    one_sided: Literal["with", "base"] | None = None
    note: str = ""


class UseSummary(_Model):
    """How the agent used the skill (the process metrics), reported apart from the lift."""

    # Positive cases with a recorded activation on the with-skill side, and of them those
    # where some with-skill attempt activated the skill.
    cases: int = 0
    used: int = 0
    # Negative cases (the skill must not be used) with a record, and those where it was.
    negative_cases: int = 0
    negative_used: int = 0
    # Share of the with-skill attempts of positive cases that activated the skill.
    activation_rate: float | None = None
    # {metric: {"with": mean over cases, "base": mean over cases}}: no lift, no interval.
    metrics: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    note: str = ""
