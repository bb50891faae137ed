"""Asking a model for a structured answer: one JSON-schema request, validated, retried once.

Shared by skillforge.authoring.drafting and skillforge.authoring.refining (the judge's discipline,
skillforge.authoring.judge). Untrusted text goes to the model inside delimiters carrying a random nonce
(`fresh_nonce`) that occurs in none of it; an unusable answer is asked for once more with
its problems (`explain` words a pydantic error for the model), and the budget doubles when
the first answer was cut off by the token limit.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from skillforge.models.llm import ModelClient
from skillforge.models.prompt_fit import UserPrompt
from skillforge.models.proposals import ModelCall, ProposalError
from skillforge.models.structured_ask import (  # noqa: F401 - explain and limits re-exported
    MAX_TOKENS,
    MIN_TOKENS,
    AskStats,
    UnusableAnswer,
    ask_validated,
    explain,
    json_object,
)

T = TypeVar("T")


def fresh_nonce(texts: Iterable[str]) -> str:
    """A random delimiter suffix that occurs in none of `texts`."""
    pool = list(texts)
    while True:
        nonce = secrets.token_hex(6)
        if not any(nonce in t for t in pool):
            return nonce


async def ask_structured(
    client: ModelClient, *, system: str, user: UserPrompt, schema: dict[str, Any],
    parse: Callable[[dict[str, Any], int], T], retry: Callable[[str, bool], str],
    what: str, max_tokens: int | None = None, temperature: float | None = None,
) -> tuple[T, ModelCall]:
    """Ask once, validate with `parse(data, attempt)` (ValueError = unusable), retry once."""
    try:
        result, stats = await ask_validated(
            client, user, system=system, schema=schema,
            parse=lambda done, attempt: parse(json_object(done.text), attempt),
            retry_prompt=retry, max_tokens=max_tokens, temperature=temperature)
    except UnusableAnswer as exc:
        raise ProposalError(
            f"model {client.model} did not give usable {what}, even after one retry: "
            f"{exc.problems}. Try again, or a larger model (--model).", model=client.model) from None
    return result, _call(client, stats)


def _call(client: ModelClient, stats: AskStats) -> ModelCall:
    return ModelCall(provider=client.name, model=client.model, attempts=stats.attempts,
                     tokens_in=stats.usage.input_tokens, tokens_out=stats.usage.output_tokens,
                     tokens_cached=stats.usage.cached_tokens,
                     tokens_estimated=stats.usage.estimated, cost_usd=stats.rounded_cost,
                     request_ids=list(stats.request_ids), left_out=list(stats.left_out))


def left_out_warnings(call: ModelCall) -> list[str]:
    """One warning per cut the prompt builder made to fit the model's context."""
    return [f"not shown to the model, to fit its context: {note}" for note in call.left_out]
