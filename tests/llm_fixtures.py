"""Pytest fixtures around the loopback LLM server (tests/llm_server.py).

Import them into a test package's conftest.py:

    from tests.llm_fixtures import clean_provider_env, llm_server, make_client  # noqa: F401

- `llm_server`: a started `LLMServer`, stopped after the test. The structured-output forms
  the providers learnt in this process are forgotten first (a new server may reuse a port).
- `clean_provider_env`: removes ANTHROPIC_*, OPENAI_* and SKILLFORGE_PROVIDER__* variables so
  the developer's own keys never reach a test (autouse it in your conftest if you like).
- `make_client(wire, model="test-model", **options)`: a real provider client ("openai" or
  "anthropic") pointed at `llm_server`, whose retry waits are recorded in
  `client.policy.waits` instead of slept (pass `sleep=asyncio.sleep` to really wait).
  An async fixture (use it from async tests); clients are closed after the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.llm_server import LLMServer

PROVIDER_ENV_PREFIXES = ("ANTHROPIC_", "OPENAI_", "SKILLFORGE_PROVIDER__", "SKILLFORGE_JUDGE__")


@pytest.fixture
def llm_server() -> Iterator[LLMServer]:
    from skillforge.providers.structured_modes import forget_learnt_modes

    forget_learnt_modes()
    server = LLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def clean_provider_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(PROVIDER_ENV_PREFIXES):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture
async def make_client(llm_server: LLMServer):
    from skillforge.providers.base import ClientOptions
    from skillforge.providers.retry import RetryPolicy

    made: list[Any] = []

    async def no_sleep(_seconds: float) -> None:
        return None

    def make(wire: str, model: str = "test-model", *, sleep: Any = None,
             max_retries: int = 3, **options: Any):
        base_url = llm_server.anthropic_base_url if wire == "anthropic" else llm_server.openai_base_url
        opts = ClientOptions(model=model, api_key="test-key", base_url=base_url,
                             max_retries=max_retries, **options)
        policy = RetryPolicy(max_retries=max_retries, sleep=sleep or no_sleep)
        # Each SDK is imported when a test first asks for its wire (anthropic's takes ~1.3 s
        # of CPU), so a worker that only speaks OpenAI never loads it.
        if wire == "anthropic":
            from skillforge.providers.anthropic_provider import AnthropicClient as cls
        else:
            from skillforge.providers.openai_provider import OpenAIClient as cls
        client = cls(opts, policy=policy)
        made.append(client)
        return client

    yield make
    for client in made:  # close connections inside the test's event loop
        await client.aclose()
