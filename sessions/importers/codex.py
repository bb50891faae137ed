"""OpenAI Codex CLI rollouts (`~/.codex/sessions/.../rollout-*.jsonl`) to ATIF.

Each line is `{"timestamp", "type", "payload"}` with type `session_meta`, `turn_context`,
`response_item` (the model's input/output items: message, reasoning, function_call,
function_call_output, custom_tool_call, local_shell_call, web_search_call ...), `event_msg`
(UI events: user_message, agent_message, token_count, exec_command_end ...) or `compacted`.

A model response (reasoning, text, tool calls) becomes one agent step; a tool output closes
it and is paired with its call by `call_id`. `event_msg` user/agent messages repeat the
response items, so they are used only by files that lack the response items. Token counts:
each `token_count` event's `last_token_usage` goes to the agent step it follows (repeated
events with unchanged totals are dropped); `total_token_usage` gives final_metrics.

The same reader takes the stream `codex exec --json` prints (no `payload`); that part
is `sessions.importers.codex_stream`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sessions.atif import Agent, FinalMetrics, Metrics
from sessions.importers.base import (
    ImportResult,
    Notes,
    StepDraft,
    TrajectoryBuilder,
    as_int,
    as_text,
    read_json_lines,
)
from sessions.importers.codex_stream import EXEC_TYPES, ExecStreamReader

FORMAT = "codex"
LINE_TYPES = {"session_meta", "turn_context", "response_item", "event_msg", "compacted"}
CALL_TYPES = {"function_call", "custom_tool_call", "local_shell_call", "web_search_call",
              "tool_search_call", "image_generation_call"}
OUTPUT_TYPES = {"function_call_output", "custom_tool_call_output", "local_shell_call_output",
                "tool_search_output"}
_EXIT = re.compile(r"(?:Process exited with code|Exit code:)\s*(-?\d+)")


def _exit_code(output: Any) -> int | None:
    """The exit code a shell tool output reports, in any of Codex's output styles."""
    if isinstance(output, str):
        if output.startswith("{"):
            try:
                meta = json.loads(output).get("metadata")
                code = as_int(meta.get("exit_code")) if isinstance(meta, dict) else None
                if code is not None:
                    return code
            except (ValueError, AttributeError):
                pass
        m = _EXIT.search(output[:400])
        return int(m.group(1)) if m else None
    return None


def _output_text(output: Any) -> str:
    if isinstance(output, str) and output.startswith("{") and '"output"' in output[:40]:
        try:
            data = json.loads(output)
            if isinstance(data, dict) and isinstance(data.get("output"), str):
                return data["output"]
        except ValueError:
            pass
    if isinstance(output, dict) and "content" in output:
        return as_text(output["content"])
    return as_text(output)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for item in content if isinstance(content, list) else []:
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            parts.append(item["text"])
        elif isinstance(item, dict) and item.get("type", "").endswith("image"):
            parts.append("[image]")
    return "\n".join(parts)


class _Importer(ExecStreamReader):
    """Reads one file, rollout lines here and stream events in ExecStreamReader."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.notes = Notes()
        self.b = TrajectoryBuilder(self.notes)
        self.current: StepDraft | None = None  # the agent step of the response being read
        self.meta: dict[str, Any] = {}
        self.model: str | None = None
        self.last_total: Any = None
        self.pending: dict[str, dict[str, Any]] = {}  # call id -> facts from *_end events
        self.final: FinalMetrics | None = None
        self.records = 0
        self.init_exec_state()

    def run(self) -> ImportResult:
        events = []
        for line, obj in read_json_lines(self.path, self.notes):
            self.records += 1
            events.append((line, obj))
        items = [o.get("payload") for _, o in events if o.get("type") == "response_item"]
        roles = {(p.get("type"), p.get("role")) for p in items
                 if isinstance(p, dict) and isinstance(p.get("type"), str)
                 and isinstance(p.get("role"), (str, type(None)))}
        self.have_user = ("message", "user") in roles
        self.have_agent = ("message", "assistant") in roles
        self.have_reasoning = any(t == "reasoning" for t, _ in roles)
        for line, obj in events:
            try:
                self.line(line, obj)
            except (TypeError, AttributeError, ValueError):
                # a field of an unexpected shape: the line is skipped, never the file
                self.notes.skip(f"malformed {obj.get('type') or 'line'} line", line)
        meta = self.meta
        extra: dict[str, Any] = {"source_format": FORMAT}
        for key in ("cwd", "originator", "source", "model_provider", "git"):
            if meta.get(key):
                extra[key] = meta[key]
        if self.errors:
            extra["errors"] = self.errors[:20]
        if self.final is None:
            self.final = self.exec_final_metrics()
        traj = self.b.finish(
            Agent(name="codex", version=str(meta.get("cli_version") or "unknown"),
                  model_name=self.model),
            session_id=meta.get("id") if isinstance(meta.get("id"), str) else self.path.stem,
            final_metrics=self.final, extra=extra, source=str(self.path))
        return ImportResult(trajectory=traj, format=FORMAT, source=str(self.path),
                            skipped=self.notes.skipped, warnings=self.notes.warnings,
                            ignored=dict(self.notes.ignored), records=self.records)

    def line(self, line: int, obj: dict[str, Any]) -> None:
        kind = obj.get("type")
        payload = obj.get("payload")
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
        if kind in EXEC_TYPES and "payload" not in obj:
            self.exec_event(line, kind, obj)
            return
        if kind not in LINE_TYPES:
            self.notes.skip(f"unknown line type {kind!r}", line, warn=True)
            return
        if not isinstance(payload, dict):
            self.notes.skip(f"{kind} line without a payload object", line)
            return
        if kind == "session_meta":
            self.meta = {**payload, **self.meta} if self.meta else dict(payload)
            instructions = payload.get("base_instructions")
            text = instructions.get("text") if isinstance(instructions, dict) else instructions
            if isinstance(text, str) and text and not self.b.drafts:
                self.b.step("system", text, timestamp=ts, extra={"line": line,
                                                                  "base_instructions": True})
        elif kind == "turn_context":
            if isinstance(payload.get("model"), str):
                self.model = payload["model"]
            self.notes.ignore("turn_context")
        elif kind == "compacted":
            self.current = None
            self.b.step("system", as_text(payload.get("message")), timestamp=ts,
                        extra={"line": line, "compacted": True}, keep=True)
        elif kind == "response_item":
            self.response_item(line, payload, ts)
        else:
            self.event_msg(line, payload, ts)

    def agent_step(self, ts: str | None, line: int, fresh: bool = False) -> StepDraft:
        cur = self.current
        if cur is None or fresh:
            cur = self.b.step("agent", timestamp=ts, model_name=self.model,
                              extra={"line": line}, keep=True)
            self.current = cur
        return cur

    def response_item(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        ptype = p.get("type")
        if ptype == "message":
            role = p.get("role")
            text = _content_text(p.get("content"))
            if role == "assistant":
                cur = self.current
                fresh = cur is not None and bool(cur.calls)
                self.agent_step(ts, line, fresh).texts.append(text)
                if p.get("phase"):
                    self.current.fields["extra"]["phase"] = p["phase"]
            elif role in ("user", "developer", "system"):
                self.current = None
                self.b.step("user" if role == "user" else "system", text, timestamp=ts,
                            extra={"line": line, "role": role}, keep=True)
            else:
                self.notes.skip(f"message with unknown role {role!r}", line, warn=True)
        elif ptype == "reasoning":
            cur = self.current
            fresh = cur is not None and bool(cur.calls or cur.texts or cur.reasoning)
            texts = [s.get("text") for s in p.get("summary") or [] if isinstance(s, dict)]
            texts += [c.get("text") for c in p.get("content") or [] if isinstance(c, dict)]
            self.agent_step(ts, line, fresh).reasoning.extend(t for t in texts if t)
        elif ptype in CALL_TYPES:
            self.call(line, p, ts)
        elif ptype in OUTPUT_TYPES:
            out = p.get("output")
            call_id = p.get("call_id") if isinstance(p.get("call_id"), str) else None
            extra: dict[str, Any] = {}
            code = _exit_code(out)
            if code is not None:
                extra["exit_code"] = code
            extra.update(self.pending.pop(call_id, {}) if call_id else {})
            self.b.result(call_id, _output_text(out), extra, line)
            self.current = None
        else:
            self.notes.skip(f"unknown response item {ptype!r}", line, warn=True)

    def call(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        ptype = p["type"]
        call_id = p.get("call_id") or p.get("id") or f"line-{line}"
        name = p.get("name") or ptype.removesuffix("_call")
        extra: dict[str, Any] = {}
        if ptype == "function_call":
            raw = p.get("arguments")
            try:
                args = json.loads(raw) if isinstance(raw, str) else raw
            except ValueError:
                args = raw
            if isinstance(p.get("namespace"), str):
                name = f"{p['namespace']}{name}"
        elif ptype == "custom_tool_call":
            args = {"input": p.get("input")}
        else:
            args = p.get("action") if isinstance(p.get("action"), dict) else {}
        if p.get("status"):
            extra["status"] = p["status"]
        cur = self.agent_step(ts, line)
        self.b.call(cur, str(call_id), str(name), args if args is not None else {}, extra)

    def event_msg(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        etype = p.get("type")
        if etype == "user_message" and not self.have_user:
            self.current = None
            self.b.step("user", as_text(p.get("message")), timestamp=ts, extra={"line": line},
                        keep=True)
        elif etype == "agent_message" and not self.have_agent:
            self.agent_step(ts, line).texts.append(as_text(p.get("message")))
        elif etype == "agent_reasoning" and not self.have_reasoning:
            self.agent_step(ts, line).reasoning.append(as_text(p.get("text")))
        elif etype == "token_count":
            self.token_count(line, p, ts)
        elif etype in ("exec_command_end", "patch_apply_end", "mcp_tool_call_end"):
            self.enrich(p)
        else:
            self.notes.ignore(f"event_msg:{etype}")

    def token_count(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        info = p.get("info")
        if not isinstance(info, dict):
            self.notes.ignore("event_msg:token_count (no usage)")
            return
        total, last = info.get("total_token_usage"), info.get("last_token_usage")
        if total is not None and total == self.last_total:
            return  # Codex repeats the count after each turn_context; nothing new
        self.last_total = total
        if isinstance(info.get("model"), str):
            self.model = info["model"]
        if isinstance(total, dict):
            self.final = FinalMetrics(
                total_prompt_tokens=as_int(total.get("input_tokens")),
                total_completion_tokens=as_int(total.get("output_tokens")),
                total_cached_tokens=as_int(total.get("cached_input_tokens")),
                extra={k: v for k, v in total.items() if k in ("reasoning_output_tokens",
                                                               "total_tokens")} or None)
        if not isinstance(last, dict):
            return
        target = self.b.last_agent()
        if target is None or target.metrics is not None:
            target = self.b.step("agent", timestamp=ts, model_name=self.model,
                                 extra={"line": line, "usage_only": True}, keep=True)
        target.metrics = Metrics(
            prompt_tokens=as_int(last.get("input_tokens")),
            completion_tokens=as_int(last.get("output_tokens")),
            cached_tokens=as_int(last.get("cached_input_tokens")),
            extra={k: v for k, v in last.items() if k == "reasoning_output_tokens"} or None)
        if target.fields.get("model_name") is None:
            target.fields["model_name"] = self.model
        self.current = None

    def enrich(self, p: dict[str, Any]) -> None:
        """exec_command_end and friends carry the exit code the output text may not."""
        call_id = p.get("call_id")
        facts: dict[str, Any] = {}
        if as_int(p.get("exit_code")) is not None:
            facts["exit_code"] = as_int(p["exit_code"])
        if isinstance(p.get("success"), bool):
            facts["success"] = p["success"]
        if not isinstance(call_id, str) or not facts:
            self.notes.ignore(f"event_msg:{p.get('type')}")
            return
        for draft in reversed(self.b.drafts):
            for res in draft.results:
                if res.source_call_id == call_id:
                    res.extra = {**(res.extra or {}), **facts}
                    return
        self.pending[call_id] = facts  # usually logged before the output item


def import_codex(path: Path) -> ImportResult:
    """Import one Codex CLI rollout (.jsonl)."""
    return _Importer(Path(path)).run()
