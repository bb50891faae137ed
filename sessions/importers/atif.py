"""ATIF files of any v1.x (Harbor's `agent/trajectory.json`) into a trajectory skillforge keeps.

A conforming file passes through unchanged (apart from being written back as ATIF-v1.7).
A file that bends the rules is repaired with a counted warning rather than refused: unknown
keys move into the nearest `extra`, steps are renumbered 1, 2, 3, ..., agent-only fields on
user/system steps move into that step's `extra`, and an observation naming a call its step
never made keeps the id in `extra` instead of `source_call_id`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sessions.atif import READ_VERSIONS, WRITE_VERSION, Trajectory
from sessions.atif_rules import AGENT_ONLY, ALLOWED_KEYS, SOURCES
from sessions.importers.base import ImportResult, Notes, TraceImportError, read_json_file

FORMAT = "atif"


def _fold(obj: Any, kind: str, where: str, notes: Notes) -> Any:
    """Move keys ATIF does not define into obj['extra'] (a new dict; obj is not changed)."""
    if not isinstance(obj, dict):
        return obj
    out = {k: v for k, v in obj.items() if k in ALLOWED_KEYS[kind]}
    unknown = {k: v for k, v in obj.items() if k not in ALLOWED_KEYS[kind]}
    if unknown:
        notes.warn(f"unknown {where} key(s) {', '.join(sorted(unknown))} moved into extra")
        extra = out.get("extra") if isinstance(out.get("extra"), dict) else {}
        out["extra"] = {**extra, **unknown}
    return out


def _parts(value: Any, notes: Notes) -> Any:
    if isinstance(value, list):
        return [_fold(p, "part", "content part", notes) for p in value]
    return value


def _call(raw: dict[str, Any], notes: Notes, fallback_id: str) -> dict[str, Any]:
    call = _fold(raw, "tool_call", "tool call", notes)
    if not isinstance(call.get("tool_call_id"), str):
        notes.warn("a tool call without a string tool_call_id got one")
        call["tool_call_id"] = str(call.get("tool_call_id") or f"call-{fallback_id}")
    if not isinstance(call.get("function_name"), str):
        notes.warn("a tool call without a function_name read as 'unknown'")
        call["function_name"] = str(call.get("function_name") or "unknown")
    if not isinstance(call.get("arguments"), dict):
        notes.warn("tool call arguments that are not an object moved into extra")
        call["extra"] = {**(call.get("extra") or {}), "raw_arguments": call.get("arguments")}
        call["arguments"] = {}
    return call


def _step(raw: Any, index: int, notes: Notes) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        notes.skip(f"step {index + 1} is not an object")
        return None
    step = _fold(raw, "step", "step", notes)
    if step.get("source") not in SOURCES:
        notes.warn(f"step source {step.get('source')!r} read as 'system'")
        step.setdefault("extra", {})
        step["extra"] = {**(step["extra"] or {}), "original_source": step.get("source")}
        step["source"] = "system"
    if step["source"] != "agent":
        moved = {k: step.pop(k) for k in AGENT_ONLY if step.get(k) is not None}
        if moved:
            notes.warn(f"{', '.join(moved)} on a {step['source']} step moved into extra")
            step["extra"] = {**(step.get("extra") or {}), **moved}
    if "message" not in step or step["message"] is None:
        step["message"] = ""
    step["message"] = _parts(step["message"], notes)
    if isinstance(step.get("metrics"), dict):
        step["metrics"] = _fold(step["metrics"], "metrics", "metrics", notes)
    raw_calls = step.get("tool_calls")
    if raw_calls is not None and not isinstance(raw_calls, list):
        notes.warn(f"step {index + 1}: tool_calls is a {type(raw_calls).__name__}, not a list; dropped")
        raw_calls = []
    calls = [_call(c, notes, f"{index + 1}-{i}")
             for i, c in enumerate(raw_calls or []) if isinstance(c, dict)]
    if step.get("tool_calls") is not None:
        step["tool_calls"] = calls or None
    # Only string ids can pair (a mutated document may put a list or an object there).
    ids = {i for c in calls if isinstance(i := c.get("tool_call_id"), str)}
    obs = step.get("observation")
    if isinstance(obs, dict):
        obs = _fold(obs, "observation", "observation", notes)
        results = []
        raw_results = obs.get("results")
        for res in raw_results if isinstance(raw_results, list) else []:
            res = _fold(res, "result", "observation result", notes)
            if not isinstance(res, dict):
                continue
            res["content"] = _parts(res.get("content"), notes)
            refs = res.get("subagent_trajectory_ref")
            if isinstance(refs, list):
                res["subagent_trajectory_ref"] = [_fold(r, "ref", "subagent ref", notes)
                                                  for r in refs]
            sid = res.get("source_call_id")
            if sid is not None and (not isinstance(sid, str) or sid not in ids):
                notes.warn("an observation names a call its step never made; the id moved "
                           "into extra")
                res["extra"] = {**(res.get("extra") or {}),
                                "unpaired_call_id": res.pop("source_call_id")}
            results.append(res)
        obs["results"] = results
        step["observation"] = obs
    return step


def normalise(data: Any, notes: Notes, source: str) -> dict[str, Any]:
    """A raw ATIF document repaired to the rules skillforge writes by (see module doc)."""
    if not isinstance(data, dict):
        raise TraceImportError(f"{source}: an ATIF trajectory is a JSON object")
    version = data.get("schema_version")
    if version not in READ_VERSIONS:
        notes.warn(f"schema_version {version!r} is not ATIF-v1.0 ... v1.8; read as "
                   f"{WRITE_VERSION}")
    doc = _fold(data, "trajectory", "top-level", notes)
    doc["schema_version"] = WRITE_VERSION
    agent = doc.get("agent")
    if not isinstance(agent, dict) or not agent.get("name"):
        notes.warn("no agent name; set to 'unknown'")
        agent = agent if isinstance(agent, dict) else {}
        agent = {**agent, "name": "unknown"}
    agent = _fold(agent, "agent", "agent", notes)
    agent.setdefault("version", "unknown")
    doc["agent"] = agent
    if isinstance(doc.get("final_metrics"), dict):
        doc["final_metrics"] = _fold(doc["final_metrics"], "final_metrics", "final_metrics",
                                     notes)
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise TraceImportError(f"{source}: the trajectory has no steps")
    steps = [s for i, raw in enumerate(raw_steps) if (s := _step(raw, i, notes)) is not None]
    if not steps:
        raise TraceImportError(f"{source}: none of the {len(raw_steps)} steps is usable")
    if [s.get("step_id") for s in steps] != list(range(1, len(steps) + 1)):
        notes.warn("step ids were not 1, 2, 3, ...; renumbered")
    for i, s in enumerate(steps, start=1):
        s["step_id"] = i
    doc["steps"] = steps
    subs = doc.get("subagent_trajectories")
    if isinstance(subs, list):
        doc["subagent_trajectories"] = [normalise(s, notes, f"{source} (subagent)")
                                        for s in subs]
    return doc


def import_atif(path: Path) -> ImportResult:
    """Import an ATIF file (v1.0 ... v1.8, repaired where it bends the rules)."""
    path = Path(path)
    notes = Notes()
    doc = normalise(read_json_file(path), notes, str(path))
    try:
        traj = Trajectory.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "/".join(str(p) for p in first["loc"])
        raise TraceImportError(f"{path}: not an ATIF trajectory skillforge can read: /{where}: "
                               f"{first['msg']}") from exc
    traj.extra = {**(traj.extra or {})}
    traj.extra.setdefault("source_format", FORMAT)
    return ImportResult(trajectory=traj, format=FORMAT, source=str(path), skipped=notes.skipped,
                        warnings=notes.warnings, records=len(doc["steps"]))
