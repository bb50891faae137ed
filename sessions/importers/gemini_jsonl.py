"""Gemini CLI's append-only session log (`session-*.jsonl`, gemini-cli 0.39 on) folded back
into the one conversation record the older `.json` recordings hold.

The writer never rewrites the file; it appends one JSON object a line:
- a metadata line first: `sessionId`, `projectHash`, `startTime`, `lastUpdated`, `kind`
  (`main` or `subagent`), `directories`;
- message records (`id`, `timestamp`, `type`, `content`, and for `gemini` messages
  `toolCalls`, `thoughts`, `tokens`, `model`). A message is appended again, whole, each
  time it changes (tokens arrive, a tool call finishes), so the later record with the same
  id replaces the earlier one and keeps its place;
- `{"$set": {...}}`: metadata fields changed (`lastUpdated`, `summary`, `sessionId` on
  resume ...). A `$set` of `messages` replaces the whole list (Gemini syncs its history so);
  messages appended after it apply on top, as they did in the writer's memory;
- `{"$rewindTo": "<id>"}`: the user rewound; that message and every later one are gone.

Only the replay lives here; `sessions.importers.gemini_cli` turns the record into ATIF.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sessions.importers.base import Notes, read_json_lines

MESSAGE_TYPES = {"user", "gemini", "info", "error", "warning"}
REWOUND = "message dropped by $rewindTo"  # the `ignored` key counting rewound messages


@dataclass
class SessionLog:
    """The conversation a session log adds up to."""

    metadata: dict[str, Any] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)  # each message's latest record
    records: int = 0  # JSON lines read
    rewound: int = 0  # messages a $rewindTo dropped


def is_log_record(obj: dict[str, Any]) -> bool:
    """True for a line only Gemini CLI's session log writes.

    Claude Code lines also carry `sessionId` and `type: "user"`, but always inside a
    `message` object with a `uuid`; a Gemini record has its `content` at the top.
    """
    if isinstance(obj.get("$set"), dict) or isinstance(obj.get("$rewindTo"), str):
        return True
    if isinstance(obj.get("sessionId"), str) and isinstance(obj.get("projectHash"), str) \
            and "messages" not in obj:
        return True
    kind = obj.get("type")
    return isinstance(kind, str) and kind in MESSAGE_TYPES and isinstance(obj.get("id"), str) \
        and "content" in obj and "message" not in obj and "uuid" not in obj


def starts_like_log(path: Path) -> bool:
    """Whether the first non-blank line of `path` is, by itself, a session-log record."""
    try:
        with path.open("rb") as fh:
            for raw in fh:
                if raw.strip():
                    obj = json.loads(raw)
                    return isinstance(obj, dict) and is_log_record(obj)
    except (OSError, ValueError, RecursionError):
        return False
    return False


def _unknown(obj: dict[str, Any]) -> str:
    dollar = next((k for k in obj if k.startswith("$")), None)
    if dollar is not None:
        return f"unknown record {dollar!r}"
    return f"unknown record (keys: {', '.join(sorted(obj)[:4]) or 'none'})"


def replay(path: Path, notes: Notes) -> SessionLog:
    """Fold every line of a Gemini CLI session log into one conversation.

    Bad lines cost themselves only (counted in `notes`); a truncated last line leaves the
    message's earlier record in place.
    """
    log = SessionLog()
    by_id: dict[str, dict[str, Any]] = {}  # insertion order = conversation order
    line_of: dict[str, int] = {}
    for number, obj in read_json_lines(path, notes):
        log.records += 1
        if "$rewindTo" in obj:
            target = obj["$rewindTo"]
            if not isinstance(target, str):
                notes.skip("$rewindTo without a message id", number)
            elif target not in by_id:
                # The writer only rewinds to a message it holds, so the file lost that
                # message's line; Gemini would then drop everything, which loses the most.
                notes.skip("$rewindTo names a message not in the log; ignored", number,
                           warn=True)
            else:
                ids = list(by_id)
                dropped = ids[ids.index(target):]
                for message_id in dropped:
                    del by_id[message_id]
                log.rewound += len(dropped)
        elif isinstance(obj.get("id"), str):
            by_id[obj["id"]] = obj  # a later record of the same message keeps its place
            line_of[obj["id"]] = number
        elif "$set" in obj:
            update = obj["$set"]
            if not isinstance(update, dict):
                notes.skip("$set without an object", number)
                continue
            replaced = _replaced_messages(update, notes, number)
            if replaced is not None:
                by_id, line_of = replaced, dict.fromkeys(replaced, number)
            log.metadata.update({k: v for k, v in update.items() if k != "messages"})
        elif isinstance(obj.get("sessionId"), str) and isinstance(obj.get("projectHash"), str):
            log.metadata.update(obj)
        else:
            notes.skip(_unknown(obj), number, warn=True)
    log.messages = list(by_id.values())
    log.lines = [line_of.get(k) for k in by_id]
    if notes.skipped.reasons.get("truncated final line"):
        notes.warn("the last line was cut off mid-write (a live session?) and skipped; "
                   "every record before it was kept")
    return log


def _replaced_messages(update: dict[str, Any], notes: Notes,
                       line: int) -> dict[str, dict[str, Any]] | None:
    """The message list a `$set` puts in place of the current one, if it sets one."""
    if "messages" not in update:
        return None
    messages = update["messages"]
    if not isinstance(messages, list):
        notes.skip("$set of messages that is not a list; kept the messages before it", line)
        return None
    out: dict[str, dict[str, Any]] = {}
    for msg in messages:
        if isinstance(msg, dict) and isinstance(msg.get("id"), str):
            out[msg["id"]] = msg
        else:
            notes.skip("message without an id in a $set of messages", line)
    return out
