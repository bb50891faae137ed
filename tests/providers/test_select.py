"""Choosing a provider: flags > [provider] settings > environment, and the exact message
when nothing is configured."""

from __future__ import annotations

import pytest

from skillforge.config import load_settings
from skillforge.models.config import ProviderConfig, Settings
from skillforge.models.llm import ProviderNotConfigured
from skillforge.providers import resolve_provider, select_provider
from skillforge.providers.select import NOT_CONFIGURED, PLACEHOLDER_KEY


def settings(**provider) -> Settings:
    return Settings(provider=ProviderConfig(**provider))


def test_nothing_configured_says_exactly_what_to_set():
    with pytest.raises(ProviderNotConfigured) as info:
        resolve_provider(Settings(), environ={})
    msg = str(info.value)
    assert msg == NOT_CONFIGURED
    for needed in ("ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "OPENAI_BASE_URL=",
                   "SKILLFORGE_PROVIDER__MODEL=", "[provider]", 'name = "openai"',
                   "model = ", "base_url = ", "docs/providers.md"):
        assert needed in msg


def test_anthropic_key_picks_anthropic_with_its_default_model():
    c = resolve_provider(Settings(), environ={"ANTHROPIC_API_KEY": "sk-ant-x"})
    assert (c.name, c.model, c.base_url, c.key_source) == (
        "anthropic", "claude-sonnet-5-5", None, "ANTHROPIC_API_KEY")
    assert "sk-ant-x" not in repr(c)


def test_openai_key_picks_openai():
    c = resolve_provider(Settings(), environ={"OPENAI_API_KEY": "sk-x"})
    assert (c.name, c.model) == ("openai", "gpt-5.5")


def test_with_both_keys_anthropic_comes_first_unless_configured():
    env = {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}
    assert resolve_provider(Settings(), environ=env).name == "anthropic"
    assert resolve_provider(settings(name="openai"), environ=env).name == "openai"
    # A flag beats the configuration.
    assert resolve_provider(settings(name="openai"), provider="anthropic", environ=env).name == "anthropic"


def test_model_names_pick_their_provider_when_its_key_is_set():
    env = {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}
    assert resolve_provider(Settings(), model="gpt-4o", environ=env).name == "openai"
    assert resolve_provider(Settings(), model="claude-opus-4-5", environ=env).name == "anthropic"


def test_model_prefix_names_the_provider_and_keeps_ollama_tags():
    env = {"ANTHROPIC_API_KEY": "a", "OPENAI_BASE_URL": "http://localhost:11434/v1"}
    c = resolve_provider(Settings(), model="openai:llama3.1:8b", environ=env)
    assert (c.name, c.model, c.base_url) == ("openai", "llama3.1:8b", "http://localhost:11434/v1")
    assert c.api_key == PLACEHOLDER_KEY


def test_a_local_server_needs_a_model_name():
    env = {"OPENAI_BASE_URL": "http://localhost:8000/v1"}
    with pytest.raises(ProviderNotConfigured) as info:
        resolve_provider(Settings(), environ=env)
    assert "http://localhost:8000/v1" in str(info.value)
    assert "SKILLFORGE_PROVIDER__MODEL=" in str(info.value)
    c = resolve_provider(settings(model="qwen2.5-coder"), environ=env)
    assert (c.name, c.model, c.api_key) == ("openai", "qwen2.5-coder", PLACEHOLDER_KEY)


def test_skillforge_provider_variables_go_through_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"SKILLFORGE_PROVIDER__NAME": "openai", "SKILLFORGE_PROVIDER__MODEL": "mistral",
           "SKILLFORGE_PROVIDER__BASE_URL": "http://127.0.0.1:1234/v1"}
    s = load_settings(environ=env)
    client = select_provider(s, environ={})
    from skillforge.providers.openai_provider import OpenAIClient  # the SDKs load late

    assert isinstance(client, OpenAIClient)
    assert (client.model, client.base_url) == ("mistral", "http://127.0.0.1:1234/v1")


def test_skillforge_toml_provider_section(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "skillforge.toml").write_text(
        '[provider]\nname = "anthropic"\nmodel = "claude-haiku-4-5"\ntimeout_sec = 30\n'
        'max_retries = 2\n')
    s = load_settings()
    client = select_provider(s, environ={"ANTHROPIC_API_KEY": "k"})
    from skillforge.providers.anthropic_provider import AnthropicClient  # the SDKs load late

    assert isinstance(client, AnthropicClient)
    assert client.model == "claude-haiku-4-5"
    assert client.options.timeout_sec == 30 and client.policy.max_retries == 2


def test_anthropic_base_url_is_honoured():
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://proxy.internal:8080"}
    assert resolve_provider(Settings(), environ=env).base_url == "http://proxy.internal:8080"
    # ...and alone it means an Anthropic-compatible server with no key.
    c = resolve_provider(Settings(), model="m", environ={"ANTHROPIC_BASE_URL": "http://x:1"})
    assert (c.name, c.api_key) == ("anthropic", PLACEHOLDER_KEY)


def test_config_base_url_beats_the_environment():
    env = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://from-env/v1"}
    c = resolve_provider(settings(base_url="http://from-config/v1", model="m"), environ=env)
    assert c.base_url == "http://from-config/v1"


def test_a_chosen_provider_without_key_says_which_variable():
    with pytest.raises(ProviderNotConfigured) as info:
        resolve_provider(settings(name="anthropic"), environ={"OPENAI_API_KEY": "o"})
    assert "ANTHROPIC_API_KEY is not set" in str(info.value)
    assert "ANTHROPIC_BASE_URL=" in str(info.value)


def test_unknown_provider_flag():
    with pytest.raises(ProviderNotConfigured, match="unknown provider 'gemini'"):
        resolve_provider(Settings(), provider="gemini", environ={"OPENAI_API_KEY": "k"})
