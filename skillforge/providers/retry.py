"""One retry policy for every provider: exponential backoff with jitter, honouring the
server's `retry-after-ms` / `retry-after` (seconds or an HTTP date).

The SDKs' own retries are switched off (max_retries=0) so this is the only policy.
Retried: HTTP 408, 409, 429, 5xx (Anthropic's 529 included), connection errors, timeouts;
a server's `x-should-retry: true|false` header overrides that list. Never retried: a 5xx
whose message is a validation error of the request (llama-cpp-python's server answers 500
"1 validation error: ... Input should be 'text' or 'json_object'"): asking again gets the
same answer.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime

RETRYABLE_STATUS = {408, 409, 429}
# How request-validation errors read (pydantic v1 and v2, FastAPI), lower-cased.
_VALIDATION_MARKERS = ("validation error", "input should be", "field required",
                       "extra inputs are not permitted", "'loc': ('body'")


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or 500 <= status <= 599


def is_request_validation_error(message: str) -> bool:
    """True when a server's error message says the request itself failed validation."""
    text = message.lower()
    return any(marker in text for marker in _VALIDATION_MARKERS)


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait, or None. `retry-after-ms` wins (more precise)."""
    if not headers:
        return None
    get = headers.get
    ms = get("retry-after-ms")
    if ms is not None:
        try:
            value = float(ms) / 1000.0
            if value >= 0:
                return value
        except ValueError:
            pass
    ra = get("retry-after")
    if ra is None:
        return None
    ra = ra.strip()
    try:
        value = float(ra)
        return value if value >= 0 else None
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(ra)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass
class RetryPolicy:
    """Backoff: try n waits about base * 2**n (between half and all of it), capped at `cap`."""

    max_retries: int = 4
    base: float = 0.5
    cap: float = 30.0
    # A server asking for a longer wait than this is not waited for: the error says so.
    max_retry_after: float = 120.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: Callable[[], float] = random.random
    waits: list[float] = field(default_factory=list)

    def delay(self, retry_index: int, retry_after: float | None) -> float:
        """How long to wait before retry number `retry_index` (0-based)."""
        if retry_after is not None:
            # At least what the server asked, plus a little jitter so parallel clients spread.
            return retry_after + self.rng() * min(1.0, 0.1 * retry_after + 0.05)
        span = min(self.cap, self.base * (2**retry_index))
        return span / 2 + self.rng() * span / 2


@dataclass
class Failure:
    """A failed attempt, as the retry loop needs to see it."""

    kind: str  # "status", "timeout", "connection", "invalid"
    message: str
    status: int | None = None
    retry_after: float | None = None
    # The server's own `x-should-retry: true|false`, which both APIs send and which wins.
    should_retry: bool | None = None
    # The message says the request failed validation (whatever the status): deterministic.
    invalid_request: bool = False

    @property
    def retryable(self) -> bool:
        if self.should_retry is not None:
            return self.should_retry
        if self.invalid_request:
            return False
        if self.kind in ("timeout", "connection"):
            return True
        return self.status is not None and is_retryable_status(self.status)


async def run_with_retries(
    attempt: Callable[[], Awaitable[object]],
    classify: Callable[[BaseException], Failure | None],
    give_up: Callable[[Failure, int, BaseException], BaseException],
    policy: RetryPolicy,
    on_retry: Callable[[int, float, Failure], None] | None = None,
) -> object:
    """Call `attempt` until it succeeds, a failure is not retryable, or retries run out.

    `classify` maps an exception to a Failure (None: not a provider error, re-raised as is);
    `give_up(failure, attempts, exc)` builds the final error. Cancellation is never retried.
    """
    tries = 0
    while True:
        tries += 1
        try:
            return await attempt()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            out_of_tries = tries > policy.max_retries
            too_long = failure.retry_after is not None and failure.retry_after > policy.max_retry_after
            if not failure.retryable or out_of_tries or too_long:
                raise give_up(failure, tries, exc) from exc
            wait = policy.delay(tries - 1, failure.retry_after)
            policy.waits.append(wait)
            if on_retry is not None:
                on_retry(tries, wait, failure)
            await policy.sleep(wait)
