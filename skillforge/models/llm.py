"""Provider-neutral chat types and the `ModelClient` protocol every LLM provider implements.

Three jobs share these types: the rubric judge (one structured answer), drafting eval cases
(structured answers) and the built-in agent, a tool-calling loop:

    conv = [UserMessage(content=task)]
    while True:
        done = await client.complete(conv, system=prompt, tools=[bash, read_file])
        conv.append(done.message())          # keeps provider state (thinking) for the next turn
        if not done.tool_calls:
            break                            # done.text is the final answer
        for call in done.tool_calls:         # call.raw_arguments set: answer with an error
            conv.append(ToolResult(tool_call_id=call.id, content=run(call)))

Token convention (the ATIF one): `Usage.input_tokens` counts every prompt token, cached or
not; `cached_tokens` is the part read from the provider's prompt cache and
`cache_write_tokens` the part written to it (Anthropic bills both differently).

The errors live here, not in `skillforge.providers`, so linters and the UI can catch them
while importing only `skillforge.models`.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

StopReason = Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal", "other"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolSpec(_Model):
    """A tool the model may call: `parameters` is a JSON schema of an object."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )


class ToolCall(_Model):
    """One call the model asked for; `id` pairs it with its `ToolResult`."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    # Set (and `arguments` empty) when the model sent arguments that are not a JSON object:
    # the caller should answer with an error ToolResult rather than run the tool.
    raw_arguments: str | None = None

    @field_validator("arguments", "raw_arguments")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        return valid_unicode(value)


class SystemMessage(_Model):
    role: Literal["system"] = "system"
    content: str


class UserMessage(_Model):
    role: Literal["user"] = "user"
    content: str


class AssistantMessage(_Model):
    role: Literal["assistant"] = "assistant"
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    # The provider's own form of this turn ({"anthropic": [content blocks]}), sent back
    # verbatim to that provider: Claude's thinking blocks must come back unchanged with
    # the tool calls they led to. Other providers ignore it.
    provider_data: dict[str, Any] | None = None


class ToolResult(_Model):
    """The output of one tool call, sent back to the model."""

    role: Literal["tool"] = "tool"
    tool_call_id: str
    content: str
    name: str | None = None
    is_error: bool = False


Message = Annotated[
    SystemMessage | UserMessage | AssistantMessage | ToolResult, Field(discriminator="role")
]


# How a report marks token counts skillforge counted or estimated (Usage.estimated).
ESTIMATED = " (counted by skillforge: the server sent none)"


class Usage(_Model):
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    # True when the server reported no counts and these were counted or estimated on our
    # side (a stream from llama-cpp-python's server: skillforge/providers/openai_stream.py).
    estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            estimated=self.estimated or other.estimated,
        )


class Completion(_Model):
    """One model answer. With a `response_schema`, `text` is the JSON document."""

    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    # None when the model's price is unknown (local servers, new models): tokens still count.
    cost_usd: float | None = None
    model: str
    provider: str
    stop_reason: StopReason = "end_turn"
    raw_stop_reason: str | None = None
    request_id: str | None = None
    # The model's visible reasoning (Claude's thinking blocks), when it shows any.
    reasoning: str | None = None
    provider_data: dict[str, Any] | None = None

    @field_validator("text", "reasoning")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        return valid_unicode(value)

    def message(self) -> AssistantMessage:
        """This answer as the assistant turn to append to the conversation."""
        return AssistantMessage(content=self.text, tool_calls=list(self.tool_calls),
                                provider_data=self.provider_data)

    def parse_json(self) -> Any:
        """The structured answer parsed from `text`; raises `StructuredOutputError`."""
        return parse_json_text(self.text)


# Half of a UTF-16 surrogate pair on its own: JSON may spell one ("\\udc89") and a local
# server sends one when a token split a character. No UTF-8 file can hold it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_unicode(value: Any) -> Any:
    """`value` (a string, or lists and dicts of them) with every lone surrogate replaced by
    U+FFFD, so what a model wrote can always be saved as UTF-8."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value) if _LONE_SURROGATE.search(value) else value
    if isinstance(value, list):
        return [valid_unicode(v) for v in value]
    if isinstance(value, dict):
        return {valid_unicode(k): valid_unicode(v) for k, v in value.items()}
    return value


_FENCE = re.compile(r"^```(?:json)?\s*\n(.*?)\n?```\s*$", re.DOTALL)


def parse_json_text(text: str) -> Any:
    """Parse a JSON answer, tolerating one surrounding Markdown code fence."""
    s = text.strip()
    m = _FENCE.match(s)
    if m:
        s = m.group(1).strip()
    try:
        # strict=False: a raw newline or tab inside a string (which llama.cpp's JSON grammar
        # lets a model write) is read as that character, not refused.
        return valid_unicode(json.loads(s, strict=False))
    except json.JSONDecodeError as exc:
        shown = s if len(s) <= 120 else s[:117] + "..."
        raise StructuredOutputError(
            f"the answer is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): "
            f"{shown!r}"
        ) from None


@runtime_checkable
class ModelClient(Protocol):
    """A chat model behind some provider. `complete` is a coroutine and cancellable.

    `tools` and `response_schema` are exclusive: a structured answer never calls tools.
    `max_tokens`/`temperature` default to the client's configuration.
    """

    name: str  # the provider: "anthropic" or "openai"
    model: str

    async def complete(
        self,
        messages: list[Message],
        *,
        system: str | None = None,
        tools: list[ToolSpec] | None = None,
        response_schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Completion: ...


class StructuredOutputError(ValueError):
    """The model's answer is not the JSON document that was asked for."""


class ProviderError(RuntimeError):
    """A provider request failed for good (after retries, or not retryable).

    The message says what happened and what to do; the attributes are for programs.
    """

    def __init__(self, message: str, *, provider: str, model: str, status: int | None = None,
                 retryable: bool = False, attempts: int = 1) -> None:
        super().__init__(message)
        self.provider = provider
        self.model = model
        self.status = status
        self.retryable = retryable
        self.attempts = attempts


class ProviderNotConfigured(RuntimeError):
    """No LLM provider is configured; the message lists exactly what to set."""
