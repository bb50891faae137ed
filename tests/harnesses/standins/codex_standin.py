#!/usr/bin/env python3
"""A stand-in for the `codex` CLI in trial tests: it REPLAYS a real Codex rollout.

Installed in the test container as /usr/local/bin/codex (python3, standard library only).
`codex --version` prints the rollout's version. `codex exec ...`:

1. records its argv, working folder, uid, a few NON-secret variables, WHETHER the key
   variables were set (never their values) and the skills in ~/.agents/skills to RECORD;
2. prints the rollout as `codex exec --json` would: thread.started, then per user prompt a
   turn (turn.started, item.* events, turn.completed with the turn's token usage). The
   corpus files are rollouts (session logs), so the conversion is done here,
   deterministically: reasoning and assistant messages become reasoning / agent_message
   items, shell calls command_execution items (started, then completed with the output and
   exit code), apply_patch file_change items, `mcp__server__tool` calls mcp_tool_call items,
   update_plan a todo_list item and spawn/wait agent calls collab_tool_call items; other
   function calls do not appear in a real exec stream and are left out.

A transcript that already is an exec stream (its first event is `thread.started`) is printed
as it is.

Config: /opt/standin/codex.json {"transcript": path, "record": path}.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

# Staged by the tests under /opt/skillforge (the trial's tools mount); baked into an image
# by test_trial_cli under /opt/standin.
CONFIGS = ("/opt/skillforge/standin/codex.json", "/opt/standin/codex.json")
CONFIG = next((c for c in CONFIGS if Path(c).is_file()), CONFIGS[-1])
KEY_VARS = ("CODEX_API_KEY", "OPENAI_API_KEY")
SHOWN_VARS = ("HOME", "NO_COLOR", "OPENAI_BASE_URL")
SHELL_CALLS = {"exec_command", "shell", "shell_command", "local_shell"}
EXIT = re.compile(r"(?:Process exited with code|Exit code:)\s*(-?\d+)")
PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.MULTILINE)


def read_lines(path: str) -> list[dict]:
    out = []
    for raw in Path(path).read_bytes().split(b"\n"):
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("payload"), dict):
            out.append(obj)
    return out


def version_of(lines: list[dict]) -> str:
    meta = next((o["payload"] for o in lines if o["type"] == "session_meta"), {})
    return str(meta.get("cli_version") or "0.0.0")


def _args(p: dict) -> dict:
    raw = p.get("arguments")
    try:
        args = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return {}
    return args if isinstance(args, dict) else {}


def _command(args: dict) -> str | None:
    cmd = args.get("cmd", args.get("command"))
    if isinstance(cmd, list) and all(isinstance(c, str) for c in cmd):
        return shlex.join(cmd)
    if isinstance(cmd, str):
        # a bare command line runs in the user's login shell, as codex shows it
        return shlex.join(["/bin/bash", "-lc", cmd])
    return None


def _output(out) -> tuple[str, int | None]:
    text = out if isinstance(out, str) else json.dumps(out)
    m = EXIT.search(text[:400])
    body = text.split("Output:\n", 1)[1] if "Output:\n" in text[:600] else text
    return body, int(m.group(1)) if m else None


def to_stream(lines: list[dict]) -> list[dict]:
    """Rollout lines -> the `codex exec --json` events of the same session."""
    meta = next((o["payload"] for o in lines if o["type"] == "session_meta"), {})
    events: list[dict] = [{"type": "thread.started", "thread_id": meta.get("id", "standin")}]
    calls: dict[str, dict] = {}  # call id -> started item
    usage = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0}
    open_turn = False
    n = 0

    def item(kind: str, body: dict) -> None:
        events.append({"type": kind, "item": body})

    def close_turn() -> None:
        nonlocal usage
        events.append({"type": "turn.completed", "usage": usage})
        usage = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0}

    for o in lines:
        p = o["payload"]
        kind = p.get("type")
        if o["type"] == "event_msg" and kind == "user_message":
            if open_turn:
                close_turn()
            events.append({"type": "turn.started"})
            open_turn = True
            continue
        if not open_turn and o["type"] == "response_item":
            events.append({"type": "turn.started"})
            open_turn = True
        if o["type"] == "event_msg" and kind == "token_count":
            last = (p.get("info") or {}).get("last_token_usage") or {}
            for k in usage:
                usage[k] += int(last.get(k) or 0)
            continue
        if o["type"] != "response_item":
            continue
        n += 1
        iid = f"item_{n}"
        if kind == "reasoning":
            text = "\n".join(s.get("text", "") for s in p.get("summary") or []
                             if isinstance(s, dict))
            if text:
                item("item.completed", {"id": iid, "type": "reasoning", "text": text})
        elif kind == "message" and p.get("role") == "assistant":
            text = "\n".join(c.get("text", "") for c in p.get("content") or []
                             if isinstance(c, dict))
            item("item.completed", {"id": iid, "type": "agent_message", "text": text})
        elif kind == "function_call":
            name, args = p.get("name") or "", _args(p)
            body: dict | None = None
            if name in SHELL_CALLS and _command(args):
                body = {"id": iid, "type": "command_execution", "command": _command(args),
                        "aggregated_output": "", "exit_code": None, "status": "in_progress"}
            elif name.startswith("mcp__") and name.count("__") >= 2:
                _, server, tool = name.split("__", 2)
                body = {"id": iid, "type": "mcp_tool_call", "server": server, "tool": tool,
                        "arguments": args, "result": None, "error": None,
                        "status": "in_progress"}
            elif name in ("spawn_agent", "wait_agent", "send_input", "close_agent"):
                body = {"id": iid, "type": "collab_tool_call", "tool": name,
                        "sender_thread_id": meta.get("id", ""), "receiver_thread_ids":
                        args.get("targets") or [], "prompt": args.get("message"),
                        "agents_states": {}, "status": "in_progress"}
            elif name == "update_plan":
                plan = args.get("plan") or []
                item("item.completed", {"id": iid, "type": "todo_list", "items": [
                    {"text": s.get("step", ""), "completed": s.get("status") == "completed"}
                    for s in plan if isinstance(s, dict)]})
            if body is not None:
                item("item.started", body)
                calls[p.get("call_id")] = body
        elif kind == "custom_tool_call" and p.get("name") == "apply_patch":
            patch = p.get("input") or ""
            changes = [{"path": path, "kind": {"Add": "add", "Update": "update",
                                               "Delete": "delete"}[k]}
                       for k, path in PATCH_FILE.findall(patch)]
            calls[p.get("call_id")] = {"id": iid, "type": "file_change", "changes": changes,
                                       "status": "in_progress"}
        elif kind in ("function_call_output", "custom_tool_call_output"):
            started = calls.pop(p.get("call_id"), None)
            if started is None:
                continue
            done = dict(started)
            text, code = _output(p.get("output"))
            if done["type"] == "command_execution":
                done.update(aggregated_output=text, exit_code=code if code is not None else 0,
                            status="completed" if code in (None, 0) else "failed")
            elif done["type"] == "mcp_tool_call":
                done.update(result={"content": [{"type": "text", "text": text}],
                                    "structured_content": None}, status="completed")
            else:
                done.update(status="completed")
            item("item.completed", done)
    if open_turn:
        close_turn()
    return events


def main(argv: list[str]) -> int:
    config = json.loads(Path(CONFIG).read_text())
    lines = read_lines(config["transcript"])
    if argv == ["--version"]:
        print(f"codex-cli {version_of(lines)}")
        return 0
    home = Path(os.environ.get("HOME", "/nonexistent"))
    skills = []
    folder = home / ".agents" / "skills"
    for skill in sorted(folder.glob("*/SKILL.md")) if folder.is_dir() else []:
        skills.append({"folder": skill.parent.name, "path": str(skill),
                       "readable": os.access(skill, os.R_OK),
                       "writable": os.access(skill, os.W_OK)})
    record = {
        "argv": argv, "cwd": os.getcwd(), "uid": os.getuid(),
        "env": {k: os.environ[k] for k in SHOWN_VARS if k in os.environ},
        "key_present": {k: bool(os.environ.get(k)) for k in KEY_VARS},
        "skills": skills,
        "agents_dir_writable": os.access(home / ".agents", os.W_OK),
    }
    Path(config["record"]).parent.mkdir(parents=True, exist_ok=True)
    Path(config["record"]).write_text(json.dumps(record, indent=1))
    raw = Path(config["transcript"]).read_text()
    if raw.lstrip().startswith('{"type":"thread.started"'):
        sys.stdout.write(raw)
    else:
        for event in to_stream(lines):
            sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
