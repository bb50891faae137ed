"""The model proxy on OpenAI's wire: what Codex speaks (the Responses API) and Chat Completions,
streamed and not, through the real `openai` SDK -> skillforge's proxy -> the loopback server.

Every count is checked against the usage the server itself sent back (`req.response`), so
"the proxy counted it" means "the provider said so", whatever shape the answer took.
"""

from __future__ import annotations

import openai

from skillforge.harnesses.proxy import ModelProxy, Upstream
from tests.llm_server import error, text, tool_call

KEY = "sk-proj-real-openai-key-0123456789"


def _upstream(llm_server) -> Upstream:
    return Upstream(llm_server.openai_base_url, {"authorization": f"Bearer {KEY}"})


def _client(proxy: ModelProxy, token: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key=token, base_url=proxy.base_url(), max_retries=0)


def _sent(llm_server) -> tuple[int, int, int]:
    """(input, output, cached) tokens the server reported, summed over its answers."""
    tin = tout = cached = 0
    for req in llm_server.completions:
        usage = req.response["usage"]
        if "prompt_tokens" in usage:  # Chat Completions
            tin += usage["prompt_tokens"]
            tout += usage["completion_tokens"]
            cached += usage["prompt_tokens_details"]["cached_tokens"]
        else:  # Responses
            tin += usage["input_tokens"]
            tout += usage["output_tokens"]
            cached += usage["input_tokens_details"]["cached_tokens"]
    return tin, tout, cached


async def test_the_responses_api_codex_uses_is_counted_streamed_or_not(llm_server):
    llm_server.script(
        tool_call("shell", {"command": ["ls"]}, usage={"input": 900, "output": 31, "cached": 512}),
        text("All done.", usage={"input": 1400, "output": 12, "cached": 896}))
    async with ModelProxy(_upstream(llm_server)) as proxy:
        lease = proxy.lease("codex-trial")
        client = _client(proxy, lease.token)
        first = await client.responses.create(model="gpt-5.5", input="list the files")
        events = [e async for e in await client.responses.create(
            model="gpt-5.5", input="and now?", stream=True)]
        await client.close()
    assert first.output[0].type == "function_call" and first.output[0].name == "shell"
    assert events[-1].type == "response.completed"
    assert events[-1].response.output_text == "All done."
    assert [r.path for r in llm_server.completions] == ["/v1/responses"] * 2
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in llm_server.requests)
    assert (lease.usage.input_tokens, lease.usage.output_tokens,
            lease.usage.cached_tokens) == _sent(llm_server) == (2300, 43, 1408)
    assert lease.calls == 2 and [r["model"] for r in lease.requests] == ["gpt-5.5"] * 2


async def test_a_streamed_chat_call_is_counted_though_the_client_asked_for_no_usage(
        llm_server):
    # Without stream_options.include_usage the provider sends no usage at all: the proxy
    # asks for it on the client's behalf, counts it, and keeps the extra chunk from the
    # client, which gets the stream it asked for.
    llm_server.script(text("one", usage={"input": 210, "output": 9, "cached": 128}),
                      text("two", usage={"input": 330, "output": 14}))
    async with ModelProxy(_upstream(llm_server)) as proxy:
        lease = proxy.lease("chat-trial")
        client = _client(proxy, lease.token)
        plain = [c async for c in await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True)]
        asked = [c async for c in await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True,
            stream_options={"include_usage": True})]
        await client.close()
    assert "".join(c.choices[0].delta.content or "" for c in plain) == "one"
    assert all(c.choices and c.usage is None for c in plain)  # no usage-only chunk
    assert asked[-1].choices == [] and asked[-1].usage.completion_tokens == 14
    assert (lease.usage.input_tokens, lease.usage.output_tokens,
            lease.usage.cached_tokens) == _sent(llm_server) == (540, 23, 128)
    assert [r["tokens_out"] for r in lease.requests] == [9, 14]
    assert [r.body.get("stream_options") for r in llm_server.completions] == \
        [{"include_usage": True}] * 2


async def test_a_server_that_refuses_stream_options_gets_the_request_as_sent(llm_server):
    def strict(req):
        if "stream_options" in req.body:
            return error(400, "Unrecognized request argument supplied: stream_options")
        return text("fine", usage={"input": 50, "output": 4})

    llm_server.handler = strict
    async with ModelProxy(_upstream(llm_server)) as proxy:
        lease = proxy.lease("chat-trial")
        client = _client(proxy, lease.token)
        chunks = [c async for c in await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True)]
        await client.close()
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == "fine"
    assert ["stream_options" in r.body for r in llm_server.completions] == [True, False]
    # such a server streams no counts: the call is recorded, its tokens unknown (0)
    assert lease.calls == 1 and [r["status"] for r in lease.requests] == [200]
