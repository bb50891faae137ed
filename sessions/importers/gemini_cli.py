"""Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json[l]`) to ATIF.

Two forms of one record: the `.json` file (up to gemini-cli 0.38) is one JSON object,
`sessionId`, `projectHash`, `startTime`, `lastUpdated`, `messages[]`; the `.jsonl` log
(0.39 on) appends records that `sessions.importers.gemini_jsonl` folds back into it.

A message of type `user` is a user step; `gemini` is an agent step with `content`,
`thoughts` (reasoning), `tokens` and `toolCalls` (each with its `args`, `status` and
`result` holding `functionResponse` parts); `info`, `error` and `warning` messages become
system steps.

Tokens: prompt = input (Gemini counts cached tokens inside it), cached = cached,
completion = output + thoughts (thinking tokens are billed as output); tool tokens stay in
metrics.extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sessions.atif import Agent, Metrics
from sessions.importers.base import (
    ImportResult,
    Notes,
    TraceImportError,
    TrajectoryBuilder,
    as_int,
    as_text,
    read_json_file,
)
from sessions.importers.gemini_jsonl import REWOUND, SessionLog, replay, starts_like_log

FORMAT = "gemini_cli"
SYSTEM_TYPES = {"info", "error", "warning"}
# A call recorded in one of these states has no result yet (the session was cut, or the
# log was read mid-turn): its status goes on the call, and no empty result is invented.
PENDING_STATUSES = {"validating", "scheduled", "awaiting_approval", "executing"}
METADATA_EXTRA = ("projectHash", "startTime", "lastUpdated", "summary", "kind")


def _text(content: Any) -> str:
    if isinstance(content, list):  # Gemini parts: [{"text": ...}, ...]
        return "\n".join(str(p.get("text")) for p in content
                         if isinstance(p, dict) and p.get("text"))
    return as_text(content)


def _metrics(tokens: Any) -> Metrics | None:
    if not isinstance(tokens, dict):
        return None
    output = as_int(tokens.get("output"))
    thoughts = as_int(tokens.get("thoughts")) or 0
    extra = {k: tokens[k] for k in ("thoughts", "tool", "total") if k in tokens}
    return Metrics(prompt_tokens=as_int(tokens.get("input")),
                   completion_tokens=None if output is None else output + thoughts,
                   cached_tokens=as_int(tokens.get("cached")), extra=extra or None)


def _result(call: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    texts, extra = [], {}
    for part in call.get("result") or []:
        resp = part.get("functionResponse") if isinstance(part, dict) else None
        body = resp.get("response") if isinstance(resp, dict) else None
        if isinstance(body, dict):
            if "error" in body:
                extra["is_error"] = True
                texts.append(as_text(body["error"]))
            if "output" in body:
                texts.append(as_text(body["output"]))
        elif part is not None:
            texts.append(as_text(part))
    status = call.get("status")
    if isinstance(status, str):
        extra["status"] = status
        if status in ("error", "cancelled"):
            extra["is_error"] = True
    if not texts and isinstance(call.get("resultDisplay"), str):
        texts.append(call["resultDisplay"])
    return "\n".join(t for t in texts if t), extra


def _message(b: TrajectoryBuilder, notes: Notes, i: int, msg: dict[str, Any],
             line: int | None) -> None:
    kind = msg.get("type")
    ts = msg.get("timestamp") if isinstance(msg.get("timestamp"), str) else None
    extra: dict[str, Any] = {"index": i}
    if isinstance(msg.get("id"), str):
        extra["id"] = msg["id"]
    if kind == "user":
        b.step("user", _text(msg.get("content")), timestamp=ts, extra=extra, keep=True)
    elif kind in SYSTEM_TYPES:
        b.step("system", _text(msg.get("content")), timestamp=ts,
               extra={**extra, "gemini_type": kind}, keep=True)
    elif kind == "gemini":
        model = msg.get("model") if isinstance(msg.get("model"), str) else None
        draft = b.step("agent", _text(msg.get("content")), timestamp=ts, model_name=model,
                       extra=extra, keep=True)
        for thought in msg.get("thoughts") or []:
            if isinstance(thought, dict):
                text = ": ".join(str(thought[k]).strip() for k in ("subject", "description")
                                 if thought.get(k))
                if text:
                    draft.reasoning.append(text)
        draft.metrics = _metrics(msg.get("tokens"))
        for j, call in enumerate(msg.get("toolCalls") or []):
            if not isinstance(call, dict):
                notes.skip("tool call is not an object", line)
                continue
            call_id = str(call.get("id") or f"{i}-{j}")
            status = call.get("status")
            pending = call.get("result") is None and isinstance(status, str) \
                and status in PENDING_STATUSES
            cextra = {"display_name": call["displayName"]} if call.get("displayName") else {}
            if pending:
                cextra["status"] = status
            b.call(draft, call_id, str(call.get("name") or "unknown"), call.get("args") or {},
                   cextra or None)
            if not pending and (call.get("result") is not None or status):
                content, rextra = _result(call)
                b.result(call_id, content, rextra)
    else:
        notes.skip(f"unknown message type {kind!r}", line, warn=True)


def _document(path: Path) -> SessionLog | None:
    """The `.json` form as a SessionLog; None when the file is the `.jsonl` form."""
    if path.suffix == ".jsonl":
        return None
    try:
        data = read_json_file(path)
    except TraceImportError:
        if starts_like_log(path):  # a log that was renamed .json
            return None
        raise
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        meta = {k: v for k, v in data.items() if k != "messages"}
        return SessionLog(metadata=meta, messages=data["messages"],
                          records=len(data["messages"]))
    if isinstance(data, dict) and starts_like_log(path):
        return None  # a log of one metadata line
    raise TraceImportError(f"{path}: a Gemini CLI session is an object with a 'messages' "
                           "list, or a .jsonl session log")


def import_gemini_cli(path: Path) -> ImportResult:
    """Import one Gemini CLI chat recording, a `.json` document or a `.jsonl` session log."""
    path = Path(path)
    notes = Notes()
    log = _document(path) or replay(path, notes)
    b = TrajectoryBuilder(notes)
    for i, msg in enumerate(log.messages):
        line = log.lines[i] if i < len(log.lines) else None
        if not isinstance(msg, dict):
            notes.skip("message is not an object", line)
            continue
        try:
            _message(b, notes, i, msg, line)
        except (TypeError, AttributeError, ValueError):
            notes.skip(f"malformed {msg.get('type') or 'message'} message (index {i})", line)
    if log.rewound:
        notes.ignored[REWOUND] += log.rewound
    model = next((d.fields.get("model_name") for d in b.drafts if d.fields.get("model_name")),
                 None)
    meta = log.metadata
    extra: dict[str, Any] = {"source_format": FORMAT}
    extra.update({k: meta[k] for k in METADATA_EXTRA if isinstance(meta.get(k), str)})
    if isinstance(meta.get("directories"), list):
        extra["directories"] = [d for d in meta["directories"] if isinstance(d, str)]
    if log.rewound:
        extra["rewound_messages"] = log.rewound
    session_id = meta.get("sessionId")
    traj = b.finish(Agent(name="gemini-cli", version="unknown", model_name=model),
                    session_id=session_id if isinstance(session_id, str) else path.stem,
                    extra=extra, source=str(path))
    return ImportResult(trajectory=traj, format=FORMAT, source=str(path), skipped=notes.skipped,
                        warnings=notes.warnings, ignored=dict(notes.ignored),
                        records=log.records)
