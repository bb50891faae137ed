"""What every importer shares: the result it returns, the skip log and a step builder.

Importers never fail on a bad line: they skip it, count it under a reason, and go on. A
file fails as a whole (TraceImportError) only when nothing usable is left in it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sessions.atif import (
    Agent,
    FinalMetrics,
    Metrics,
    Observation,
    ObservationResult,
    Step,
    ToolCall,
    Trajectory,
    sum_step_metrics,
)
from sessions.importers.unreadable import json_error

MAX_EXAMPLES = 20


class TraceImportError(ValueError):
    """A file that cannot be imported at all; the message names it and says why."""


class SkippedLine(BaseModel):
    line: int | None
    reason: str


class Skipped(BaseModel):
    """Lines (or records) left out of the trajectory, counted by reason."""

    reasons: dict[str, int] = Field(default_factory=dict)
    examples: list[SkippedLine] = Field(default_factory=list)  # the first few, with lines

    @property
    def count(self) -> int:
        return sum(self.reasons.values())

    def add(self, reason: str, line: int | None = None) -> None:
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(SkippedLine(line=line, reason=reason))


class ImportResult(BaseModel):
    """One imported trajectory and everything the importer had to leave out or guess."""

    trajectory: Trajectory
    format: str
    source: str
    skipped: Skipped = Field(default_factory=Skipped)
    warnings: list[str] = Field(default_factory=list)
    ignored: dict[str, int] = Field(default_factory=dict)  # known events with no ATIF place
    records: int = 0  # lines (or files) read
    source_sha256: str | None = None  # of the bytes read; set by import_trajectory

    @property
    def tool_calls(self) -> int:
        return sum(len(s.tool_calls or []) for s in self.trajectory.steps)


class Notes:
    """Collects skips, counted warnings and ignored events while an importer runs."""

    def __init__(self) -> None:
        self.skipped = Skipped()
        self._warnings: Counter[str] = Counter()
        self.ignored: Counter[str] = Counter()

    def skip(self, reason: str, line: int | None = None, warn: bool = False) -> None:
        self.skipped.add(reason, line)
        if warn:
            self.warn(reason)

    def warn(self, message: str) -> None:
        self._warnings[message] += 1

    def ignore(self, kind: str) -> None:
        self.ignored[kind] += 1

    @property
    def warnings(self) -> list[str]:
        return [m if n == 1 else f"{m} ({n} times)" for m, n in self._warnings.items()]


def read_json_lines(path: Path, notes: Notes) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line holding a JSON object; the rest is skipped."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TraceImportError(f"{path}: cannot read: {exc}") from exc
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            notes.skip("not UTF-8", number)
            continue
        except json.JSONDecodeError:
            # A last line with no newline after it was cut off mid-write (a live session).
            cut = number == len(lines) and not data.endswith(b"\n")
            notes.skip("truncated final line" if cut else "invalid JSON", number)
            continue
        except RecursionError:
            notes.skip("JSON nested too deeply", number)
            continue
        if not isinstance(obj, dict):
            notes.skip(f"not a JSON object (a {type(obj).__name__})", number)
            continue
        yield number, obj


def read_json_file(path: Path) -> Any:
    """A whole JSON document; TraceImportError names the file, line and column."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceImportError(f"{path}: cannot read: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceImportError(json_error(path, exc)) from exc


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def as_text(value: Any) -> str:
    """Tool output or content of any shape as text (content blocks joined, JSON otherwise)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, dict) and
                                                 ("text" in v or "type" in v) for v in value):
        parts = []
        for v in value:
            if isinstance(v.get("text"), str):
                parts.append(v["text"])
            elif v.get("type") in ("image", "input_image", "document", "audio"):
                parts.append(f"[{v['type']}]")  # never inline base64 payloads
            else:
                parts.append(json.dumps(v, ensure_ascii=False, default=str))
        return "\n".join(parts)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


class StepDraft:
    """A step under construction; becomes an ATIF Step when the builder finishes."""

    def __init__(self, source: str, message: str = "", **fields: Any) -> None:
        self.source = source
        self.texts: list[str] = [message] if message else []
        self.reasoning: list[str] = []
        self.calls: list[ToolCall] = []
        self.results: list[ObservationResult] = []
        self.metrics: Metrics | None = None
        self.fields = fields  # timestamp, model_name, extra ...

    @property
    def empty(self) -> bool:
        return not (self.texts or self.reasoning or self.calls or self.results or self.metrics)

    def to_step(self, step_id: int) -> Step:
        agent = self.source == "agent"
        extra = self.fields.get("extra") or None
        texts = [as_text(t) for t in self.texts if t]
        reasoning = [as_text(t) for t in self.reasoning if t]
        ts, model = self.fields.get("timestamp"), self.fields.get("model_name")
        return Step(
            step_id=step_id,
            timestamp=ts if isinstance(ts, str) else None,
            source=self.source,  # type: ignore[arg-type]
            model_name=model if agent and isinstance(model, str) else None,
            message="\n\n".join(texts),
            reasoning_content="\n\n".join(reasoning) if agent and reasoning else None,
            tool_calls=list(self.calls) if agent and self.calls else None,
            observation=Observation(results=list(self.results)) if self.results else None,
            metrics=self.metrics if agent else None,
            extra=extra,
        )


class TrajectoryBuilder:
    """Appends steps, pairs tool results with their calls by id, and totals the metrics."""

    def __init__(self, notes: Notes) -> None:
        self.notes = notes
        self.drafts: list[StepDraft] = []
        self._call_step: dict[str, StepDraft] = {}

    def step(self, source: str, message: str = "", **fields: Any) -> StepDraft:
        draft = StepDraft(source, message, **fields)
        self.drafts.append(draft)
        return draft

    def last_agent(self) -> StepDraft | None:
        return next((d for d in reversed(self.drafts) if d.source == "agent"), None)

    def call(self, draft: StepDraft, call_id: str, name: str, arguments: Any,
             extra: dict[str, Any] | None = None) -> ToolCall:
        if not isinstance(arguments, dict):
            extra = {**(extra or {}), "raw_arguments": arguments}
            arguments = {}
        if call_id in self._call_step:
            self.notes.warn(f"tool call id {call_id!r} used twice; the later call renamed")
            call_id = f"{call_id}#{len(self._call_step)}"
        tc = ToolCall(tool_call_id=call_id, function_name=name or "unknown", arguments=arguments,
                      extra=extra or None)
        draft.calls.append(tc)
        self._call_step[call_id] = draft
        return tc

    def has_call(self, call_id: str) -> bool:
        return call_id in self._call_step

    def result(self, call_id: str | None, content: Any, extra: dict[str, Any] | None = None,
               line: int | None = None) -> ObservationResult:
        """Attach a tool result to the step that made the call (or keep it unpaired)."""
        text = content if isinstance(content, str) or content is None else as_text(content)
        draft = self._call_step.get(call_id) if call_id else None
        if draft is None:
            where = f" (line {line})" if line else ""
            self.notes.warn(f"tool result for an unknown call id kept unpaired{where}")
            extra = {**(extra or {}), "unpaired_call_id": call_id}
            draft = self.last_agent() or self.step("agent", "")
            call_id = None
        res = ObservationResult(source_call_id=call_id, content=text, extra=extra or None)
        draft.results.append(res)
        return res

    def finish(self, agent: Agent, *, session_id: str | None,
               final_metrics: FinalMetrics | None = None, extra: dict[str, Any] | None = None,
               source: str = "") -> Trajectory:
        """The ATIF trajectory; TraceImportError when there is not a single step."""
        drafts = [d for d in self.drafts if not d.empty or d.fields.get("keep")]
        if not drafts:
            raise TraceImportError(f"{source}: no conversation steps found "
                                   f"({self.notes.skipped.count} line(s) skipped); is this "
                                   "a session log?")
        steps = [d.to_step(i) for i, d in enumerate(drafts, start=1)]
        summed = sum_step_metrics(steps)
        if final_metrics is None:
            final_metrics = summed
        else:
            final_metrics = final_metrics.model_copy(update={"total_steps": len(steps)})
        return Trajectory(session_id=session_id, agent=agent, steps=steps,
                          final_metrics=final_metrics, extra=extra or None)
