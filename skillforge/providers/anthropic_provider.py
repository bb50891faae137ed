"""Anthropic Messages API through the official SDK (AsyncAnthropic), with tool use.

Structured output: `output_config.format = {"type": "json_schema", ...}` (constrained
decoding, every Claude model since 4.5; the schema without the keywords it refuses,
skillforge.providers.schema_subsets). Current models (Claude Sonnet 5.5, Opus 5.5) answer a
forced `tool_choice` with HTTP 400, so a forced tool call cannot be the first choice; it is
the fallback: a server whose error names `output_config` (an older Anthropic-compatible
server) is asked again at once with one forced tool whose `input_schema` is the response
schema, and one whose error then names the tool choice gets plain text with the schema in
the system prompt (skillforge.providers.structured_modes: the form that worked is
remembered per base URL and model for the process).

`temperature` travels in the request body (`extra_body`): this SDK no longer lists it and
current models refuse non-default sampling parameters with a 400, after which the client
stops sending it (BaseClient._attempt).

Thinking blocks (adaptive thinking is on by default on current models) are kept in
`Completion.provider_data` and sent back verbatim with the turn, as the API requires
when tool calls follow thinking; their text is `Completion.reasoning`.
"""

from __future__ import annotations

from typing import Any

import anthropic

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
    answer_text,
    api_message,
    exception_cause,
    object_schema,
    status_failure,
    unwrap_text,
)
from skillforge.providers.retry import Failure
from skillforge.providers.schema_subsets import anthropic_output_config
from skillforge.providers.structured_modes import (
    ANTHROPIC_MODES,
    learnt_mode,
    mode_key,
    next_mode,
    remember,
    with_instruction,
)

_STOP: dict[str, StopReason] = {
    "end_turn": "end_turn", "tool_use": "tool_use", "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence", "refusal": "refusal",
}
PROVIDER = "anthropic"


class AnthropicClient(BaseClient):
    """A ModelClient for Claude models (or any server speaking the Messages API)."""

    name = PROVIDER

    def __init__(self, options: ClientOptions, **kw: Any) -> None:
        super().__init__(options, **kw)
        self._sdk = anthropic.AsyncAnthropic(
            api_key=options.api_key,
            base_url=options.base_url,
            timeout=options.timeout_sec,
            max_retries=0,  # one retry policy: ours
        )
        # The structured form, learnt from the server's errors (module docstring).
        self._mode_key = mode_key(self.name, options.base_url, options.model)

    @property
    def structured_mode(self) -> str:
        return learnt_mode(self._mode_key, ANTHROPIC_MODES)

    @structured_mode.setter
    def structured_mode(self, mode: str) -> None:
        remember(self._mode_key, mode)

    async def aclose(self) -> None:
        await self._sdk.close()

    async def _complete_once(self, request: _Request) -> Completion:
        system_text = request.system
        params: dict[str, Any] = {"model": self.model, "max_tokens": request.max_tokens}
        if request.temperature is not None and self.send_temperature:
            params["extra_body"] = {"temperature": request.temperature}
        wrapped = False
        if request.schema is not None:
            # Every form wants an object at the top; anything else is wrapped as {"value": ...}.
            schema, wrapped = object_schema(request.schema)
            mode = self.structured_mode
            if mode == "output_config":
                params["output_config"] = {"format": {
                    "type": "json_schema", "schema": anthropic_output_config(schema)}}
            elif mode == "tool":
                params["tools"] = [{"name": ANSWER_TOOL, "description": ANSWER_TOOL_DESCRIPTION,
                                    "input_schema": schema}]
                params["tool_choice"] = {"type": "tool", "name": ANSWER_TOOL}
            else:
                system_text = with_instruction(system_text, schema)
        elif request.tools:
            params["tools"] = [{"name": t.name, "description": t.description,
                                "input_schema": t.parameters} for t in request.tools]
        system, messages = to_anthropic_messages(request.messages, system_text)
        params["messages"] = messages
        if system:
            params["system"] = system
        msg = await self._sdk.messages.create(**params)
        return self._completion(msg, structured=request.schema is not None, wrapped=wrapped)

    def _adapt(self, message: str, request: _Request) -> bool:
        if request.schema is not None:
            mode = next_mode(ANTHROPIC_MODES, self.structured_mode, message)
            if mode is not None:
                self.structured_mode = mode
                return True
        return super()._adapt(message, request)

    def _completion(self, msg: Any, *, structured: bool, wrapped: bool) -> Completion:
        if isinstance(msg, str | bytes) or not hasattr(msg, "content"):
            shown = str(msg)[:80] if isinstance(msg, str | bytes) else type(msg).__name__
            raise MalformedResponse(f"expected a message, got {shown!r}; is base_url an LLM API?")
        texts: list[str] = []
        thoughts: list[str] = []
        calls: list[ToolCall] = []
        blocks: list[dict[str, Any]] = []
        answer: str | None = None
        for block in msg.content or []:
            kind = getattr(block, "type", None)
            if kind == "text":
                texts.append(block.text)
                blocks.append({"type": "text", "text": block.text})
            elif kind == "thinking":
                thoughts.append(getattr(block, "thinking", "") or "")
                blocks.append({"type": "thinking", "thinking": getattr(block, "thinking", ""),
                               "signature": getattr(block, "signature", "")})
            elif kind == "redacted_thinking":
                blocks.append({"type": "redacted_thinking", "data": getattr(block, "data", "")})
            elif kind == "tool_use":
                args = block.input if isinstance(block.input, dict) else {"value": block.input}
                if structured and block.name == ANSWER_TOOL and answer is None:
                    answer = answer_text(args, wrapped)
                else:
                    calls.append(ToolCall(id=block.id, name=block.name, arguments=args))
                    blocks.append({"type": "tool_use", "id": block.id, "name": block.name,
                                   "input": args})
        u = msg.usage
        cache_read = getattr(u, "cache_read_input_tokens", None) or 0
        cache_write = getattr(u, "cache_creation_input_tokens", None) or 0
        usage = Usage(
            # Anthropic's input_tokens leaves out cache reads and writes; ours counts all.
            input_tokens=(u.input_tokens or 0) + cache_read + cache_write,
            output_tokens=u.output_tokens or 0,
            cached_tokens=cache_read,
            cache_write_tokens=cache_write,
        )
        raw_stop = msg.stop_reason
        stop = _STOP.get(raw_stop or "", "other")
        if structured and answer is not None and stop == "tool_use":
            stop = "end_turn"  # the forced answer tool is how a structured answer ends
        text = "".join(texts)
        if structured and answer is None and wrapped:
            text = unwrap_text(text)
        return Completion(
            text=answer if answer is not None else text,
            tool_calls=[] if structured else calls,
            usage=usage, cost_usd=self._cost(usage), model=msg.model or self.model,
            provider=self.name, stop_reason=stop, raw_stop_reason=raw_stop,
            request_id=getattr(msg, "_request_id", None),
            reasoning="\n\n".join(t for t in thoughts if t) or None,
            provider_data={PROVIDER: blocks} if not structured and blocks else None,
        )

    def _classify(self, exc: BaseException) -> Failure | None:
        if isinstance(exc, anthropic.APITimeoutError):
            return Failure("timeout", "the request timed out")
        if isinstance(exc, anthropic.APIConnectionError):
            return Failure("connection", f"connection failed ({exception_cause(exc)})")
        if isinstance(exc, anthropic.APIStatusError):
            return status_failure(exc.status_code, api_message(exc), exc.response.headers)
        if isinstance(exc, anthropic.APIError):
            return Failure("invalid", f"unreadable response ({exc})")
        return super()._classify(exc)


def to_anthropic_messages(messages: list[Any], system: str | None
                          ) -> tuple[str | None, list[dict[str, Any]]]:
    """Neutral messages -> (system, Messages API turns). Consecutive same-role turns merge:
    several tool results become one user turn, as the API requires."""
    systems = [system] if system else []
    turns: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})

    for m in messages:
        if isinstance(m, SystemMessage):
            systems.append(m.content)
        elif isinstance(m, AssistantMessage):
            own = (m.provider_data or {}).get(PROVIDER)
            if own:
                add("assistant", [dict(b) for b in own])
                continue
            blocks: list[dict[str, Any]] = []
            if m.content:
                blocks.append({"type": "text", "text": m.content})
            for c in m.tool_calls:
                blocks.append({"type": "tool_use", "id": c.id, "name": c.name,
                               "input": c.arguments})
            add("assistant", blocks or [{"type": "text", "text": "(no answer)"}])
        elif isinstance(m, ToolResult):
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": m.tool_call_id,
                                     "content": m.content or "(no output)"}
            if m.is_error:
                block["is_error"] = True
            add("user", [block])
        else:
            add("user", [{"type": "text", "text": m.content or "(empty)"}])
    return ("\n\n".join(systems) or None), turns
