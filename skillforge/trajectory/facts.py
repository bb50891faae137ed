"""Facts read off an ATIF trajectory: skill activations, skill-script runs, shell commands,
file writes and tool-call errors (CONTRACTS.md sections 5 and 7).

Pure functions over `sessions.atif.Trajectory`; the deterministic metrics are built on them.
Every record carries `order`, the position of its tool call in the whole trajectory, so
"activated before the first script run or file write" is a comparison of two numbers.

Activation evidence: a file-read tool reading `<skills dir>/<name>/SKILL.md`, a shell command
printing it (cat, head, tail, sed, less, more, bat, nl, awk ...), or a harness skill tool
naming the skill (Claude Code's `Skill`). A skills dir is any of `skills_dirs` or, failing
that, any folder named `skills` (harnesses keep skills in many places): skillforge.workspace.skill_paths.
Shell command lines are read by skillforge.trajectory.shell.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sessions.atif import ObservationResult, Step, ToolCall, Trajectory, message_text
from skillforge.workspace.skill_paths import SKILLS_DIRS, skill_path
from skillforge.trajectory.shell import (
    INTERPRETER,
    executed_scripts,
    shell_reads,
    shell_writes,
)

SHELL_TOOLS = {"bash", "shell", "exec_command", "local_shell", "run_shell_command",
               "execute_bash", "bash_command", "terminal", "run_terminal_cmd", "shell_command",
               "execute_command", "run_command", "container.exec"}
SKILL_TOOLS = {"skill", "activate_skill", "use_skill", "load_skill"}
READ_TOOLS = {"read", "read_file", "readfile", "view", "view_file", "open_file", "cat",
              "read_many_files", "get_file_contents", "readmanyfiles"}
EDITOR_TOOLS = {"str_replace_editor", "str_replace_based_edit_tool", "text_editor"}
WRITE_TOOLS = {"write", "write_file", "writefile", "edit", "multiedit", "edit_file", "replace",
               "create_file", "notebookedit", "apply_patch", "patch"}
_PATH_KEYS = ("file_path", "path", "filePath", "absolute_path", "filename", "file",
              "notebook_path", "target_file")
_EXIT_RE = re.compile(r"(?:Process exited with code|Exit code:|\[exit_code\]|exited with code|"
                      r"completed with exit code)\s*(-?\d+)", re.IGNORECASE)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)

How = Literal["read", "shell", "skill_tool"]


@dataclass(frozen=True)
class Activation:
    step_id: int
    skill_name: str
    how: How
    tool_call_id: str
    order: int


@dataclass(frozen=True)
class Command:
    step_id: int
    tool_call_id: str
    command: str
    tool: str
    order: int


@dataclass(frozen=True)
class ScriptRun:
    step_id: int
    skill_name: str
    script: str  # path relative to the skill folder, e.g. "scripts/summarize.py"
    command: str
    exit_code: int | None
    ok: bool
    tool_call_id: str
    order: int


@dataclass(frozen=True)
class FileWrite:
    step_id: int
    path: str
    tool: str
    tool_call_id: str
    order: int


@dataclass(frozen=True)
class CallOutcome:
    step_id: int
    tool_call_id: str
    function_name: str
    error: bool | None  # None: the call has no result to judge by
    reason: str | None
    order: int


def tool_calls(traj: Trajectory) -> Iterator[tuple[int, Step, ToolCall]]:
    """(order, step, call) for every tool call in the trajectory."""
    order = 0
    for step in traj.steps:
        for call in step.tool_calls or []:
            yield order, step, call
            order += 1


def _base(name: str) -> str:
    # MCP-style names ("mcp__server__read_file", "functions.bash") end in the tool's own name.
    return re.split(r"__|\.", name)[-1].lower() if name else ""


def shell_command(call: ToolCall) -> str | None:
    """The command line a shell-like tool call runs, or None when it is not one."""
    if _base(call.function_name) not in SHELL_TOOLS and call.function_name.lower() \
            not in SHELL_TOOLS:
        return None
    args = call.arguments
    for key in ("command", "cmd", "keystrokes", "script", "code"):
        value = args.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            if len(value) >= 3 and value[1] in ("-lc", "-c") and INTERPRETER.match(
                    posixpath.basename(value[0])):
                return value[-1]
            return shlex.join(value)
        if isinstance(value, str) and value.strip():
            return value
    return None


def paths_in(call: ToolCall) -> list[str]:
    """Paths a file tool call names (its path-like arguments)."""
    out = []
    for key in _PATH_KEYS:
        if isinstance(call.arguments.get(key), str):
            out.append(call.arguments[key])
    for key in ("paths", "file_paths", "files"):
        value = call.arguments.get(key)
        if isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    return out


def _skill_tool_name(call: ToolCall) -> str | None:
    if _base(call.function_name) not in SKILL_TOOLS:
        return None
    for key in ("skill", "name", "skill_name", "command"):
        value = call.arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip().lstrip("/").split()[0]
    return None


def _is_read(call: ToolCall) -> bool:
    base = _base(call.function_name)
    if base in EDITOR_TOOLS:
        return call.arguments.get("command") == "view"
    return base in READ_TOOLS


def skill_activations(traj: Trajectory,
                      skills_dirs: Sequence[str] = SKILLS_DIRS) -> list[Activation]:
    """Every piece of activation evidence, in order (a skill read twice appears twice)."""
    out: list[Activation] = []
    for order, step, call in tool_calls(traj):
        named = _skill_tool_name(call)
        if named:
            out.append(Activation(step.step_id, named, "skill_tool", call.tool_call_id, order))
            continue
        if _is_read(call):
            for p in paths_in(call):
                hit = skill_path(p, skills_dirs)
                if hit and hit[1] == "SKILL.md":
                    out.append(Activation(step.step_id, hit[0], "read", call.tool_call_id, order))
            continue
        command = shell_command(call)
        if command:
            for name in dict.fromkeys(shell_reads(command, skills_dirs)):
                out.append(Activation(step.step_id, name, "shell", call.tool_call_id, order))
    return out


def activated_skills(traj: Trajectory, skills_dirs: Sequence[str] = SKILLS_DIRS) -> list[str]:
    """Distinct activated skill names in order of first activation."""
    return list(dict.fromkeys(a.skill_name for a in skill_activations(traj, skills_dirs)))


def commands(traj: Trajectory) -> list[Command]:
    """Every shell command the agent ran, with its step."""
    return [Command(step.step_id, call.tool_call_id, cmd, call.function_name, order)
            for order, step, call in tool_calls(traj)
            if (cmd := shell_command(call)) is not None]


def result_for(step: Step, call: ToolCall) -> ObservationResult | None:
    """The observation result of `call`: by source_call_id, or, when the harness records no
    ids (terminus-2 writes its terminal output without one), the step's only result for
    its only call."""
    results = step.observation.results if step.observation else []
    for res in results:
        if res.source_call_id == call.tool_call_id:
            return res
    if len(results) == 1 and results[0].source_call_id is None and len(step.tool_calls or []) == 1:
        return results[0]
    return None


def exit_code(result: ObservationResult | None) -> int | None:
    """The exit code a tool result reports (extra.exit_code, or the harness's text marker)."""
    if result is None:
        return None
    extra = result.extra or {}
    for key in ("exit_code", "exitCode", "returncode"):
        if isinstance(extra.get(key), int) and not isinstance(extra.get(key), bool):
            return extra[key]
    text = message_text(result.content)
    m = _EXIT_RE.search(text[:400]) or _EXIT_RE.search(text[-200:])
    return int(m.group(1)) if m else None


def call_error(result: ObservationResult | None) -> tuple[bool | None, str | None]:
    """(is error, why) for a tool result; (None, None) when there is no result."""
    if result is None:
        return None, None
    extra = result.extra or {}
    if extra.get("is_error") is True:
        return True, "the harness flagged the result as an error"
    if extra.get("success") is False:
        return True, "the tool reported failure"
    if str(extra.get("status", "")).lower() in ("error", "failed", "failure", "cancelled"):
        return True, f"status {extra['status']}"
    code = exit_code(result)
    if code not in (None, 0):
        return True, f"exit code {code}"
    head = message_text(result.content).lstrip()[:200]
    if head.startswith(("<tool_use_error>", "Error:", "ERROR:", "error:")) or \
            "[error] tool reported failure" in message_text(result.content)[-200:]:
        return True, "the result reports an error"
    return False, None


def call_outcomes(traj: Trajectory) -> list[CallOutcome]:
    """Every tool call with whether it ended in an error (None when it has no result)."""
    out = []
    for order, step, call in tool_calls(traj):
        error, why = call_error(result_for(step, call))
        out.append(CallOutcome(step.step_id, call.tool_call_id, call.function_name, error, why,
                               order))
    return out


def error_free_share(traj: Trajectory) -> float | None:
    """Tool calls without error / all tool calls (a call with no result counts as no error)."""
    outcomes = call_outcomes(traj)
    if not outcomes:
        return None
    return sum(1 for o in outcomes if not o.error) / len(outcomes)


def script_runs(traj: Trajectory, skills_dirs: Sequence[str] = SKILLS_DIRS) -> list[ScriptRun]:
    """Shell calls that run a file under <skills dir>/<name>/scripts/, with how they ended."""
    out = []
    for order, step, call in tool_calls(traj):
        command = shell_command(call)
        if not command:
            continue
        res = result_for(step, call)
        code = exit_code(res)
        error, _ = call_error(res)
        ok = code == 0 if code is not None else error is False
        for name, script in dict.fromkeys(executed_scripts(command, skills_dirs)):
            out.append(ScriptRun(step.step_id, name, script, command, code, ok,
                                 call.tool_call_id, order))
    return out


def tool_writes(call: ToolCall) -> list[str]:
    """Paths a non-shell tool call writes (write_file, Edit, str_replace...)."""
    base = _base(call.function_name)
    if base in EDITOR_TOOLS:
        return paths_in(call) if call.arguments.get("command") in (
            "create", "str_replace", "insert", "undo_edit", "write") else []
    if base in ("apply_patch", "patch"):
        text = call.arguments.get("input") or call.arguments.get("patch") or ""
        found = _PATCH_FILE.findall(text) if isinstance(text, str) else []
        # Codex's exec stream names the changed files without the patch text.
        changes = call.arguments.get("changes")
        if isinstance(changes, list):
            found += [c["path"] for c in changes if isinstance(c, dict) and isinstance(c.get("path"), str)]
        return found
    return paths_in(call) if base in WRITE_TOOLS else []


def file_writes(traj: Trajectory) -> list[FileWrite]:
    """Files the agent created or changed: write/edit tools, patches and shell redirections."""
    out = []
    for order, step, call in tool_calls(traj):
        command = shell_command(call)
        paths = shell_writes(command) if command else tool_writes(call)
        for p in dict.fromkeys(paths):
            out.append(FileWrite(step.step_id, p, call.function_name, call.tool_call_id, order))
    return out


def summary(traj: Trajectory, skills_dirs: Sequence[str] = SKILLS_DIRS) -> dict[str, Any]:
    """A small digest for listings: steps, tool calls, errors, activations and script runs."""
    outcomes = call_outcomes(traj)
    return {
        "steps": len(traj.steps),
        "tool_calls": len(outcomes),
        "tool_errors": sum(1 for o in outcomes if o.error),
        "activated": activated_skills(traj, skills_dirs),
        "script_runs": len(script_runs(traj, skills_dirs)),
    }
