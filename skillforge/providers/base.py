"""What the Anthropic and OpenAI clients share: options, retries, error wording, cost."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from skillforge.models.llm import (
    Completion,
    Message,
    ProviderError,
    ToolSpec,
    Usage,
)
from skillforge.providers import context
from skillforge.providers.prices import Price, cost_usd, price_table
from skillforge.providers.retry import (
    RETRYABLE_STATUS,
    Failure,
    RetryPolicy,
    is_request_validation_error,
    parse_retry_after,
    run_with_retries,
)

# The name of the tool that carries a structured answer when a provider answers through a
# forced tool call.
ANSWER_TOOL = "give_answer"
ANSWER_TOOL_DESCRIPTION = (
    "Give your complete answer. Call this exactly once; its input is the whole answer."
)
# Parameter changes tried within one attempt after errors that name a parameter: three
# structured forms after the first, the max-tokens parameter, temperature, `stream_options`
# and `stream` (openai_provider), one to spare.
MAX_ADAPTATIONS = 8


@dataclass
class ClientOptions:
    """Everything a client needs besides the provider's own credentials."""

    model: str
    api_key: str
    base_url: str | None = None
    max_tokens: int = 4096
    temperature: float | None = 0.0
    timeout_sec: float = 120.0
    max_retries: int = 4
    prices: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    # Where the key came from, for error messages ("ANTHROPIC_API_KEY").
    key_source: str = ""
    # The model's context window in tokens; None: asked of a local server (context.py).
    context_tokens: int | None = None


class BaseClient:
    """A `ModelClient` with the shared retry loop; subclasses do one request."""

    name = "base"

    def __init__(self, options: ClientOptions, *, policy: RetryPolicy | None = None,
                 on_retry: Callable[[int, float, Failure], None] | None = None) -> None:
        self.options = options
        self.model = options.model
        self.policy = policy or RetryPolicy(max_retries=options.max_retries)
        self.on_retry = on_retry
        self._prices: dict[str, Price] = price_table(options.prices)
        # Cleared when the server refuses a temperature (some models accept only their own).
        self.send_temperature = True

    @property
    def base_url(self) -> str | None:
        return self.options.base_url

    async def context_window(self) -> int | None:
        """The model's context window: configured, remembered, or asked of a local server."""
        if self.options.context_tokens:
            return self.options.context_tokens
        known, window = context.remembered(self.base_url, self.model)
        if known or not context.is_local(self.base_url):
            return window
        assert self.base_url is not None
        window = await asyncio.to_thread(context.probe_window, self.base_url, self.model,
                                         self.options.api_key)
        known, learnt = context.remembered(self.base_url, self.model)
        if known and learnt is not None:
            return learnt  # an error stated it meanwhile: that is the server's own word
        context.remember(self.base_url, self.model, window)
        return window

    def learn_context(self, window: int) -> None:
        """The window a server stated in an error ("maximum context length is N")."""
        if not self.options.context_tokens:
            context.remember(self.base_url, self.model, window)

    def count_tokens(self, text: str) -> int:
        return context.count_for_sizing(text)

    async def complete(
        self,
        messages: list[Message],
        *,
        system: str | None = None,
        tools: list[ToolSpec] | None = None,
        response_schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Completion:
        """Send one conversation and return the model's answer (retrying transient failures)."""
        if tools and response_schema is not None:
            raise ValueError("complete(): pass tools or response_schema, not both")
        if not messages:
            raise ValueError("complete(): at least one message is needed")
        request = _Request(
            messages=list(messages), system=system, tools=list(tools or []),
            schema=response_schema,
            max_tokens=max_tokens or self.options.max_tokens,
            temperature=self.options.temperature if temperature is None else temperature,
        )
        result = await run_with_retries(
            lambda: self._attempt(request), self._classify, self._give_up, self.policy,
            self.on_retry,
        )
        assert isinstance(result, Completion)
        return result

    async def aclose(self) -> None:
        """Close the HTTP connections (safe to call twice)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _attempt(self, request: _Request) -> Completion:
        # Servers differ in the parameters they accept; an error that names one we can
        # change is answered by changing it (remembered for later calls) and asking again at
        # once. Whatever the status: llama-cpp-python's server refuses a parameter with a
        # 500. Not for the transient ones (408, 409, 429), which the retry loop waits out.
        # A few adaptations at most, so a server that refuses everything still ends here.
        for _ in range(MAX_ADAPTATIONS):
            try:
                return await self._complete_once(request)
            except Exception as exc:
                failure = self._classify(exc)
                if failure is None or failure.status is None or failure.status in RETRYABLE_STATUS:
                    raise
                if not self._adapt(failure.message.lower(), request):
                    raise
        return await self._complete_once(request)

    # --- for subclasses ----------------------------------------------------------------

    def _adapt(self, message: str, request: _Request) -> bool:
        """Change what is sent after an error saying `message`; True if something changed."""
        if "temperature" in message and self.send_temperature and request.temperature is not None:
            self.send_temperature = False
            return True
        return False

    async def _complete_once(self, request: _Request) -> Completion:
        raise NotImplementedError

    def _classify(self, exc: BaseException) -> Failure | None:
        if isinstance(exc, MalformedResponse):
            return Failure("invalid", f"unreadable response ({exc})")
        if isinstance(exc, json.JSONDecodeError):
            # The SDKs let this through when a server answers 200 with a body that is not JSON.
            return Failure("invalid", "the server's answer is not JSON (is base_url an LLM API?)")
        return None

    def _cost(self, usage: Usage) -> float | None:
        return cost_usd(self.model, usage, self._prices)

    def _where(self) -> str:
        return self.options.base_url or f"the {self.name} API"

    def _give_up(self, failure: Failure, attempts: int, exc: BaseException) -> ProviderError:
        what = _advice(self, failure)
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        if failure.retry_after is not None and failure.retry_after > self.policy.max_retry_after:
            what = (f"the server asked to wait {failure.retry_after:.0f}s before retrying, longer "
                    f"than skillforge waits ({self.policy.max_retry_after:.0f}s); try again later")
        status = f" (HTTP {failure.status})" if failure.status else ""
        return ProviderError(
            f"{self.name} request for model {self.model} failed{status}{tries}: "
            f"{failure.message.rstrip('. ')}. {what}",
            provider=self.name, model=self.model, status=failure.status,
            retryable=failure.retryable, attempts=attempts,
        )


class MalformedResponse(Exception):
    """The server answered 200 with something that is not a usable completion."""


@dataclass
class _Request:
    messages: list[Message]
    system: str | None
    tools: list[ToolSpec]
    schema: dict[str, Any] | None
    max_tokens: int
    temperature: float | None


def _advice(client: BaseClient, f: Failure) -> str:
    key = client.options.key_source or "the API key"
    if f.kind == "timeout":
        return (f"No answer within {client.options.timeout_sec:g}s; raise [provider] timeout_sec "
                "(SKILLFORGE_PROVIDER__TIMEOUT_SEC) or use a faster model")
    if f.kind == "connection":
        return (f"Cannot reach {client._where()}; check the network, or that the local server "
                "is running and base_url is right")
    s = f.status or 0
    if s in (401, 403):
        return f"Check {key}: it is missing, wrong or lacks access to this model"
    if s == 404:
        return ("Check the model name ([provider] model, SKILLFORGE_PROVIDER__MODEL or --model) "
                "and base_url")
    if s == 429:
        return ("Rate limited: wait and retry, lower [trial] concurrency, or raise [provider] "
                "max_retries")
    if f.invalid_request:
        return ("The server refused the request as invalid (its message says which part); "
                f"asking again would not help{_status_note(s)}")
    if s >= 500:
        return "The provider is failing or overloaded; retry later"
    if s in (400, 413, 422):
        return "The server rejected the request; its message says which part"
    if f.kind == "invalid":
        return "Check that base_url points at an LLM API of this provider's kind"
    return "Retry later, or report the server's message"


def _status_note(status: int) -> str:
    return f", so it was not retried although HTTP {status} usually is" if status >= 500 else ""


def schema_is_strict(schema: Mapping[str, Any]) -> bool:
    """True when every object in `schema` closes its properties and requires them all
    (what OpenAI's strict structured outputs demand)."""
    if not isinstance(schema, Mapping):
        return True
    if schema.get("type") == "object":
        props = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required") or []) != set(props):
            return False
    for key in ("properties", "$defs", "definitions"):
        for sub in (schema.get(key) or {}).values():
            if not schema_is_strict(sub):
                return False
    for key in ("items", "anyOf", "allOf", "oneOf"):
        sub = schema.get(key)
        subs = sub if isinstance(sub, list) else [sub] if sub is not None else []
        if not all(schema_is_strict(s) for s in subs):
            return False
    return True


def object_schema(schema: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A tool input must be an object: wrap anything else as {"value": ...} (and say so)."""
    if schema.get("type") == "object":
        return schema, False
    return ({"type": "object", "properties": {"value": schema}, "required": ["value"],
             "additionalProperties": False}, True)


def answer_text(arguments: Any, wrapped: bool) -> str:
    """The JSON document of a forced answer-tool call."""
    if wrapped and isinstance(arguments, dict) and "value" in arguments:
        arguments = arguments["value"]
    return json.dumps(arguments, ensure_ascii=False)


def unwrap_text(raw: str) -> str:
    """The JSON text of a wrapped answer ({"value": X} -> X); unparsable text is kept."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return raw
    return answer_text(data, True)


def status_failure(status: int, message: str, headers: Mapping[str, str] | None) -> Failure:
    flag = (headers or {}).get("x-should-retry")
    should = {"true": True, "false": False}.get(str(flag).strip().lower()) if flag else None
    return Failure("status", message, status=status, retry_after=parse_retry_after(headers),
                   should_retry=should, invalid_request=is_request_validation_error(message))


def api_message(exc: Any) -> str:
    """The server's own error message from an SDK exception (both SDKs, both shapes)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return tidy_message(str(err["message"]))
        if body.get("message"):
            return tidy_message(str(body["message"]))
    return tidy_message(str(getattr(exc, "message", exc)))


def tidy_message(message: str) -> str:
    """A server message on one line, without the Python traceback some servers append
    (llama-cpp-python's: '...\n\n  File "/.../app.py", line 376, in create_chat_completion')."""
    cut = message.find('  File "')
    if cut > 0:
        message = message[:cut]
    return " ".join(message.split())


def exception_cause(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__
    return f"{type(cause).__name__}: {cause}" if cause else str(exc)
