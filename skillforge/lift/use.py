"""How the agent used the skill: the process metrics, reported as use and never as lift.

`skill_execution` and the routing part of `skill_efficiency` cannot be earned in the
baseline: the target is withheld there, so a positive case scores 0 on activation by
construction. Their paired difference is large for any skill the agent merely opens (a skill
whose only step was `echo` scored +0.44 "overall" before issue 33), so it is shown as what
it is: "the agent used the skill in 7 of 8 cases", with each side's mean of the process
metrics, no interval and no verdict (CONTRACTS.md section 7).

Pure: case groups in, a `UseSummary` out.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.cases import CaseTrials
from skillforge.lift.stats import mean
from skillforge.models.verdicts import UseSummary
from skillforge.models.trial import PROCESS_METRICS


def _used(case: CaseTrials) -> bool | None:
    """Whether some with-skill attempt activated the skill (None: never recorded)."""
    flags = [t.activated for t in case.with_ if t.activated is not None]
    return any(flags) if flags else None


def use_summary(cases: Sequence[CaseTrials]) -> UseSummary | None:
    """The use figures of a run; None when no with-skill attempt recorded its activation and
    no process metric was measured (an imported run without trajectories)."""
    out = UseSummary()
    attempts: list[float] = []
    for case in cases:
        used = _used(case)
        if used is None:
            continue
        if case.kind == "negative":
            out.negative_cases += 1
            out.negative_used += used
        else:
            out.cases += 1
            out.used += used
            attempts += [1.0 if t.activated else 0.0 for t in case.with_
                         if t.activated is not None]
    out.activation_rate = mean(attempts)
    for metric in PROCESS_METRICS:
        sides = {side: mean([s for c in cases if (s := c.score(side, metric)) is not None])
                 for side in ("with", "base")}
        if any(v is not None for v in sides.values()):
            out.metrics[metric] = sides
    if not out.cases and not out.negative_cases and not out.metrics:
        return None
    out.note = use_sentence(out)
    return out


def use_sentence(use: UseSummary) -> str:
    """"the agent used the skill in 7 of 8 cases (...)", in words for every renderer."""
    parts = []
    if use.cases:
        rate = "" if use.activation_rate is None else \
            f" ({100 * use.activation_rate:.0f}% of its with-skill attempts)"
        parts.append(f"The agent used the skill in {use.used} of {use.cases} case"
                     f"{'' if use.cases == 1 else 's'}{rate}")
    if use.negative_cases:
        parts.append(f"it used it in {use.negative_used} of {use.negative_cases} negative "
                     f"case{'' if use.negative_cases == 1 else 's'}, where it should not")
    if not parts:
        return "Whether the agent used the skill was not recorded."
    return "; ".join(parts) + "."
