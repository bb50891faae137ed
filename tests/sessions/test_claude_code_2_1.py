"""What the real Claude Code 2.1.327 wrote, imported: its stream and its session log.

The fixtures in tests/harnesses/fixtures/real_claude were recorded by running the real
binary against a scripted Messages server (record.py there regenerates them). The server
reported known usage per reply, summed in `<name>.expected.json`; the importer must find
those sums in what the CLI wrote, which is the `result` event (stream) and the `cost-state`
event (session log), not the assistant events (the stream's carry message_start usage).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions.atif import trajectory_to_dict
from sessions.atif_rules import validate_trajectory
from sessions.importers.claude_code import import_claude_code
from skillforge.harnesses.claude_code import ClaudeCodeHarness
from skillforge.sandbox.base import ExecResult
from skillforge.trajectory.facts import activated_skills, call_outcomes, script_runs

REAL = Path(__file__).resolve().parents[1] / "harnesses" / "fixtures" / "real_claude"
SCENARIOS = ("basic", "skill", "agent", "max_turns", "api_error")
KINDS = ("stream", "session")
ALL_FILES = sorted(REAL.glob("*.jsonl"))


def _expected(name: str) -> dict:
    return json.loads((REAL / f"{name}.expected.json").read_text())


def _import(name: str, kind: str):
    return import_claude_code(REAL / f"{name}.{kind}.jsonl")


def _calls(traj) -> dict[str, list]:
    """function name -> [(call, its result)] in order."""
    out: dict[str, list] = {}
    for step in traj.steps:
        for call in step.tool_calls or []:
            out.setdefault(call.function_name, []).append((call, traj.result_for(step, call)))
    return out


def test_the_fixtures_were_recorded_from_2_1_327():
    assert len(ALL_FILES) == 11  # 5 streams, 5 session logs, 1 subagent log
    for name in SCENARIOS:
        exp = _expected(name)
        assert exp["claude_code_version"] == "2.1.327"
        assert exp["result_subtype"] == exp["expect_subtype"]


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_every_file_imports_clean_and_validates_against_the_schema(path):
    result = import_claude_code(path)
    assert result.warnings == [] and result.skipped.count == 0
    assert validate_trajectory(trajectory_to_dict(result.trajectory)) == []
    assert result.trajectory.agent.version == "2.1.327"
    # an API error at once leaves the log no model's reply, only the CLI's "<synthetic>" one
    model = None if path.name == "api_error.session.jsonl" else "claude-opus-5-5"
    assert result.trajectory.agent.model_name == model


def test_2_1_bookkeeping_events_are_counted_as_ignored():
    ignored = _import("basic", "session").ignored
    # how many atis-latch lines a run writes varies between recordings; the kinds do not
    assert set(ignored) == {"queue-operation", "attachment", "atis-latch", "api-request-shape",
                            "api-request-blob", "api-request", "tools-used", "last-prompt",
                            "cost-state"}
    assert (ignored["api-request"], ignored["cost-state"]) == (3, 1)  # one per reply; one


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", SCENARIOS)
def test_token_totals_are_the_servers_sums(name, kind):
    sums = _expected(name)["totals"]
    fm = _import(name, kind).trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == (
        sums["prompt_tokens"], sums["output_tokens"], sums["cache_read_input_tokens"])
    assert fm.extra["usage_source"] == {
        "stream": "result.model_usage_since_last_result", "session": "cost-state"}[kind]


@pytest.mark.parametrize("name", SCENARIOS)
def test_cost_is_the_clis_own_total(name):
    stream, session = _import(name, "stream"), _import(name, "session")
    cost = stream.trajectory.extra["result"]["total_cost_usd"]
    assert stream.trajectory.final_metrics.total_cost_usd == pytest.approx(cost)
    assert session.trajectory.final_metrics.total_cost_usd == pytest.approx(cost)
    assert (cost > 0) == (name != "api_error")


def test_a_subagents_tokens_count_in_the_totals_but_not_in_result_usage():
    exp = _expected("agent")
    main, sub = exp["totals_by_thread"]["main"], exp["totals_by_thread"]["subagent"]
    raw = [json.loads(line) for line in (REAL / "agent.stream.jsonl").read_text().splitlines()]
    result = next(e for e in raw if e["type"] == "result")
    # why modelUsage wins: the result's `usage` counts the main thread's two replies only
    assert result["usage"]["output_tokens"] == main["output_tokens"] != exp["totals"][
        "output_tokens"]
    fm = _import("agent", "stream").trajectory.final_metrics
    assert fm.total_completion_tokens == main["output_tokens"] + sub["output_tokens"]
    assert fm.extra["models"]["claude-opus-5-5"]["output_tokens"] == fm.total_completion_tokens
    # the subagent's own log (2.1 writes it beside the session) sums to the subagent's share
    own = import_claude_code(REAL / "agent.subagent-1.jsonl").trajectory
    assert own.final_metrics.total_completion_tokens == sub["output_tokens"]
    assert own.final_metrics.total_prompt_tokens == sub["prompt_tokens"]
    assert all(s.extra.get("is_sidechain") for s in own.steps)


def test_session_log_steps_carry_each_replys_final_usage():
    replies = [r for r in _expected("basic")["requests"] if "usage" in r]
    steps = [s for s in _import("basic", "session").trajectory.steps if s.source == "agent"]
    assert [(s.metrics.prompt_tokens, s.metrics.completion_tokens) for s in steps] == [
        (r["usage"]["input_tokens"] + r["usage"]["cache_creation_input_tokens"]
         + r["usage"]["cache_read_input_tokens"], r["usage"]["output_tokens"]) for r in replies]


def test_stream_steps_keep_the_input_but_not_message_starts_output_count():
    replies = [r for r in _expected("basic")["requests"] if "usage" in r]
    steps = [s for s in _import("basic", "stream").trajectory.steps if s.source == "agent"]
    assert [s.metrics.cached_tokens for s in steps] == [
        r["usage"]["cache_read_input_tokens"] for r in replies]
    assert all(s.metrics.completion_tokens is None for s in steps)
    assert {s.metrics.extra["output_tokens_at_start"] for s in steps} == {1}


@pytest.mark.parametrize("kind", KINDS)
def test_bash_and_write_calls_come_with_their_results(kind):
    calls = _calls(_import("basic", kind).trajectory)
    assert list(calls) == ["Bash", "Write"]
    (bash, out), = calls["Bash"]
    assert bash.arguments["command"] == "wc -l notes.txt" and out.content == "3 notes.txt"
    (write, done), = calls["Write"]
    assert write.arguments["file_path"] == "/tmp/claude-rec/work/summary.md"
    assert done.content.startswith("File created successfully at: /tmp/claude-rec/work/")


@pytest.mark.parametrize("kind", KINDS)
def test_the_skill_tool_activates_the_staged_skill_and_its_script_runs(kind):
    traj = _import("skill", kind).trajectory
    calls = _calls(traj)
    (skill, launched), = calls["Skill"]
    assert skill.arguments == {"skill": "line-stats"}
    assert launched.content == "Launching skill: line-stats"
    assert activated_skills(traj) == ["line-stats"]
    (run,) = script_runs(traj)
    assert (run.skill_name, run.script, run.ok) == ("line-stats", "scripts/count.sh", True)
    # the SKILL.md body the CLI injects is a meta user step, not the user's words
    (body,) = [s for s in traj.steps if s.source == "user" and "Base directory" in s.text]
    assert body.extra["is_meta"] is True
    if kind == "stream":
        assert "line-stats" in traj.extra["init"]["skills"]


def test_the_agent_tool_and_the_subagents_steps_in_the_stream():
    traj = _import("agent", "stream").trajectory
    calls = _calls(traj)
    (agent, handed_back), = calls["Agent"]
    assert agent.arguments["subagent_type"] == "general-purpose"
    assert "notes.txt has 3 lines." in handed_back.content
    sub = [s for s in traj.steps if (s.extra or {}).get("is_sidechain")]
    assert {s.extra["parent_tool_use_id"] for s in sub} == {agent.tool_call_id}
    assert [c.function_name for s in sub for c in s.tool_calls or []] == ["Bash"]
    assert not any((s.extra or {}).get("is_sidechain") for s in traj.steps
                   if s.tool_calls and s.tool_calls[0].function_name == "Agent")


def test_the_agent_tool_in_the_session_log():
    # 2.1 keeps the subagent's events out of the main log: the call and its result remain
    traj = _import("agent", "session").trajectory
    (agent, handed_back), = _calls(traj)["Agent"]
    assert "notes.txt has 3 lines." in handed_back.content
    assert not any((s.extra or {}).get("is_sidechain") for s in traj.steps)


@pytest.mark.parametrize("kind", KINDS)
def test_max_turns_keeps_the_pending_call_and_its_result(kind):
    traj = _import("max_turns", kind).trajectory
    (bash, out), = _calls(traj)["Bash"]
    assert out.content == "3 notes.txt"
    assert [o.error for o in call_outcomes(traj)] == [False]
    if kind == "stream":
        assert traj.extra["result"]["subtype"] == "error_max_turns"
        assert traj.extra["result"]["terminal_reason"] == "max_turns"


@pytest.mark.parametrize("kind", KINDS)
def test_an_api_error_run_imports_with_the_clis_error_text(kind):
    traj = _import("api_error", kind).trajectory
    (error,) = [s for s in traj.steps if s.source == "agent"]
    assert error.message == "API Error: 400 scripted failure from record.py"
    assert error.extra["api_error"] == (400 if kind == "stream" else True)
    if kind == "stream":
        # 2.1.327 reports it as subtype "success" with is_error set
        assert {k: traj.extra["result"][k] for k in ("subtype", "is_error", "terminal_reason",
                                                    "api_error_status")} == {
            "subtype": "success", "is_error": True, "terminal_reason": "api_error",
            "api_error_status": 400}


def test_the_harness_reads_each_recorded_end_the_way_a_trial_needs():
    harness = ClaudeCodeHarness()
    ends = {}
    for name in SCENARIOS:
        run = ExecResult(exit_code=_expected(name)["exit_code"])
        ends[name] = harness.outcome(_import(name, "stream"), run).stop
    assert ends == {"basic": "final_answer", "skill": "final_answer", "agent": "final_answer",
                    "max_turns": "max_turns", "api_error": "error"}
