"""How long a prompt the model takes: `[provider] context_tokens`, what the server says, or
what it said when a prompt did not fit.

- `[provider] context_tokens` (or `SKILLFORGE_PROVIDER__CONTEXT_TOKENS`) wins.
- A local OpenAI-compatible server is asked once per process: llama.cpp's `GET /props`
  (`default_generation_settings.n_ctx`), or the model's entry in `GET /v1/models`
  (vLLM's `max_model_len`, LM Studio's `max_context_length`, `context_length`).
- llama-cpp-python's server says nothing of its `--n_ctx` until a prompt is too long; its
  error ("maximum context length is 8192 tokens ... you requested 17919") is read by the
  structured-answer loop, which fits the prompt again and records the window here.
- Hosted APIs (api.openai.com, Anthropic) hold far more than any skill: nothing is asked.

Token counts for sizing are tiktoken's cl100k counts scaled by TOKENIZER_SLACK: small
local models' tokenizers (SmolLM2, Llama, Qwen) cut Markdown and code finer than cl100k.
"""

from __future__ import annotations

import json
import math
import threading
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlparse

PROBE_TIMEOUT_S = 2.0
TOKENIZER_SLACK = 1.2
_HOSTED = ("api.openai.com", "api.anthropic.com")

_lock = threading.Lock()
# (base_url, model) -> the window, or None when the server would not say.
_known: dict[tuple[str | None, str], int | None] = {}


def remembered(base_url: str | None, model: str) -> tuple[bool, int | None]:
    with _lock:
        key = (base_url, model)
        return key in _known, _known.get(key)


def remember(base_url: str | None, model: str, window: int | None) -> None:
    with _lock:
        _known[(base_url, model)] = window


def forget_all() -> None:
    """For tests: start from nothing known."""
    with _lock:
        _known.clear()


def is_local(base_url: str | None) -> bool:
    if not base_url:
        return False
    host = urlparse(base_url).hostname or ""
    return host not in _HOSTED


def probe_window(base_url: str, model: str, api_key: str = "") -> int | None:
    """The context window the server at `base_url` states for `model`, or None."""
    root = base_url.rstrip("/")
    root = root[: -len("/v1")] if root.endswith("/v1") else root
    props = _get_json(root + "/props", api_key)
    if isinstance(props, dict):
        settings = props.get("default_generation_settings")
        for value in ((settings or {}).get("n_ctx") if isinstance(settings, dict) else None,
                      props.get("n_ctx")):
            if isinstance(value, int) and value > 0:
                return value
    models = _get_json(base_url.rstrip("/") + "/models", api_key)
    entries = models.get("data") if isinstance(models, dict) else None
    if not isinstance(entries, list):
        return None
    mine = [e for e in entries if isinstance(e, dict) and e.get("id") == model]
    for entry in mine or (entries if len(entries) == 1 else []):
        if not isinstance(entry, dict):
            continue
        meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
        for value in (entry.get("max_model_len"), entry.get("max_context_length"),
                      entry.get("context_length"), meta.get("n_ctx")):
            if isinstance(value, int) and value > 0:
                return value
    return None


def _get_json(url: str, api_key: str) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_S) as resp:  # noqa: S310 - the configured server
            return json.loads(resp.read(1_000_000))
    except (OSError, ValueError, urllib.error.URLError):
        return None


def count_for_sizing(text: str) -> int:
    """Tokens of `text` as a small local model might count them (cl100k x TOKENIZER_SLACK)."""
    from linters.text.tokens import count_plain

    return math.ceil(count_plain(text) * TOKENIZER_SLACK)
