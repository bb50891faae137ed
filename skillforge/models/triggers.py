"""Trigger evaluations and the description-optimisation loop: what they measure and keep.

A trigger query is an eval case with `should_trigger` set (CONTRACTS.md section 4): its
`prompt` is the query. A trigger trial shows the agent the target skill among decoy skills
and the query; it counts as triggered when the agent read the target's SKILL.md or ran one
of its scripts (the activation facts of section 5). Per query: its trigger rate over its
runs, and its decision (rate >= threshold, 0.5 as in Anthropic's skill-creator). Over a set
of queries: accuracy, precision and recall of those decisions, each a proportion with a
Wilson interval.

The loop's history (`LoopHistory`) is a JSON document stored next to the runs it made
(`<state dir>/triggers/<loop id>/loop.json`); every trial it ran is an ordinary trial of an
ordinary run labelled `trigger:<loop id>:iter<k>:train|test`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

Split = Literal["train", "test"]
TRIGGER_LABEL = "trigger"
DEFAULT_THRESHOLD = 0.5


def run_label(loop_id: str, iteration: int, split: Split) -> str:
    """The label of the run holding one iteration's trials on one split."""
    return f"{TRIGGER_LABEL}:{loop_id}:iter{iteration}:{split}"


def parse_run_label(label: str | None) -> tuple[str, int, Split] | None:
    """(loop id, iteration, split) of a trigger run's label, else None."""
    parts = (label or "").split(":")
    if len(parts) != 4 or parts[0] != TRIGGER_LABEL or not parts[2].startswith("iter"):
        return None
    if parts[3] not in ("train", "test") or not parts[2][4:].isdigit():
        return None
    return parts[1], int(parts[2][4:]), parts[3]  # type: ignore[return-value]


class TriggerQuery(BaseModel):
    """One query of the trigger set: the case id, the text, whether the skill should fire."""

    id: str
    query: str
    should_trigger: bool


class Proportion(BaseModel):
    """k of n, with a 95% Wilson interval; value None when n is 0."""

    k: int = 0
    n: int = 0
    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None


class QueryResult(BaseModel):
    """One query's runs under one description."""

    id: str
    query: str
    should_trigger: bool
    runs: int = 0  # trials that finished (ok)
    triggered: int = 0
    errors: int = 0  # trials that errored, timed out or were cancelled (not counted)
    rate: float | None = None
    decided: bool | None = None  # triggered at the threshold
    correct: bool | None = None
    # The run and attempts of the trials, to open a trajectory from a view.
    run_id: str | None = None
    untriggered_attempts: list[int] = Field(default_factory=list)

    @property
    def score(self) -> float | None:
        """The query's agreement with should_trigger: its rate, or 1 - rate for a negative."""
        if self.rate is None:
            return None
        return self.rate if self.should_trigger else 1.0 - self.rate


class TriggerScore(BaseModel):
    """A description's trigger evaluation over a set of queries."""

    threshold: float = DEFAULT_THRESHOLD
    queries: list[QueryResult] = Field(default_factory=list)
    accuracy: Proportion = Field(default_factory=Proportion)
    precision: Proportion = Field(default_factory=Proportion)
    recall: Proportion = Field(default_factory=Proportion)
    trials: int = 0
    ok: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None

    def query(self, query_id: str) -> QueryResult | None:
        return next((q for q in self.queries if q.id == query_id), None)


# stopped: its scoring stopped at the loop's cost cap; its partial score is not kept
AttemptStatus = Literal["tried", "lint_rejected", "failed", "duplicate", "stopped"]


class Attempt(BaseModel):
    """One description the loop tried (iteration 0: the skill's current description)."""

    iteration: int
    description: str
    status: AttemptStatus = "tried"
    rationale: str = ""
    note: str | None = None
    lint_findings: list[str] = Field(default_factory=list)  # "SF203: message"
    train_run: str | None = None
    test_run: str | None = None
    train: TriggerScore | None = None
    test: TriggerScore | None = None
    propose_tokens_in: int = 0
    propose_tokens_out: int = 0
    propose_cost_usd: float | None = None


class Comparison(BaseModel):
    """The best description against the current one on the test queries (paired)."""

    best_iteration: int = 0
    diff: float | None = None  # test accuracy, best - current
    score_diff: float | None = None  # mean per-query score delta (the paired statistic)
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0
    verdict: str = "inconclusive"
    queries_needed: int | None = None
    within_noise: bool = True
    warning: str | None = None


class Flip(BaseModel):
    """A query whose decision differs between the current and the best description."""

    id: str
    split: Split
    query: str
    should_trigger: bool
    rate_before: float | None = None
    rate_after: float | None = None
    now_correct: bool | None = None


class LoopSettings(BaseModel):
    iterations: int = 5
    runs: int = 3
    holdout: float = 0.4
    seed: int = 0
    threshold: float = DEFAULT_THRESHOLD
    max_turns: int = 3
    decoys: int = 5


# stopped: at its cost cap (--max-cost-usd), `error` saying the spend
LoopStatus = Literal["running", "finished", "cancelled", "failed", "stopped"]


class LoopHistory(BaseModel):
    """`loop.json`: everything a description-optimisation loop did, in order."""

    loop_id: str
    skill: str
    skill_path: str
    created_at: datetime
    status: LoopStatus = "running"
    error: str | None = None
    proposer_model: str | None = None
    agent_model: str | None = None
    settings: LoopSettings = Field(default_factory=LoopSettings)
    decoy_skills: list[str] = Field(default_factory=list)
    train: list[TriggerQuery] = Field(default_factory=list)
    test: list[TriggerQuery] = Field(default_factory=list)
    attempts: list[Attempt] = Field(default_factory=list)
    comparison: Comparison | None = None
    flips: list[Flip] = Field(default_factory=list)
    written_at: datetime | None = None  # when the author accepted the best description

    def attempt(self, iteration: int) -> Attempt | None:
        return next((a for a in self.attempts if a.iteration == iteration), None)

    @property
    def current(self) -> Attempt | None:
        return self.attempt(0)

    @property
    def best(self) -> Attempt | None:
        if self.comparison is None:
            return None
        return self.attempt(self.comparison.best_iteration)

    @property
    def run_ids(self) -> list[str]:
        return [r for a in self.attempts for r in (a.train_run, a.test_run) if r]


class TriggerReport(BaseModel):
    """`lift.json` `extra.triggers` of a trigger run: the loop it belongs to, recomputed
    from the run store (every score from the stored trials of the loop's runs)."""

    run_id: str
    iteration: int
    split: Split
    loop: LoopHistory
