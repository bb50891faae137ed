"""The OpenAI and Anthropic wire formats the test LLM server speaks, for tests only.

What travels on the wire, apart from the HTTP server that carries it (tests/llm_server.py):
the scripted replies (`Reply` and its builders `text`, `tool_call`, `tool_calls`,
`structured`, `error`, `raw`), the requests as received (`Request`), the rules the real APIs
enforce on a request (`invalid_request`: a 400 in the provider's error shape) and each
reply rendered as an OpenAI Chat Completion or an Anthropic Message (`render_reply`).
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"
_ids = itertools.count(1)
# What llama-cpp-python's server (0.3.36) answers, word for word, to a request with
# `response_format: {"type": "json_schema", ...}`: HTTP 500, a request-validation message
# with a traceback line appended, type internal_server_error.
LLAMA_CPP_RESPONSE_FORMAT_ERROR = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/usr/lib/python3/"
    "site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    "
    "POST /v1/chat/completions")
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

    wire: str  # "openai" or "anthropic"
    path: str
    headers: dict[str, str]
    body: Any
    received_at: float
    # Set when the client closed the connection before the reply was sent (cancellation,
    # client timeout).
    disconnected: threading.Event = field(default_factory=threading.Event)

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or []) if isinstance(self.body, dict) else []

    def system_text(self) -> str:
        """The system prompt, whichever wire carried it."""
        if self.wire == "anthropic":
            sys_ = self.body.get("system") or ""
            return sys_ if isinstance(sys_, str) else "".join(b.get("text", "") for b in sys_)
        return "\n".join(_plain(m.get("content")) for m in self.messages
                         if m.get("role") in ("system", "developer"))

    def last_message_text(self) -> str:
        """Text of the last message: its text, or its tool results' content."""
        return _plain(self.messages[-1].get("content")) if self.messages else ""

    def all_text(self) -> str:
        return "\n".join(_plain(m.get("content")) for m in self.messages)


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


class ServerRules(Protocol):
    """The server's switches that change which requests are refused (see LLMServer)."""

    reject_json_schema: bool
    reject_output_config: bool
    reject_forced_tool: bool
    reject_temperature: bool
    thinking: bool
    llama_cpp: bool


# --- request rules the real APIs enforce -----------------------------------------------------


def invalid_request(wire: str, body: Any, server: ServerRules) -> str | None:
    """Why the real API would refuse this request body (a 400), or None when it is fine."""
    if not isinstance(body, dict):
        return "request body is not a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        return "messages: at least one message is required"
    if server.reject_temperature and "temperature" in body:
        return "`temperature` is not supported for this model; omit sampling parameters"
    return _invalid_anthropic(body, msgs, server) if wire == "anthropic" else \
        _invalid_openai(body, msgs, server.reject_json_schema)


def _invalid_anthropic(body: dict, msgs: list, server: ServerRules) -> str | None:
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: field required"
    if server.reject_output_config and "output_config" in body:
        return "output_config: Extra inputs are not permitted"
    fmt = (body.get("output_config") or {}).get("format")
    if fmt is not None and (fmt.get("type") != "json_schema"
                            or not isinstance(fmt.get("schema"), dict)):
        return "output_config.format: expected {type: json_schema, schema: {...}}"
    if server.reject_forced_tool and (body.get("tool_choice") or {}).get("type") in ("tool", "any"):
        return "tool_choice: forcing tool use is not supported with this model; use auto"
    if msgs[0].get("role") != "user":
        return "messages: first message must use the \"user\" role"
    pending: set[str] = set()
    for i, m in enumerate(msgs):
        if m.get("role") not in ("user", "assistant"):
            return f"messages.{i}.role: must be \"user\" or \"assistant\""
        blocks = m["content"] if isinstance(m.get("content"), list) else []
        if m["role"] == "user":
            got = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
            if got - pending:
                return f"messages.{i}: tool_result ids {sorted(got - pending)} have no tool_use " \
                       "in the previous message"
            if pending - got:
                return f"messages.{i}: tool_use ids {sorted(pending - got)} were found without " \
                       "tool_result blocks immediately after"
            pending = set()
        else:
            pending = {b.get("id") for b in blocks if b.get("type") == "tool_use"}
            if server.thinking and pending and not any(
                    b.get("type") == "thinking" and str(b.get("signature", "")).startswith("sig-")
                    for b in blocks):
                return f"messages.{i}.content: an assistant turn with tool_use must start " \
                       "with the thinking block it was generated with"
    choice = body.get("tool_choice") or {}
    if choice.get("type") == "tool":
        names = {t.get("name") for t in body.get("tools") or []}
        if choice.get("name") not in names:
            return f"tool_choice: tool {choice.get('name')!r} not found in tools"
    return None


def _invalid_openai(body: dict, msgs: list, reject_json_schema: bool) -> str | None:
    pending: set[str] = set()
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role not in ("system", "developer", "user", "assistant", "tool"):
            return f"messages[{i}].role: invalid value {role!r}"
        if role == "tool":
            if m.get("tool_call_id") not in pending:
                return f"messages[{i}]: messages with role 'tool' must be a response to a " \
                       "preceeding message with 'tool_calls'"
            pending.discard(m["tool_call_id"])
            continue
        if pending:
            return f"messages[{i}]: an assistant message with 'tool_calls' must be followed by " \
                   f"tool messages responding to each 'tool_call_id'; missing {sorted(pending)}"
        if role == "assistant":
            pending = {c.get("id") for c in m.get("tool_calls") or []}
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        if reject_json_schema:
            return "response_format: type 'json_schema' is not supported by this server"
        js = fmt.get("json_schema") or {}
        if not js.get("name") or not isinstance(js.get("schema"), dict):
            return "response_format.json_schema: 'name' and 'schema' are required"
    return None


def server_refusal(wire: str, body: Any, server: ServerRules) -> Reply | None:
    """An error some real servers answer with a status other than 400, or None."""
    if server.llama_cpp and wire == "openai" and isinstance(body, dict):
        fmt = body.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") not in ("text", "json_object"):
            return error(500, LLAMA_CPP_RESPONSE_FORMAT_ERROR, type="internal_server_error")
    return None


# --- rendering replies in each wire format ---------------------------------------------------


def _forced_tool(wire: str, body: dict) -> str | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    if wire == "anthropic":
        return choice.get("name") if choice.get("type") == "tool" else None
    return (choice.get("function") or {}).get("name") if choice.get("type") == "function" else None


def _usage(req: Request, reply: Reply, out_text: str) -> dict[str, int]:
    u = {"input": max(1, len(json.dumps(req.messages)) // 4), "output": max(1, len(out_text) // 4),
         "cached": 0, "cache_write": 0}
    u.update(reply.usage or {})
    return u


def render_reply(wire: str, req: Request, reply: Reply,
                 thinking: bool = False) -> tuple[int, Any, dict[str, str]]:
    """(status, payload, headers) of `reply` to `req` in the wire's own response shape."""
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
