"""Choosing the provider and model: flags > [provider] settings > environment.

- Flags: `provider` ("anthropic" | "openai") and `model`; a model may carry its provider as
  a prefix, `anthropic:claude-sonnet-4-5` or `openai:llama3.1:8b` (only the first colon
  after a known provider name counts, so Ollama tags survive).
- Settings: `[provider] name, model, base_url` from skillforge.toml or the
  `SKILLFORGE_PROVIDER__NAME/MODEL/BASE_URL` variables (skillforge.config merges those).
- Environment, in this order: `ANTHROPIC_API_KEY` -> Anthropic, `OPENAI_API_KEY` ->
  OpenAI, `OPENAI_BASE_URL` -> an OpenAI-compatible server, `ANTHROPIC_BASE_URL` -> an
  Anthropic-compatible server. A model named `claude-*` picks Anthropic, and `gpt-*` /
  `o<digit>*` picks OpenAI, when that provider's key is set.

API keys come only from the environment (never from skillforge.toml). A server with a
base_url but no key (a local server) gets a placeholder key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skillforge.models.config import Settings
from skillforge.models.llm import ProviderNotConfigured
from skillforge.providers.base import BaseClient, ClientOptions

PROVIDERS = ("anthropic", "openai")
KEY_VARS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
URL_VARS = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
# Current general-purpose models (November 2026); [provider] model picks another.
DEFAULT_MODELS = {"anthropic": "claude-sonnet-5-5", "openai": "gpt-5.5"}
# Local servers ignore the key, but the SDKs insist on one.
PLACEHOLDER_KEY = "skillforge-no-key"

NOT_CONFIGURED = """\
No LLM provider is configured (needed by the judge, eval drafting and trials; lint works without).
Set one of these in the environment:
  ANTHROPIC_API_KEY=...                      Anthropic (default model claude-sonnet-5-5)
  OPENAI_API_KEY=...                         OpenAI (default model gpt-5.5)
  OPENAI_BASE_URL=http://localhost:11434/v1  an OpenAI-compatible server (Ollama, vLLM,
    plus SKILLFORGE_PROVIDER__MODEL=<model>  llama.cpp, LM Studio); no key needed
or put this in skillforge.toml (API keys stay in the environment):
  [provider]
  name = "openai"                            # or "anthropic"
  model = "llama3.1"                         # the model the server serves
  base_url = "http://localhost:11434/v1"     # omit for api.openai.com / api.anthropic.com
See docs/providers.md."""


@dataclass(frozen=True)
class ProviderChoice:
    """Which provider, model and endpoint a client will use, and why."""

    name: str
    model: str
    base_url: str | None
    api_key: str
    key_source: str  # "ANTHROPIC_API_KEY" or "placeholder (local server, no key)"
    reason: str  # how the provider was chosen, for `skillforge doctor`

    def __repr__(self) -> str:  # never print the key
        return (f"ProviderChoice(name={self.name!r}, model={self.model!r}, "
                f"base_url={self.base_url!r}, key_source={self.key_source!r})")


def split_model(model: str | None) -> tuple[str | None, str | None]:
    """"openai:llama3.1:8b" -> ("openai", "llama3.1:8b"); "llama3.1:8b" -> (None, "llama3.1:8b")."""
    if model:
        head, sep, rest = model.partition(":")
        if sep and head in PROVIDERS and rest:
            return head, rest
    return None, model


def _guess_from_model(model: str | None, env: Mapping[str, str]) -> str | None:
    if not model:
        return None
    if model.startswith("claude") and (env.get(KEY_VARS["anthropic"]) or env.get(URL_VARS["anthropic"])):
        return "anthropic"
    if re.match(r"(gpt-|o\d)", model) and env.get(KEY_VARS["openai"]):
        return "openai"
    return None


def provider_label(settings: Settings) -> str:
    """What the status bar shows: "anthropic · claude-…", or that nothing is configured."""
    try:
        choice = resolve_provider(settings)
    except ProviderNotConfigured:
        return "no LLM provider (F1 for what to set)"
    where = f" @ {choice.base_url}" if choice.base_url else ""
    return f"{choice.name} · {choice.model}{where}"


def resolve_provider(settings: Settings, model: str | None = None, provider: str | None = None,
                     environ: Mapping[str, str] | None = None) -> ProviderChoice:
    """Decide provider, model, base_url and key; raise ProviderNotConfigured saying what to set."""
    env = os.environ if environ is None else environ
    cfg = settings.provider
    prefixed, model = split_model(model)
    if provider is not None and provider not in PROVIDERS:
        raise ProviderNotConfigured(f"unknown provider {provider!r}; use one of {', '.join(PROVIDERS)}")
    name, reason = None, ""
    for candidate, why in ((prefixed, f"model prefix {prefixed}:"), (provider, "--provider flag"),
                           (cfg.name, "[provider] name")):
        if candidate:
            name, reason = candidate, why
            break
    if name is None and (guess := _guess_from_model(model, env)):
        name, reason = guess, f"model name {model!r} and {KEY_VARS[guess]}"
    if name is None:
        for var, prov in ((KEY_VARS["anthropic"], "anthropic"), (KEY_VARS["openai"], "openai"),
                          (URL_VARS["openai"], "openai"), (URL_VARS["anthropic"], "anthropic")):
            if env.get(var):
                name, reason = prov, f"{var} in the environment"
                break
    if name is None and cfg.base_url:
        name, reason = "openai", "[provider] base_url (OpenAI-compatible)"
    if name is None:
        raise ProviderNotConfigured(NOT_CONFIGURED)

    own_cfg = cfg.name in (None, name)
    base_url = (cfg.base_url if own_cfg else None) or env.get(URL_VARS[name]) or None
    key = env.get(KEY_VARS[name]) or ""
    key_source = KEY_VARS[name]
    local = not key
    if local:
        if not base_url:
            raise ProviderNotConfigured(
                f"The {name} provider is selected ({reason}) but {KEY_VARS[name]} is not set.\n"
                f"Set {KEY_VARS[name]}=..., or point at a local server with "
                f"{URL_VARS[name]}=http://localhost:PORT{'/v1' if name == 'openai' else ''} "
                "(or [provider] base_url in skillforge.toml).\n" + _see_docs()
            )
        key, key_source = PLACEHOLDER_KEY, "placeholder (local server, no key set)"
    chosen_model = model or (cfg.model if own_cfg else None)
    if not chosen_model:
        # A local server (no key) serves models we cannot guess; with a key, base_url is
        # usually a proxy for the real API and its default model is a fair guess.
        if local and base_url and not _is_official(name, base_url):
            raise ProviderNotConfigured(
                f"The {name} provider points at {base_url} ({reason}), but no model is set.\n"
                "Name the model that server serves: SKILLFORGE_PROVIDER__MODEL=<model>, or "
                "[provider] model = \"<model>\" in skillforge.toml, or --model <model>.\n"
                + _see_docs()
            )
        chosen_model = DEFAULT_MODELS[name]
    return ProviderChoice(name, chosen_model, base_url, key, key_source, reason)


def _is_official(name: str, base_url: str) -> bool:
    return ("api.openai.com" if name == "openai" else "api.anthropic.com") in base_url


def _see_docs() -> str:
    return "See docs/providers.md for Ollama, vLLM, llama.cpp and LM Studio."


def client_for(choice: ProviderChoice, settings: Settings, **kw: Any) -> BaseClient:
    """Build the client for a resolved choice (kw: `policy`, `on_retry`)."""
    cfg = settings.provider
    options = ClientOptions(
        model=choice.model, api_key=choice.api_key, base_url=choice.base_url,
        max_tokens=cfg.max_tokens, temperature=cfg.temperature, timeout_sec=cfg.timeout_sec,
        max_retries=cfg.max_retries, prices=cfg.prices, key_source=choice.key_source,
        context_tokens=cfg.context_tokens,
    )
    if choice.name == "anthropic":
        from skillforge.providers.anthropic_provider import AnthropicClient

        return AnthropicClient(options, **kw)
    from skillforge.providers.openai_provider import OpenAIClient

    return OpenAIClient(options, **kw)


def select_provider(settings: Settings, model: str | None = None, provider: str | None = None,
                    *, environ: Mapping[str, str] | None = None, **kw: Any) -> BaseClient:
    """The ModelClient for these settings and flags (see the module docstring for the order)."""
    return client_for(resolve_provider(settings, model, provider, environ), settings, **kw)
