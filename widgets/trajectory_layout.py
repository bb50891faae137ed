"""A trajectory laid out as rows of text: what the trajectory viewer draws, line by line.

Pure (no Textual), so the layout is testable and cheap: a collapsed step costs a header, a
few wrapped lines of its message, one line per tool call and one preview line per tool
result, however long the step's outputs are. Only an expanded step lays out its full
text, and even then a tool result stops after `MAX_BODY_ROWS` rows.

Also here: the facts the viewer highlights (skill activations, skill-script runs, failed
tool calls), grouped by step, from `skillforge.trajectory.facts`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rich.cells import cell_len, chop_cells

from sessions.atif import ObservationResult, Step, ToolCall, Trajectory, message_text
from skillforge.trajectory.facts import (
    SKILLS_DIRS,
    Activation,
    CallOutcome,
    ScriptRun,
    call_error,
    call_outcomes,
    result_for,
    script_runs,
    shell_command,
    skill_activations,
)

# Row kinds.
HEADER, TEXT, REASONING, CALL, CALL_BODY, OBS, OBS_BODY, MORE, BLANK = range(9)

# Lines of a message a collapsed step shows, by source.
COLLAPSED_LINES = {"user": 6, "agent": 4, "system": 2}
MAX_BODY_ROWS = 300  # rows of one expanded tool result before "… n more lines"
INDENT_TEXT, INDENT_CALL, INDENT_OBS, INDENT_BODY = 2, 2, 4, 6
_CONTROL = {c: "\ufffd" for c in range(32) if c not in (9, 10)} | {127: "\ufffd"}
_NEEDS_CLEANING = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


class Row(NamedTuple):
    """One line of the view: its kind, the entry (slot) it belongs to, its text, and the
    tool call / result index inside the step it describes (-1 when none)."""

    kind: int
    entry: int
    text: str = ""
    ref: int = -1


# --- facts ---------------------------------------------------------------------------------

@dataclass
class StepMarks:
    """What the viewer highlights in one step."""

    activations: list[Activation] = field(default_factory=list)
    script_runs: list[ScriptRun] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # tool_call_id -> why it failed

    @property
    def notable(self) -> bool:
        return bool(self.activations or self.script_runs or self.errors)


@dataclass
class TrajectoryFacts:
    """Skill activations, script runs and call outcomes of a whole trajectory.

    Computing them costs about 0.15 ms per tool call; the app may compute them in a worker
    and hand them to `TrajectoryView.show(facts=...)`, else the view does it itself.
    """

    activations: list[Activation]
    script_runs: list[ScriptRun]
    outcomes: list[CallOutcome]

    @classmethod
    def of(cls, traj: Trajectory, skills_dirs: Sequence[str] = SKILLS_DIRS) -> TrajectoryFacts:
        """The facts of `traj` (pure; safe to call from a thread)."""
        return cls(skill_activations(traj, skills_dirs), script_runs(traj, skills_dirs),
                   call_outcomes(traj))

    def by_step(self) -> dict[int, StepMarks]:
        """The facts grouped by step_id (steps with nothing notable are left out)."""
        out: dict[int, StepMarks] = {}
        for a in self.activations:
            out.setdefault(a.step_id, StepMarks()).activations.append(a)
        for r in self.script_runs:
            out.setdefault(r.step_id, StepMarks()).script_runs.append(r)
        for o in self.outcomes:
            if o.error:
                out.setdefault(o.step_id, StepMarks()).errors[o.tool_call_id] = o.reason or "error"
        return out


def step_marks(traj: Trajectory, step: Step) -> StepMarks:
    """The marks of one step alone (cheap: only its own tool calls are examined)."""
    if not step.tool_calls:
        return StepMarks()
    # The fact functions take a trajectory; a one-step view of it is enough for
    # per-call evidence (the `order` fields are then relative to this step, and unused).
    one = Trajectory.model_construct(schema_version=traj.schema_version, agent=traj.agent,
                                     steps=[step])
    errors = {}
    for call in step.tool_calls:
        bad, why = call_error(result_for(step, call))
        if bad:
            errors[call.tool_call_id] = why or "error"
    return StepMarks(skill_activations(one), script_runs(one), errors)


# --- text helpers --------------------------------------------------------------------------

def clean(text: str) -> str:
    """Text safe to draw: tabs expanded, carriage returns and control characters neutralised."""
    if not _NEEDS_CLEANING.search(text):
        return text  # the common case, found at C speed
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.translate(_CONTROL).expandtabs(4)


def wrap(text: str, width: int, limit: int | None = None) -> tuple[list[str], bool]:
    """Greedy word wrap of `text` to `width` cells; stops after `limit` rows.

    Returns (rows, truncated). Work is bounded by `limit`, not by the length of `text`.
    """
    width = max(4, width)
    rows: list[str] = []
    start = 0
    n = len(text)
    while start <= n:
        end = text.find("\n", start)
        if end < 0:
            end = n
        line = text[start:end]
        start = end + 1
        if not line.isascii():
            chunks = chop_cells(line, width) if cell_len(line) > width else [line]
            for chunk in chunks:
                if limit is not None and len(rows) >= limit:
                    return rows, True
                rows.append(chunk)
        else:
            while len(line) > width:
                if limit is not None and len(rows) >= limit:
                    return rows, True
                cut = line.rfind(" ", 0, width + 1)
                if cut <= 0:
                    rows.append(line[:width])
                    line = line[width:]
                else:
                    rows.append(line[:cut])
                    line = line[cut + 1:]
            if limit is not None and len(rows) >= limit:
                return rows, True
            rows.append(line)
        if end == n:
            break
    return rows, False


def first_line(text: str) -> str:
    """The first non-blank line of `text`, stripped (looks at the first 50 lines only)."""
    for line in text.split("\n", 50)[:50]:
        if line.strip():
            return line.strip()
    return ""


def count(n: int, word: str) -> str:
    """`1 line`, `2 lines`, `1,234 lines`."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _short(value: Any, width: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", " ⏎ ")
    return text if len(text) <= width else text[: width - 1] + "…"


_PRIMARY = ("command", "cmd", "file_path", "path", "filePath", "notebook_path", "pattern",
            "query", "url", "skill", "name", "description", "prompt", "message")


def call_headline(call: ToolCall) -> str:
    """A tool call in one readable line, e.g. `bash: python3 /skills/x/scripts/y.py a.csv`."""
    command = shell_command(call)
    args = call.arguments or {}
    if command is not None:
        head = command.strip().split("\n", 1)
        more = " …" if len(head) > 1 else ""
        return f"{call.function_name}: {head[0]}{more}"
    key = next((k for k in _PRIMARY if isinstance(args.get(k), str)), None)
    rest = [f"{k}={_short(v, 30)}" for k, v in args.items() if k != key]
    if key is not None:
        tail = f"  ({', '.join(rest)})" if rest else ""
        return f"{call.function_name}: {_short(args[key], 120)}{tail}"
    return f"{call.function_name}({', '.join(rest)})"


def call_detail(call: ToolCall) -> str:
    """The full arguments of a call: the command for shell tools, else pretty JSON."""
    command = shell_command(call)
    if command is not None:
        return command
    try:
        return json.dumps(call.arguments, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(call.arguments)


def result_text(result: ObservationResult) -> str:
    """A tool result as text; non-text parts and sub-agent links are named."""
    text = message_text(result.content)
    if isinstance(result.content, list):
        others = [p.type for p in result.content if p.type != "text"]
        if others:
            text += ("\n" if text else "") + " ".join(f"[{t}]" for t in others)
    for ref in result.subagent_trajectory_ref or []:
        name = ref.session_id or ref.trajectory_id or ref.trajectory_path or "?"
        text += ("\n" if text else "") + f"→ sub-agent trajectory {name}"
    return text


def result_preview(text: str) -> str:
    """One line for a collapsed tool result: its first line and how much is hidden."""
    if not text.strip():
        return "(no output)"
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    line = clean(first_line(text))
    if lines > 1:
        return f"{line}  … ({count(lines, 'line')}, {count(len(text), 'char')})"
    return line


# --- layout --------------------------------------------------------------------------------

def _pairs(step: Step) -> list[tuple[ToolCall | None, ObservationResult | None]]:
    """Each tool call with its result, then results that answer no call of the step."""
    calls = step.tool_calls or []
    results = step.observation.results if step.observation else []
    by_id = {r.source_call_id: r for r in results if r.source_call_id}
    pairs: list[tuple[ToolCall | None, ObservationResult | None]] = [
        (c, by_id.get(c.tool_call_id)) for c in calls]
    called = {c.tool_call_id for c in calls}
    pairs += [(None, r) for r in results if not r.source_call_id or r.source_call_id not in called]
    return pairs


def step_rows(step: Step, entry: int, width: int, expanded: bool) -> list[Row]:
    """The rows of one step: header, message, reasoning, then each call and its result."""
    rows = [Row(HEADER, entry)]
    text = clean(step.text).strip("\n")
    if text:
        limit = None if expanded else COLLAPSED_LINES.get(step.source, 4)
        lines, cut = wrap(text, width - INDENT_TEXT, limit)
        rows += [Row(TEXT, entry, line) for line in lines]
        if cut:
            rows.append(Row(MORE, entry, "… (Enter shows the whole message)"))
    if step.reasoning_content:
        reason = clean(step.reasoning_content).strip("\n")
        if expanded:
            lines, _ = wrap(reason, width - INDENT_TEXT - 2)
            rows += [Row(REASONING, entry, line) for line in lines]
        else:
            rows.append(Row(REASONING, entry, first_line(reason)))
    for i, (call, result) in enumerate(_pairs(step)):
        if call is not None:
            rows.append(Row(CALL, entry, clean(call_headline(call)), i))
            if expanded:
                lines, _ = wrap(clean(call_detail(call)), width - INDENT_BODY)
                rows += [Row(CALL_BODY, entry, line, i) for line in lines]
        if result is not None:
            body = result_text(result)
            rows.append(Row(OBS, entry, result_preview(body), i))
            if expanded and body.strip():
                lines, cut = wrap(clean(body).rstrip("\n"), width - INDENT_BODY, MAX_BODY_ROWS)
                rows += [Row(OBS_BODY, entry, line, i) for line in lines]
                if cut:
                    total = body.count("\n") + 1
                    rows.append(Row(MORE, entry, f"… about {count(total - len(lines), 'more line')}"
                                    " not shown", i))
    return rows


def step_height(step: Step, width: int, expanded: bool) -> int:
    """len(step_rows(step, ..., width, expanded)), without building the rows' text.

    Collapsed steps cost a bounded wrap of their message; this is what lets the view
    know the height of a 5,000-step trajectory before drawing any of it.
    """
    if expanded:
        return len(step_rows(step, 0, width, True))
    height = 1
    text = clean(step.text).strip("\n")
    if text:
        lines, cut = wrap(text, width - INDENT_TEXT, COLLAPSED_LINES.get(step.source, 4))
        height += len(lines) + cut
    if step.reasoning_content:
        height += 1
    for call, result in _pairs(step):
        height += (call is not None) + (result is not None)
    return height


def slot_rows(step: Step | None, entry: int, width: int, height: int) -> list[Row]:
    """Exactly `height` rows for an aligned slot: the collapsed step, cut or padded."""
    if step is None:
        return [Row(BLANK, entry, "·")] + [Row(BLANK, entry)] * (height - 1)
    # Enter does not expand a slot (the other side would lose its alignment).
    rows = [Row(MORE, entry, "…") if r.kind == MORE and r.ref < 0 else r
            for r in step_rows(step, entry, width, expanded=False)]
    if len(rows) > height:
        hidden = len(rows) - height + 1
        rows = rows[: height - 1] + [Row(MORE, entry, f"… {count(hidden, 'more row')}")]
    return rows + [Row(BLANK, entry)] * (height - len(rows))


def tokens_label(step: Step) -> str:
    """`in 1,234 · out 56 · cached 800` from the step's metrics ('' when it has none)."""
    m = step.metrics
    if m is None:
        return ""
    bits = []
    if m.prompt_tokens is not None:
        bits.append(f"in {m.prompt_tokens:,}")
    if m.completion_tokens is not None:
        bits.append(f"out {m.completion_tokens:,}")
    if m.cached_tokens:
        bits.append(f"cached {m.cached_tokens:,}")
    if m.cost_usd:
        bits.append(f"${m.cost_usd:.4f}")
    return " · ".join(bits)
