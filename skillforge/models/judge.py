"""The LLM judge's rubric answer and results (CONTRACTS.md section 2.3).

`JudgeAnswer` is the only shape a judge model's answer is accepted in: nine criteria, each
exactly once, an integer score 0-10, a non-empty quoted evidence and a non-empty suggestion.
`ModelVerdict` is one judge model's scored answer; `JudgeResult` aggregates several.
Token counts and costs are what *this* call spent: a verdict served from the cache reports
cached=True and zero tokens and cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

CRITERIA: tuple[str, ...] = (
    "trigger", "scope", "clarity", "workflow", "actionability", "examples", "verification",
    "economy", "safety",
)
Criterion = Literal[
    "trigger", "scope", "clarity", "workflow", "actionability", "examples", "verification",
    "economy", "safety",
]
# Judges whose scores for one criterion differ by this much or more are flagged.
SPREAD_FLAG = 3


class CriterionScore(BaseModel):
    """One criterion as a judge scored it."""

    model_config = ConfigDict(extra="forbid")

    criterion: Criterion
    evidence: str
    score: int = Field(ge=0, le=10)
    suggestion: str

    @field_validator("score", mode="before")
    @classmethod
    def _integer(cls, v: object) -> object:
        # "7", 7.5 and true are not integers 0-10, whatever pydantic's lax mode would do.
        if isinstance(v, bool) or not isinstance(v, int | float) or (
            isinstance(v, float) and not v.is_integer()
        ):
            raise ValueError(f"must be an integer from 0 to 10, got {v!r}")
        return int(v)

    @field_validator("evidence", "suggestion")
    @classmethod
    def _non_empty(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be empty")
        return v.strip()


class JudgeAnswer(BaseModel):
    """A judge model's answer: every criterion exactly once (kept in rubric order)."""

    model_config = ConfigDict(extra="forbid")

    criteria: list[CriterionScore]
    summary: str = ""

    @model_validator(mode="after")
    def _each_once(self) -> JudgeAnswer:
        seen: dict[str, int] = {}
        for c in self.criteria:
            seen[c.criterion] = seen.get(c.criterion, 0) + 1
        problems = [f"criterion {name!r} is missing" for name in CRITERIA if name not in seen]
        problems += [f"criterion {name!r} appears {n} times" for name, n in seen.items() if n > 1]
        if problems:
            raise ValueError("; ".join(problems))
        order = {name: i for i, name in enumerate(CRITERIA)}
        self.criteria.sort(key=lambda c: order[c.criterion])
        return self

    def by_name(self) -> dict[str, CriterionScore]:
        return {c.criterion: c for c in self.criteria}


class ModelVerdict(BaseModel):
    """One judge model's verdict on one version of a skill."""

    provider: str
    model: str
    label: str  # how reports name this judge (the model, or provider:model when ambiguous)
    criteria: list[CriterionScore]
    summary: str = ""
    score: float  # 10 x mean of the criteria, one decimal
    grade: str
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    # The server reported no token counts: skillforge counted or estimated them.
    tokens_estimated: bool = False
    cost_usd: float | None = 0.0
    cached: bool = False
    attempts: int = 1
    temperature: float | None = None
    request_ids: list[str] = Field(default_factory=list)
    # What was cut from the skill's files to fit the model's context window.
    left_out: list[str] = Field(default_factory=list)
    created_at: datetime


class CriterionResult(BaseModel):
    """One criterion over every judge: the mean, the spread, and the most critical judge's
    evidence and suggestion (the lowest score, which is the most actionable)."""

    criterion: Criterion
    score: float  # mean over judges, 0-10, one decimal
    min: int
    max: int
    spread: int
    flagged: bool
    scores: dict[str, int]  # judge label -> score
    evidence: str
    suggestion: str
    judge: str  # label of the judge whose evidence and suggestion are shown


class JudgeResult(BaseModel):
    """The judge's result for one skill (CONTRACTS 2.3)."""

    skill_name: str | None
    skill_hash: str
    rubric_version: str
    models: list[str]
    temperature: float | None
    criteria: list[CriterionResult]
    score: float  # 0-100, one decimal
    grade: str
    spread: dict[str, int]
    flags: list[str]  # criteria whose spread is >= SPREAD_FLAG
    judges: list[ModelVerdict]
    tokens_in: int
    tokens_out: int
    tokens_cached: int
    cost_usd: float | None  # None when a model's price is unknown
    cached: bool  # every verdict came from the cache
    created_at: datetime
    # What a judge was not shown, to fit its model's context (each judge's notes, merged).
    left_out: list[str] = Field(default_factory=list)
    # Some judge's server reported no token counts: they were counted or estimated.
    tokens_estimated: bool = False

    def criterion(self, name: str) -> CriterionResult:
        return next(c for c in self.criteria if c.criterion == name)


class JudgeError(RuntimeError):
    """The judge could not produce a result; the message names the model and what to do."""

    def __init__(self, message: str, *, model: str | None = None) -> None:
        super().__init__(message)
        self.model = model


class JudgeOutputError(JudgeError):
    """A judge model's answer still did not match the rubric schema after one retry."""


# --- progress events (for the UI; small dataclasses named for what happened) ------------------


@dataclass(frozen=True)
class JudgeStarted:
    model: str


@dataclass(frozen=True)
class JudgeRetrying:
    model: str
    reason: str


@dataclass(frozen=True)
class JudgeFinished:
    model: str
    score: float
    cached: bool


@dataclass(frozen=True)
class JudgeFailed:
    model: str
    error: str


JudgeEvent = JudgeStarted | JudgeRetrying | JudgeFinished | JudgeFailed
