"""A loopback HTTP server that speaks the OpenAI and Anthropic wire protocols, for tests only.

It is not a model: it answers from a script. The real `openai` and `anthropic` SDK clients,
and the real Claude Code CLI, talk to it over real HTTP on 127.0.0.1, so the provider code
paths (request building, response parsing, streaming, error bodies, retry headers,
timeouts, cancellation) are exercised.

Endpoints (a query string is ignored: Claude Code posts to `/v1/messages?beta=true`):

- `POST /v1/chat/completions`: OpenAI Chat Completions (wire "openai").
- `POST /v1/responses`: OpenAI Responses API (wire "responses"): text and function calls.
- `POST /v1/messages`: Anthropic Messages (wire "anthropic").
- `POST /v1/messages/count_tokens`: `{"input_tokens": N}`, N being the input_tokens a
  completion of the same messages reports. Never scripted; recorded in `requests` (tell it
  by `req.endpoint`) but left out of `completions`.
- Anything else (GET included) is recorded and answered 404.

A request with `"stream": true` is answered with Server-Sent Events cut from the same
reply, exactly as the real API streams it (tests/llm_stream.py): same content, ids, stop
reason and token counts. Errors and `raw` replies are never streamed, as the real APIs
answer them before any event.

Use (the `llm_server` fixture in tests/llm_fixtures.py starts and stops one per test):

    server = LLMServer().start()
    server.openai_base_url       # "http://127.0.0.1:PORT/v1"  -> OPENAI_BASE_URL
    server.anthropic_base_url    # "http://127.0.0.1:PORT"     -> ANTHROPIC_BASE_URL
    server.script(text("hello"), error(429, headers={"retry-after": "1"}), structured({...}))
    server.handler = lambda req: tool_call("bash", {"command": "ls"}) if ... else text("done")
    server.requests              # every request, in order: wire, path, headers, body, response
    server.completions           # the requests that asked for a model reply
    server.stop()

Replies (each also takes `delay=` seconds before answering, `usage=` token counts, and
`cut_after=N`: a streamed reply hangs up after N events, its body unfinished; a
streamed reply sends its first event at once and the rest after the delay, like a model
thinking before its first token; a client that hangs up during the delay is seen in
`req.disconnected` either way):

- `text(s)`: an assistant text message.
- `tool_call(name, args)` / `tool_calls([(name, args), ...])`: the model calls tools.
- `structured(obj)`: the answer to a structured-output request, in the shape the request
  asked for (a forced tool call when the request forced one, else JSON text). Pass a string
  to send it verbatim (e.g. invalid JSON).
- `error(status, message, headers=...)`: an HTTP error with the provider's error body.
- `raw(status, body, headers=...)`: any bytes (a malformed body).

Claude Code (set ANTHROPIC_BASE_URL=server.anthropic_base_url and any ANTHROPIC_API_KEY)
runs its tools for real on the scripted calls, with the tool names and inputs of its own
tool schemas, then sends their results back in its next request:

    server.script(tool_call("Bash", {"command": "echo hello > out.txt",
                                     "description": "Write out.txt"}),
                  text("Done."))

Claude Code 2.1.327 sends one streamed request per turn, no count_tokens call, and a
mid-conversation `{"role": "system"}` message (environment and reminders) that the
validation accepts and `Request.all_text()` includes. It retries 5xx and 529 itself
(CLAUDE_CODE_MAX_RETRIES bounds that) and answers a 400 by retrying with fewer beta
features, about six requests, so script an error for it with `handler`.

The scripted queue is consumed first; when it is empty `handler(request)` is asked; with
neither, the server answers 500 "no scripted reply left" so a missing script fails loudly.
Requests that break a rule the real APIs enforce (missing max_tokens, a tool result with no
matching tool call...) get a 400 in the provider's error shape, as the real API would. The
replies, requests and response shapes live in tests/llm_wire.py, the rules in
tests/llm_rules.py; the scripting names are importable from here too.

Switches that make the server behave like particular real servers (all off by default):

- `reject_json_schema`: an OpenAI-compatible server without `response_format: json_schema`
  (or the Responses API's `text.format` json_schema).
- `reject_output_config`: an Anthropic-compatible server without `output_config.format`.
- `reject_forced_tool`: Claude Sonnet 5.5 / Opus 5.5, which answer a forced `tool_choice`
  with 400.
- `reject_temperature`: models that refuse sampling parameters (400 naming `temperature`).
- `llama_cpp`: llama-cpp-python's server, which answers `response_format` json_schema with
  HTTP 500 and a validation message (`LLAMA_CPP_RESPONSE_FORMAT_ERROR`), and takes
  `{"type": "json_object", "schema": ...}` and forced tool calls; it streams no usage, and
  repeats a tool call's id and name in each of its chunks.
- `stream_usage = False`: a Chat Completions stream carries no usage chunk even when the
  request asks for one (`stream_options.include_usage`), as llama-cpp-python's server does.
- `thinking`: Anthropic replies start with a signed thinking block (streamed as
  `thinking_delta` and `signature_delta`), and an assistant turn with tool calls must carry
  its thinking block back unchanged (as the real API demands).
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

from tests.llm_rules import LLAMA_CPP_RESPONSE_FORMAT_ERROR, invalid_request, server_refusal
from tests.llm_stream import sse_events
from tests.llm_wire import (
    COUNT_TOKENS_PATH,
    WIRES,
    Reply,
    Request,
    error,
    input_tokens,
    raw,
    render_reply,
    structured,
    text,
    tool_call,
    tool_calls,
)

# The scripting names tests import from here (they live in tests/llm_wire.py and
# tests/llm_rules.py).
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
        self.stream_usage = True
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
    def completions(self) -> list[Request]:
        """The requests for a model reply, in order (not token counts nor unknown routes)."""
        with self._lock:
            return [r for r in self.requests
                    if r.wire != "unknown" and r.endpoint != COUNT_TOKENS_PATH]

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
        req = self._record()
        if req.wire == "unknown":
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        if req.endpoint == COUNT_TOKENS_PATH:
            self._count_tokens(req)
            return
        problem = invalid_request(req.wire, req.body, owner)
        refusal = server_refusal(req.wire, req.body, owner)
        reply = (error(400, problem) if problem else refusal if refusal is not None
                 else owner._next_reply(req))
        if req.streamed and reply.kind not in ("error", "raw"):
            self._stream(req, reply)
            return
        if reply.delay and not self._wait(reply.delay, req):
            return  # the client went away; nothing to answer
        status, payload, headers = render_reply(req.wire, req, reply, owner.thinking)
        req.response = payload
        self._send(status, payload, headers)

    def do_GET(self) -> None:
        # Recorded so a test sees what else a client asked for (no GET route exists).
        self._record()
        self._send(404, {"error": {"message": f"no route GET {self.path}", "type": "not_found"}})

    def _record(self) -> Request:
        length = int(self.headers.get("content-length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw_body or b"null")
        except json.JSONDecodeError:
            body = None
        wire = WIRES.get(self.path.split("?")[0]) if self.command == "POST" else None
        req = Request(wire or "unknown", self.path,
                      {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
        with self.server_ref._lock:
            self.server_ref.requests.append(req)
        return req

    def _count_tokens(self, req: Request) -> None:
        """Anthropic's token counter: never scripted, the count a completion would report."""
        if not isinstance(req.body, dict) or not req.messages:
            self._send(400, {"type": "error", "error": {
                "type": "invalid_request_error",
                "message": "messages: at least one message is required"}})
            return
        req.response = {"input_tokens": input_tokens(req)}
        self._send(200, req.response)

    def _stream(self, req: Request, reply: Reply) -> None:
        """Send the reply as Server-Sent Events: the first event at once, the rest after
        `reply.delay` (a model thinking before its first token), over chunked encoding."""
        status, payload, headers = render_reply(req.wire, req, reply, self.server_ref.thinking)
        req.response = payload
        frames = sse_events(req.wire, req, payload, usage=self.server_ref.stream_usage,
                            llama_cpp=self.server_ref.llama_cpp)
        if reply.cut_after is not None:
            frames = frames[:reply.cut_after]
        try:
            self.send_response(status)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            if frames:
                self._chunk(frames[0])
            if reply.delay and not self._wait(reply.delay, req):
                self.close_connection = True  # the stream stays unfinished
                return
            for frame in frames[1:]:
                self._chunk(frame)
            if reply.cut_after is not None:
                self.close_connection = True  # hang up, the body unfinished
                return
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            req.disconnected.set()
            self.close_connection = True

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

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
