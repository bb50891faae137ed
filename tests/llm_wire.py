"""The OpenAI and Anthropic wire formats the test LLM server speaks, for tests only.

What travels on the wire, apart from the HTTP server that carries it (tests/llm_server.py):
the scripted replies (`Reply` and its builders `text`, `tool_call`, `tool_calls`,
`structured`, `error`, `raw`), the requests as received (`Request`) and each reply rendered
whole as an OpenAI Chat Completion, an OpenAI Responses API response or an Anthropic
Message (`render_reply`). The streamed forms are cut from that whole reply in
tests/llm_stream.py, so both forms of one reply carry the same content and token counts.
The rules the real APIs enforce on a request live in tests/llm_rules.py.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

OPENAI_PATH = "/v1/chat/completions"
RESPONSES_PATH = "/v1/responses"
ANTHROPIC_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
# Endpoint (the path without its query string) -> the wire it speaks.
WIRES = {OPENAI_PATH: "openai", RESPONSES_PATH: "responses", ANTHROPIC_PATH: "anthropic",
         COUNT_TOKENS_PATH: "anthropic"}
_ids = itertools.count(1)
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 408: "timeout_error", 413: "request_too_large",
                429: "rate_limit_error", 529: "overloaded_error"}


@dataclass
class Reply:
    """One scripted answer. Build it with text(), tool_call(), structured(), error(), raw()."""

    kind: str
    text: str | None = None
    calls: list[tuple[str, Any]] = field(default_factory=list)
    data: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0
    usage: dict[str, int] | None = None
    stop_reason: str | None = None
    # Streamed only: hang up after this many SSE events (0: right after the headers), the
    # body unfinished, as a server that fails or dies mid-stream does.
    cut_after: int | None = None


def text(s: str, **kw: Any) -> Reply:
    return Reply("text", text=s, **kw)


def tool_call(name: str, arguments: Any, *, text: str | None = None, **kw: Any) -> Reply:
    return Reply("tools", text=text, calls=[(name, arguments)], **kw)


def tool_calls(calls: list[tuple[str, Any]], *, text: str | None = None, **kw: Any) -> Reply:
    return Reply("tools", text=text, calls=list(calls), **kw)


def structured(data: Any, **kw: Any) -> Reply:
    return Reply("structured", data=data, **kw)


def error(status: int, message: str = "scripted error", *, headers: dict[str, str] | None = None,
          type: str | None = None, **kw: Any) -> Reply:
    return Reply("error", status=status, text=message, headers=dict(headers or {}),
                 data=type, **kw)


def raw(status: int, body: bytes | str, *, headers: dict[str, str] | None = None,
        **kw: Any) -> Reply:
    data = body.encode() if isinstance(body, str) else body
    return Reply("raw", status=status, body=data, headers=dict(headers or {}), **kw)


@dataclass
class Request:
    """A request as the server received it."""

    wire: str  # "openai" (Chat Completions), "responses" (OpenAI Responses) or "anthropic"
    path: str  # as sent, query string included: "/v1/messages?beta=true"
    headers: dict[str, str]
    body: Any
    received_at: float
    # Set when the client closed the connection before the reply was sent (cancellation,
    # client timeout), or while it was being streamed.
    disconnected: threading.Event = field(default_factory=threading.Event)
    # The whole reply as the server rendered it (a stream is cut from it), e.g.
    # `response["usage"]` to compare with what the client counted; None until answered.
    response: Any = None

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def endpoint(self) -> str:
        """The path without its query string: tells a completion from a token count."""
        return self.path.split("?")[0]

    @property
    def streamed(self) -> bool:
        return isinstance(self.body, dict) and self.body.get("stream") is True

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation; on the Responses wire, its `input` items (a string is one)."""
        if not isinstance(self.body, dict):
            return []
        if self.wire == "responses":
            got = self.body.get("input")
            return [{"role": "user", "content": got}] if isinstance(got, str) else list(got or [])
        return list(self.body.get("messages") or [])

    def system_text(self) -> str:
        """The system prompt, whichever wire carried it."""
        if self.wire == "anthropic":
            sys_ = self.body.get("system") or ""
            return sys_ if isinstance(sys_, str) else "".join(b.get("text", "") for b in sys_)
        if self.wire == "responses":
            return str(self.body.get("instructions") or "")
        return "\n".join(_plain(m.get("content")) for m in self.messages
                         if m.get("role") in ("system", "developer"))

    def last_message_text(self) -> str:
        """Text of the last message: its text, or its tool results' content."""
        return _item_text(self.messages[-1]) if self.messages else ""

    def all_text(self) -> str:
        """Every message's text, tool results and mid-conversation system messages included."""
        return "\n".join(_item_text(m) for m in self.messages)


def _item_text(m: dict[str, Any]) -> str:
    # A Responses API function_call_output item carries its result as `output`.
    out = m.get("output")
    return out if m.get("type") == "function_call_output" and isinstance(out, str) \
        else _plain(m.get("content"))


def _plain(content: Any) -> str:
    if isinstance(content, str):
        return content
    out = []
    for part in content or []:
        if isinstance(part, dict):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif part.get("type") == "tool_result":
                out.append(_plain(part.get("content")))
    return "\n".join(out)


# --- rendering replies in each wire format ---------------------------------------------------


def _forced_tool(wire: str, body: dict) -> str | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    if wire == "anthropic":
        return choice.get("name") if choice.get("type") == "tool" else None
    if wire == "responses":
        return choice.get("name") if choice.get("type") == "function" else None
    return (choice.get("function") or {}).get("name") if choice.get("type") == "function" else None


def input_tokens(req: Request) -> int:
    """The prompt's token count: what a completion reports and count_tokens answers."""
    return max(1, len(json.dumps(req.messages)) // 4)


def _usage(req: Request, reply: Reply, out_text: str) -> dict[str, int]:
    u = {"input": input_tokens(req), "output": max(1, len(out_text) // 4),
         "cached": 0, "cache_write": 0}
    u.update(reply.usage or {})
    return u


def render_reply(wire: str, req: Request, reply: Reply,
                 thinking: bool = False) -> tuple[int, Any, dict[str, str]]:
    """(status, payload, headers) of `reply` to `req` in the wire's own response shape.

    The payload is the whole reply even when the request asked for a stream (the server cuts
    it into events with tests/llm_stream.py); errors and raw replies are never streamed.
    """
    rid = f"req_{next(_ids):06d}"
    if reply.kind == "raw":
        return reply.status, reply.body, {"request-id": rid, "x-request-id": rid, **reply.headers}
    if reply.kind == "error":
        etype = reply.data or _ERROR_TYPES.get(reply.status, "api_error")
        if wire == "anthropic":
            payload = {"type": "error", "error": {"type": etype, "message": reply.text},
                       "request_id": rid}
        else:
            payload = {"error": {"message": reply.text, "type": etype, "param": None, "code": None}}
        return reply.status, payload, {"request-id": rid, "x-request-id": rid, **reply.headers}

    content_text, calls = reply.text, list(reply.calls)
    if reply.kind == "structured":
        # Whatever form of structured output was asked for: a forced tool call carries the
        # object as its input; json_schema / output_config carry it as the text.
        doc = reply.data if isinstance(reply.data, str) else json.dumps(reply.data)
        forced = _forced_tool(wire, req.body)
        if forced and not isinstance(reply.data, str):
            calls = [(forced, reply.data)]
        else:
            content_text = doc
    out_text = (content_text or "") + "".join(json.dumps(a) for _n, a in calls)
    u = _usage(req, reply, out_text)
    headers = {"request-id": rid, "x-request-id": rid, **reply.headers}
    if wire == "anthropic":
        return 200, _anthropic_message(req, reply, content_text, calls, u, rid, thinking), headers
    if wire == "responses":
        return 200, _openai_response(req, reply, content_text, calls, u, rid), headers
    return 200, _openai_completion(req, reply, content_text, calls, u, rid), headers


def _anthropic_message(req: Request, reply: Reply, content_text: str | None,
                       calls: list, u: dict[str, int], rid: str,
                       thinking: bool = False) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if thinking:
        content.append({"type": "thinking", "thinking": "Let me work this out.",
                        "signature": f"sig-{rid}"})
    if content_text is not None:
        content.append({"type": "text", "text": content_text})
    for name, args in calls:
        content.append({"type": "tool_use", "id": f"toolu_{next(_ids):08d}", "name": name,
                        "input": args})
    stop = reply.stop_reason or ("tool_use" if calls else "end_turn")
    # Anthropic's input_tokens excludes the tokens read from or written to the cache.
    usage = {"input_tokens": max(0, u["input"] - u["cached"] - u["cache_write"]),
             "output_tokens": u["output"], "cache_read_input_tokens": u["cached"],
             "cache_creation_input_tokens": u["cache_write"]}
    return {"id": f"msg_{rid}", "type": "message", "role": "assistant", "model": req.model,
            "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage}


def _openai_completion(req: Request, reply: Reply, content_text: str | None,
                       calls: list, u: dict[str, int], rid: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content_text, "refusal": None}
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{next(_ids):08d}", "type": "function",
             "function": {"name": name, "arguments": args if isinstance(args, str)
                          else json.dumps(args)}}
            for name, args in calls
        ]
    finish = reply.stop_reason or ("tool_calls" if calls else "stop")
    # OpenAI's prompt_tokens includes the cached tokens.
    usage = {"prompt_tokens": u["input"], "completion_tokens": u["output"],
             "total_tokens": u["input"] + u["output"],
             "prompt_tokens_details": {"cached_tokens": u["cached"]}}
    return {"id": f"chatcmpl-{rid}", "object": "chat.completion", "created": int(time.time()),
            "model": req.model, "choices": [{"index": 0, "message": message,
                                             "finish_reason": finish, "logprobs": None}],
            "usage": usage}


def _openai_response(req: Request, reply: Reply, content_text: str | None,
                     calls: list, u: dict[str, int], rid: str) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if content_text is not None:
        output.append({"type": "message", "id": f"msg_{rid}", "status": "completed",
                       "role": "assistant", "content": [
                           {"type": "output_text", "text": content_text, "annotations": []}]})
    for name, args in calls:
        n = next(_ids)
        output.append({"type": "function_call", "id": f"fc_{n:08d}", "call_id": f"call_{n:08d}",
                       "name": name, "status": "completed",
                       "arguments": args if isinstance(args, str) else json.dumps(args)})
    cut = reply.stop_reason in ("max_tokens", "length", "max_output_tokens")
    # Like Chat Completions, input_tokens includes the cached tokens.
    usage = {"input_tokens": u["input"], "input_tokens_details": {"cached_tokens": u["cached"]},
             "output_tokens": u["output"], "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": u["input"] + u["output"]}
    body = req.body
    return {"id": f"resp_{rid}", "object": "response", "created_at": int(time.time()),
            "status": "incomplete" if cut else "completed", "model": req.model,
            "output": output, "usage": usage, "error": None,
            "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
            "instructions": body.get("instructions"), "metadata": body.get("metadata") or {},
            "parallel_tool_calls": True, "tool_choice": body.get("tool_choice") or "auto",
            "tools": body.get("tools") or [], "temperature": body.get("temperature", 1.0),
            "top_p": 1.0, "text": body.get("text") or {"format": {"type": "text"}}}
