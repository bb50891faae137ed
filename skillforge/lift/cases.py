"""Trial records grouped by case and side: per-trial overall, S(i,m,c), D(i,m) and pass.

CONTRACTS.md sections 7-8. Trials left out of the lift (`TrialRecord.excluded`: an
infrastructure error, a cancellation, a contaminated baseline) are left out of the groups
and only counted (`CaseTrials.left_out`, skillforge.lift.errors). A run that broke off for
another cause is a failed trial (`fail_closed`: it fails, and scores 0 on every outcome
metric the run measures), and a grader that failed after the agent ran is a grade of 0:
both fail-closed. Of the others a metric's value is taken as recorded whatever
the status ("the attempts that have a value"): a timed-out trial is scored on what it did.
Passing is stricter: only an `ok` trial can pass.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from skillforge.lift.stats import mean
from skillforge.models.trial import OUTCOME_METRICS, TrialRecord

FAILED_STATUSES = ("error", "timeout")
# A grader reward "is 1" within float noise (JSON round trips, 0.1 + 0.9 style sums).
REWARD_EPS = 1e-9


def _clean(value: float | None) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return float(value)


def trial_overall(trial: TrialRecord) -> float | None:
    """Unweighted mean of the outcome metrics this trial has (the grader included, nulls
    skipped); the process metrics never count (section 7)."""
    values = [trial_value(trial, m) for m in OUTCOME_METRICS]
    return mean([v for v in values if v is not None])


def trial_grader(trial: TrialRecord) -> float | None:
    """The bring-your-own grader reward (the record's field, else a `grader` metric); 0
    when the grader failed after the agent ran (fail-closed, also for records stored
    before that rule, which kept no grade)."""
    if trial.grader is not None:
        return _clean(trial.grader)
    if trial.grader_failed:
        return 0.0
    return _clean(trial.metrics.get("grader"))


def trial_value(trial: TrialRecord, metric: str) -> float | None:
    """The value of one metric for one trial; `overall` and `grader` are derived."""
    if metric == "overall":
        return trial_overall(trial)
    if metric == "grader":
        return trial_grader(trial)
    return _clean(trial.metrics.get(metric))


def trial_passes(trial: TrialRecord, graded: bool, threshold: float) -> bool:
    """Pass = grader reward 1 for a graded case, else overall >= threshold; never if not ok."""
    if trial.status != "ok":
        return False
    if graded:
        reward = trial_grader(trial)
        return reward is not None and reward >= 1.0 - REWARD_EPS
    overall = trial_overall(trial)
    return overall is not None and overall >= threshold


@dataclass
class CaseTrials:
    """The attempts of one case on the two compared sides."""

    case_id: str
    kind: str | None = None
    graded: bool = False
    with_: list[TrialRecord] = field(default_factory=list)
    base: list[TrialRecord] = field(default_factory=list)
    # Attempts left out, per side (their agent run did not complete; see the module doc).
    left_out: dict[str, list[TrialRecord]] = field(
        default_factory=lambda: {"with": [], "base": []})
    # S(i, m, c) is asked for many times per report; the trials are fixed once grouped.
    _scores: dict[tuple[str, str], float | None] = field(default_factory=dict, repr=False)

    def side(self, name: str) -> list[TrialRecord]:
        return self.with_ if name == "with" else self.base

    def values(self, side: str, metric: str) -> list[float]:
        """The metric's values over this side's attempts that have one."""
        found = (trial_value(t, metric) for t in self.side(side))
        return [v for v in found if v is not None]

    def score(self, side: str, metric: str) -> float | None:
        """S(i, m, c): mean of m over the attempts of (i, c) that have a value."""
        key = (side, metric)
        if key not in self._scores:
            self._scores[key] = mean(self.values(side, metric))
        return self._scores[key]

    def delta(self, metric: str) -> float | None:
        """D(i, m) = S(i, m, with) - S(i, m, base), only when both exist."""
        w, b = self.score("with", metric), self.score("base", metric)
        return None if w is None or b is None else w - b

    def pass_flags(self, side: str, threshold: float) -> list[bool]:
        return [trial_passes(t, self.graded, threshold) for t in self.side(side)]

    def pass_rate(self, side: str, threshold: float) -> float | None:
        """Mean pass over this side's attempts; a side with no attempt at all counts as 0
        (the fixed denominator), one whose attempts were all left out has no rate (None)."""
        if not self.side(side) and self.left_out[side]:
            return None
        return mean([1.0 if p else 0.0 for p in self.pass_flags(side, threshold)]) or 0.0

    def failed_attempts(self, side: str) -> int:
        """Errored (left out) and timed-out attempts of one side."""
        return sum(1 for t in self.side(side) + self.left_out[side]
                   if t.status in FAILED_STATUSES)

    def spread(self, side: str, metric: str = "overall") -> float | None:
        """max - min of the metric over this side's attempts (None below two values)."""
        vals = self.values(side, metric)
        return max(vals) - min(vals) if len(vals) >= 2 else None

    def activation_rate(self) -> float | None:
        """Share of with-skill attempts that activated the skill (None when never recorded)."""
        flags = [t.activated for t in self.with_ if t.activated is not None]
        return mean([1.0 if f else 0.0 for f in flags])


def natural_key(case_id: str) -> list[object]:
    """Sort "case-2" before "case-10"; str and int chunks alternate so keys always compare."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", case_id)]


def select_trials(
    trials: Iterable[TrialRecord], conditions: tuple[str, str]
) -> list[TrialRecord]:
    """The trials of the two compared conditions, one per (case, condition, attempt).

    A duplicated key (a retried trial stored twice) keeps the last record given. Excluded
    trials are kept here (the errors are counted from them); group_cases leaves them out.
    """
    by_key: dict[tuple[str, str, int], TrialRecord] = {}
    for t in trials:
        if t.condition in conditions:
            by_key[t.key] = t
    return fail_closed(list(by_key.values()))


def fail_closed(trials: list[TrialRecord]) -> list[TrialRecord]:
    """The trials with each failed run (`TrialRecord.failed_run`) scored as a failure: 0 on
    every outcome metric some completed trial of the selection has, and a grade of 0 when
    its case is graded (some trial of the case, else of the selection, has a grade).
    Copies; the records given are not changed."""
    done = [t for t in trials if not t.excluded and not t.failed_run]
    measured = [m for m in OUTCOME_METRICS[1:] if any(trial_value(t, m) is not None
                                                       for t in done)]
    graded = {t.case_id for t in done if trial_grader(t) is not None}
    out = []
    for t in trials:
        if t.failed_run:
            zeros = dict.fromkeys(measured, 0.0)
            grade = 0.0 if t.case_id in graded or (graded and not any(
                d.case_id == t.case_id for d in done)) else None
            if grade is not None:
                zeros["grader"] = grade
            t = t.model_copy(update={"metrics": {**t.metrics, **zeros}, "grader": grade})
        out.append(t)
    return out


def group_cases(
    trials: list[TrialRecord],
    conditions: tuple[str, str],
    case_ids: Iterable[str] | None = None,
    graded_cases: Iterable[str] | None = None,
) -> list[CaseTrials]:
    """Group selected trials by case, in natural case-id order.

    `case_ids` adds cases that have no trial at all (they still count in the fixed
    denominator). Excluded trials go to `CaseTrials.left_out`, not into the groups. A case
    is graded when listed in `graded_cases`, or, when that is not given, when any of its
    trials carries a grader reward.
    """
    with_cond, base_cond = conditions
    cases: dict[str, CaseTrials] = {cid: CaseTrials(case_id=cid) for cid in case_ids or ()}
    for t in sorted(trials, key=lambda t: (natural_key(t.case_id), t.attempt)):
        case = cases.setdefault(t.case_id, CaseTrials(case_id=t.case_id))
        if case.kind is None and t.case_kind is not None:
            case.kind = t.case_kind
        if t.excluded:
            case.left_out["with" if t.condition == with_cond else "base"].append(t)
            continue
        if t.condition == with_cond:
            case.with_.append(t)
        elif t.condition == base_cond:
            case.base.append(t)
    graded = set(graded_cases) if graded_cases is not None else None
    for case in cases.values():
        if graded is not None:
            case.graded = case.case_id in graded
        else:
            case.graded = any(trial_grader(t) is not None for t in case.with_ + case.base)
    return [cases[k] for k in sorted(cases, key=natural_key)]
