"""OpenAI Chat Completions through the official SDK (AsyncOpenAI), with tool calls; also any
OpenAI-compatible server through `base_url` (Ollama, vLLM, llama.cpp, LM Studio).

Structured output, in the first form the server accepts (skillforge.providers.structured_modes):
`response_format = {"type": "json_schema", ...}` (strict when the schema allows it), then a
forced call of one tool whose parameters are the schema, then `{"type": "json_object",
"schema": {...}}` (llama-cpp-python's server grammar-constrains it), then plain text with
the schema in the system prompt. A server error that names the current form's parameter,
whatever its status (llama-cpp-python answers HTTP 500 to `json_schema`), moves to the next
form at once; the form that worked is remembered per base URL and model for the process. A
server that ignores the form and answers free text is left to the caller's validation (the
judge retries once, telling the model what was wrong).

Other servers differ too, and the same "ask again at once, remember" rule covers them:
`max_completion_tokens` for api.openai.com (its reasoning models refuse `max_tokens`),
`max_tokens` elsewhere; `temperature` is dropped for models that refuse it.

Requests to any server but api.openai.com are streamed, so that cancelling one (a judge
cancelled in the workbench, Ctrl+C) stops the server's generation instead of leaving it
computing for nobody while the next request queues behind it; the answer is the same
Completion (skillforge.providers.openai_stream says why, for which servers, and how usage is
counted when the server sends none). A server that refuses `stream_options` is asked again
without it, one that refuses `stream` is asked unstreamed from then on.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlparse

import openai

from skillforge.models.llm import (
    AssistantMessage,
    Completion,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolResult,
    Usage,
)
from skillforge.providers.base import (
    ANSWER_TOOL,
    ANSWER_TOOL_DESCRIPTION,
    BaseClient,
    ClientOptions,
    MalformedResponse,
    _Request,
    api_message,
    exception_cause,
    object_schema,
    schema_is_strict,
    status_failure,
    unwrap_text,
)
from skillforge.providers.openai_stream import (
    Answer,
    BrokeBeforeFirstChunk,
    NotACompletionStream,
    StreamTimedOut,
    stream_completion,
)
from skillforge.providers.retry import Failure
from skillforge.providers.schema_subsets import openai_strict
from skillforge.providers.structured_modes import (
    OPENAI_MODES,
    learnt_mode,
    mode_key,
    next_mode,
    remember,
    with_instruction,
)

_STOP: dict[str, StopReason] = {
    "stop": "end_turn", "tool_calls": "tool_use", "function_call": "tool_use",
    "length": "max_tokens", "content_filter": "refusal",
}
SCHEMA_NAME = "answer"
# An error naming the `stream` parameter itself (not "upstream", not "stream_options").
_NAMES_STREAM = re.compile(r"(?<![\w])stream(?![\w])")


class OpenAIClient(BaseClient):
    """A ModelClient for OpenAI models or an OpenAI-compatible server."""

    name = "openai"

    def __init__(self, options: ClientOptions, **kw: Any) -> None:
        super().__init__(options, **kw)
        self._sdk = self._new_sdk()
        host = urlparse(options.base_url).hostname if options.base_url else "api.openai.com"
        self.official = host == "api.openai.com"
        # What this server accepts, learnt from its errors (see the module docstring); the
        # structured form is shared by every client of this server and model in the process.
        self._mode_key = mode_key(self.name, options.base_url, options.model)
        self.max_tokens_param = "max_completion_tokens" if self.official else "max_tokens"
        # Streamed so that a cancel stops the server (openai_stream); cleared by a refusal.
        self.stream = not self.official
        self.stream_usage = True

    @property
    def structured_mode(self) -> str:
        return learnt_mode(self._mode_key, OPENAI_MODES)

    @structured_mode.setter
    def structured_mode(self, mode: str) -> None:
        remember(self._mode_key, mode)

    def _new_sdk(self) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(
            api_key=self.options.api_key,
            base_url=self.options.base_url,
            timeout=self.options.timeout_sec,
            max_retries=0,  # one retry policy: ours
        )

    async def aclose(self) -> None:
        await self._sdk.close()

    async def _complete_once(self, request: _Request) -> Completion:
        params = self._params(request)
        if self.stream:
            try:
                got = await stream_completion(self._sdk, params, include_usage=self.stream_usage,
                                              timeout_sec=self.options.timeout_sec)
            except BrokeBeforeFirstChunk:
                # The server failed before answering; unstreamed, it says why. On a new
                # connection: llama-cpp-python hangs up the one its stream failed on just
                # after, and a request sent on it at once is lost ("Server disconnected").
                async with self._new_sdk() as once:
                    return self._whole(await once.chat.completions.create(**params), request)
            except NotACompletionStream as exc:
                raise MalformedResponse(_not_a_completion(exc.body, "a chat completion")) from None
            return self._completion(got.answer, request, request_id=got.request_id,
                                    usage=got.fallback_usage)
        return self._whole(await self._sdk.chat.completions.create(**params), request)

    def _whole(self, resp: Any, request: _Request) -> Completion:
        if isinstance(resp, str | bytes) or not getattr(resp, "choices", None):
            raise MalformedResponse(_not_a_completion(resp, "a chat completion with choices"))
        return self._completion(Answer.of(resp), request,
                                request_id=getattr(resp, "_request_id", None))

    def _params(self, request: _Request) -> dict[str, Any]:
        system = request.system
        params: dict[str, Any] = {"model": self.model, self.max_tokens_param: request.max_tokens}
        if request.temperature is not None and self.send_temperature:
            params["temperature"] = request.temperature
        if request.schema is not None:
            # Every form wants an object at the top; anything else is wrapped as {"value": ...}.
            schema, _wrapped = object_schema(request.schema)
            strict = schema_is_strict(schema)
            mode = self.structured_mode
            if mode == "json_schema":
                params["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": SCHEMA_NAME, "schema": openai_strict(schema) if strict else schema,
                    "strict": strict}}
            elif mode == "tool":
                params["tools"] = [{"type": "function", "function": self._answer_tool(schema)}]
                params["tool_choice"] = {"type": "function", "function": {"name": ANSWER_TOOL}}
            else:
                # json_object (grammar-constrained by llama.cpp) or plain: the prompt is the
                # only place a model sees the schema's descriptions.
                system = with_instruction(system, schema)
                if mode == "json_object":
                    params["response_format"] = {"type": "json_object", "schema": schema}
        elif request.tools:
            params["tools"] = [{"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters}}
                for t in request.tools]
        params["messages"] = to_openai_messages(request.messages, system)
        return params

    def _answer_tool(self, schema: dict[str, Any]) -> dict[str, Any]:
        tool = {"name": ANSWER_TOOL, "description": ANSWER_TOOL_DESCRIPTION, "parameters": schema}
        # Strict function calling is OpenAI's own; other servers constrain a forced call by
        # its parameters anyway, and take the whole schema (string lengths included).
        if self.official and schema_is_strict(schema):
            tool.update(parameters=openai_strict(schema), strict=True)
        return tool

    def _adapt(self, message: str, request: _Request) -> bool:
        if request.schema is not None:
            mode = next_mode(OPENAI_MODES, self.structured_mode, message)
            if mode is not None:
                self.structured_mode = mode
                return True
        if self.max_tokens_param == "max_tokens" and "max_completion_tokens" in message:
            self.max_tokens_param = "max_completion_tokens"
            return True
        if self.max_tokens_param == "max_completion_tokens" and "max_completion_tokens" in message:
            self.max_tokens_param = "max_tokens"
            return True
        if self.stream and self.stream_usage and "stream_options" in message:
            self.stream_usage = False
            return True
        if self.stream and _NAMES_STREAM.search(message):
            self.stream = False
            return True
        return super()._adapt(message, request)

    def _completion(self, answer: Answer, request: _Request, *, request_id: str | None,
                    usage: Usage | None = None) -> Completion:
        """The Completion of a whole or streamed answer; `usage` overrides the one it has."""
        text = answer.text or ""
        if not text and answer.refusal:
            text = answer.refusal
        calls: list[ToolCall] = []
        found: str | None = None
        structured = request.schema is not None
        wrapped = structured and object_schema(request.schema)[1]
        for call_id, name, arguments in answer.calls:
            raw = arguments or "{}"
            if structured and name == ANSWER_TOOL and found is None:
                found = raw if not wrapped else unwrap_text(raw)
                continue
            calls.append(_tool_call(call_id, name, raw))
        usage = usage or _usage(answer.usage)
        raw_stop = answer.finish_reason
        stop = _STOP.get(raw_stop or "", "other")
        if structured and found is not None and stop == "tool_use":
            stop = "end_turn"
        if structured and found is None and wrapped:
            text = unwrap_text(text)
        return Completion(
            text=found if found is not None else text,
            tool_calls=[] if structured else calls,
            usage=usage, cost_usd=self._cost(usage), model=answer.model or self.model,
            provider=self.name, stop_reason=stop, raw_stop_reason=raw_stop,
            request_id=request_id,
        )

    def _classify(self, exc: BaseException) -> Failure | None:
        if isinstance(exc, openai.APITimeoutError | StreamTimedOut):
            return Failure("timeout", "the request timed out")
        if isinstance(exc, openai.APIConnectionError):
            return Failure("connection", f"connection failed ({exception_cause(exc)})")
        if isinstance(exc, openai.APIStatusError):
            return status_failure(exc.status_code, api_message(exc), exc.response.headers)
        if isinstance(exc, openai.APIError):
            return Failure("invalid", f"unreadable response ({exc.message})")
        return super()._classify(exc)


def to_openai_messages(messages: list[Any], system: str | None) -> list[dict[str, Any]]:
    """Neutral messages -> Chat Completions messages (one `tool` message per result)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for m in messages:
        if isinstance(m, SystemMessage):
            out.append({"role": "system", "content": m.content})
        elif isinstance(m, AssistantMessage):
            item: dict[str, Any] = {"role": "assistant", "content": m.content or None}
            if m.tool_calls:
                item["tool_calls"] = [
                    {"id": c.id, "type": "function",
                     "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                    for c in m.tool_calls
                ]
            elif not m.content:
                item["content"] = ""
            out.append(item)
        elif isinstance(m, ToolResult):
            content = m.content if not m.is_error else f"[error] {m.content}"
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": content})
        else:
            out.append({"role": "user", "content": m.content})
    return out


def _not_a_completion(resp: Any, wanted: str) -> str:
    shown = resp if isinstance(resp, str | bytes) else type(resp).__name__
    return f"expected {wanted}, got {str(shown)[:80]!r}; is base_url an LLM API?"


def _tool_call(call_id: str, name: str, raw: str) -> ToolCall:
    try:
        # strict=False: llama.cpp's JSON grammar lets a model write a raw newline inside a
        # string (a multi-line command); it means that newline.
        args = json.loads(raw, strict=False)
    except json.JSONDecodeError:
        return ToolCall(id=call_id, name=name, arguments={}, raw_arguments=raw)
    if not isinstance(args, dict):
        return ToolCall(id=call_id, name=name, arguments={}, raw_arguments=raw)
    return ToolCall(id=call_id, name=name, arguments=args)


def _usage(u: Any) -> Usage:
    if u is None:
        return Usage()
    details = getattr(u, "prompt_tokens_details", None)
    cached = (getattr(details, "cached_tokens", None) or 0) if details else 0
    written = (getattr(details, "cache_write_tokens", None) or 0) if details else 0
    return Usage(input_tokens=u.prompt_tokens or 0, output_tokens=u.completion_tokens or 0,
                 cached_tokens=cached, cache_write_tokens=written)
