#!/usr/bin/env python3
"""A stand-in for the `claude` CLI in trial tests: it REPLAYS a real Claude Code transcript.

Installed in the test container as /usr/local/bin/claude (python3, standard library only).
`claude --version` prints the transcript's version. Any other call:

1. records what it was given to RECORD (outside /workspace): its argv, its working folder and
   uid, the values of a few NON-secret variables, and for the key variables only WHETHER they
   were set (never their values), plus the skills it finds in its skills folder;
2. prints the transcript as `claude -p --output-format stream-json --verbose` would: an
   `init` event, the session log's user/assistant events in stream form (session_id,
   parent_tool_use_id), and a final `result` event. The corpus files are session logs, so
   the conversion is done here, deterministically;
3. with "leak_env" in its config, adds one Bash tool call running `env` whose output holds
   the key, as a careless real run could: skillforge must scrub it from what it keeps;
   with "hang_after": N it prints N events and then hangs (a run that times out); with
   "fail": MESSAGE it prints MESSAGE on stderr and exits 1 before any event (a bad key).

Config: /opt/standin/claude.json {"transcript": path, "record": path, "leak_env": bool,
"hang_after": int, "fail": str}.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

# Staged by the tests under /opt/skillforge (the trial's tools mount); baked into an image
# by test_trial_cli under /opt/standin.
CONFIGS = ("/opt/skillforge/standin/claude.json", "/opt/standin/claude.json")
CONFIG = next((c for c in CONFIGS if Path(c).is_file()), CONFIGS[-1])
KEY_VARS = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN")
SHOWN_VARS = ("HOME", "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
              "DISABLE_AUTOUPDATER", "ANTHROPIC_BASE_URL")


def read_events(path: str) -> list[dict]:
    events = []
    for raw in Path(path).read_bytes().split(b"\n"):
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict):
            events.append(obj)
    return events


def version_of(events: list[dict]) -> str:
    return next((e["version"] for e in events if isinstance(e.get("version"), str)), "2.0.0")


def to_stream(events: list[dict], *, model: str | None, cwd: str) -> list[dict]:
    """Session-log events -> the stream-json events of the same conversation."""
    sid = next((e["sessionId"] for e in events if isinstance(e.get("sessionId"), str)),
               "standin-session")
    convo = [e for e in events if e.get("type") in ("user", "assistant")
             and isinstance(e.get("message"), dict)]
    tools, models = [], []
    for e in convo:
        msg = e["message"]
        if e["type"] == "assistant" and isinstance(msg.get("model"), str):
            models.append(msg["model"])
        for block in msg.get("content") if isinstance(msg.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and \
                    block.get("name") not in tools:
                tools.append(block.get("name"))
    out: list[dict] = [{"type": "system", "subtype": "init", "cwd": cwd, "session_id": sid,
                        "tools": tools, "model": model or (models[0] if models else "unknown"),
                        "permissionMode": "bypassPermissions",
                        "claude_code_version": version_of(events)}]
    for e in convo:
        item = {"type": e["type"], "message": e["message"],
                "parent_tool_use_id": "toolu_sidechain" if e.get("isSidechain") else None,
                "session_id": sid}
        if e.get("uuid"):
            item["uuid"] = e["uuid"]
        if e["type"] == "user" and "toolUseResult" in e:
            item["tool_use_result"] = e["toolUseResult"]
        out.append(item)
    return out


def result_event(stream: list[dict]) -> dict:
    """The closing `result` event: the last assistant text, turns and a cost."""
    sid = stream[0]["session_id"]
    texts, ids, usage = [], [], None
    for e in stream:
        if e["type"] != "assistant":
            continue
        msg = e["message"]
        if msg.get("id") not in ids:
            ids.append(msg.get("id"))
        usage = msg.get("usage") or usage
        for block in msg.get("content") if isinstance(msg.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "text" and block.get("text"):
                texts.append(block["text"])
    return {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 1234,
            "duration_api_ms": 1000, "num_turns": len(ids), "result": texts[-1] if texts else "",
            "session_id": sid, "total_cost_usd": 0.0421, "usage": usage or {}}


def leak_events(sid: str) -> list[dict]:
    """A Bash `env` call whose output shows the environment, key included."""
    env_text = "\n".join(f"{k}={v}" for k, v in sorted(os.environ.items()))
    use = {"type": "tool_use", "id": "toolu_standin_env", "name": "Bash",
           "input": {"command": "env", "description": "Show the environment"}}
    return [
        {"type": "assistant", "session_id": sid, "parent_tool_use_id": None,
         "message": {"id": "msg_standin_env", "role": "assistant", "model": "standin",
                     "content": [use], "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "user", "session_id": sid, "parent_tool_use_id": None,
         "message": {"role": "user", "content": [{"type": "tool_result",
                                                   "tool_use_id": "toolu_standin_env",
                                                   "content": env_text}]}},
    ]


def skills_found(folder: Path) -> list[dict]:
    found = []
    for skill in sorted(folder.glob("*/SKILL.md")) if folder.is_dir() else []:
        text = skill.read_text("utf-8", errors="replace")
        name = next((ln.split(":", 1)[1].strip() for ln in text.splitlines()
                     if ln.startswith("name:")), None)
        found.append({"folder": skill.parent.name, "name": name, "path": str(skill),
                      "readable": os.access(skill, os.R_OK),
                      "writable": os.access(skill, os.W_OK),
                      "folder_writable": os.access(skill.parent, os.W_OK)})
    return found


def main(argv: list[str]) -> int:
    config = json.loads(Path(CONFIG).read_text())
    events = read_events(config["transcript"])
    if argv == ["--version"]:
        print(f"{version_of(events)} (Claude Code)")
        return 0
    home = Path(os.environ.get("HOME", "/nonexistent"))
    record = {
        "argv": argv, "cwd": os.getcwd(), "uid": os.getuid(),
        "env": {k: os.environ[k] for k in SHOWN_VARS if k in os.environ},
        "key_present": {k: bool(os.environ.get(k)) for k in KEY_VARS},
        "skills": skills_found(home / ".claude" / "skills"),
        "builtin_skills_dir": sorted(os.listdir("/skills")) if os.path.isdir("/skills") else None,
        "claude_dir_writable": os.access(home / ".claude", os.W_OK),
    }
    Path(config["record"]).parent.mkdir(parents=True, exist_ok=True)
    Path(config["record"]).write_text(json.dumps(record, indent=1))
    if config.get("fail"):
        print(config["fail"], file=sys.stderr)
        return 1
    model = argv[argv.index("--model") + 1] if "--model" in argv else None
    stream = to_stream(events, model=model, cwd=os.getcwd())
    if config.get("leak_env"):
        stream += leak_events(stream[0]["session_id"])
    stream.append(result_event(stream))
    for n, event in enumerate(stream):
        if n == config.get("hang_after"):
            sys.stdout.flush()
            time.sleep(3600)
        sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
