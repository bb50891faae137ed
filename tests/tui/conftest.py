"""Fixtures the workbench tests share."""

from __future__ import annotations

import pytest


@pytest.fixture
def provider(monkeypatch, llm_server):
    """The loopback LLM server as the workbench's configured provider (model judge-model)."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "judge-model")
    return llm_server
