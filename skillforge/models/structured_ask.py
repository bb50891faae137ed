"""Ask a model for a structured answer, validate it, and retry once with what was wrong.

The one loop behind the rubric judge, the trial judges and the drafting/refining of eval
cases: the answer must match a JSON schema and pass the caller's own checks; an unusable
answer goes back once with the list of problems (and twice the token budget when it was cut
off). Lives with the models so linters (the rubric judge) can use it too.

The schemas state every check they can (counts as `minItems`/`maxItems`, ranges as `enum`
and `minimum`/`maximum`, "each X exactly once" as an object keyed by X), so a server that
decodes under the schema (llama.cpp, vLLM, OpenAI strict) cannot give an answer the checks
refuse. `keyed_items` turns such a keyed object back into the list the answer models read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from skillforge.models.llm import (
    AssistantMessage,
    Completion,
    Message,
    ModelClient,
    ProviderError,
    StructuredOutputError,
    Usage,
    UserMessage,
    parse_json_text,
)

from skillforge.models.prompt_fit import (
    MARGIN_TOKENS,
    Fitted,
    PromptTooLarge,
    UserPrompt,
    completion_budget,
    context_overflow,
    estimate_tokens,
    fit_prompt,
)

T = TypeVar("T")

# Thinking models spend part of the budget before they answer: the budget when the caller
# gives none ([provider] max_tokens, 8192 by default, is what the commands pass).
MIN_TOKENS = 8192
MAX_TOKENS = 32768
# Prompts up to this many tokens are sent without asking the model's context window.
SMALL_PROMPT = 4096


@dataclass
class AskStats(Generic[T]):
    """What the asking cost: attempts, tokens, cost (None when a price is unknown), ids."""

    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0
    request_ids: list[str] = field(default_factory=list)
    # What the prompt builder cut to fit the model's context window (prompt_fit).
    left_out: list[str] = field(default_factory=list)

    def add(self, done: Completion) -> None:
        self.usage = self.usage + done.usage
        self.cost_usd = None if self.cost_usd is None or done.cost_usd is None \
            else self.cost_usd + done.cost_usd
        if done.request_id:
            self.request_ids.append(done.request_id)

    @property
    def rounded_cost(self) -> float | None:
        return None if self.cost_usd is None else round(self.cost_usd, 8)


class UnusableAnswer(ValueError):
    """Still not a usable answer after the one retry; `problems` says what was wrong."""

    def __init__(self, problems: str, stats: AskStats) -> None:
        super().__init__(problems)
        self.problems = problems
        self.stats = stats


def explain(exc: ValidationError) -> str:
    """A pydantic validation error as one line a model (or a person) can act on."""
    out = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "is not part of the schema"
        out.append(f"{where}: {msg}" if where else msg)
    return "; ".join(out[:12])


def keyed_items(value: Any, key: str, *, numbered: bool = False) -> Any:
    """{"a": {...}, "b": {...}} -> [{key: "a", ...}, {key: "b", ...}] (null entries left
    out; `numbered` turns "1" into 1); anything else is returned as it is, for the
    validation to name."""
    if not isinstance(value, dict):
        return value
    out: list[Any] = []
    for name, item in value.items():
        if item is None:
            continue
        label: Any = int(name) if numbered and str(name).isdigit() else name
        out.append({key: label, **item} if isinstance(item, dict) else item)
    return out


def json_object(text: str) -> dict[str, Any]:
    """The answer's JSON object, or ValueError saying why there is none."""
    if not text.strip():
        raise ValueError("the answer is empty")
    try:
        data = parse_json_text(text)
    except StructuredOutputError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict):
        raise ValueError(f"the answer must be a JSON object, got {type(data).__name__}")  # noqa: TRY004
    return data


async def ask_validated(
    client: ModelClient, user: UserPrompt, *, system: str, schema: dict[str, Any],
    parse: Callable[[Completion, int], T], retry_prompt: Callable[[str, bool], str],
    max_tokens: int | None = None, temperature: float | None = None,
    on_retry: Callable[[str], None] | None = None,
) -> tuple[T, AskStats]:
    """Ask, `parse(completion, attempt)` (ValueError = unusable), retry once; the result and
    what it cost, or UnusableAnswer. `user` is a text, or a builder that sizes the prompt to
    the model's context (prompt_fit); what a builder cut is in `stats.left_out`."""
    stats: AskStats = AskStats()
    # The configured budget is the user's to set (a small local model wants a small one).
    asked = max_tokens or MIN_TOKENS
    ratio = 1.0
    fitted = _fit(client, user, system, schema, None, asked, ratio)
    # A prompt that fits any model's context needs no window (and no question to the server).
    window = await _window(client) if fitted.tokens > SMALL_PROMPT else None
    if window is not None:
        fitted = _fit(client, user, system, schema, window, asked, ratio)
    stats.left_out = fitted.left_out
    budget = fitted.completion
    messages: list[Message] = [UserMessage(content=fitted.text)]
    problems = ""
    refits = 0
    attempt = 1
    while True:
        try:
            done = await client.complete(messages, system=system,
                                         response_schema=fitted.schema or schema,
                                         max_tokens=budget, temperature=temperature)
        except ProviderError as exc:
            over = context_overflow(str(exc))
            # The server stated its window (and often its own count): fit again, once or
            # twice, with what it said. Not after an answer: the retry keeps its history.
            if over is None or refits >= 2 or attempt > 1:
                raise
            refits += 1
            stated, counted = over
            _learn(client, stated)
            if counted and fitted.tokens:
                ratio = max(ratio, ratio * counted / max(1, fitted.tokens - MARGIN_TOKENS))
            elif window == stated:
                ratio *= 1.25  # the window was known and still too small: count harder
            window = stated
            fitted = _fit(client, user, system, schema, window, asked, ratio)
            stats.left_out = fitted.left_out
            budget = fitted.completion
            messages = [UserMessage(content=fitted.text)]
            continue
        stats.attempts = attempt
        stats.add(done)
        try:
            return parse(done, attempt), stats
        except ValueError as exc:
            problems = str(exc)
        if attempt == 2:
            break
        if on_retry is not None:
            on_retry(problems)
        cut_off = done.stop_reason == "max_tokens"
        if cut_off:
            # Twice the budget, but never past what the window leaves the answer.
            room = (window - fitted.tokens - done.usage.output_tokens - MARGIN_TOKENS
                    if window else MAX_TOKENS)
            budget = max(budget, min(budget * 2, MAX_TOKENS, room))
        messages = [*messages, AssistantMessage(content=done.text or "(no answer)"),
                    UserMessage(content=retry_prompt(problems, cut_off))]
        attempt = 2
    raise UnusableAnswer(problems, stats)


async def _window(client: ModelClient) -> int | None:
    """The client's context window when it knows or can find out, else None."""
    probe = getattr(client, "context_window", None)
    if probe is None:
        return None
    try:
        value = await probe()
    except Exception:  # noqa: BLE001 - a failed probe only means "unknown"
        return None
    return value if isinstance(value, int) and value > 0 else None


def _learn(client: ModelClient, window: int) -> None:
    learn = getattr(client, "learn_context", None)
    if learn is not None:
        learn(window)


def _fit(client: ModelClient, user: UserPrompt, system: str, schema: dict[str, Any],
         window: int | None, asked: int, ratio: float) -> Fitted:
    count = getattr(client, "count_tokens", None) or estimate_tokens
    try:
        return fit_prompt(user, system=system, schema=schema, window=window,
                          completion=completion_budget(asked, window), count=count,
                          ratio=ratio)
    except PromptTooLarge as exc:
        raise ProviderError(f"{client.model}: {exc}", provider=client.name,
                            model=client.model) from None


def client_labels(clients: Sequence[ModelClient]) -> list[str]:
    """How reports name each judge: its model, or provider:model when two share a model;
    ValueError when the same judge is listed twice."""
    models = [c.model for c in clients]
    labels = [c.model if models.count(c.model) == 1 else f"{c.name}:{c.model}" for c in clients]
    if len(set(labels)) != len(labels):
        raise ValueError(f"the same judge model is listed twice: {labels}; list each model once")
    return labels
