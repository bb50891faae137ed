"""Progress events of a trial run, for the CLI's live display and the TUI's grid.

Small frozen dataclasses named for what happened. Each has a `kind` string so a consumer
can dispatch without importing this module (widgets stay free of core imports), and a
`key` (case_id, condition, attempt) for the trial it is about. A run emits, in order:
`RunStarted`, one `TrialQueued` per trial, then per trial `TrialStarted`, any number of
`TrialStep`, and one of `TrialFinished` (status ok), `TrialFailed` (error or timeout) or
`TrialCancelled`; last `RunFinished`. Trials skipped by `--resume` get `TrialSkipped`, and
trials reused from an earlier run with the same inputs `TrialReused` (instead of queued).

A Textual worker forwards them as messages: `on_event=lambda e: widget.post_message(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from skillforge.models.trial import RunSpec, TrialRecord

TrialKey = tuple[str, str, int]  # (case_id, condition, attempt)
RunStatus = Literal["finished", "cancelled", "failed", "stopped"]


@dataclass(frozen=True)
class RunStarted:
    kind: ClassVar[str] = "run_started"
    run_id: str
    spec: RunSpec
    keys: tuple[TrialKey, ...]
    skill_name: str
    resumed: bool = False


@dataclass(frozen=True)
class TrialQueued:
    kind: ClassVar[str] = "queued"
    key: TrialKey


@dataclass(frozen=True)
class TrialSkipped:
    """Already finished ok in an earlier session of this run (`--resume`)."""

    kind: ClassVar[str] = "skipped"
    key: TrialKey
    record: TrialRecord | None = None


@dataclass(frozen=True)
class TrialReused:
    """Not run: an earlier run's trial with the same inputs (skillforge.trials.cache) is
    this run's trial; `from_run` executed it."""

    kind: ClassVar[str] = "reused"
    key: TrialKey
    record: TrialRecord
    from_run: str


@dataclass(frozen=True)
class TrialStarted:
    kind: ClassVar[str] = "started"
    key: TrialKey


@dataclass(frozen=True)
class TrialStep:
    """The agent finished one turn: what it did and the trial's running totals."""

    kind: ClassVar[str] = "step"
    key: TrialKey
    turn: int
    summary: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    tool_calls: int = 0


@dataclass(frozen=True)
class TrialPhase:
    """A trial moved to another phase (sandbox, agent, grader, scoring)."""

    kind: ClassVar[str] = "phase"
    key: TrialKey
    phase: str


@dataclass(frozen=True)
class TrialFinished:
    kind: ClassVar[str] = "finished"
    key: TrialKey
    record: TrialRecord


@dataclass(frozen=True)
class TrialFailed:
    """The trial ended with status error or timeout; `record.error` says why."""

    kind: ClassVar[str] = "failed"
    key: TrialKey
    record: TrialRecord


@dataclass(frozen=True)
class TrialCancelled:
    kind: ClassVar[str] = "cancelled"
    key: TrialKey
    record: TrialRecord | None = None


@dataclass(frozen=True)
class RunFinished:
    kind: ClassVar[str] = "run_finished"
    run_id: str
    status: RunStatus
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    # status stopped: why, with the figures ("stopped at the cost cap: $0.41 spent of $0.50...")
    stop_reason: str | None = None


TrialEvent = (RunStarted | TrialQueued | TrialSkipped | TrialReused | TrialStarted | TrialStep
              | TrialPhase | TrialFinished | TrialFailed | TrialCancelled | RunFinished)
