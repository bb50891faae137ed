"""Which form of structured output a server accepts: tried in order, learnt from what the
server says, remembered for the process.

A structured answer can be asked for in several forms, and servers accept different ones:

- OpenAI wire: `json_schema` (`response_format: {"type": "json_schema", ...}`, constrained
  decoding on OpenAI, vLLM, Ollama...), then `tool` (one forced tool call whose parameters
  are the schema), then `json_object` (`{"type": "json_object", "schema": {...}}`, which
  llama-cpp-python's server grammar-constrains), then `plain` (nothing constrains the
  answer: the schema is stated in the system prompt and the caller validates the answer).
- Anthropic wire: `output_config` (`output_config.format`), then `tool`, then `plain`.

A server that cannot take a form says so in an error whose message names that form's
parameter. Whatever the HTTP status (400 or 422 usually; llama-cpp-python's server answers
500 "response_format.type: Input should be 'text' or 'json_object'"), the client moves to
the next form and asks again at once. The form that worked is remembered per (wire, base
URL, model) for the life of the process, so a second client to the same server starts in
it instead of paying for the refusals again.
"""

from __future__ import annotations

import json
import threading
from typing import Any

OPENAI_MODES: tuple[str, ...] = ("json_schema", "tool", "json_object", "plain")
ANTHROPIC_MODES: tuple[str, ...] = ("output_config", "tool", "plain")

# The words by which a server's error names the parameter of each form.
_NAMED_BY: dict[str, tuple[str, ...]] = {
    "json_schema": ("response_format", "json_schema"),
    "json_object": ("response_format", "json_object"),
    "output_config": ("output_config", "output_format"),
    "tool": ("tool_choice", "tools", "tool call", "tool use", "function call"),
    "plain": (),
}

_lock = threading.Lock()
_learnt: dict[tuple[str, str, str], str] = {}


def mode_key(wire: str, base_url: str | None, model: str) -> tuple[str, str, str]:
    """Which server and model a learnt mode belongs to (no base_url: the provider's API)."""
    return wire, (base_url or "").rstrip("/"), model


def learnt_mode(key: tuple[str, str, str], modes: tuple[str, ...]) -> str:
    """The form to start with: the one that worked before in this process, else the first."""
    with _lock:
        mode = _learnt.get(key)
    return mode if mode in modes else modes[0]


def next_mode(modes: tuple[str, ...], current: str, message: str) -> str | None:
    """The form to try after a server error `message` that names `current`'s parameter;
    None when the message is about something else, or there is no form left."""
    text = message.lower()
    if not any(word in text for word in _NAMED_BY.get(current, ())):
        return None
    at = modes.index(current) if current in modes else len(modes)
    return modes[at + 1] if at + 1 < len(modes) else None


def remember(key: tuple[str, str, str], mode: str) -> None:
    with _lock:
        _learnt[key] = mode


def forget_learnt_modes() -> None:
    """Forget every learnt form (tests start from a clean process state)."""
    with _lock:
        _learnt.clear()


def schema_instruction(schema: dict[str, Any]) -> str:
    """What the system prompt says when nothing but the prompt carries the schema."""
    return ("Answer with one JSON object and nothing else (no prose, no code fence). It must "
            "match this JSON schema:\n" + json.dumps(schema, ensure_ascii=False))


def with_instruction(system: str | None, schema: dict[str, Any]) -> str:
    """`system` followed by the schema instruction."""
    return "\n\n".join(p for p in (system, schema_instruction(schema)) if p)
