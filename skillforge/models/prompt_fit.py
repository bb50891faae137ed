"""Prompts sized to the model's context: shrink the long parts, keep the rest, say what went.

A local model often has 8,192 tokens of context; a skill with its references, or a trial's
trajectory, is longer. The prompt builders (the rubric judge, drafting, refining, trigger
drafting, the trial judge) take a `Fit`: every size limit they apply goes through
`fit.cap(limit)`, and every cut they make is told with `fit.note(...)`, both in the prompt
(the model knows what it was not shown) and in the result (the author knows too).

`fit_prompt` renders at full size and, when the estimate does not fit the window, again with
the limits scaled down until it does. SKILL.md is the one text a builder keeps whole while
anything else can give way (builders pass `keep=True` for it).

Token counts are estimates: the client's own counter when it has one (cl100k, scaled for
tokenizers that cut finer), else UTF-8 bytes / 3. When a server still answers "maximum
context length is N ... you requested M tokens", `context_overflow` reads N and M, and the
caller fits again with the window the server stated and the ratio between its count and
ours.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Room kept free besides the completion: chat-template tokens, the tool or format wrapper a
# server adds around a schema, and the error of the estimate.
MARGIN_TOKENS = 96
SAFETY = 0.9
# Below this share of its full size a prompt is no use to a judge: say so instead.
MIN_SCALE = 0.02
MAX_ROUNDS = 12
# The smallest answer worth asking for, and the share of a small window an answer may take.
MIN_COMPLETION = 512
COMPLETION_SHARE = 4

UserPrompt = str | Callable[["Fit"], str]


class PromptTooLarge(ValueError):
    """Even with every part shrunk, the prompt does not fit the model's context window."""


@dataclass
class Fit:
    """One rendering's size limits (`scale` of the builders' own) and what it cut."""

    scale: float = 1.0
    notes: list[str] = field(default_factory=list)

    def cap(self, limit: int, *, keep: bool = False) -> int:
        """`limit` scaled to this rendering; `keep` leaves it whole (SKILL.md)."""
        return limit if keep else max(0, int(limit * self.scale))

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


@dataclass
class Fitted:
    """A prompt that fits: its text, what was cut and the estimate it was judged by."""

    text: str
    left_out: list[str]
    tokens: int  # the estimate of the whole request (system, schema and user message)
    window: int | None
    completion: int  # the answer's token budget within that window
    schema: dict[str, Any] | None = None  # the schema to send (compact when space is short)


def estimate_tokens(text: str) -> int:
    """Tokens of `text` when no tokenizer is at hand: UTF-8 bytes / 3, rounded up (English
    prose runs about 4 bytes a token, code and non-Latin scripts fewer)."""
    return math.ceil(len(text.encode("utf-8", "replace")) / 3)


def completion_budget(asked: int, window: int | None) -> int:
    """The answer's budget: what was asked, but at most a quarter of a known window (never
    under MIN_COMPLETION), so the prompt keeps the rest."""
    if window is None:
        return asked
    return max(min(asked, window // COMPLETION_SHARE), min(MIN_COMPLETION, window // 2))


def fit_prompt(user: UserPrompt, *, system: str, schema: dict[str, Any] | None,
               window: int | None, completion: int,
               count: Callable[[str], int] = estimate_tokens, ratio: float = 1.0) -> Fitted:
    """Render `user` (a text, or a builder of one) so that system, schema, prompt and
    `completion` tokens fit `window`; `ratio` scales our counts to the server's."""
    if isinstance(user, str):
        return Fitted(user, [], _total(count, system, schema, user, ratio), window, completion,
                      schema)
    fit = Fit()
    text = user(fit)
    total = _total(count, system, schema, text, ratio)
    room = window - completion - MARGIN_TOKENS if window is not None else 0
    if window is None or total <= room:
        return Fitted(text, list(fit.notes), total, window, completion, schema)
    # The schema's descriptions repeat what the system prompt says: a small window drops them.
    schema = compact_schema(schema)
    total = _total(count, system, schema, text, ratio)
    fixed = total - math.ceil(count(text) * ratio)
    last = None
    for _ in range(MAX_ROUNDS):
        if total <= room:
            return Fitted(text, list(fit.notes), total, window, completion, schema)
        if fit.scale <= MIN_SCALE:
            break  # the smallest rendering was tried
        # The kept text (SKILL.md) is in the user tokens and does not shrink, and a limit
        # bites only once it is under the text it limits: when a round changed nothing,
        # halve the scale instead of creeping down by the share.
        share = (room - fixed) / max(1, total - fixed)
        step = 0.5 if total == last else min(max(share, 0.0) * SAFETY, SAFETY)
        last = total
        fit = Fit(scale=max(MIN_SCALE, fit.scale * step))
        text = user(fit)
        total = _total(count, system, schema, text, ratio)
    if total <= room:
        return Fitted(text, list(fit.notes), total, window, completion, schema)
    raise PromptTooLarge(
        f"the prompt needs about {total:,} tokens and the answer {completion:,}, but the "
        f"model's context holds {window:,}: even with the skill's files and the trajectory "
        "cut down it does not fit. Use a model with a longer context (llama.cpp: --ctx-size; "
        "llama-cpp-python: --n_ctx; then set [provider] context_tokens), or a shorter "
        "SKILL.md")


def compact_schema(schema: Any) -> Any:
    """`schema` without its `description` texts (the constraints stay, so a server decoding
    under it still cannot give an answer the validation refuses)."""
    if isinstance(schema, dict):
        return {k: compact_schema(v) for k, v in schema.items()
                if not (k == "description" and isinstance(v, str))}
    if isinstance(schema, list):
        return [compact_schema(v) for v in schema]
    return schema


def _total(count: Callable[[str], int], system: str, schema: dict[str, Any] | None,
           text: str, ratio: float) -> int:
    parts = [system, text] + ([json.dumps(schema, separators=(",", ":"))] if schema else [])
    return math.ceil(sum(count(p) for p in parts) * ratio) + MARGIN_TOKENS


# "This model's maximum context length is 8192 tokens. However, you requested 17919 tokens
# (17919 in the messages, 0 in the completion)" (OpenAI, llama-cpp-python, vLLM);
# "Requested tokens (17919) exceed context window of 8192" (llama-cpp-python);
# llama.cpp's server: "the request exceeds the available context size" with "n_ctx": 8192
# and "n_prompt_tokens": 17919; Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
_WINDOW = [
    re.compile(r"maximum context length is (\d+)", re.I),
    re.compile(r"context window of (\d+)", re.I),
    re.compile(r"['\"]?n_ctx['\"]?\s*[:=]\s*(\d+)", re.I),
    re.compile(r"tokens\s*>\s*(\d+)\s*maximum", re.I),
    re.compile(r"context (?:length|size|window) (?:of|is) (\d+)", re.I),
]
_REQUESTED = [
    re.compile(r"\((\d+) in the messages", re.I),
    re.compile(r"requested tokens \((\d+)\)", re.I),
    re.compile(r"['\"]?n_prompt_tokens['\"]?\s*[:=]\s*(\d+)", re.I),
    re.compile(r"prompt is too long:\s*(\d+) tokens", re.I),
]
_OVERFLOW = re.compile(r"context (?:length|size|window)|n_ctx|prompt is too long", re.I)


def context_overflow(message: str) -> tuple[int, int | None] | None:
    """(window, prompt tokens the server counted or None) when `message` is a server's
    "the prompt does not fit the context" error, else None."""
    if not _OVERFLOW.search(message):
        return None
    window = next((int(m.group(1)) for p in _WINDOW if (m := p.search(message))), None)
    if window is None or window < 64:
        return None
    requested = next((int(m.group(1)) for p in _REQUESTED if (m := p.search(message))), None)
    return window, requested
