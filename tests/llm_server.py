"""A loopback HTTP server that speaks the OpenAI and Anthropic wire protocols, for tests only.

It is not a model: it answers from a script. The real `openai` and `anthropic` SDK clients
talk to it over real HTTP on 127.0.0.1, so the provider code paths (request building,
response parsing, error bodies, retry headers, timeouts, cancellation) are exercised.

Endpoints: `POST /v1/chat/completions` (OpenAI Chat Completions) and `POST /v1/messages`
(Anthropic Messages). Non-streaming only.

Use (the `llm_server` fixture in tests/llm_fixtures.py starts and stops one per test):

    server = LLMServer().start()
    server.openai_base_url       # "http://127.0.0.1:PORT/v1"  -> OPENAI_BASE_URL
    server.anthropic_base_url    # "http://127.0.0.1:PORT"     -> ANTHROPIC_BASE_URL
    server.script(text("hello"), error(429, headers={"retry-after": "1"}), structured({...}))
    server.handler = lambda req: tool_call("bash", {"command": "ls"}) if ... else text("done")
    server.requests              # every request, in order: wire, path, headers, body
    server.stop()

Replies (each also takes `delay=` seconds before answering, and `usage=` token counts):

- `text(s)`: an assistant text message.
- `tool_call(name, args)` / `tool_calls([(name, args), ...])`: the model calls tools.
- `structured(obj)`: the answer to a structured-output request, in the shape the request
  asked for (a forced tool call when the request forced one, else JSON text). Pass a string
  to send it verbatim (e.g. invalid JSON).
- `error(status, message, headers=...)`: an HTTP error with the provider's error body.
- `raw(status, body, headers=...)`: any bytes (a malformed body).

The scripted queue is consumed first; when it is empty `handler(request)` is asked; with
neither, the server answers 500 "no scripted reply left" so a missing script fails loudly.
Requests that break a rule the real APIs enforce (missing max_tokens, a tool result with no
matching tool call...) get a 400 in the provider's error shape, as the real API would. The
replies, requests, rules and response shapes live in tests/llm_wire.py; their names are
importable from here too.

Switches that make the server behave like particular real servers (all off by default):

- `reject_json_schema`: an OpenAI-compatible server without `response_format: json_schema`.
- `reject_output_config`: an Anthropic-compatible server without `output_config.format`.
- `reject_forced_tool`: Claude Sonnet 5.5 / Opus 5.5, which answer a forced `tool_choice`
  with 400.
- `reject_temperature`: models that refuse sampling parameters (400 naming `temperature`).
- `llama_cpp`: llama-cpp-python's server, which answers `response_format` json_schema with
  HTTP 500 and a validation message (`LLAMA_CPP_RESPONSE_FORMAT_ERROR`), and takes
  `{"type": "json_object", "schema": ...}` and forced tool calls.
- `thinking`: Anthropic replies start with a signed thinking block, and an assistant turn
  with tool calls must carry its thinking block back unchanged (as the real API demands).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.llm_wire import (
    ANTHROPIC_PATH,
    LLAMA_CPP_RESPONSE_FORMAT_ERROR,
    OPENAI_PATH,
    Reply,
    Request,
    error,
    invalid_request,
    raw,
    render_reply,
    server_refusal,
    structured,
    text,
    tool_call,
    tool_calls,
)

# The scripting names tests import from here (they live in tests/llm_wire.py).
__all__ = ["LLAMA_CPP_RESPONSE_FORMAT_ERROR", "LLMServer", "Reply", "Request", "error", "raw",
           "structured", "text", "tool_call", "tool_calls"]


class LLMServer:
    """The server; see the module docstring."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.handler: Callable[[Request], Reply | None] | None = None
        self.reject_json_schema = False
        self.reject_output_config = False
        self.reject_forced_tool = False
        self.reject_temperature = False
        self.thinking = False
        self.llama_cpp = False
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> LLMServer:
        owner = self

        class Handler(_Handler):
            server_ref = owner

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="llm-server",
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        assert self._httpd is not None, "start() the server first"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    # --- scripting ---------------------------------------------------------------------

    def script(self, *replies: Reply) -> LLMServer:
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def _next_reply(self, req: Request) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.handler is not None:
            got = self.handler(req)
            if got is not None:
                return got
        return error(500, "llm_server: no scripted reply left for this request")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_ref: LLMServer

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in two writes; without this, Nagle's algorithm and
        # delayed ACKs add ~40 ms to every reply.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        owner = self.server_ref
        length = int(self.headers.get("content-length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        wire = {OPENAI_PATH: "openai", ANTHROPIC_PATH: "anthropic"}.get(self.path.split("?")[0])
        try:
            body = json.loads(raw_body or b"null")
        except json.JSONDecodeError:
            body = None
        req = Request(wire or "unknown", self.path, {k.lower(): v for k, v in self.headers.items()},
                      body, time.monotonic())
        with owner._lock:
            owner.requests.append(req)
        if wire is None:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        problem = invalid_request(wire, body, owner)
        refusal = server_refusal(wire, body, owner)
        reply = (error(400, problem) if problem else refusal if refusal is not None
                 else owner._next_reply(req))
        if reply.delay and not self._wait(reply.delay, req):
            return  # the client went away; nothing to answer
        status, payload, headers = render_reply(wire, req, reply, owner.thinking)
        self._send(status, payload, headers)

    def _wait(self, seconds: float, req: Request) -> bool:
        """Sleep, watching the socket: False (and req.disconnected set) if the client left."""
        deadline = time.monotonic() + seconds
        conn: socket.socket = self.connection
        while time.monotonic() < deadline and not self.server_ref._stopping.is_set():
            ready, _, _ = select.select([conn], [], [], 0.02)
            if ready:
                try:
                    peek = conn.recv(1, socket.MSG_PEEK)
                except OSError:
                    peek = b""
                if not peek:
                    req.disconnected.set()
                    self.close_connection = True
                    return False
        return not self.server_ref._stopping.is_set()

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True
