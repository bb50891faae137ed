"""A cancelled request stops llama-cpp-python's server (issue 37, item 9).

The server answers one request at a time, and notices a client that hung up only between
streamed chunks: an unstreamed request it computes to the end for nobody, and the next
request waits behind it. The provider streams (skillforge/providers/openai_stream.py), so
the judge's request cancelled in the workbench (or by Ctrl+C) frees the server at once.

Measured on the test machine (2 cores shared with other jobs, load ~10): the story below
runs 554 tokens at temperature 0 and takes 26 s uncancelled; cancelled 2 s in, the next
request answered 34 s later with the unstreamed request, 0.5-1.5 s with the streamed one.
The request goes through `OpenAIClient.complete`, as the judge's do (a plain prompt here:
the judge's schema makes the server build a grammar before the first token, minutes on
this machine, which no cancel interrupts; the server stops at the first token after it).
"""

from __future__ import annotations

import asyncio
import time

import pytest

from skillforge.models.llm import UserMessage
from skillforge.providers import openai_stream
from skillforge.providers.base import ClientOptions
from skillforge.providers.openai_provider import OpenAIClient

pytestmark = pytest.mark.timeout(300)

# A prompt SmolLM2 answers at length (554 tokens), cut by a budget that takes it many
# seconds (so it runs to max_tokens, and the rest of the run is known); the follow-up asks
# for a few tokens.
TALK = "Write a very long story about a dragon, with many chapters."
LONG_TOKENS = 500
FIRST_TOKENS_WAIT_S = 30.0
PROMPT_S = 6.0  # what a short request may take, queue aside (0.5-1.5 s here)


async def test_a_cancelled_request_frees_the_server_for_the_next(llama_server, monkeypatch):
    seen: list[float] = []
    add = openai_stream._add

    def watch(answer, chunk):  # the product's own chunk handling, timed
        carried = add(answer, chunk)
        seen.extend([time.monotonic()] * carried)
        return carried

    monkeypatch.setattr(openai_stream, "_add", watch)
    options = ClientOptions(model=llama_server.model, api_key="sk-local",
                            base_url=llama_server.base_url, timeout_sec=240, max_retries=0)
    async with OpenAIClient(options) as talker, OpenAIClient(options) as asker:
        # The server idle first: a generation an earlier test abandoned may still run.
        await asker.complete([UserMessage(content="Say hi.")], max_tokens=1)
        talking = asyncio.create_task(talker.complete([UserMessage(content=TALK)],
                                                      max_tokens=LONG_TOKENS))
        # Cancelled once tokens come (an unstreamed request shows none: cancelled then).
        deadline = time.monotonic() + FIRST_TOKENS_WAIT_S
        while len(seen) < 10 and time.monotonic() < deadline and not talking.done():
            await asyncio.sleep(0.05)
        assert not talking.done(), "the long request ended before it could be cancelled"
        talking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await talking

        started = time.monotonic()
        hello = await asker.complete([UserMessage(content="Say hi.")], max_tokens=4)
        follow_up = time.monotonic() - started

    assert hello.usage.output_tokens > 0
    print(f"follow-up answered in {follow_up:.2f}s after the cancel")
    assert follow_up < PROMPT_S, f"the follow-up waited {follow_up:.1f}s behind the abandoned one"
    # And the abandoned generation had far longer to run: the rest of its tokens at the rate
    # they came.
    assert len(seen) >= 10, "no tokens were streamed"
    rate = (len(seen) - 1) / max(seen[-1] - seen[0], 1e-3)
    rest = (LONG_TOKENS - len(seen)) / rate
    print(f"{rate:.0f} tokens/s: the abandoned request had ~{rest:.0f}s left")
    assert follow_up < rest / 3
