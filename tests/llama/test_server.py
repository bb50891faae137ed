"""The llama.cpp test server itself: it starts, serves SmolLM2 under its alias and answers
the OpenAI wire protocol, tool calls included (what Harbor's agents and ours rely on)."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = pytest.mark.timeout(600)


def test_it_lists_its_model(llama_server):
    # Generous: a generation an earlier test abandoned (a timed-out agent) may still run.
    with urllib.request.urlopen(llama_server.base_url + "/models", timeout=300) as resp:
        models = json.load(resp)
    assert [m["id"] for m in models["data"]] == [llama_server.model]
    assert llama_server.model_path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_a_chat_completion_counts_its_tokens(llama_server):
    import openai  # loaded by the tests that use it, not by every worker's collection

    client = openai.OpenAI(base_url=llama_server.base_url, api_key="sk-local", timeout=300)
    resp = client.chat.completions.create(
        model=llama_server.model, max_tokens=8,
        messages=[{"role": "user", "content": "Say hello."}])
    assert resp.choices[0].message.content is not None
    assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0


def test_a_forced_tool_call_comes_back_as_a_tool_call(llama_server):
    import openai  # loaded by the tests that use it, not by every worker's collection

    client = openai.OpenAI(base_url=llama_server.base_url, api_key="sk-local", timeout=300)
    tool = {"type": "function", "function": {
        "name": "bash", "description": "Run a shell command",
        "parameters": {"type": "object", "properties": {"command": {"type": "string",
                                                                    "maxLength": 40}},
                       "required": ["command"], "additionalProperties": False}}}
    resp = client.chat.completions.create(
        model=llama_server.model, max_tokens=40, tools=[tool],
        tool_choice={"type": "function", "function": {"name": "bash"}},
        messages=[{"role": "user", "content": "List the files here."}])
    calls = resp.choices[0].message.tool_calls
    assert calls and calls[0].function.name == "bash"
    # llama.cpp's JSON grammar lets a model put raw control characters (a newline) inside
    # a string; skillforge reads them as those characters (strict=False), so does this.
    assert set(json.loads(calls[0].function.arguments, strict=False)) == {"command"}
