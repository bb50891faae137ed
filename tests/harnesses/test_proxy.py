"""The model proxy on its own: real SDK clients -> skillforge's proxy -> the loopback server.

What a harness CLI in a container does, minus the container (tests/harnesses/
test_real_claude.py has that, with the real Claude Code): the client holds only a trial's
token; the server must see the real key; counts, the turn limit, expired tokens and the
contamination check are read off what really went over the wire.
"""

from __future__ import annotations

import anthropic
import openai
import pytest

from skillforge.harnesses.contamination import Markers, Scanner
from skillforge.harnesses.proxy import ModelProxy, Upstream
from tests.llm_server import error, text, tool_call

KEY = "sk-ant-real-key-0123456789abcdef"


def _anthropic(proxy: ModelProxy, token: str) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(api_key=token, base_url=proxy.base_url(), max_retries=0)


async def test_the_client_holds_a_token_and_the_server_sees_the_key(llm_server):
    llm_server.script(text("hello", usage={"input": 120, "output": 7}),
                      tool_call("Bash", {"command": "ls"}, usage={"input": 300, "output": 20}))
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1")
        client = _anthropic(proxy, lease.token)
        first = await client.messages.create(model="m", max_tokens=50,
                                             messages=[{"role": "user", "content": "hi"}])
        async with client.messages.stream(model="m", max_tokens=50, messages=[
                {"role": "user", "content": "list files"}]) as stream:
            second = await stream.get_final_message()
        await client.close()
    assert first.content[0].text == "hello" and second.content[0].name == "Bash"
    assert [r.headers.get("x-api-key") for r in llm_server.requests] == [KEY, KEY]
    assert all(lease.token not in str(r.headers) for r in llm_server.requests)
    # exactly what the server said it used, streamed or not
    assert (lease.usage.input_tokens, lease.usage.output_tokens) == (420, 27)
    assert lease.calls == 2 and [r["status"] for r in lease.requests] == [200, 200]


async def test_an_unknown_or_released_token_is_refused_and_nothing_is_forwarded(llm_server):
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1")
        proxy.release(lease)
        for token in (lease.token, KEY, "sk-skillforge-guess"):
            client = _anthropic(proxy, token)
            with pytest.raises(anthropic.AuthenticationError, match="unknown or expired"):
                await client.messages.create(model="m", max_tokens=5,
                                             messages=[{"role": "user", "content": "hi"}])
            await client.close()
    assert llm_server.requests == []


async def test_the_call_past_the_turn_limit_is_refused_and_the_trial_told(llm_server):
    llm_server.handler = lambda req: text("again")
    stopped: list[str] = []
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1", max_calls=3, on_limit=lambda: stopped.append("stop"))
        client = _anthropic(proxy, lease.token)
        for _ in range(3):
            await client.messages.create(model="m", max_tokens=5,
                                         messages=[{"role": "user", "content": "go"}])
        with pytest.raises(anthropic.BadRequestError, match="turn limit"):
            await client.messages.create(model="m", max_tokens=5,
                                         messages=[{"role": "user", "content": "go"}])
        await client.close()
    assert len(llm_server.requests) == 3 and lease.limit_reached and stopped == ["stop"]


async def test_an_openai_client_goes_through_with_the_base_urls_path(llm_server):
    llm_server.script(text("ok", usage={"input": 11, "output": 3}))
    upstream = Upstream(llm_server.openai_base_url, {"authorization": f"Bearer {KEY}"})
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1")
        assert proxy.base_url().endswith("/v1")
        client = openai.AsyncOpenAI(api_key=lease.token, base_url=proxy.base_url(),
                                    max_retries=0)
        done = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}])
        await client.close()
    assert done.choices[0].message.content == "ok"
    assert llm_server.requests[0].headers.get("authorization") == f"Bearer {KEY}"
    assert (lease.usage.input_tokens, lease.usage.output_tokens) == (11, 3)


async def test_an_upstream_error_passes_through_and_an_unreachable_one_is_502(llm_server):
    llm_server.script(error(529, "overloaded"))
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("t")
        client = _anthropic(proxy, lease.token)
        with pytest.raises(anthropic.APIStatusError) as raised:
            await client.messages.create(model="m", max_tokens=5,
                                         messages=[{"role": "user", "content": "hi"}])
        assert raised.value.status_code == 529
        await client.close()
    dead = Upstream("http://127.0.0.1:9", {"x-api-key": KEY})
    async with ModelProxy(dead) as proxy:
        lease = proxy.lease("t")
        client = _anthropic(proxy, lease.token)
        with pytest.raises(anthropic.APIStatusError, match="could not reach") as raised:
            await client.messages.create(model="m", max_tokens=5,
                                         messages=[{"role": "user", "content": "hi"}])
        assert raised.value.status_code == 502
        await client.close()


async def test_a_baseline_request_carrying_the_skill_is_caught_with_its_evidence(llm_server):
    llm_server.handler = lambda req: text("done")
    markers = Markers("csv-insights", "Summarises CSV and other delimited data files with a "
                      "bundled script", task="Use csv-insights to sum sales.csv")
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    async with ModelProxy(upstream) as proxy:
        clean = proxy.lease("clean", scanner=Scanner(markers))
        dirty = proxy.lease("dirty", scanner=Scanner(markers))
        for lease, listing in ((clean, "- pdf-tools: Reads PDF files"),
                               (dirty, "- csv-insights: Summarises CSV and other delimited "
                                       "data files with a bundled script")):
            client = _anthropic(proxy, lease.token)
            await client.messages.create(
                model="m", max_tokens=5, system="You are an agent.",
                messages=[{"role": "user", "content": [
                    {"type": "text", "text": f"Skills available:\n{listing}"},
                    {"type": "text", "text": "Use csv-insights to sum sales.csv"}]},
                    {"role": "assistant", "content": "I'll look in skills/csv-insights/ ."},
                    {"role": "user", "content": "go on"}])
            await client.close()
    # the task names the skill and the model looked for it: neither counts
    assert clean.contamination == []
    (hit,) = {h["marker"]: h for h in dirty.contamination}.values() or [None]
    assert hit["request"] == 1 and hit["where"] == "messages[0].content[0].text"
    assert "csv-insights" in hit["excerpt"]


async def test_a_finished_trials_open_request_is_dropped_not_waited_for(llm_server):
    # A CLI killed mid-call (or stopped at its limit) leaves a request waiting on the
    # provider: ending the trial drops it, and the run's proxy stops at once instead of
    # waiting for the answer (60 s here, minutes for a real model).
    import asyncio
    import time

    reply = text("late")
    reply.delay = 60.0
    llm_server.handler = lambda req: reply
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    t0 = time.monotonic()
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1")
        client = _anthropic(proxy, lease.token)
        call = asyncio.create_task(client.messages.create(
            model="m", max_tokens=5, messages=[{"role": "user", "content": "go"}]))
        while not llm_server.requests:
            await asyncio.sleep(0.05)
        assert len(lease.in_flight) == 1
        proxy.release(lease)
        with pytest.raises(anthropic.APIConnectionError):
            await asyncio.wait_for(call, 10)
        await client.close()
    assert lease.in_flight == set() and time.monotonic() - t0 < 15


async def test_a_client_gone_mid_stream_ends_its_request_quietly(llm_server, caplog):
    # A CLI killed at the trial timeout hangs up while its answer streams: the proxy stops
    # forwarding it, with no traceback on the user's terminal.
    import asyncio
    import logging

    import aiohttp

    reply = text("a long answer " * 50)
    reply.delay = 1.0
    llm_server.handler = lambda req: reply
    upstream = Upstream(llm_server.anthropic_base_url, {"x-api-key": KEY})
    caplog.set_level(logging.DEBUG)
    async with ModelProxy(upstream) as proxy:
        lease = proxy.lease("trial-1")
        async with aiohttp.ClientSession() as http:
            resp = await http.post(proxy.base_url() + "/v1/messages", headers={
                "x-api-key": lease.token, "anthropic-version": "2023-06-01"}, json={
                "model": "m", "max_tokens": 50, "stream": True,
                "messages": [{"role": "user", "content": "go"}]})
            assert (await resp.content.readany()).startswith(b"event: message_start")
            resp.connection.transport.abort()  # the CLI is killed
            resp.release()
        await asyncio.sleep(2.0)  # the rest of the answer arrives for nobody
    assert lease.requests[0]["status"] == 200 and lease.requests[0]["client_gone"]
    assert not [r for r in caplog.records if r.exc_info], caplog.text
