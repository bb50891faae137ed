"""The built-in agent's three tools, executed inside the trial sandbox (CONTRACTS.md section 6).

`bash` (command, timeout), `read_file` (path, offset, limit) and `write_file` (path,
content). Every tool runs as the sandbox's agent user, so it can read and write exactly what
a shell of that user could: `/skills` stays read-only, `/etc` is not writable. Outputs are
capped before they reach the model. A tool never raises for something the agent did wrong
(bad arguments, a missing file, a failing command): that comes back as an error result the
model can read. Only a sandbox that stopped working raises `SandboxLost`, which ends the
trial.
"""

from __future__ import annotations

import posixpath
import secrets
from dataclasses import dataclass, field
from typing import Any

from skillforge.agent.output_cap import cap_output, cap_streams
from skillforge.models.llm import ToolCall, ToolSpec
from skillforge.sandbox import WORKSPACE, ExecResult, Sandbox, SandboxError
from skillforge.sandbox.archive import tar_from_mapping

# What one tool result may put in the model's context. The sandbox keeps the head and the
# tail of a long stream (errors are usually printed last); this cap is on top of that and
# keeps the sandbox's omission marker whole (skillforge.agent.output_cap).
MAX_RESULT_CHARS = 16_000
DEFAULT_BASH_TIMEOUT_S = 120
MAX_BASH_TIMEOUT_S = 600
DEFAULT_READ_LIMIT = 400
MAX_READ_LIMIT = 2_000
MAX_WRITE_BYTES = 2 * 1024 * 1024
# Staging folder for write_file: the agent's home exists in every sandbox layout.
UPLOAD_DIR = "/home/agent"

BASH = ToolSpec(
    name="bash",
    description=(
        "Run a shell command (sh) in the container, in /workspace, and return its output "
        "and exit code. Long outputs are cut in the middle. Use `timeout` (seconds) for slow "
        "commands."
    ),
    parameters={
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The command line to run."},
            "timeout": {"type": "integer", "description": "Seconds before the command is "
                        f"killed (default {DEFAULT_BASH_TIMEOUT_S}, at most "
                        f"{MAX_BASH_TIMEOUT_S})."},
        },
        "required": ["command"],
    },
)
READ_FILE = ToolSpec(
    name="read_file",
    description=(
        "Read a text file. Relative paths are under /workspace. Returns up to `limit` lines "
        "starting at line `offset` (1-based) and says how many lines the file has."
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file to read."},
            "offset": {"type": "integer", "description": "First line to return (default 1)."},
            "limit": {"type": "integer", "description": "How many lines to return (default "
                      f"{DEFAULT_READ_LIMIT})."},
        },
        "required": ["path"],
    },
)
WRITE_FILE = ToolSpec(
    name="write_file",
    description=(
        "Create or overwrite a text file with `content`. Relative paths are under "
        "/workspace; missing parent folders are created."
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file to write."},
            "content": {"type": "string", "description": "The whole new content."},
        },
        "required": ["path", "content"],
    },
)
TOOLS: tuple[ToolSpec, ...] = (BASH, READ_FILE, WRITE_FILE)
_STDERR = "[stderr]\n"

# read_file: the first stdout line is the file's line count, then the requested lines. The
# exit code says what is wrong; messages are written here, with the sandbox path (a local
# sandbox would show its host path).
_READ_SCRIPT = (
    'f="$1"; [ -e "$f" ] || exit 3; [ -d "$f" ] && exit 4; [ -r "$f" ] || exit 5; '
    'wc -l < "$f"; tail -n +"$2" "$f" | head -n "$3"'
)
_READ_ERRORS = {
    3: "no such file: {path}",
    4: "{path} is a folder, not a file; list it with bash (ls)",
    5: "permission denied: {path}",
}
# write_file: copy the uploaded temp file as the agent user (so permissions apply), then
# remove it whatever happened.
_WRITE_SCRIPT = (
    'src="$1"; dst="$2"; '
    'mkdir -p "$(dirname "$dst")" && cat "$src" > "$dst"; rc=$?; rm -f "$src"; '
    '[ $rc -eq 0 ] && wc -c < "$dst"; exit $rc'
)


class SandboxLost(RuntimeError):
    """The sandbox stopped working (container gone, killed, daemon away): the trial ends."""


@dataclass
class ToolOutcome:
    """What a tool call gave back: text for the model, and facts for the trajectory."""

    content: str
    is_error: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def resolve_path(path: str) -> str:
    """An absolute sandbox path; relative paths are taken from /workspace."""
    p = path.strip()
    if p.startswith("~/") or p == "~":
        p = "/home/agent" + p[1:]
    return posixpath.normpath(p if p.startswith("/") else posixpath.join(WORKSPACE, p))


def _int_arg(args: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = args.get(name)
    if value is None or value == "":
        return default
    try:
        if isinstance(value, bool):
            raise TypeError(name)
        number = int(float(value))
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a whole number, got {value!r}") from None
    return max(low, min(high, number))


def _str_arg(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str) or (name != "content" and not value.strip()):
        raise ValueError(f"`{name}` is required and must be a string")
    return value


def _exec_facts(result: ExecResult) -> dict[str, Any]:
    return {"exit_code": result.exit_code, "timed_out": result.timed_out,
            "truncated": result.truncated, "duration_s": round(result.duration_s, 3)}


async def _exec(sandbox: Sandbox, cmd: str | list[str], timeout_s: float) -> ExecResult:
    try:
        return await sandbox.exec(cmd, timeout_s=timeout_s, max_output=MAX_RESULT_CHARS)
    except SandboxError as exc:
        raise SandboxLost(str(exc)) from exc


async def run_bash(sandbox: Sandbox, args: dict[str, Any], budget_s: float) -> ToolOutcome:
    """Run a command; the result shows stdout, stderr and how it ended."""
    command = _str_arg(args, "command")
    timeout = _int_arg(args, "timeout", DEFAULT_BASH_TIMEOUT_S, 1, MAX_BASH_TIMEOUT_S)
    # Never past the trial's own deadline: the trial ends then anyway.
    result = await _exec(sandbox, command, max(0.5, min(float(timeout), budget_s)))
    if result.timed_out:
        end = f"[killed: the command ran longer than {timeout} s]"
    else:
        end = f"[exit code {result.exit_code}]"
    out, err = result.stdout.rstrip("\n"), result.stderr.rstrip("\n")
    # Each stream is capped on its own, so the [stderr] label and the end line are never cut.
    fixed = len(end) + (len(_STDERR) + 1 if err else 0) + (1 if out else 0)
    out, err = cap_streams([out, err], MAX_RESULT_CHARS - fixed)
    parts = [p for p in (out, _STDERR + err if err else "", end) if p]
    return ToolOutcome(cap_output("\n".join(parts), MAX_RESULT_CHARS),
                       is_error=not result.ok, extra=_exec_facts(result))


async def run_read_file(sandbox: Sandbox, args: dict[str, Any], budget_s: float) -> ToolOutcome:
    """Lines `offset`..`offset+limit-1` of a file, with a note when there is more."""
    path = resolve_path(_str_arg(args, "path"))
    offset = _int_arg(args, "offset", 1, 1, 10**9)
    limit = _int_arg(args, "limit", DEFAULT_READ_LIMIT, 1, MAX_READ_LIMIT)
    result = await _exec(sandbox, ["sh", "-c", _READ_SCRIPT, "read_file", path, str(offset),
                                   str(limit)], max(0.5, min(30.0, budget_s)))
    facts = {**_exec_facts(result), "path": path}
    if not result.ok:
        why = _READ_ERRORS.get(result.exit_code or 0, "").format(path=path) or \
            result.stderr.strip() or ("timed out" if result.timed_out else "failed")
        return ToolOutcome(f"Error: {why}", is_error=True, extra=facts)
    count_line, _, body = result.stdout.partition("\n")
    try:
        total = int(count_line.strip())
    except ValueError:
        total = None
    shown = body.count("\n") + (1 if body and not body.endswith("\n") else 0)
    text = body
    last = offset + shown - 1
    if total is not None and (offset > 1 or last < total) and shown:
        text += f"\n[lines {offset}-{last} of {total}; pass offset={last + 1} to read on]" \
            if last < total else f"\n[lines {offset}-{last} of {total}]"
    elif not shown:
        text = f"[no lines from line {offset}: the file has {total} lines]" \
            if total else "[the file is empty]"
    return ToolOutcome(cap_output(text, MAX_RESULT_CHARS),
                       extra={**facts, "lines": shown, "total_lines": total})


async def run_write_file(sandbox: Sandbox, args: dict[str, Any], budget_s: float) -> ToolOutcome:
    """Write `content` to `path` with the agent user's permissions."""
    path = resolve_path(_str_arg(args, "path"))
    data = _str_arg(args, "content").encode("utf-8")
    if len(data) > MAX_WRITE_BYTES:
        return ToolOutcome(f"Error: content is {len(data)} bytes; write_file takes at most "
                           f"{MAX_WRITE_BYTES} (write large files with a command)",
                           is_error=True, extra={"path": path})
    temp = f".skillforge-upload-{secrets.token_hex(6)}"
    try:
        await sandbox.put_archive(tar_from_mapping({temp: data}, mode=0o600, base=UPLOAD_DIR),
                                  UPLOAD_DIR)
    except SandboxError as exc:
        raise SandboxLost(str(exc)) from exc
    result = await _exec(sandbox, ["sh", "-c", _WRITE_SCRIPT, "write_file",
                                   f"{UPLOAD_DIR}/{temp}", path], max(0.5, min(30.0, budget_s)))
    facts = {**_exec_facts(result), "path": path, "bytes": len(data)}
    if not result.ok:
        why = result.stderr.strip() or ("timed out" if result.timed_out else "failed")
        return ToolOutcome(f"Error: cannot write {path}: {why}", is_error=True, extra=facts)
    return ToolOutcome(f"wrote {result.stdout.strip() or len(data)} bytes to {path}",
                       extra=facts)


_RUNNERS = {"bash": run_bash, "read_file": run_read_file, "write_file": run_write_file}


async def run_tool(sandbox: Sandbox, call: ToolCall, budget_s: float) -> ToolOutcome:
    """Execute one tool call in the sandbox; errors come back as error outcomes."""
    runner = _RUNNERS.get(call.name)
    if call.raw_arguments is not None:
        outcome = ToolOutcome(f"Error: the arguments of {call.name} are not a JSON object "
                              f"({call.raw_arguments[:200]!r}); call the tool again with "
                              "valid JSON arguments", is_error=True)
    elif runner is None:
        outcome = ToolOutcome(f"Error: there is no tool named {call.name!r}; the tools are "
                              f"{', '.join(_RUNNERS)}", is_error=True)
    else:
        try:
            outcome = await runner(sandbox, dict(call.arguments), budget_s)
        except ValueError as exc:
            outcome = ToolOutcome(f"Error: {call.name}: {exc}", is_error=True)
    outcome.extra["is_error"] = outcome.is_error
    return outcome
