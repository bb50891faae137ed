"""Choosing a harness: what it needs before a run starts, its command line and its key handling."""

from __future__ import annotations

import json

import io
import tarfile

import pytest

from sessions.importers.base import ImportResult
from sessions.importers.claude_code import import_claude_code
from skillforge.harnesses.claude_code import DEFAULT_TOOLS
from skillforge.harnesses import (
    ClaudeCodeHarness,
    CodexHarness,
    HarnessError,
    check_agent,
    get_harness,
    redact,
)
from skillforge.models.config import Settings
from skillforge.sandbox.base import ExecResult
from skillforge.trials.config import TrialConfigError, build_run_spec, check_harness
from tests.harnesses.test_stream_importers import FIXTURES

KEY = "sk-ant-test-0123456789abcdef"


def test_the_builtin_agent_has_no_harness_and_unknown_agents_are_named():
    assert get_harness("builtin") is None
    with pytest.raises(HarnessError, match="unknown agent 'aider': use one of builtin, "
                                           "claude-code, codex"):
        get_harness("aider")


def test_a_harness_needs_docker_but_not_network():
    with pytest.raises(HarnessError, match="use --sandbox docker"):
        check_agent("claude-code", environ={"ANTHROPIC_API_KEY": KEY}, sandbox="local",
                    network=True)
    # without --network the container reaches only skillforge's model proxy: enough
    assert check_agent("claude-code", environ={"ANTHROPIC_API_KEY": KEY}, sandbox="docker",
                       network=False) is not None


def test_a_harness_needs_its_providers_key():
    with pytest.raises(HarnessError, match="needs ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN"):
        check_agent("claude-code", sandbox="docker", network=True,
                    environ={"OPENAI_API_KEY": KEY})
    with pytest.raises(HarnessError, match="--agent codex needs OPENAI_API_KEY"):
        check_agent("codex", sandbox="docker", network=True, environ={"ANTHROPIC_API_KEY": KEY})


def test_the_run_spec_takes_the_harness_provider_and_checks_it_can_run(csv_skill,
                                                                      monkeypatch):
    with pytest.raises(TrialConfigError, match="unknown agent 'aider'"):
        build_run_spec(csv_skill, Settings(), {"agent": "aider"})
    # a spec can be built without a key (`export harbor` builds one) ...
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_OAUTH_TOKEN", raising=False)
    spec = build_run_spec(csv_skill, Settings(), {"agent": "claude-code"})
    assert (spec.agent, spec.provider, spec.network) == ("claude-code", "anthropic", False)
    assert spec.harness_cli == "auto"
    # ... but it cannot run like that
    with pytest.raises(TrialConfigError, match="needs ANTHROPIC_API_KEY"):
        check_harness(spec)
    spec = build_run_spec(csv_skill, Settings(), {"agent": "codex", "network": True,
                                                  "provider": "anthropic"})
    assert spec.provider == "anthropic"  # a flag still wins
    with pytest.raises(TrialConfigError, match="--agent codex needs OPENAI_API_KEY"):
        check_harness(spec)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    check_harness(spec)
    check_harness(spec.model_copy(update={"agent": "builtin", "network": False}))


def test_claude_codes_command_line_and_environment():
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": KEY,
                                         "ANTHROPIC_BASE_URL": "https://gateway.example/v1"})
    creds = harness.proxy_credentials("sk-skillforge-trial", "http://172.17.0.1:4000/v1")
    assert harness.argv("Summarise sales.csv", None, 12, creds) == [
        "claude", "-p", "Summarise sales.csv", "--output-format", "stream-json", "--verbose",
        "--dangerously-skip-permissions", "--max-turns", "12", "--tools", DEFAULT_TOOLS]
    # a prompt that looks like an option is not read as one
    assert harness.argv("-v means verbose?", "sonnet", 3, creds)[2] == " -v means verbose?"
    env = harness.exec_env(creds)
    # the CLI gets the trial's token and the proxy's address, never the key
    assert env["ANTHROPIC_API_KEY"] == "sk-skillforge-trial" and env["HOME"] == "/home/agent"
    assert env["ANTHROPIC_BASE_URL"] == "http://172.17.0.1:4000/v1"
    assert KEY not in json.dumps(env) and "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB" not in env
    assert env["IS_SANDBOX"] == "1" and env["DISABLE_TELEMETRY"] == "1"
    # the proxy forwards to the host's endpoint with the host's key
    upstream = harness.upstream()
    assert upstream.base_url == "https://gateway.example/v1"
    assert upstream.headers == {"x-api-key": KEY} and KEY not in repr(upstream)
    assert KEY not in repr(harness.credentials())
    assert harness.skills_dir == "/home/agent/.claude/skills"
    oauth = ClaudeCodeHarness(environ={"CLAUDE_CODE_OAUTH_TOKEN": "oauth-token-0123456789"})
    assert oauth.upstream().headers == {"authorization": "Bearer oauth-token-0123456789",
                                        "anthropic-beta": "oauth-2025-04-20"}
    assert oauth.upstream().base_url == "https://api.anthropic.com"


def test_codex_gets_the_token_under_the_names_codex_exec_reads():
    harness = CodexHarness(environ={"OPENAI_API_KEY": KEY,
                                    "OPENAI_BASE_URL": "http://10.0.0.5:8000/v1"})
    creds = harness.proxy_credentials("sk-skillforge-trial", "http://192.168.64.1:4001/v1")
    argv = harness.argv("-- tricky task", "gpt-5.5", 30, creds)
    assert argv == ["codex", "exec", "--json", "--skip-git-repo-check",
                    "--dangerously-bypass-approvals-and-sandbox", "-c",
                    "shell_environment_policy.ignore_default_excludes=false", "--model", "gpt-5.5",
                    "-c", 'openai_base_url="http://192.168.64.1:4001/v1"', "--", "-- tricky task"]
    env = harness.exec_env(creds)
    assert env["CODEX_API_KEY"] == env["OPENAI_API_KEY"] == "sk-skillforge-trial"
    assert KEY not in " ".join(argv) and KEY not in json.dumps(env)
    upstream = harness.upstream()
    assert (upstream.base_url, upstream.path, upstream.origin) == \
        ("http://10.0.0.5:8000/v1", "/v1", "http://10.0.0.5:8000")
    assert upstream.headers == {"authorization": f"Bearer {KEY}"}
    assert harness.skills_dir == "/home/agent/.agents/skills"


def test_keys_are_scrubbed_from_output_but_short_values_are_not():
    text = f'{{"output": "ANTHROPIC_API_KEY={KEY}\\nTERM=xterm"}}'
    assert redact(text, {"ANTHROPIC_API_KEY": KEY}) == \
        '{"output": "ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]\\nTERM=xterm"}'
    assert redact("a b c", {"X": "b"}) == "a b c"


def test_the_initial_archive_makes_the_state_folder_the_agents():
    harness = ClaudeCodeHarness(environ={}, extra_files={"/opt/skillforge/bin/claude": b"#!/bin/sh\n"})
    data = harness.initial_archive(b"")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {m.name: m for m in tar}
    assert members["home/agent/.claude"].uid == 1000 and members["home/agent/.claude"].isdir()
    assert members["opt/skillforge/bin/claude"].mode == 0o755
    assert members["opt/skillforge/bin/claude"].uid == 0


def _ran(code: int | None = 0, timed_out: bool = False) -> ExecResult:
    return ExecResult(exit_code=code, timed_out=timed_out, stderr="boom" if code else "")


def test_how_a_claude_run_ended_comes_from_its_result_event(tmp_path):
    harness = ClaudeCodeHarness(environ={})
    ok = import_claude_code(FIXTURES / "claude_stream.jsonl")
    assert harness.outcome(ok, _ran()).stop == "final_answer"
    assert harness.outcome(ok, _ran(None, timed_out=True)).stop == "timeout"
    maxed = _with_result(ok, subtype="error_max_turns", is_error=True)
    assert harness.outcome(maxed, _ran(1)).stop == "max_turns"
    failed = _with_result(ok, subtype="error_during_execution", is_error=True)
    out = harness.outcome(failed, _ran(1))
    assert out.stop == "error" and "error_during_execution" in out.error
    no_result = _with_result(ok, drop=True)
    out = harness.outcome(no_result, _ran())
    assert out.stop == "error" and "without its final `result` event" in out.error


def _with_result(result: ImportResult, drop: bool = False, **fields) -> ImportResult:
    extra = dict(result.trajectory.extra or {})
    if drop:
        extra.pop("result")
    else:
        extra["result"] = {**extra["result"], **fields}
    traj = result.trajectory.model_copy(update={"extra": extra})
    return result.model_copy(update={"trajectory": traj})
