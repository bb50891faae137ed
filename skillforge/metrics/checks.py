"""A case's deterministic `checks` decided on trajectory facts (skillforge.models.checks).

These are the graders Claude Code plugin-eval, waza and vally cases carry (tool_used,
tool_order, file_exists, regex). skillforge scores them as the trial's `grader` metric when
the case has no bring-your-own grader: the weighted share of decidable checks that hold,
which is plugin-eval's run score (a run passes at 1.0, as a grader reward of 1 does here).

Decisions:
- Tool names compare by family, so a case written for Claude Code reads the same on any
  agent: `Bash` is any shell tool, `Read` any file-read tool, `Write`/`Edit` any write or
  edit tool, `Skill` a harness skill tool or a read of a SKILL.md (skillforge.trajectory.facts
  activation evidence); any other name compares case-insensitively by its base name.
- `input_match` is searched in the call's JSON-encoded arguments (plugin-eval's rule).
- `file_exists` reads the workspace listing taken when the agent stopped when there is one,
  else the files the trajectory shows written; paths are relative to the workspace.
- `regex` on `last_message` reads the final agent message, on `trace` every step's message
  and tool calls (one JSON line each), on a `{source: file}` the last content a write tool
  gave that file. What the trajectory cannot show (a file written by a shell command, a
  `baseline` comparison) is undecidable: reported, and left out of the share.
- A check with `arm: with` (plugin-eval's with-only) is skipped where the target skill is
  withheld.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Sequence
from typing import Any

from sessions.atif import ToolCall, Trajectory, message_text
from skillforge.models.checks import flags_of, js_pattern
from skillforge.trajectory import facts

FAMILIES: dict[str, frozenset[str]] = {
    "bash": frozenset(facts.SHELL_TOOLS),
    "read": frozenset(facts.READ_TOOLS),
    "write": frozenset(facts.WRITE_TOOLS | facts.EDITOR_TOOLS),
    "edit": frozenset(facts.WRITE_TOOLS | facts.EDITOR_TOOLS),
    "skill": frozenset(facts.SKILL_TOOLS),
}
WORKDIR = "/workspace"


def _base(name: str) -> str:
    return re.split(r"__|\.", name)[-1].lower() if name else ""


def _is_skill_read(call: ToolCall) -> bool:
    return any(posixpath.basename(p) == "SKILL.md" for p in facts.paths_in(call)) or bool(
        (cmd := facts.shell_command(call)) and "SKILL.md" in cmd)


def tool_matches(call: ToolCall, spec: Any) -> bool:
    """Whether `call` is the tool `spec` names (a name, or {tool, input_match})."""
    tool = spec.get("tool") if isinstance(spec, dict) else spec
    pattern = spec.get("input_match") if isinstance(spec, dict) else None
    want, got = str(tool).lower(), _base(call.function_name)
    family = FAMILIES.get(want)
    hit = got == want or call.function_name.lower() == want or (
        family is not None and (got in family or call.function_name.lower() in family))
    if not hit and want == "skill":
        hit = _is_skill_read(call)
    if hit and pattern:
        text = json.dumps(call.arguments, ensure_ascii=False)
        hit = re.search(js_pattern(pattern), text) is not None
    return hit


def _first(traj: Trajectory, spec: Any) -> int | None:
    return next((order for order, _, call in facts.tool_calls(traj)
                 if tool_matches(call, spec)), None)


def _last_message(traj: Trajectory) -> str:
    for step in reversed(traj.steps):
        if step.source == "agent" and (text := message_text(step.message)).strip():
            return text
    return ""


def _trace(traj: Trajectory) -> str:
    lines = []
    for step in traj.steps:
        lines.append(json.dumps({"role": step.source, "text": message_text(step.message)},
                                ensure_ascii=False))
        for call in step.tool_calls or []:
            lines.append(json.dumps({"tool": call.function_name, "input": call.arguments},
                                    ensure_ascii=False))
    return "\n".join(lines)


def _rel(path: str) -> str:
    path = posixpath.normpath(path)
    if path.startswith(WORKDIR + "/"):
        return path[len(WORKDIR) + 1:]
    return path.lstrip("./") if not path.startswith("/") else path


def _written_content(traj: Trajectory, path: str) -> str | None:
    found = None
    for _, _, call in facts.tool_calls(traj):
        content = call.arguments.get("content") or call.arguments.get("file_text")
        if isinstance(content, str) and any(_rel(p) == _rel(path) for p in facts.tool_writes(call)):
            found = content
    return found


def _regex(check: dict[str, Any], traj: Trajectory) -> tuple[bool | None, str]:
    target = check.get("target", "last_message")
    if isinstance(target, dict):
        text = _written_content(traj, target["path"])
        if text is None:
            return None, f"the trajectory does not show what {target['path']} holds"
    elif target == "trace":
        text = _trace(traj)
    elif target == "last_message":
        text = _last_message(traj)
    else:
        return None, "the trajectory does not hold the workspace's files"
    found = len(re.findall(js_pattern(check["pattern"]), text, flags_of(check.get("flags"))))
    match = str(check.get("match", "contains"))
    if match == "not_contains":
        return found == 0, f"{found} match(es); none allowed"
    if match.startswith("count:"):
        return found == int(match[6:]), f"{found} match(es); {match[6:]} wanted"
    return found > 0, f"{found} match(es)"


def decide(check: dict[str, Any], traj: Trajectory,
           workspace_files: Sequence[str] | None = None) -> tuple[bool | None, str]:
    """(holds, why) for one check; holds is None when the trajectory cannot say."""
    kind = check.get("type")
    if kind == "tool_used":
        n = sum(1 for _, _, call in facts.tool_calls(traj) if tool_matches(call, check))
        lo, hi = check.get("min", 1), check.get("max")
        return lo <= n and (hi is None or n <= hi), f"{n} matching call(s)"
    if kind == "tool_order":
        before, after = _first(traj, check["before"]), _first(traj, check["after"])
        if before is None or after is None:
            return False, "one of the two tools was never called"
        return before < after, f"first calls at {before} and {after}"
    if kind == "file_exists":
        seen = ([_rel(p) for p in workspace_files] if workspace_files is not None
                else [_rel(w.path) for w in facts.file_writes(traj)])
        hit = any(fnmatch.fnmatch(p, _rel(check["path"])) for p in seen)
        return hit == check.get("exists", True), "found" if hit else "not found"
    if kind == "regex":
        return _regex(check, traj)
    return None, f"{kind} checks are judged by the runner that wrote them"


def score_checks(checks: Sequence[dict[str, Any]], traj: Trajectory, *, target_staged: bool,
                 workspace_files: Sequence[str] | None = None) -> tuple[float | None,
                                                                        dict[str, Any]]:
    """(weighted share of decidable checks that hold, evidence); None when none decidable."""
    rows, total, held = [], 0.0, 0.0
    for i, check in enumerate(checks):
        name = check.get("name") or f"check {i + 1} ({check.get('type')})"
        if str(check.get("arm", "")).startswith("with") and not str(
                check.get("arm")).startswith("without") and not target_staged:
            rows.append({"check": name, "holds": None, "why": "with-skill arm only"})
            continue
        holds, why = decide(check, traj, workspace_files)
        rows.append({"check": name, "holds": holds, "why": why})
        if holds is not None:
            weight = float(check.get("weight", 1))
            total += weight
            held += weight if holds else 0.0
    value = round(held / total, 6) if total > 0 else None
    return value, {"source": "checks", "checks": rows,
                   "rule": "weighted share of the decidable checks that hold"}
