"""The loopback LLM server streams like the real APIs: the real `anthropic` and `openai` SDKs
stream from it, and the real Claude Code CLI (the binary bundled in `claude-agent-sdk`) runs
a scripted trial against it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import time
from pathlib import Path

import anthropic
import openai
import pytest

from tests.llm_server import LLMServer, error, text, tool_call

MODEL = "test-model"
ASK = [{"role": "user", "content": "Say hello"}]
BASH = {"name": "bash", "description": "Run a shell command",
        "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                         "required": ["command"]}}
FN_BASH = {"type": "function", "name": "bash", "description": "Run a shell command",
           "parameters": BASH["input_schema"]}
LONG = "Hello there, this answer comes in several pieces."
FAKE_KEY = "sk-ant-test-not-a-real-key"


@pytest.fixture
def claude_client(llm_server):
    with anthropic.Anthropic(api_key="test-key", base_url=llm_server.anthropic_base_url,
                             max_retries=0) as client:
        yield client


@pytest.fixture
def openai_client(llm_server):
    with openai.OpenAI(api_key="test-key", base_url=llm_server.openai_base_url,
                       max_retries=0) as client:
        yield client


# --- Anthropic Messages, streamed ---------------------------------------------------------


def test_anthropic_stream_delivers_text_whole_with_the_usage_sent(llm_server, claude_client):
    llm_server.script(text(LONG, usage={"input": 300, "output": 12, "cached": 100}))

    with claude_client.messages.stream(model=MODEL, max_tokens=100, messages=ASK) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()

    assert len(pieces) > 1 and "".join(pieces) == LONG
    assert final.content[0].text == LONG and final.stop_reason == "end_turn"
    sent = llm_server.requests[0].response["usage"]
    assert final.usage.input_tokens == sent["input_tokens"] == 200
    assert final.usage.cache_read_input_tokens == 100 and final.usage.output_tokens == 12


def test_anthropic_stream_sends_the_events_in_the_real_order(llm_server, claude_client):
    llm_server.script(tool_call("bash", {"command": "ls /workspace"}, text="Looking."))

    events = list(claude_client.messages.create(model=MODEL, max_tokens=100, messages=ASK,
                                                tools=[BASH], stream=True))

    kinds = [e.type for e in events]  # the SDK drops the `ping` after message_start
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    assert events[0].message.content == [] and events[0].message.usage.output_tokens == 1
    starts = [e.content_block.type for e in events if e.type == "content_block_start"]
    assert starts == ["text", "tool_use"]
    json_pieces = [e.delta.partial_json for e in events
                   if e.type == "content_block_delta" and e.delta.type == "input_json_delta"]
    assert len(json_pieces) > 2 and json.loads("".join(json_pieces)) == {"command": "ls /workspace"}
    assert events[-2].delta.stop_reason == "tool_use"
    assert events[-2].usage.output_tokens == llm_server.requests[0].response["usage"][
        "output_tokens"]
    assert llm_server.requests[0].headers["content-type"] == "application/json"


def test_anthropic_stream_tool_call_and_thinking_arrive_whole(llm_server, claude_client):
    llm_server.thinking = True
    llm_server.script(tool_call("bash", {"command": "ls"}))

    with claude_client.messages.stream(model=MODEL, max_tokens=100, messages=ASK,
                                       tools=[BASH]) as stream:
        final = stream.get_final_message()

    thinking, call = final.content
    assert thinking.type == "thinking" and thinking.signature.startswith("sig-")
    assert thinking.thinking == "Let me work this out."
    assert (call.type, call.name, call.input) == ("tool_use", "bash", {"command": "ls"})
    assert final.stop_reason == "tool_use"


def test_a_delayed_stream_starts_at_once_and_sees_the_client_leave(llm_server, claude_client):
    llm_server.script(text("too late", delay=5))
    started = time.monotonic()

    with claude_client.messages.stream(model=MODEL, max_tokens=100, messages=ASK) as stream:
        first = next(iter(stream))  # message_start arrives before the delay
        assert first.type == "message_start"
        assert time.monotonic() - started < 2

    req = llm_server.requests[0]
    assert req.disconnected.wait(2), "the server did not notice the client hang up"
    assert time.monotonic() - started < 4


def test_claude_code_requests_shapes_are_accepted(llm_server, claude_client):
    """Query string, a mid-conversation system message, Claude Code's extra fields."""
    llm_server.script(text("ok"))
    conv = [*ASK, {"role": "system", "content": [{"type": "text", "text": "Skills: csv-insights"}]}]

    with claude_client.messages.stream(
            model=MODEL, max_tokens=128000, messages=conv, extra_query={"beta": "true"},
            extra_body={"thinking": {"type": "adaptive", "display": "updates"},
                        "context_management": {"edits": [{"type": "clear_thinking_20251015"}]},
                        "output_config": {"effort": "medium"}, "metadata": {"user_id": "u"}},
    ) as stream:
        assert stream.get_final_text() == "ok"

    [req] = llm_server.requests
    assert req.path == "/v1/messages?beta=true" and req.endpoint == "/v1/messages"
    assert "Skills: csv-insights" in req.all_text()


def test_count_tokens_answers_what_a_completion_would_count(llm_server, claude_client):
    llm_server.script(text("ok"))

    counted = claude_client.messages.count_tokens(model=MODEL, messages=ASK)
    done = claude_client.messages.create(model=MODEL, max_tokens=10, messages=ASK)

    assert counted.input_tokens == done.usage.input_tokens > 0
    assert [r.endpoint for r in llm_server.requests] == ["/v1/messages/count_tokens",
                                                         "/v1/messages"]
    assert llm_server.completions == llm_server.requests[1:]
    assert llm_server.pending == 0  # the count took no scripted reply


# --- OpenAI Chat Completions and Responses, streamed ----------------------------------------


def test_openai_chat_stream_text_and_usage_chunk(llm_server, openai_client):
    llm_server.script(text(LONG, usage={"input": 50, "output": 9}))

    chunks = list(openai_client.chat.completions.create(
        model=MODEL, messages=ASK, stream=True, stream_options={"include_usage": True}))

    pieces = [c.choices[0].delta.content for c in chunks if c.choices]
    assert len([p for p in pieces if p]) > 1 and "".join(p or "" for p in pieces) == LONG
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage.prompt_tokens == 50
    assert chunks[-1].usage.completion_tokens == 9


def test_openai_chat_stream_tool_call_arrives_whole(llm_server, openai_client):
    llm_server.script(tool_call("bash", {"command": "ls /workspace"}))

    with openai_client.chat.completions.stream(
            model=MODEL, messages=ASK, tools=[{"type": "function", "function": {
                "name": "bash", "parameters": BASH["input_schema"]}}]) as stream:
        final = stream.get_final_completion()

    [call] = final.choices[0].message.tool_calls
    assert call.function.name == "bash" and call.id.startswith("call_")
    assert json.loads(call.function.arguments) == {"command": "ls /workspace"}
    assert final.choices[0].finish_reason == "tool_calls"
    assert final.usage is None  # not asked for


def test_responses_api_text_and_function_call_round_trip(llm_server, openai_client):
    llm_server.script(tool_call("bash", {"command": "ls"}), text("Two files.",
                                                                 usage={"input": 40, "output": 3}))

    first = openai_client.responses.create(model=MODEL, input="What is here?", tools=[FN_BASH])
    [call] = first.output
    assert (call.type, call.name, json.loads(call.arguments)) == ("function_call", "bash",
                                                                  {"command": "ls"})
    second = openai_client.responses.create(model=MODEL, tools=[FN_BASH], input=[
        {"role": "user", "content": "What is here?"},
        {"type": "function_call", "call_id": call.call_id, "name": "bash",
         "arguments": call.arguments},
        {"type": "function_call_output", "call_id": call.call_id, "output": "a.csv b.csv"}])

    assert second.output_text == "Two files." and second.status == "completed"
    assert (second.usage.input_tokens, second.usage.output_tokens,
            second.usage.total_tokens) == (40, 3, 43)
    assert "a.csv b.csv" in llm_server.requests[1].all_text()


def test_responses_api_refuses_an_output_without_its_call(llm_server, openai_client):
    with pytest.raises(openai.BadRequestError, match="no tool call found"):
        openai_client.responses.create(model=MODEL, input=[
            {"type": "function_call_output", "call_id": "call_x", "output": "?"}])


def test_responses_api_stream_text_and_function_call(llm_server, openai_client):
    llm_server.script(tool_call("bash", {"command": "ls"}, text=LONG))

    events = list(openai_client.responses.create(model=MODEL, input="Hi", tools=[FN_BASH],
                                                 stream=True))

    kinds = [e.type for e in events]
    assert kinds[:2] == ["response.created", "response.in_progress"]
    assert kinds[-1] == "response.completed"
    assert [e.sequence_number for e in events] == list(range(len(events)))
    deltas = [e.delta for e in events if e.type == "response.output_text.delta"]
    assert len(deltas) > 1 and "".join(deltas) == LONG
    added = [e.item.type for e in events if e.type == "response.output_item.added"]
    assert added == ["message", "function_call"]
    done = [e.item for e in events if e.type == "response.output_item.done"][-1]
    assert (done.name, json.loads(done.arguments)) == ("bash", {"command": "ls"})
    usage = events[-1].response.usage
    assert usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert usage.input_tokens == llm_server.requests[0].response["usage"]["input_tokens"]


# --- the real Claude Code CLI -----------------------------------------------------------------


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    spec = importlib.util.find_spec("claude_agent_sdk")
    found = Path(spec.origin).parent / "_bundled" / "claude" if spec and spec.origin else None
    if found is None or not found.is_file():
        pytest.fail("Claude Code is missing: the pinned `claude-agent-sdk` wheel (the dev "
                    "extra) bundles it at claude_agent_sdk/_bundled/claude. Run `make` to "
                    "install the dev dependencies.")
    return found


def run_claude(claude_bin: Path, server: LLMServer, tmp_path: Path, task: str, *args: str,
               **env: str) -> tuple[subprocess.CompletedProcess, list[dict], Path]:
    """Claude Code in print mode in a fresh workdir and HOME: (process, events, workdir)."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    clean = {"HOME": str(home), "PATH": "/usr/bin:/bin", "ANTHROPIC_API_KEY": FAKE_KEY,
             "ANTHROPIC_BASE_URL": server.anthropic_base_url,
             "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
             # We run as root here; Claude refuses --dangerously-skip-permissions as root
             # unless told it is in a sandbox.
             "IS_SANDBOX": "1", **env}
    proc = subprocess.run([str(claude_bin), "-p", task, "--output-format", "stream-json",
                           "--verbose", "--dangerously-skip-permissions", *args],
                          cwd=work, env=clean, capture_output=True, text=True, timeout=20)
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc, events, work


WRITE_HELLO = tool_call("Bash", {"command": "echo hello > out.txt",
                                 "description": "Write hello to out.txt"})


def test_claude_code_runs_a_scripted_tool_call(claude_bin, llm_server, tmp_path):
    llm_server.script(WRITE_HELLO, text("Wrote out.txt."))

    proc, events, work = run_claude(claude_bin, llm_server, tmp_path,
                                    "Write hello into out.txt", "--max-turns", "5")

    assert proc.returncode == 0, proc.stderr
    assert (work / "out.txt").read_text() == "hello\n"
    result = events[-1]
    assert (result["type"], result["subtype"], result["result"]) == ("result", "success",
                                                                      "Wrote out.txt.")
    first, second = llm_server.completions
    assert llm_server.requests == [first, second]  # no other call (count_tokens, GET)
    assert all(r.streamed and r.path == "/v1/messages?beta=true" for r in (first, second))
    assert first.headers["x-api-key"] == FAKE_KEY and "authorization" not in first.headers
    # Its environment travels as a mid-conversation system message, accepted and readable.
    assert [m["role"] for m in first.messages] == ["user", "system"]
    assert str(work) in first.all_text()
    [tool_use] = [b for b in second.messages[-2]["content"] if b["type"] == "tool_use"]
    [tool_result] = second.messages[-1]["content"]
    assert tool_result["type"] == "tool_result"
    assert tool_result["tool_use_id"] == tool_use["id"]
    # Claude Code sums the usage of its streamed turns: the counts the server sent.
    sent = [r.response["usage"] for r in (first, second)]
    assert result["usage"]["input_tokens"] == sum(u["input_tokens"] for u in sent)
    assert result["usage"]["output_tokens"] == sum(u["output_tokens"] for u in sent)


def test_claude_code_stops_at_max_turns_with_a_tool_call_pending(claude_bin, llm_server,
                                                                 tmp_path):
    llm_server.script(WRITE_HELLO, text("never asked for"))

    proc, events, work = run_claude(claude_bin, llm_server, tmp_path,
                                    "Write hello into out.txt", "--max-turns", "1")

    assert proc.returncode == 1
    result = events[-1]
    assert (result["type"], result["subtype"], result["is_error"]) == ("result",
                                                                        "error_max_turns", True)
    # The tool still ran; its result never went back to the model.
    assert (work / "out.txt").read_text() == "hello\n"
    assert len(llm_server.completions) == 1 and llm_server.pending == 1


def test_claude_code_gives_up_on_an_overloaded_api(claude_bin, llm_server, tmp_path):
    """After the first turn every request gets 529; Claude retries once, then stops."""
    llm_server.script(WRITE_HELLO)
    llm_server.handler = lambda req: error(529, "Overloaded")

    proc, events, work = run_claude(claude_bin, llm_server, tmp_path,
                                    "Write hello into out.txt", "--max-turns", "5",
                                    CLAUDE_CODE_MAX_RETRIES="1")

    assert proc.returncode == 1
    result = events[-1]
    assert result["type"] == "result" and result["is_error"] is True
    # 2.1.327 reports an API failure as subtype "success" with is_error and the status.
    assert result["api_error_status"] == 529 and "529" in result["result"]
    assert [e["subtype"] for e in events if e["type"] == "system"].count("api_retry") == 1
    assert len(llm_server.completions) == 3  # the tool call, then 529 and one retry
