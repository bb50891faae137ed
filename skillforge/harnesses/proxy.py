"""The model proxy: external harness CLIs reach their provider only through skillforge.

An external harness (Claude Code, Codex) is the whole agent and runs inside the trial
container, so it must call its model from there. It never gets the key. For a run, skillforge
starts this proxy on the host, listening on the address the trial containers reach the host
by (the gateway of their Docker network). Each trial gets a random token of its own and the
proxy's address, in the CLI's usual variables (`ANTHROPIC_API_KEY` + `ANTHROPIC_BASE_URL`,
`CODEX_API_KEY` + `OPENAI_BASE_URL`). For each request the proxy

1. takes the token from `x-api-key` or `Authorization: Bearer` and finds its trial (an
   unknown or finished trial's token gets 401);
2. counts it against the trial's turn limit when it is a model call (Messages, Chat
   Completions, Responses): the call past the limit is answered 400 and the trial is told
   to stop its CLI (skillforge.harnesses.run);
3. reads it for the target skill's marks when the trial is a baseline
   (skillforge.harnesses.contamination);
4. forwards it with the real credentials in place of the token, streaming the answer back
   unchanged while reading the token counts off it (skillforge.harnesses.usage_tap). One
   change: a streamed Chat Completions request that did not ask for its usage goes up with
   `stream_options.include_usage` (the only way such a stream carries token counts), and
   the usage chunk that adds is kept from the client; a provider that answers that with 400
   gets the request as the client sent it.

So the key lives only in this process: never in a container, its environment, a command
line or a stored file, whatever the harness or the skill's code does. What the proxy
forwarded is also the trial's exact token count, judge calls aside (they are skillforge's
own, counted by its client).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from skillforge.harnesses.contamination import Scanner
from skillforge.harnesses.usage_tap import (
    CallUsage,
    UsageChunkFilter,
    UsageTap,
    ask_for_usage,
)

MAX_REQUEST_BYTES = 64 << 20
MODEL_CALL_SUFFIXES = ("/messages", "/chat/completions", "/responses")
# Hop-by-hop headers, and those the proxy sets itself.
_DROP_REQUEST = {"host", "content-length", "connection", "keep-alive", "transfer-encoding",
                 "x-api-key", "authorization", "accept-encoding", "proxy-authorization", "te",
                 "upgrade"}
_DROP_RESPONSE = {"content-length", "connection", "keep-alive", "transfer-encoding",
                  "content-encoding"}
UPSTREAM_TIMEOUT_S = 900
# Every trial has ended when the proxy stops; a request still open then belongs to none.
SHUTDOWN_TIMEOUT_S = 2.0


class ProxyError(RuntimeError):
    """The proxy could not start (no address to listen on); the message says why."""


@dataclass(frozen=True)
class Upstream:
    """Where the proxy forwards to, and the credentials it adds."""

    base_url: str  # the provider's base URL, as the CLI would have used it
    headers: Mapping[str, str]  # e.g. {"x-api-key": KEY} or {"authorization": "Bearer KEY"}

    @property
    def origin(self) -> str:
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def path(self) -> str:
        """The base URL's path (`/v1` for OpenAI's), kept in the address the CLI gets."""
        return urlsplit(self.base_url).path.rstrip("/")

    def __repr__(self) -> str:  # never print a key
        return f"Upstream({self.base_url!r}, headers={sorted(self.headers)})"


@dataclass
class Lease:
    """One trial's use of the proxy: its token, limit, counts and contamination evidence."""

    token: str
    key: Hashable
    scanner: Scanner | None = None
    max_calls: int | None = None
    on_limit: Callable[[], None] | None = None
    calls: int = 0
    usage: CallUsage = field(default_factory=CallUsage)
    requests: list[dict[str, Any]] = field(default_factory=list)
    limit_reached: bool = False
    open: bool = True
    # Requests being forwarded: cancelled when the trial ends (a killed CLI's call would
    # otherwise wait on the provider, and hold up the proxy's shutdown, for minutes).
    in_flight: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def contamination(self) -> list[dict[str, Any]]:
        return list(self.scanner.hits) if self.scanner is not None else []

    def summary(self) -> dict[str, Any]:
        """What the proxy saw of this trial, for the trajectory's `extra.proxy`."""
        return {"model_calls": self.calls, "requests": len(self.requests),
                "tokens_in": self.usage.input_tokens, "tokens_out": self.usage.output_tokens,
                "tokens_cached": self.usage.cached_tokens,
                "limit_reached": self.limit_reached,
                "contamination": self.contamination,
                "calls": self.requests[-200:]}


def _error_body(message: str, kind: str = "invalid_request_error") -> bytes:
    # The Anthropic error shape; OpenAI clients read `error.message` from it too.
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


class ModelProxy:
    """The run's proxy. `async with ModelProxy(upstream, hosts) as proxy:`; then
    `proxy.lease(key)` per trial, `proxy.base_url(host)` for its containers."""

    def __init__(self, upstream: Upstream, hosts: Sequence[str] = ("127.0.0.1",)) -> None:
        self.upstream = upstream
        self.hosts = list(dict.fromkeys(hosts))
        self._leases: dict[str, Lease] = {}
        self._ports: dict[str, int] = {}
        self._runner: Any = None
        self._session: Any = None

    # --- lifetime ---------------------------------------------------------------------
    async def __aenter__(self) -> ModelProxy:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        from aiohttp import ClientSession, ClientTimeout, web

        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=SHUTDOWN_TIMEOUT_S)
        await self._runner.setup()
        try:
            for host in self.hosts:
                site = web.TCPSite(self._runner, host, 0)
                await site.start()
                self._ports[host] = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        except OSError as exc:
            await self._runner.cleanup()
            raise ProxyError(f"the model proxy could not listen on {host}: {exc}") from exc
        self._session = ClientSession(timeout=ClientTimeout(total=UPSTREAM_TIMEOUT_S),
                                      auto_decompress=False)

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def base_url(self, host: str | None = None) -> str:
        """The address a container on `host`'s network uses, with the upstream's path."""
        host = host or self.hosts[0]
        return f"http://{host}:{self._ports[host]}{self.upstream.path}"

    # --- trials -----------------------------------------------------------------------
    def lease(self, key: Hashable, *, scanner: Scanner | None = None,
              max_calls: int | None = None,
              on_limit: Callable[[], None] | None = None) -> Lease:
        token = "sk-skillforge-" + secrets.token_urlsafe(24)
        lease = Lease(token=token, key=key, scanner=scanner, max_calls=max_calls,
                      on_limit=on_limit)
        self._leases[token] = lease
        return lease

    def release(self, lease: Lease) -> None:
        """The trial is over: its token stops working and its open requests are dropped."""
        lease.open = False
        self._leases.pop(lease.token, None)
        for task in list(lease.in_flight):
            task.cancel()

    # --- requests ---------------------------------------------------------------------
    def _lease_of(self, request: Any) -> Lease | None:
        token = request.headers.get("x-api-key", "")
        auth = request.headers.get("authorization", "")
        if not token and auth.lower().startswith("bearer "):
            token = auth[7:].strip()
        return self._leases.get(token) if token else None

    async def _handle(self, request: Any) -> Any:
        from aiohttp import web

        lease = self._lease_of(request)
        if lease is None:
            return web.Response(status=401, body=_error_body(
                "skillforge's model proxy: unknown or expired trial token",
                "authentication_error"), content_type="application/json")
        body = await request.read()
        path = request.path
        model_call = request.method == "POST" and path.endswith(MODEL_CALL_SUFFIXES)
        parsed: Any = None
        if body:
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None
        if model_call:
            if lease.max_calls is not None and lease.calls >= lease.max_calls:
                lease.limit_reached = True
                if lease.on_limit is not None:
                    lease.on_limit()
                return web.Response(status=400, body=_error_body(
                    f"skillforge: this trial reached its turn limit ({lease.max_calls} model "
                    "calls); the run is being stopped"), content_type="application/json")
            lease.calls += 1
        if lease.scanner is not None and parsed is not None:
            lease.scanner.scan(parsed, len(lease.requests) + 1)
        task = asyncio.current_task()
        if task is not None:
            lease.in_flight.add(task)
        try:
            return await self._forward(request, lease, body, parsed, model_call)
        finally:
            lease.in_flight.discard(task)  # type: ignore[arg-type]

    async def _forward(self, request: Any, lease: Lease, body: bytes, parsed: Any,
                       model_call: bool) -> Any:
        from aiohttp import ClientError, web

        headers = {k.lower(): v for k, v in request.headers.items()
                   if k.lower() not in _DROP_REQUEST}
        for name, value in self.upstream.headers.items():
            if name == "anthropic-beta" and headers.get(name):  # keep the CLI's betas too
                value = f"{headers[name]},{value}"
            headers[name] = value
        headers["accept-encoding"] = "identity"  # plain bytes, so the tap can read them
        url = self.upstream.origin + request.path_qs
        t0 = time.monotonic()
        record: dict[str, Any] = {"path": request.path, "model_call": model_call,
                                  "model": parsed.get("model") if isinstance(parsed, dict)
                                  else None}
        lease.requests.append(record)
        asked = ask_for_usage(request.path, parsed) if model_call else None
        try:
            upstream = await self._session.request(request.method, url,
                                                   data=asked or body or None, headers=headers)
            if asked is not None and upstream.status == 400:
                # a server that does not take stream_options: the client's request as it was
                upstream.release()
                asked = None
                upstream = await self._session.request(request.method, url, data=body,
                                                       headers=headers)
        except (ClientError, asyncio.TimeoutError, OSError) as exc:
            record.update(status=502, seconds=round(time.monotonic() - t0, 3))
            return web.Response(status=502, body=_error_body(
                f"skillforge's model proxy could not reach {self.upstream.origin}: "
                f"{exc or type(exc).__name__}", "api_error"), content_type="application/json")
        tap = UsageTap(upstream.headers.get("content-type", ""))
        hide = UsageChunkFilter() if asked is not None and tap.sse else None
        response = web.StreamResponse(status=upstream.status, headers={
            k: v for k, v in upstream.headers.items() if k.lower() not in _DROP_RESPONSE})
        try:
            await response.prepare(request)
            async for chunk in upstream.content.iter_any():
                tap.feed(chunk)
                out = hide.feed(chunk) if hide is not None else chunk
                if out:
                    await response.write(out)
            rest = hide.close() if hide is not None else b""
            if rest:
                await response.write(rest)
            await response.write_eof()
        except ConnectionResetError:
            # The CLI hung up (killed at the timeout or the limit): the upstream call is
            # dropped with it, and counted as far as it went.
            record["client_gone"] = True
        finally:
            upstream.release()
            usage = tap.close()
            lease.usage.add(usage)
            record.update(status=upstream.status, seconds=round(time.monotonic() - t0, 3),
                          tokens_in=usage.input_tokens, tokens_out=usage.output_tokens,
                          tokens_cached=usage.cached_tokens)
            if usage.model:
                record["model"] = usage.model
        return response
