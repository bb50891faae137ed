"""Majority votes of one judge on one trial, for cases that ask for them.

Claude Code plugin-eval's `llm` graders pass when the judge says so in 2 of 3 votes; a case
read from there carries `judge_votes: 3` (an extra field; any case may set it). Each judge is
then asked that many times (each vote cached on its own), and its verdict is: per
expected_behavior assertion, the answer most votes gave (a tie is "no": a grader must be
convinced); behavior_check the share of assertions passed that way; accuracy and
goal_accuracy the mean over the votes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skillforge.models.evals import EvalCase
from skillforge.models.metrics import TrialVerdict

MAX_VOTES = 9


def votes_of(case: EvalCase) -> int:
    """How many times each judge is asked about a trial of `case` (1 unless it says)."""
    value: Any = case.extra.get("judge_votes")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return 1
    return min(value, MAX_VOTES)


def majority(votes: Sequence[TrialVerdict]) -> TrialVerdict:
    """One verdict from several votes of the same judge on the same trial."""
    first = votes[0]
    behaviors = []
    for b in first.answer.behaviors:
        said = [next((x for x in v.answer.behaviors if x.index == b.index), None) for v in votes]
        yes = [x for x in said if x is not None and x.answer == "yes"]
        won = yes[0] if 2 * len(yes) > len(votes) else next(
            (x for x in said if x is not None and x.answer == "no"), b)
        behaviors.append(won)
    n = len(behaviors)
    goals = [v.goal_accuracy for v in votes if v.goal_accuracy is not None]
    costs = [v.cost_usd for v in votes]
    return first.model_copy(update={
        "answer": first.answer.model_copy(update={"behaviors": behaviors}),
        "accuracy": sum(v.accuracy for v in votes) / len(votes),
        "goal_accuracy": sum(goals) / len(goals) if goals else None,
        "behavior_check": sum(1 for b in behaviors if b.answer == "yes") / n if n else None,
        "cached": all(v.cached for v in votes),
        "attempts": sum(v.attempts for v in votes),
        "tokens_in": sum(v.tokens_in for v in votes),
        "tokens_out": sum(v.tokens_out for v in votes),
        "tokens_cached": sum(v.tokens_cached for v in votes),
        "cost_usd": None if any(c is None for c in costs) else round(sum(costs), 8),
        "left_out": sorted({x for v in votes for x in v.left_out}),
    })
