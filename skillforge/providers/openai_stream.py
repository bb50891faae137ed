"""Chat Completions asked for as a stream, so that a cancelled request stops the server.

Why: a local server notices a client that hung up only while it streams. llama-cpp-python's
server checks for a disconnected client between streamed chunks and nowhere else: a
non-streamed request runs to its end after the user cancelled it (a judge cancelled in the
workbench, Ctrl+C in the CLI), and as it answers one request at a time, the next request
waits for the abandoned one (up to max_tokens of generation on a CPU). Streamed, cancelling
closes the connection and the server stops at its next token. llama.cpp's llama-server,
vLLM, Ollama and LM Studio also stop a streamed generation whose client left.

Which servers: every base_url except api.openai.com (openai_provider decides). Hosted
OpenAI-compatible APIs (OpenRouter, Groq, Together...) stream the same protocol, report
usage in the stream, and stop (or stop billing) a stream whose client left; api.openai.com
serves requests side by side, so an abandoned one delays nothing, and its usage stays exact
on the unstreamed path.

The chunks are put together into the `Answer` an unstreamed completion gives
(`Answer.of`), so one reader (openai_provider's `_completion`) serves both: text, refusal,
tool calls (the forced answer tool included), the finish reason, the model, the usage. Not
with the SDK's `ChatCompletionStreamState`: it appends every string of a tool-call delta,
and llama-cpp-python repeats the call's id and name in each chunk ("give_answergive_answer..."),
and its final completion raises on a "length" finish, which is a stop reason here. A
call's id and name are taken from its first chunk that has them; arguments are joined.

Usage: `stream_options.include_usage` asks for the token counts in a last chunk
(llama-server, vLLM, Ollama, LM Studio and the hosted APIs send it). llama-cpp-python's
server sends none. Then the numbers are counted or estimated, never left at 0 nor passed off
as the server's: output tokens are the chunks that carried text or tool-call arguments (these
servers send one chunk per generated token, or a few held-back tokens in one, so the count is
a floor), input tokens the prompt-sizing estimate (providers.context.count_for_sizing) of
what was sent, and the Usage says `estimated=True`.

Failures keep the unstreamed path's shape. An HTTP error comes before any event (the SDK
raises it from `create`), so the parameter adaptations and the context-length refit see the
errors they always saw. A stream that breaks midway is a connection failure (retried). A
stream that breaks before its first chunk raises `BrokeBeforeFirstChunk`: llama-cpp-python
starts the stream (200) before tokenizing the prompt, so a prompt longer than its context
ends the stream with no event, and only the unstreamed request gets its "maximum context
length is N" error; the caller asks again unstreamed. An answer that is not an event stream
is read as a whole chat completion (a server that ignores `stream`) if it is one, and is
otherwise the unstreamed path's "is base_url an LLM API?" error. The whole stream is held to
the client's timeout, as an unstreamed request is (the SDK's own timeout applies to each read).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from skillforge.models.llm import Usage
from skillforge.providers.context import count_for_sizing

EVENT_STREAM = "text/event-stream"


class BrokeBeforeFirstChunk(Exception):
    """The stream ended, or broke, before its first chunk: ask again without streaming."""


class StreamTimedOut(Exception):
    """The whole stream took longer than the client's timeout."""


class NotACompletionStream(Exception):
    """The server answered 200 with something that is neither a stream nor a completion."""

    def __init__(self, body: str) -> None:
        super().__init__(body)
        self.body = body


@dataclass
class Answer:
    """What skillforge reads of a chat completion, whole or streamed."""

    text: str | None = None
    refusal: str | None = None
    # (id, name, arguments as JSON text), in the order the model called them.
    calls: list[list[str]] = field(default_factory=list)
    finish_reason: str | None = None
    model: str | None = None
    usage: Any = None  # the server's CompletionUsage, or None when it sent none

    @classmethod
    def of(cls, resp: Any) -> Answer:
        """The answer of a whole ChatCompletion (the SDK's object)."""
        msg = resp.choices[0].message
        calls = [[tc.id or "", tc.function.name or "", tc.function.arguments or ""]
                 for tc in msg.tool_calls or [] if getattr(tc, "function", None) is not None]
        return cls(text=msg.content, refusal=getattr(msg, "refusal", None), calls=calls,
                   finish_reason=resp.choices[0].finish_reason, model=resp.model,
                   usage=resp.usage)


@dataclass
class Streamed:
    """What a stream came to."""

    answer: Answer
    request_id: str | None
    # None when the server reported usage (answer.usage), else our count and estimate.
    fallback_usage: Usage | None


async def stream_completion(sdk: openai.AsyncOpenAI, params: dict[str, Any], *,
                            include_usage: bool, timeout_sec: float) -> Streamed:
    """Send `params` streamed and gather the whole answer (see the module docstring)."""
    extra: dict[str, Any] = {"stream": True}
    if include_usage:
        extra["stream_options"] = {"include_usage": True}
    try:
        async with asyncio.timeout(timeout_sec):
            stream = await sdk.chat.completions.create(**params, **extra)
            async with stream:
                return await _gather(stream, params)
    except TimeoutError:
        raise StreamTimedOut(f"no whole answer within {timeout_sec:g}s") from None


async def _gather(stream: Any, params: dict[str, Any]) -> Streamed:
    response = stream.response
    request_id = response.headers.get("x-request-id")
    if EVENT_STREAM not in response.headers.get("content-type", ""):
        return Streamed(_whole_answer(await response.aread()), request_id, None)
    answer = Answer()
    chunks = pieces = 0
    try:
        async for chunk in stream:
            chunks += 1
            pieces += _add(answer, chunk)
    except openai.APITimeoutError:
        raise
    except openai.APIConnectionError as exc:  # the SDK's word for a broken stream
        if chunks == 0:
            raise BrokeBeforeFirstChunk(str(exc)) from exc
        raise
    if chunks == 0:
        raise BrokeBeforeFirstChunk("the stream ended without a chunk")
    if answer.usage is not None:
        return Streamed(answer, request_id, None)
    usage = Usage(input_tokens=estimate_input(params), output_tokens=pieces, estimated=True)
    return Streamed(answer, request_id, usage)


def _add(answer: Answer, chunk: Any) -> int:
    """Add one chunk to `answer`; how many of its choices carried generated text (a token,
    or a few held back together)."""
    answer.model = answer.model or getattr(chunk, "model", None)
    if getattr(chunk, "usage", None) is not None:
        answer.usage = chunk.usage
    carried = 0
    for choice in getattr(chunk, "choices", None) or []:
        if getattr(choice, "index", 0) not in (0, None):
            continue  # skillforge asks for one choice
        if choice.finish_reason:
            answer.finish_reason = choice.finish_reason
        delta = choice.delta
        if delta is None:
            continue
        said = False
        if delta.content:
            answer.text = (answer.text or "") + delta.content
            said = True
        if getattr(delta, "refusal", None):
            answer.refusal = (answer.refusal or "") + delta.refusal
            said = True
        for tc in delta.tool_calls or []:
            said = _add_call(answer.calls, tc) or said
        carried += said
    return carried


def _add_call(calls: list[list[str]], tc: Any) -> bool:
    at = tc.index if isinstance(getattr(tc, "index", None), int) else len(calls) - 1
    while len(calls) <= at:
        calls.append(["", "", ""])
    call = calls[at]
    fn = tc.function
    call[0] = call[0] or tc.id or ""
    call[1] = call[1] or (fn.name if fn is not None else None) or ""
    pieces = (fn.arguments if fn is not None else None) or ""
    call[2] += pieces
    return bool(pieces)


def _whole_answer(body: bytes) -> Answer:
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise NotACompletionStream(text) from None
    if not isinstance(data, dict) or not data.get("choices"):
        raise NotACompletionStream(text)
    try:
        return Answer.of(ChatCompletion.model_validate(data))
    except ValueError:
        raise NotACompletionStream(text) from None


def estimate_input(params: dict[str, Any]) -> int:
    """The prompt-sizing estimate of the input tokens of a Chat Completions request."""
    texts: list[str] = []
    for message in params.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        for call in message.get("tool_calls") or []:
            texts.append(json.dumps(call.get("function") or {}, ensure_ascii=False))
    for key in ("tools", "response_format"):
        if params.get(key):
            texts.append(json.dumps(params[key], ensure_ascii=False))
    return count_for_sizing("\n".join(texts)) if texts else 0
