"""Token counts read off the model responses the proxy forwards (skillforge.harnesses.proxy).

The proxy passes every response through unchanged and feeds a copy, chunk by chunk, to a
`UsageTap`, which understands the shapes the providers answer in:

- Anthropic Messages: a JSON body with `usage`, or Server-Sent Events where `message_start`
  carries the input side (`input_tokens`, `cache_creation_input_tokens`,
  `cache_read_input_tokens`) and `message_delta` the output count so far;
- OpenAI Chat Completions: `usage` in the body, or in the last streamed chunk, which the
  provider sends only when the request set `stream_options.include_usage`: the proxy sets it
  on a streamed request that did not (`ask_for_usage`) and keeps that usage-only chunk from
  the client, which gets the stream it asked for (`UsageChunkFilter`);
- OpenAI Responses: `usage` in the body, or in the `response.completed` event.

Counts follow skillforge's convention (skillforge.models.llm.Usage): input counts everything
the model read (fresh + cache writes + cache reads), cached the cache reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class CallUsage:
    """What one forwarded call cost, in tokens."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    model: str | None = None

    def add(self, other: CallUsage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cached_tokens += other.cached_tokens
        self.cache_write_tokens += other.cache_write_tokens


CHAT_SUFFIX = "/chat/completions"


def ask_for_usage(path: str, body: Any) -> bytes | None:
    """The body of a streamed Chat Completions request that did not ask for its usage, with
    `stream_options.include_usage` set (without it the provider streams no token counts);
    None when the request goes as it is."""
    if not path.endswith(CHAT_SUFFIX) or not isinstance(body, dict) or \
            body.get("stream") is not True:
        return None
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict) or \
            (options or {}).get("include_usage"):
        return None
    asked = {**body, "stream_options": {**(options or {}), "include_usage": True}}
    return json.dumps(asked, ensure_ascii=False, separators=(",", ":")).encode()


class UsageChunkFilter:
    """A Chat Completions stream minus the usage-only chunk (`"choices": []`) that
    `ask_for_usage` made the provider add: what the client would have got without it."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, chunk: bytes) -> bytes:
        self._pending += chunk
        out = bytearray()
        while True:
            ends = [i + len(sep) for sep in (b"\n\n", b"\r\n\r\n")
                    if (i := self._pending.find(sep)) >= 0]
            if not ends:
                return bytes(out)
            cut = min(ends)
            event, self._pending = self._pending[:cut], self._pending[cut:]
            if not _usage_only(event):
                out += event

    def close(self) -> bytes:
        rest, self._pending = self._pending, b""
        return b"" if _usage_only(rest) else rest


def _usage_only(event: bytes) -> bool:
    data = b"".join(line.strip()[5:].strip() for line in event.splitlines()
                    if line.strip().startswith(b"data:"))
    try:
        doc = json.loads(data) if data else None
    except ValueError:
        return False
    return isinstance(doc, dict) and doc.get("choices") == [] and \
        isinstance(doc.get("usage"), dict)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class UsageTap:
    """Reads a response as it streams past; `usage` holds what it said so far."""

    MAX_BODY = 4 << 20  # a JSON body larger than this is not parsed for its usage

    def __init__(self, content_type: str) -> None:
        self.sse = "text/event-stream" in (content_type or "")
        self.usage = CallUsage()
        self._pending = b""
        self._body = bytearray()

    def feed(self, chunk: bytes) -> None:
        if not self.sse:
            if len(self._body) <= self.MAX_BODY:
                self._body += chunk
            return
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            line = line.strip()
            if line.startswith(b"data:"):
                self._event(line[5:].strip())

    def close(self) -> CallUsage:
        if self.sse:
            if self._pending.strip().startswith(b"data:"):
                self._event(self._pending.strip()[5:].strip())
        elif self._body:
            try:
                doc = json.loads(bytes(self._body))
            except ValueError:
                doc = None
            if isinstance(doc, dict):
                self.usage.model = doc.get("model") if isinstance(doc.get("model"), str) \
                    else None
                self._set(doc.get("usage"))
        return self.usage

    def _event(self, data: bytes) -> None:
        if not data or data == b"[DONE]":
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        if not isinstance(event, dict):
            return
        kind = event.get("type")
        if kind == "message_start" and isinstance(event.get("message"), dict):
            message = event["message"]
            if isinstance(message.get("model"), str):
                self.usage.model = message["model"]
            self._set(message.get("usage"))
        elif kind == "message_delta" and isinstance(event.get("usage"), dict):
            # Cumulative: the last one holds the output count of the whole message.
            out = _int(event["usage"].get("output_tokens"))
            if out:
                self.usage.output_tokens = out
        elif kind in ("response.completed", "response.incomplete", "response.failed") \
                and isinstance(event.get("response"), dict):
            response = event["response"]
            if isinstance(response.get("model"), str):
                self.usage.model = response["model"]
            self._set(response.get("usage"))
        elif isinstance(event.get("usage"), dict):  # a Chat Completions chunk
            if isinstance(event.get("model"), str):
                self.usage.model = event["model"]
            self._set(event["usage"])

    def _set(self, usage: Any) -> None:
        """The usage object of any of the three shapes."""
        if not isinstance(usage, dict):
            return
        u = self.usage
        if "prompt_tokens" in usage:  # Chat Completions
            u.input_tokens = _int(usage.get("prompt_tokens"))
            u.output_tokens = _int(usage.get("completion_tokens"))
            details = usage.get("prompt_tokens_details") or {}
            u.cached_tokens = _int(details.get("cached_tokens")) if isinstance(details, dict) \
                else 0
        elif "cache_read_input_tokens" in usage or "cache_creation_input_tokens" in usage \
                or "input_tokens_details" not in usage and "total_tokens" not in usage:
            fresh = _int(usage.get("input_tokens"))
            read = _int(usage.get("cache_read_input_tokens"))
            write = _int(usage.get("cache_creation_input_tokens"))
            u.input_tokens = fresh + read + write
            u.cached_tokens, u.cache_write_tokens = read, write
            u.output_tokens = max(u.output_tokens, _int(usage.get("output_tokens")))
        else:  # Responses
            u.input_tokens = _int(usage.get("input_tokens"))
            u.output_tokens = _int(usage.get("output_tokens"))
            details = usage.get("input_tokens_details") or {}
            u.cached_tokens = _int(details.get("cached_tokens")) if isinstance(details, dict) \
                else 0
