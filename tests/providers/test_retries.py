"""One retry policy: backoff with jitter, retry-after honoured, clear errors after the last
try, timeouts, and cancellation that really stops the HTTP request."""

from __future__ import annotations

import asyncio
import socket
import time
from email.utils import formatdate

import pytest

from skillforge.models.llm import ProviderError, UserMessage
from skillforge.providers.base import ClientOptions
from skillforge.providers.retry import RetryPolicy, parse_retry_after
from tests.llm_server import error, raw, text

WIRES = ["openai", "anthropic"]
HI = [UserMessage(content="hi")]


@pytest.mark.parametrize("wire", WIRES)
async def test_429_retry_after_is_honoured_through_the_real_sdk(llm_server, make_client, wire):
    llm_server.script(error(429, "slow down", headers={"retry-after": "1"}), text("finally"))
    client = make_client(wire, sleep=asyncio.sleep)

    started = time.monotonic()
    out = await client.complete(HI)
    waited = time.monotonic() - started

    assert out.text == "finally"
    assert len(llm_server.requests) == 2
    assert waited >= 1.0, "the client retried before the server's retry-after"
    assert waited < 3.0
    gap = llm_server.requests[1].received_at - llm_server.requests[0].received_at
    assert gap >= 1.0


@pytest.mark.parametrize("wire", WIRES)
async def test_retry_after_ms_wins_over_retry_after(llm_server, make_client, wire):
    llm_server.script(error(429, headers={"retry-after-ms": "2500", "retry-after": "60"}),
                      text("ok"))
    client = make_client(wire)
    await client.complete(HI)
    [wait] = client.policy.waits
    assert 2.5 <= wait <= 2.5 + 0.35


@pytest.mark.parametrize("wire", WIRES)
async def test_500_then_success(llm_server, make_client, wire):
    llm_server.script(error(500, "internal"), error(503, "unavailable"), text("recovered"))
    client = make_client(wire)
    assert (await client.complete(HI)).text == "recovered"
    assert len(llm_server.requests) == 3
    assert len(client.policy.waits) == 2


async def test_anthropic_overloaded_529_is_retried(llm_server, make_client):
    llm_server.script(error(529, "Overloaded"), text("ok"))
    assert (await make_client("anthropic").complete(HI)).text == "ok"


@pytest.mark.parametrize("wire", WIRES)
async def test_gives_up_after_the_last_try_with_a_clear_error(llm_server, make_client, wire):
    llm_server.script(*[error(429, "rate limited, sorry")] * 3)
    client = make_client(wire, model="judge-model", max_retries=2)

    with pytest.raises(ProviderError) as info:
        await client.complete(HI)

    err = info.value
    assert (err.provider, err.model, err.status, err.attempts) == (wire, "judge-model", 429, 3)
    msg = str(err)
    assert "HTTP 429" in msg and "after 3 attempts" in msg and "rate limited, sorry" in msg
    assert "max_retries" in msg  # says what to do
    assert len(llm_server.requests) == 3


@pytest.mark.parametrize("wire", WIRES)
async def test_client_errors_are_not_retried(llm_server, make_client, wire):
    llm_server.script(error(401, "invalid x-api-key"))
    client = make_client(wire, key_source="OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY")
    with pytest.raises(ProviderError) as info:
        await client.complete(HI)
    assert info.value.status == 401 and info.value.attempts == 1
    assert ("OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY") in str(info.value)
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize("wire", WIRES)
async def test_timeout_then_success(llm_server, make_client, wire):
    llm_server.script(text("too late", delay=3.0), text("in time"))
    client = make_client(wire, timeout_sec=0.5)
    started = time.monotonic()
    assert (await client.complete(HI)).text == "in time"
    assert time.monotonic() - started < 2.5
    assert llm_server.requests[0].disconnected.wait(2), "the timed-out request was not closed"


async def test_timeouts_until_the_end_give_a_clear_error(llm_server, make_client):
    llm_server.script(text("late", delay=3.0), text("late", delay=3.0))
    client = make_client("openai", timeout_sec=0.3, max_retries=1)
    with pytest.raises(ProviderError) as info:
        await client.complete(HI)
    assert "timed out" in str(info.value) and "timeout_sec" in str(info.value)
    assert info.value.attempts == 2


async def test_connection_refused_names_the_server():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    waits: list[float] = []

    async def record(sec: float) -> None:
        waits.append(sec)

    from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

    client = OpenAIClient(ClientOptions(model="m", api_key="k", base_url=url, max_retries=2),
                          policy=RetryPolicy(max_retries=2, sleep=record))
    with pytest.raises(ProviderError) as info:
        await client.complete(HI)
    assert url in str(info.value) and "is running" in str(info.value)
    assert len(waits) == 2


@pytest.mark.parametrize("wire", WIRES)
async def test_cancelling_the_task_stops_the_http_request(llm_server, make_client, wire):
    llm_server.script(text("never seen", delay=30.0))
    client = make_client(wire)
    task = asyncio.create_task(client.complete(HI))
    while not llm_server.requests:  # wait until the server holds the request
        await asyncio.sleep(0.01)

    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 1.0
    # The connection was closed, so the server stopped waiting for us.
    assert await asyncio.to_thread(llm_server.requests[0].disconnected.wait, 2.0)


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("content_type", ["text/html", "application/json"])
async def test_a_body_that_is_not_json_is_a_clear_error(llm_server, make_client, wire,
                                                        content_type):
    llm_server.script(raw(200, "<html>proxy login</html>", headers={"content-type": content_type}))
    with pytest.raises(ProviderError, match="LLM API|not JSON") as info:
        await make_client(wire).complete(HI)
    assert info.value.attempts == 1


def test_backoff_grows_with_jitter_and_a_cap():
    low = RetryPolicy(base=0.5, cap=4.0, rng=lambda: 0.0)
    high = RetryPolicy(base=0.5, cap=4.0, rng=lambda: 1.0)
    assert [low.delay(i, None) for i in range(5)] == [0.25, 0.5, 1.0, 2.0, 2.0]
    assert [high.delay(i, None) for i in range(5)] == [0.5, 1.0, 2.0, 4.0, 4.0]
    assert low.delay(3, 7.0) == 7.0  # the server's retry-after is a floor


def test_parse_retry_after_forms():
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    now = time.time()
    in_ten = formatdate(now + 10, usegmt=True)
    assert 8.0 <= parse_retry_after({"retry-after": in_ten}, now=now) <= 10.5
    assert parse_retry_after({"retry-after": formatdate(now - 60, usegmt=True)}) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


async def test_a_retry_after_longer_than_we_wait_fails_at_once(llm_server, make_client):
    llm_server.script(error(429, "quota", headers={"retry-after": "3600"}))
    client = make_client("openai")
    with pytest.raises(ProviderError, match="asked to wait 3600s"):
        await client.complete(HI)
    assert client.policy.waits == []


async def test_the_servers_should_retry_header_wins(llm_server, make_client):
    llm_server.script(error(500, "bad state", headers={"x-should-retry": "false"}),
                      error(400, "try again", headers={"x-should-retry": "true"}), text("ok"))
    client = make_client("anthropic")
    with pytest.raises(ProviderError, match="HTTP 500"):
        await client.complete(HI)
    assert (await client.complete(HI)).text == "ok"
    assert len(llm_server.requests) == 3
