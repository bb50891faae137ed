"""Trajectory dicts (ATIF JSON) as short step views for the side-by-side and the summaries.

A report's trajectories come from disk and from other tools, so nothing here trusts their
shape: a dict that validates as ATIF gets its skill activations and script runs from
`skillforge.trajectory.facts` (the same evidence the metrics use); anything else is read
field by field with a path pattern for `/skills/<name>/SKILL.md` and
`/skills/<name>/scripts/...`, and the view says it was not valid ATIF. Texts are cut to
previews; escaping is the renderer's job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from sessions.atif import Trajectory
from skillforge.trajectory import facts as tf
CallKind = Literal["activation", "script", "call"]
MESSAGE_PREVIEW = 600
ARGS_PREVIEW = 300
OUTPUT_PREVIEW = 400
_SKILL_MD = re.compile(r"skills/([A-Za-z0-9._-]+)/SKILL\.md")
_SCRIPT = re.compile(r"skills/([A-Za-z0-9._-]+)/(scripts/[^\s'\"`;|&)]+)")


def cut(text: str, limit: int) -> str:
    """The first `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


def content_text(content: Any) -> str:
    """Text of an ATIF message or observation content (a string or a list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for p in content:
            if isinstance(p, Mapping) and isinstance(p.get("text"), str):
                parts.append(p["text"])
            elif isinstance(p, Mapping) and p.get("type") in ("image", "audio"):
                parts.append(f"[{p['type']}]")
        return "\n".join(parts)
    return str(content)


@dataclass
class CallView:
    call_id: str
    name: str
    args: str
    output: str | None
    kind: CallKind = "call"
    skill: str | None = None
    script: str | None = None
    exit_code: int | None = None
    error: bool | None = None


@dataclass
class StepView:
    step_id: int | str
    source: str
    text: str
    calls: list[CallView] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # results not tied to a call


@dataclass
class TrajectoryView:
    steps: list[StepView]
    attempt: int | None = None
    valid_atif: bool = True
    problem: str | None = None

    @property
    def n_calls(self) -> int:
        return sum(len(s.calls) for s in self.steps)

    def marked(self, kind: CallKind) -> list[tuple[int | str, CallView]]:
        return [(s.step_id, c) for s in self.steps for c in s.calls if c.kind == kind]

    @property
    def final_text(self) -> str:
        for s in reversed(self.steps):
            if s.source == "agent" and s.text.strip():
                return s.text
        return ""


def _args_preview(name: str, args: Any) -> str:
    if isinstance(args, Mapping):
        for key in ("command", "cmd", "file_path", "path", "filePath", "absolute_path"):
            value = args.get(key)
            if isinstance(value, str) and value.strip():
                return cut(value, ARGS_PREVIEW)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return cut(" ".join(value), ARGS_PREVIEW)
    try:
        text = json.dumps(args, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):  # e.g. keys of mixed types cannot be sorted
        text = str(args)
    return cut(text, ARGS_PREVIEW)


def _facts(data: Mapping[str, Any]) -> tuple[dict, dict, dict, str | None]:
    """Activations, script runs and errors keyed by (step_id, call id), from valid ATIF."""
    try:
        traj = Trajectory.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return {}, {}, {}, f"not valid ATIF ({where}: {first['msg']})"
    acts = {(a.step_id, a.tool_call_id): a.skill_name for a in tf.skill_activations(traj)}
    runs = {(r.step_id, r.tool_call_id): r for r in tf.script_runs(traj)}
    errors = {(o.step_id, o.tool_call_id): o.error for o in tf.call_outcomes(traj)}
    return acts, runs, errors, None


def _mark_by_pattern(call: CallView, raw_args: Any) -> None:
    text = raw_args if isinstance(raw_args, str) else json.dumps(raw_args, ensure_ascii=False,
                                                                 default=str)
    if m := _SCRIPT.search(text):
        call.kind, call.skill, call.script = "script", m.group(1), m.group(2)
    elif m := _SKILL_MD.search(text):
        call.kind, call.skill = "activation", m.group(1)


def trajectory_view(data: Any) -> TrajectoryView:
    """Step views of one ATIF trajectory dict, with skill activations and script runs marked."""
    if not isinstance(data, Mapping) or not isinstance(data.get("steps"), list):
        return TrajectoryView(steps=[], valid_atif=False,
                              problem="not an ATIF trajectory (no `steps` list)")
    acts, runs, errors, problem = _facts(data)
    extra = data.get("extra") if isinstance(data.get("extra"), Mapping) else {}
    attempt = extra.get("attempt") if isinstance(extra.get("attempt"), int) else None
    steps = []
    for i, raw in enumerate(data["steps"]):
        if not isinstance(raw, Mapping):
            continue
        step_id = raw.get("step_id", i + 1)
        obs = raw.get("observation") if isinstance(raw.get("observation"), Mapping) else {}
        results = [r for r in obs.get("results") or [] if isinstance(r, Mapping)]
        by_call = {r.get("source_call_id"): r for r in results if r.get("source_call_id")}
        step = StepView(step_id=step_id, source=str(raw.get("source", "?")),
                        text=cut(content_text(raw.get("message")), MESSAGE_PREVIEW))
        for call in raw.get("tool_calls") or []:
            if not isinstance(call, Mapping):
                continue
            cid = str(call.get("tool_call_id", ""))
            name = str(call.get("function_name", "?"))
            res = by_call.get(cid)
            view = CallView(call_id=cid, name=name,
                            args=_args_preview(name, call.get("arguments")),
                            output=None if res is None else cut(content_text(res.get("content")),
                                                                 OUTPUT_PREVIEW))
            key = (step_id, cid)
            if problem is None:
                view.error = errors.get(key)
                if key in runs:
                    run = runs[key]
                    view.kind, view.skill, view.script = "script", run.skill_name, run.script
                    view.exit_code = run.exit_code
                    view.error = not run.ok
                elif key in acts:
                    view.kind, view.skill = "activation", acts[key]
            else:
                _mark_by_pattern(view, call.get("arguments"))
            step.calls.append(view)
        step.outputs = [cut(content_text(r.get("content")), OUTPUT_PREVIEW)
                        for r in results if not r.get("source_call_id")]
        steps.append(step)
    return TrajectoryView(steps=steps, attempt=attempt, valid_atif=problem is None,
                          problem=problem)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def summary_line(view: TrajectoryView) -> str:
    """One line for Markdown: steps, calls, activations, script runs and their exits."""
    if not view.steps:
        return view.problem or "no steps"
    parts = [f"{_count(len(view.steps), 'step')}, {_count(view.n_calls, 'tool call')}"]
    acts = view.marked("activation")
    if acts:
        parts.append("opened " + ", ".join(f"{c.skill} at step {s}" for s, c in acts))
    else:
        parts.append("never opened a skill")
    runs = view.marked("script")
    if runs:
        def _exit(c: CallView) -> str:
            return f"exit {c.exit_code}" if c.exit_code is not None else (
                "failed" if c.error else "ok")
        parts.append("ran " + ", ".join(f"{c.script} at step {s} ({_exit(c)})" for s, c in runs))
    errors = sum(1 for s in view.steps for c in s.calls if c.error)
    if errors:
        parts.append(f"{_count(errors, 'failed call')}")
    if view.problem:
        parts.append(view.problem)
    return "; ".join(parts)
