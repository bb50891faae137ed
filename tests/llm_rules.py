"""The rules the real OpenAI and Anthropic APIs enforce on a request, for the test LLM server.

`invalid_request` says why the real API would answer a request body with 400 (the server
sends that reason in the provider's error shape); `server_refusal` is the error some
particular real servers answer with another status. Which rules apply depends on the
server's switches (`ServerRules`, set on tests/llm_server.py's `LLMServer`).
"""

from __future__ import annotations

from typing import Any, Protocol

from tests.llm_wire import Reply, error

# What llama-cpp-python's server (0.3.36) answers, word for word, to a request with
# `response_format: {"type": "json_schema", ...}`: HTTP 500, a request-validation message
# with a traceback line appended, type internal_server_error.
LLAMA_CPP_RESPONSE_FORMAT_ERROR = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/usr/lib/python3/"
    "site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    "
    "POST /v1/chat/completions")


class ServerRules(Protocol):
    """The server's switches that change which requests are refused (see LLMServer)."""

    reject_json_schema: bool
    reject_output_config: bool
    reject_forced_tool: bool
    reject_temperature: bool
    thinking: bool
    llama_cpp: bool


def invalid_request(wire: str, body: Any, server: ServerRules) -> str | None:
    """Why the real API would refuse this request body (a 400), or None when it is fine."""
    if not isinstance(body, dict):
        return "request body is not a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    msgs = body.get("messages")
    if wire != "responses" and (not isinstance(msgs, list) or not msgs):
        return "messages: at least one message is required"
    if server.reject_temperature and "temperature" in body:
        return "`temperature` is not supported for this model; omit sampling parameters"
    if wire == "responses":
        return _invalid_responses(body, server.reject_json_schema)
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
        if m.get("role") == "system":
            continue  # Claude Code puts reminders (the skills list) mid-conversation this way
        if m.get("role") not in ("user", "assistant"):
            return f"messages.{i}.role: must be \"user\", \"assistant\" or \"system\""
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


def _invalid_responses(body: dict, reject_json_schema: bool) -> str | None:
    items = body.get("input")
    if not items or not isinstance(items, str | list):
        return "input: a string or a non-empty list of input items is required"
    called: set[str] = set()
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            return f"input[{i}]: expected an input item object"
        if item.get("type") == "function_call":
            called.add(item.get("call_id"))
        elif item.get("type") == "function_call_output" and item.get("call_id") not in called:
            return f"input[{i}]: no tool call found for function call output with call_id " \
                   f"{item.get('call_id')}"
    fmt = (body.get("text") or {}).get("format") or {}
    if fmt.get("type") == "json_schema":
        if reject_json_schema:
            return "text.format: type 'json_schema' is not supported by this server"
        if not fmt.get("name") or not isinstance(fmt.get("schema"), dict):
            return "text.format: 'name' and 'schema' are required"
    return None


def server_refusal(wire: str, body: Any, server: ServerRules) -> Reply | None:
    """An error some real servers answer with a status other than 400, or None."""
    if server.llama_cpp and wire == "openai" and isinstance(body, dict):
        fmt = body.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") not in ("text", "json_object"):
            return error(500, LLAMA_CPP_RESPONSE_FORMAT_ERROR, type="internal_server_error")
    return None
