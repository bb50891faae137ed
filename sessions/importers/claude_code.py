"""Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`) to ATIF.

One JSON event per line. `user` and `assistant` events carry an Anthropic `message` whose
content holds `text`, `thinking`, `tool_use` and `tool_result` blocks. Claude Code writes one
line per content block of the same assistant message (same `message.id`, the usage repeated
and growing), so those lines merge into one agent step whose metrics are the message's last
usage. A `tool_result` (in a later user event) pairs with its `tool_use` by id.

Tokens: prompt = input + cache creation + cache read (everything the model read),
cached = cache read, completion = output; the raw cache numbers stay in metrics.extra.
2.1 adds request bookkeeping events (ignored, see IGNORED_TYPES) and a `cost-state` event.
Sidechain (subagent) events stay in order, marked in step.extra (`is_sidechain`, `agent_id`).
Since 2.1 a subagent's events are in their own file (`<session>/subagents/agent-<id>.jsonl`),
which imports on its own; the main log then holds only the Agent call and its result.

The same reader takes the stream `claude -p --output-format stream-json --verbose` prints:
the same `user` / `assistant` events (with `session_id` instead of `sessionId`, and
`parent_tool_use_id` set on a subagent's events), a first `system` event of subtype `init`
(model, cwd, tools: kept in trajectory.extra, not a step) and a last `result` event (cost,
turns, duration, error flag: kept in trajectory.extra["result"]). The stream does not repeat
the prompt given on the command line.

Where the totals come from (final_metrics; `_final_metrics` says which source won, in
final_metrics.extra["usage_source"]):
1. a stream's `result` events: they count every call the run paid for, subagents included.
   The stream's assistant events cannot: they carry the usage of `message_start` (output
   tokens 1 or so, stop_reason null), and a subagent's last reply never appears;
2. a session log's last `cost-state` event (2.1+): the session's running totals, restored
   and carried on by `--resume`, subagents included;
3. otherwise the sum over messages of the last usage line of each message id (older logs
   repeat a growing usage on each line of a message; 2.1 writes the final one).
A step's completion_tokens is left out when its only usage is a stream's message_start.
"""

from __future__ import annotations

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

FORMAT = "claude_code"
# Events Claude Code writes that hold no conversation: counted as ignored, not warned.
IGNORED_TYPES = {"file-history-snapshot", "queue-operation", "progress", "attachment",
                 "custom-title", "agent-name", "pr-link", "last-prompt", "tag", "mode",
                 "stream_event", "rate_limit_event",
                 # 2.1: request bookkeeping (the prompt and tool schemas sent, by hash), the
                 # tools used so far, and an empty `atis` marker
                 "atis-latch", "api-request-shape", "api-request-blob", "api-request",
                 "tools-used"}
EVENT_TYPES = {"user", "assistant", "summary", "system", "result", "cost-state"}
# Fields of the stream's `init` and `result` events worth keeping (no prompt text, no keys).
INIT_KEYS = ("model", "cwd", "tools", "permissionMode", "claude_code_version", "skills",
             "agents", "output_style")
RESULT_KEYS = ("subtype", "is_error", "num_turns", "duration_ms", "duration_api_ms",
               "total_cost_usd", "stop_reason", "terminal_reason", "api_error_status")
# modelUsage (result, cost-state) field -> the Messages API usage field it counts
MODEL_USAGE_KEYS = {"inputTokens": "input_tokens",
                    "cacheCreationInputTokens": "cache_creation_input_tokens",
                    "cacheReadInputTokens": "cache_read_input_tokens",
                    "outputTokens": "output_tokens"}


def _metrics(usage: Any, cost: Any, at_start: bool = False) -> Metrics | None:
    """A message's metrics; `at_start`: the usage is message_start's, its output unknown."""
    if not isinstance(usage, dict):
        return Metrics(cost_usd=_num(cost)) if _num(cost) is not None else None
    fresh = as_int(usage.get("input_tokens")) or 0
    created = as_int(usage.get("cache_creation_input_tokens")) or 0
    read = as_int(usage.get("cache_read_input_tokens")) or 0
    extra = {k: usage[k] for k in ("input_tokens", "cache_creation_input_tokens",
                                   "cache_read_input_tokens", "service_tier") if k in usage}
    if at_start:
        extra["output_tokens_at_start"] = usage.get("output_tokens")
    return Metrics(
        prompt_tokens=fresh + created + read,
        completion_tokens=None if at_start else as_int(usage.get("output_tokens")),
        cached_tokens=read,
        cost_usd=_num(cost),
        extra=extra or None,
    )


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def _model_usage(parts: list[Any], cost: float | None, source: str) -> FinalMetrics:
    """Totals of modelUsage maps ({model: {inputTokens, ..., costUSD}}), summed over `parts`;
    `cost` when given wins over the summed costUSD. The per-model sums go in extra."""
    models: dict[str, dict[str, float]] = {}
    for part in parts:
        for name, entry in part.items() if isinstance(part, dict) else ():
            mine = models.setdefault(str(name), {})
            for src, dst in (*MODEL_USAGE_KEYS.items(), ("costUSD", "cost_usd")):
                value = _num(entry.get(src)) if isinstance(entry, dict) else None
                if value is not None:
                    mine[dst] = mine.get(dst, 0) + (value if dst == "cost_usd" else int(value))
    usage = {k: sum(m.get(k, 0) for m in models.values()) for k in MODEL_USAGE_KEYS.values()}
    costs = [m["cost_usd"] for m in models.values() if "cost_usd" in m]
    if cost is None and (costs or not models):  # no model used: nothing was paid
        cost = float(sum(costs))
    total = _totals(usage, cost, source)
    total.extra["models"] = models  # type: ignore[index]
    return total


def _totals(usage: dict[str, Any], cost: float | None, source: str) -> FinalMetrics:
    fresh = as_int(usage.get("input_tokens")) or 0
    created = as_int(usage.get("cache_creation_input_tokens")) or 0
    read = as_int(usage.get("cache_read_input_tokens")) or 0
    return FinalMetrics(total_prompt_tokens=fresh + created + read,
                        total_completion_tokens=as_int(usage.get("output_tokens")) or 0,
                        total_cached_tokens=read,
                        total_cost_usd=round(cost, 6) if cost is not None else None,
                        extra={"usage_source": source})


def _final_metrics(results: list[dict[str, Any]],
                   cost_state: dict[str, Any] | None) -> FinalMetrics | None:
    """The run's totals from its result events, else from a session log's cost-state. A
    total left None here is filled from the steps' sum."""
    if results:
        since = [r.get("model_usage_since_last_result") for r in results]
        if all(isinstance(part, dict) for part in since):
            # What this stream's process used: after `--resume`, modelUsage and
            # total_cost_usd also count the earlier runs, whose steps are not in the stream.
            return _model_usage(since, None, "result.model_usage_since_last_result")
        last = results[-1]
        cost = _num(last.get("total_cost_usd"))
        if isinstance(last.get("modelUsage"), dict) and last["modelUsage"]:
            # result.usage counts the main thread only; modelUsage every call (subagents too)
            return _model_usage([last["modelUsage"]], cost, "result.modelUsage")
        if isinstance(last.get("usage"), dict):
            return _totals(last["usage"], cost, "result.usage")
        return FinalMetrics(total_cost_usd=cost, extra={"usage_source": "result"})
    if cost_state is None:
        return None
    cost = _num(cost_state.get("totalCostUSD"))
    if isinstance(cost_state.get("modelUsage"), dict) and cost_state["modelUsage"]:
        return _model_usage([cost_state["modelUsage"]], cost, "cost-state")
    # no model call recorded (an API error at once): the tokens come from the steps
    return FinalMetrics(total_cost_usd=cost, extra={"usage_source": "cost-state"})


def _step_extra(event: dict[str, Any], line: int) -> dict[str, Any]:
    extra: dict[str, Any] = {"line": line}
    if event.get("uuid"):
        extra["uuid"] = event["uuid"]
    if event.get("isSidechain"):
        extra["is_sidechain"] = True
    if event.get("agentId"):
        extra["agent_id"] = event["agentId"]
    if event.get("isMeta") or event.get("isSynthetic"):  # the log's name, the stream's
        extra["is_meta"] = True
    if event.get("isApiErrorMessage") or event.get("is_api_error_message"):
        extra["api_error"] = event.get("api_error_status") or True  # text made by the CLI
    if event.get("sourceToolUseID"):
        extra["source_tool_use_id"] = event["sourceToolUseID"]
    if event.get("parent_tool_use_id"):
        # stream-json: the event belongs to a subagent started by that tool call
        extra["is_sidechain"] = True
        extra["parent_tool_use_id"] = event["parent_tool_use_id"]
    return extra


def _result_extra(block: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if block.get("is_error") is True:
        extra["is_error"] = True
    tur = event.get("toolUseResult", event.get("tool_use_result"))
    if isinstance(tur, dict):
        for src, dst in (("exitCode", "exit_code"), ("exit_code", "exit_code"),
                         ("interrupted", "interrupted"), ("stderr", "stderr")):
            if tur.get(src) not in (None, "", False):
                extra[dst] = tur[src]
    return extra


class _Importer:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.notes = Notes()
        self.b = TrajectoryBuilder(self.notes)
        self.open_msg: tuple[str, StepDraft] | None = None  # (message id, its step)
        # message id -> (usage, cost, usage is message_start's) of its last line
        self.usage: dict[str, tuple[Any, Any, bool]] = {}
        self.steps_by_msg: dict[str, StepDraft] = {}
        self.session_id: str | None = None
        self.version: str | None = None
        self.model: str | None = None
        self.summaries: list[str] = []
        self.cwd: str | None = None
        self.agent_id: str | None = None
        self.init: dict[str, Any] = {}
        self.result: dict[str, Any] | None = None
        self.results: list[dict[str, Any]] = []  # the stream's result events, raw
        self.cost_state: dict[str, Any] | None = None  # a session log's last cost-state
        self.records = 0

    def run(self) -> ImportResult:
        for line, event in read_json_lines(self.path, self.notes):
            self.records += 1
            try:
                self.event(line, event)
            except (TypeError, AttributeError, ValueError):
                # a field of an unexpected shape: the line is skipped, never the file
                self.notes.skip(f"malformed {event.get('type') or 'event'} line", line)
        for msg_id, (usage, cost, at_start) in self.usage.items():
            step = self.steps_by_msg.get(msg_id)
            if step is not None:
                step.metrics = _metrics(usage, cost, at_start)
        extra: dict[str, Any] = {"source_format": FORMAT}
        if self.summaries:
            extra["summaries"] = self.summaries
        if self.cwd:
            extra["cwd"] = self.cwd
        if self.init:
            extra["init"] = self.init
        if self.result is not None:
            extra["result"] = self.result
        agent_extra = {"agent_id": self.agent_id} if self.agent_id else None
        traj = self.b.finish(
            Agent(name="claude-code", version=self.version or "unknown", model_name=self.model,
                  extra=agent_extra),
            session_id=self.session_id or self.path.stem, extra=extra, source=str(self.path))
        totals = _final_metrics(self.results, self.cost_state)
        if totals is not None and traj.final_metrics is not None:
            # The CLI's own totals are authoritative; what they lack comes from the steps.
            summed = traj.final_metrics.model_dump(exclude={"extra"})
            traj.final_metrics = totals.model_copy(update={
                k: v for k, v in summed.items() if getattr(totals, k) is None})
        return ImportResult(trajectory=traj, format=FORMAT, source=str(self.path),
                            skipped=self.notes.skipped, warnings=self.notes.warnings,
                            ignored=dict(self.notes.ignored), records=self.records)

    def event(self, line: int, event: dict[str, Any]) -> None:
        kind = event.get("type")
        message = event.get("message")
        if kind is None and isinstance(message, dict) and message.get("role") in ("user",
                                                                                  "assistant"):
            kind = message["role"]  # usage-only exports (ccusage) omit "type"
        if kind in IGNORED_TYPES:
            self.notes.ignore(kind)
            return
        if kind is None:
            self.notes.skip("no event type", line)
            return
        if kind not in EVENT_TYPES:
            self.notes.skip(f"unknown event type {kind!r}", line, warn=True)
            return
        self.session_id = self.session_id or _str(event.get("sessionId")) \
            or _str(event.get("session_id"))
        self.version = self.version or _str(event.get("version")) \
            or _str(event.get("claude_code_version"))
        self.cwd = self.cwd or _str(event.get("cwd"))
        self.agent_id = self.agent_id or _str(event.get("agentId"))
        if kind == "cost-state":
            self.cost_state = event
            self.notes.ignore("cost-state")
            return
        if kind == "result":
            self.open_msg = None
            self.results.append(event)
            self.result = {k: event[k] for k in RESULT_KEYS if k in event}
            if isinstance(event.get("permission_denials"), list):
                self.result["permission_denials"] = len(event["permission_denials"])
            self.notes.ignore("result")
            return
        if kind == "system" and "content" not in event and event.get("subtype"):
            # stream-json status events (init, compact_boundary, hooks...) hold no message
            self.open_msg = None
            if event["subtype"] == "init":
                self.init = {k: event[k] for k in INIT_KEYS if k in event}
                model = _str(event.get("model"))
                self.model = self.model or model
            self.notes.ignore(f"system:{event['subtype']}")
            return
        if kind == "summary":
            if isinstance(event.get("summary"), str):
                self.summaries.append(event["summary"])
            else:
                self.notes.skip("summary without text", line)
            return
        if kind == "system":
            text = event.get("content")
            extra = _step_extra(event, line)
            if event.get("subtype"):
                extra["subtype"] = event["subtype"]
            self.open_msg = None
            self.b.step("system", text if isinstance(text, str) else as_text(text),
                        timestamp=_str(event.get("timestamp")), extra=extra, keep=True)
            return
        if not isinstance(message, dict):
            self.notes.skip(f"{kind} event without a message object", line)
            return
        if "content" not in message and not message.get("usage"):
            self.notes.skip(f"{kind} message without content", line)
            return
        if kind == "assistant":
            self.assistant(line, event, message)
        else:
            self.user(line, event, message)

    def assistant(self, line: int, event: dict[str, Any], message: dict[str, Any]) -> None:
        msg_id = _str(message.get("id")) or f"line-{line}"
        model = _str(message.get("model"))
        if model and model != "<synthetic>":
            self.model = self.model or model
        if self.open_msg and self.open_msg[0] == msg_id:
            draft = self.open_msg[1]
        else:
            draft = self.b.step("agent", timestamp=_str(event.get("timestamp")),
                                model_name=model, extra=_step_extra(event, line), keep=True)
            self.open_msg = (msg_id, draft)
            self.steps_by_msg[msg_id] = draft
        if message.get("usage") is not None or event.get("costUSD") is not None:
            # stream-json assistant events repeat message_start's usage (stop_reason null)
            at_start = "parent_tool_use_id" in event and message.get("stop_reason") is None
            self.usage[msg_id] = (message.get("usage"), event.get("costUSD"), at_start)
        content = message.get("content")
        if isinstance(content, str):
            if content:
                draft.texts.append(content)
            return
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                self.notes.skip("content block is not an object", line)
                continue
            btype = block.get("type")
            if btype == "text":
                if block.get("text"):
                    draft.texts.append(str(block["text"]))
            elif btype in ("thinking", "redacted_thinking"):
                if block.get("thinking"):
                    draft.reasoning.append(str(block["thinking"]))
            elif btype in ("tool_use", "server_tool_use"):
                call_id = _str(block.get("id")) or f"line-{line}-{len(draft.calls)}"
                self.b.call(draft, call_id, _str(block.get("name")) or "unknown",
                            block.get("input") if block.get("input") is not None else {})
            else:
                self.notes.skip(f"unknown assistant content block {btype!r}", line, warn=True)

    def user(self, line: int, event: dict[str, Any], message: dict[str, Any]) -> None:
        self.open_msg = None
        content = message.get("content")
        texts: list[str] = []
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for block in content:
                if not isinstance(block, dict):
                    self.notes.skip("content block is not an object", line)
                    continue
                btype = block.get("type")
                if btype == "tool_result":
                    self.b.result(_str(block.get("tool_use_id")), as_text(block.get("content")),
                                  _result_extra(block, event), line)
                elif btype == "text":
                    texts.append(str(block.get("text") or ""))
                elif btype in ("image", "document"):
                    texts.append(f"[{btype}]")
                else:
                    self.notes.skip(f"unknown user content block {btype!r}", line, warn=True)
        else:
            self.notes.skip("user message content is neither text nor a list", line)
            return
        if texts:
            self.b.step("user", "\n\n".join(texts), timestamp=_str(event.get("timestamp")),
                        extra=_step_extra(event, line), keep=True)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def import_claude_code(path: Path) -> ImportResult:
    """Import one Claude Code session log (.jsonl)."""
    return _Importer(Path(path)).run()
