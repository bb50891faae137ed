"""The streamed (Server-Sent Events) form of a reply, for the test LLM server only.

Each wire's stream is cut from the whole reply that tests/llm_wire.py's `render_reply` built,
so a streamed reply carries exactly the content, ids, stop reason and token counts the
non-streamed one would. `sse_events(wire, req, payload)` gives the events as bytes, one
SSE frame each, in the order the real API sends them:

- Anthropic Messages: `message_start` (no content yet, output_tokens 1), `ping`, then per
  content block `content_block_start`, its deltas (`text_delta`, `thinking_delta` then
  `signature_delta`, `input_json_delta` with the input JSON in a few pieces) and
  `content_block_stop`, then `message_delta` (stop reason, output_tokens) and `message_stop`.
- OpenAI Chat Completions: `chat.completion.chunk`s (the role, text pieces, tool-call
  deltas, the finish reason), a usage chunk with no choices when the request set
  `stream_options.include_usage`, then `data: [DONE]`. As llama-cpp-python's server
  (`llama_cpp`): no usage chunk, and each tool-call chunk repeats the call's id and name.
- OpenAI Responses: `response.created`, `response.in_progress`, per output item
  `response.output_item.added`, its text or function-arguments deltas and `.done` events,
  `response.output_item.done`, then `response.completed` (or `response.incomplete`)
  carrying the whole response and its usage.

Pieces are cut in three so a client that only keeps the first or the last delta is caught.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.llm_wire import Request

PIECES = 3


def sse_events(wire: str, req: Request, payload: dict[str, Any], *,
               usage: bool = True, llama_cpp: bool = False) -> list[bytes]:
    """The SSE frames of the whole reply `payload`, streamed on `wire`. `usage=False`: no
    Chat Completions usage chunk whatever the request asked; `llama_cpp`: that too, and tool
    calls streamed as llama-cpp-python's server streams them (below)."""
    if wire == "anthropic":
        return [_frame(e, event=e["type"]) for e in _anthropic(payload)]
    if wire == "responses":
        return [_frame(e, event=e["type"]) for e in _responses(payload)]
    usage = usage and not llama_cpp and bool(
        (req.body.get("stream_options") or {}).get("include_usage"))
    return [_frame(e) for e in _chat(payload, usage, llama_cpp)] + [b"data: [DONE]\n\n"]


def _frame(data: dict[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def _pieces(s: str) -> list[str]:
    """`s` in PIECES nearly equal non-empty pieces (fewer when it is shorter)."""
    if not s:
        return []
    size = max(1, -(-len(s) // PIECES))
    return [s[i:i + size] for i in range(0, len(s), size)]


# --- Anthropic Messages ------------------------------------------------------------------------


def _anthropic(msg: dict[str, Any]) -> Iterator[dict[str, Any]]:
    usage = msg["usage"]
    # The real API reports the whole prompt up front and output_tokens 1 until message_delta.
    yield {"type": "message_start", "message": {
        **msg, "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {**usage, "output_tokens": 1}}}
    yield {"type": "ping"}
    for i, block in enumerate(msg["content"]):
        kind = block["type"]
        if kind == "text":
            yield _block_start(i, {"type": "text", "text": ""})
            for piece in _pieces(block["text"]):
                yield _block_delta(i, {"type": "text_delta", "text": piece})
        elif kind == "thinking":
            yield _block_start(i, {"type": "thinking", "thinking": "", "signature": ""})
            for piece in _pieces(block["thinking"]):
                yield _block_delta(i, {"type": "thinking_delta", "thinking": piece})
            yield _block_delta(i, {"type": "signature_delta", "signature": block["signature"]})
        else:  # tool_use: the input arrives as JSON text, after an empty first piece
            yield _block_start(i, {**block, "input": {}})
            args = block["input"]
            doc = args if isinstance(args, str) else json.dumps(args)
            for piece in ["", *_pieces(doc)]:
                yield _block_delta(i, {"type": "input_json_delta", "partial_json": piece})
        yield {"type": "content_block_stop", "index": i}
    yield {"type": "message_delta",
           "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": msg["stop_sequence"]},
           "usage": {"output_tokens": usage["output_tokens"]}}
    yield {"type": "message_stop"}


def _block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _block_delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


# --- OpenAI Chat Completions -------------------------------------------------------------------


def _chat(done: dict[str, Any], include_usage: bool,
          llama_cpp: bool = False) -> Iterator[dict[str, Any]]:
    head = {"id": done["id"], "object": "chat.completion.chunk", "created": done["created"],
            "model": done["model"], "system_fingerprint": None}
    # With include_usage every chunk carries "usage": null until the last one.
    if include_usage:
        head["usage"] = None
    choice = done["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None,
                                     "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": "", "refusal": None})
    for piece in _pieces(message["content"] or ""):
        yield chunk({"content": piece})
    for n, call in enumerate(message.get("tool_calls") or []):
        fn = call["function"]
        if llama_cpp:
            # llama-cpp-python repeats the call's id and name (and the legacy function_call)
            # in every chunk, the arguments one piece each.
            for piece in _pieces(fn["arguments"]):
                part = {"name": fn["name"], "arguments": piece}
                yield chunk({"function_call": part, "tool_calls": [
                    {"index": n, "id": call["id"], "type": "function", "function": part}]})
            continue
        yield chunk({"tool_calls": [{"index": n, "id": call["id"], "type": "function",
                                     "function": {"name": fn["name"], "arguments": ""}}]})
        for piece in _pieces(fn["arguments"]):
            yield chunk({"tool_calls": [{"index": n, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if include_usage:
        yield {**head, "choices": [], "usage": done["usage"]}


# --- OpenAI Responses --------------------------------------------------------------------------


def _responses(done: dict[str, Any]) -> Iterator[dict[str, Any]]:
    seq = 0

    def event(kind: str, **fields: Any) -> dict[str, Any]:
        nonlocal seq
        seq += 1
        return {"type": kind, "sequence_number": seq - 1, **fields}

    started = {**done, "status": "in_progress", "output": [], "usage": None,
               "incomplete_details": None}
    yield event("response.created", response=started)
    yield event("response.in_progress", response=started)
    for n, item in enumerate(done["output"]):
        at = {"item_id": item["id"], "output_index": n}
        if item["type"] == "message":
            yield event("response.output_item.added", output_index=n,
                        item={**item, "status": "in_progress", "content": []})
            for c, part in enumerate(item["content"]):
                yield event("response.content_part.added", **at, content_index=c,
                            part={**part, "text": ""})
                for piece in _pieces(part["text"]):
                    yield event("response.output_text.delta", **at, content_index=c,
                                delta=piece, logprobs=[])
                yield event("response.output_text.done", **at, content_index=c,
                            text=part["text"], logprobs=[])
                yield event("response.content_part.done", **at, content_index=c, part=part)
        else:  # function_call
            yield event("response.output_item.added", output_index=n,
                        item={**item, "status": "in_progress", "arguments": ""})
            for piece in _pieces(item["arguments"]):
                yield event("response.function_call_arguments.delta", **at, delta=piece)
            yield event("response.function_call_arguments.done", **at, name=item["name"],
                        arguments=item["arguments"])
        yield event("response.output_item.done", output_index=n, item=item)
    last = "response.completed" if done["status"] == "completed" else "response.incomplete"
    yield event(last, response=done)
