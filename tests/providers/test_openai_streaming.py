"""Chat Completions to a server other than api.openai.com are streamed (so that a cancel stops
the server's generation: skillforge/providers/openai_stream.py), and the streamed answer is
the Completion the unstreamed request gives: same text, tool calls, structured answer, stop
reason, usage, model. Usage the server does not send is counted and said to be estimated;
a stream that breaks is retried; a server's errors still reach the adaptations and the
context-length refit."""

from __future__ import annotations

import json

import pytest

from skillforge.models.llm import ProviderError, UserMessage
from skillforge.providers.openai_stream import estimate_input
from tests.llm_server import error, raw, structured, text, tool_call, tool_calls
from tests.providers.test_clients import BASH, SCHEMA

ASK = [UserMessage(content="Judge this")]
LONG = "Hello there, this answer comes in several pieces."
OVERFLOW = ("This model's maximum context length is 8192 tokens. However, you requested "
            "17919 tokens (17919 in the messages, 0 in the completion).")

# (reply, what complete() is asked for, the structured form the client starts in)
CASES = {
    "text": (text(LONG, usage={"input": 120, "output": 9}), {}, None),
    "cut off": (text(LONG, stop_reason="length"), {}, None),
    "tool calls": (tool_calls([("bash", {"command": "ls"}), ("bash", {"command": "pwd"})],
                              text="Looking."), {"tools": [BASH]}, None),
    "json_schema": (structured({"verdict": "good", "n": 3}), {"response_schema": SCHEMA}, None),
    "forced answer tool": (structured({"verdict": "ok", "n": 1}), {"response_schema": SCHEMA},
                           "tool"),
    "json_object": (structured({"verdict": "meh", "n": 2}), {"response_schema": SCHEMA},
                    "json_object"),
    "wrapped answer tool": (structured(["a", "b"]), {"response_schema": {
        "type": "array", "items": {"type": "string"}}}, "tool"),
}


@pytest.mark.parametrize("case", CASES)
async def test_a_streamed_answer_is_the_unstreamed_one(llm_server, make_client, case):
    reply, kw, mode = CASES[case]
    llm_server.script(reply, reply)
    streamed, whole = make_client("openai"), make_client("openai")
    whole.stream = False
    if mode:
        streamed.structured_mode = mode

    got = await streamed.complete(ASK, **kw)
    want = await whole.complete(ASK, **kw)

    first, second = (r.body for r in llm_server.requests)
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}
    assert "stream" not in second
    assert got.request_id and got.request_id.startswith("req_")
    assert got.request_id != want.request_id  # each request's own
    # Ids are each request's own; all else is the same.
    assert len({c.id for c in got.tool_calls + want.tool_calls}) == 2 * len(got.tool_calls)
    unique = {"request_id": True, "tool_calls": {"__all__": {"id"}}}
    assert got.model_dump(exclude=unique) == want.model_dump(exclude=unique)
    assert not got.usage.estimated and got.usage.output_tokens > 0


async def test_usage_a_stream_lacks_is_counted_and_marked_estimated(llm_server, make_client):
    llm_server.stream_usage = False  # llama-cpp-python's server sends no usage chunk
    llm_server.script(text(LONG), tool_call("bash", {"command": "ls /workspace"}))
    client = make_client("openai")

    said = await client.complete(ASK, system="Be brief.")
    called = await client.complete(ASK, tools=[BASH])

    # One token per text or arguments chunk (the loopback server cuts each in three).
    assert said.text == LONG and said.usage.output_tokens == 3
    assert called.usage.output_tokens == 3
    sent = llm_server.requests[0].body
    assert said.usage.input_tokens == estimate_input(sent) > 0
    assert called.usage.input_tokens > said.usage.input_tokens  # the tool's schema counts
    assert said.usage.estimated and called.usage.estimated
    assert (said.usage + called.usage).estimated
    assert "chunk" not in said.text and said.stop_reason == "end_turn"


@pytest.mark.parametrize("case", ["tool calls", "forced answer tool", "wrapped answer tool"])
async def test_tool_calls_streamed_as_llama_cpp_python_streams_them(llm_server, make_client,
                                                                    case):
    # It repeats the call's id and name in every chunk: taken once, not appended.
    reply, kw, mode = CASES[case]
    llm_server.llama_cpp = True
    llm_server.script(reply, reply)
    streamed, whole = make_client("openai"), make_client("openai")
    whole.stream = False
    streamed.structured_mode = whole.structured_mode = mode or "json_schema"

    got = await streamed.complete(ASK, **kw)
    want = await whole.complete(ASK, **kw)

    assert got.text == want.text and got.stop_reason == want.stop_reason
    assert [(c.name, c.arguments) for c in got.tool_calls] == [
        (c.name, c.arguments) for c in want.tool_calls]
    assert [c.id for c in got.tool_calls] == [
        c["id"] for c in llm_server.requests[0].response["choices"][0]["message"].get(
            "tool_calls", []) if c["function"]["name"] != "give_answer"]
    # Three pieces of each: the text (or the answer), each call's arguments.
    assert got.usage.estimated and got.usage.output_tokens == 3 * (len(got.tool_calls) + 1)


async def test_a_stream_cut_midway_is_retried_as_a_connection_failure(llm_server, make_client):
    llm_server.script(text(LONG, cut_after=3), text(LONG))
    client = make_client("openai")

    out = await client.complete(ASK)

    assert out.text == LONG
    assert len(client.policy.waits) == 1
    assert [r.body.get("stream") for r in llm_server.requests] == [True, True]


async def test_a_stream_that_keeps_breaking_ends_in_a_connection_error(llm_server, make_client):
    llm_server.handler = lambda _req: text(LONG, cut_after=2)
    client = make_client("openai", max_retries=2)

    with pytest.raises(ProviderError, match="connection failed") as info:
        await client.complete(ASK)

    assert info.value.attempts == 3 and info.value.retryable
    assert "local server is running" in str(info.value)


async def test_a_stream_that_ends_before_its_first_chunk_is_asked_again_unstreamed(
        llm_server, make_client):
    # llama-cpp-python starts the stream before it finds the prompt too long, then hangs up;
    # unstreamed, it says "maximum context length", which the refit reads.
    llm_server.script(text(LONG, cut_after=0), error(400, OVERFLOW))
    client = make_client("openai")

    with pytest.raises(ProviderError, match="maximum context length is 8192") as info:
        await client.complete(ASK)

    assert info.value.status == 400 and info.value.attempts == 1
    assert [r.body.get("stream") for r in llm_server.requests] == [True, None]
    assert client.stream  # the next request streams again


@pytest.mark.parametrize("refusal, then", [
    ("Unrecognized request argument supplied: stream_options", (True, False)),
    ("'stream' is not supported by this endpoint", (None, False)),
])
async def test_a_server_refusing_a_stream_parameter_is_asked_without_it(
        llm_server, make_client, refusal, then):
    llm_server.script(error(400, refusal), text("ok"), text("again"))
    client = make_client("openai")

    assert (await client.complete(ASK)).text == "ok"
    assert (await client.complete(ASK)).text == "again"  # remembered

    bodies = [r.body for r in llm_server.requests]
    assert [(b.get("stream"), "stream_options" in b) for b in bodies] == [
        (True, True), then, then]


async def test_an_upstream_error_does_not_turn_streaming_off(llm_server, make_client):
    llm_server.script(error(502, "upstream connect error"), text("ok"))
    client = make_client("openai")
    assert (await client.complete(ASK)).text == "ok"
    assert client.stream and client.stream_usage


async def test_a_whole_completion_in_answer_to_a_stream_is_read(llm_server, make_client):
    # A server (or proxy) that ignores `stream` and answers the whole completion as JSON.
    whole = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m-1",
             "choices": [{"index": 0, "finish_reason": "stop",
                          "message": {"role": "assistant", "content": "whole"}}],
             "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}
    llm_server.script(raw(200, json.dumps(whole), headers={"content-type": "application/json"}))

    out = await make_client("openai").complete(ASK)

    assert out.text == "whole" and out.model == "m-1" and out.stop_reason == "end_turn"
    assert out.usage.input_tokens == 5 and not out.usage.estimated


@pytest.mark.parametrize("base_url, streamed", [
    (None, False), ("https://api.openai.com/v1", False), ("http://127.0.0.1:8080/v1", True),
    ("http://localhost:11434/v1", True), ("https://openrouter.ai/api/v1", True)])
async def test_every_server_but_api_openai_com_is_streamed(base_url, streamed):
    from skillforge.providers.base import ClientOptions
    from skillforge.providers.openai_provider import OpenAIClient

    async with OpenAIClient(ClientOptions(model="m", api_key="k", base_url=base_url)) as client:
        assert client.stream is streamed
