"""The importers read what the CLIs print in non-interactive mode, not only their session logs.

- `claude -p --output-format stream-json --verbose`: an `init` event, user/assistant events
  with `session_id` and `parent_tool_use_id`, a final `result` event.
- `codex exec --json`: thread/turn/item events.
Both become valid ATIF with the tool calls, results, exit codes and usage the stream holds.
"""

from __future__ import annotations

from pathlib import Path

from sessions.atif_rules import validate_trajectory
from sessions.importers.claude_code import import_claude_code
from sessions.importers.codex import import_codex
from skillforge.trajectory.facts import activated_skills, call_outcomes, commands, script_runs

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_claude_stream_json_run_becomes_atif():
    result = import_claude_code(FIXTURES / "claude_stream.jsonl")
    traj = result.trajectory
    assert validate_trajectory(traj) == []
    assert result.warnings == [] and result.skipped.count == 0
    assert result.ignored == {"system:init": 1, "result": 1, "stream_event": 1}
    assert traj.session_id == "5b1c8e2a-7f0d-4c1e-9a63-2d8f0e4b7a10"
    assert traj.agent.version == "2.0.64"
    assert traj.agent.model_name == "claude-sonnet-4-5-20250929"
    # init and result are facts of the run, not steps; the key's source is not kept
    init = traj.extra["init"]
    assert init["skills"] == ["csv-insights"] and init["cwd"] == "/workspace"
    assert "apiKeySource" not in init
    assert traj.extra["result"] == {"subtype": "success", "is_error": False, "num_turns": 4,
                                    "duration_ms": 18342, "duration_api_ms": 16920,
                                    "total_cost_usd": 0.0573, "permission_denials": 0}
    # the totals are the result event's: the assistant events only carry message_start usage
    fm = traj.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens,
            fm.total_cost_usd) == (13 + 3300 + 38100, 173, 38100, 0.0573)
    assert fm.extra["usage_source"] == "result.usage"
    assert [s.source for s in traj.steps] == ["agent", "agent", "agent", "agent"]
    first, script, sub, last = traj.steps
    # two stream lines of one message (same id) are one step with the last usage; with no
    # stop_reason it is message_start's, so its input counts and its output is not known
    assert first.message == "I'll use the csv-insights skill."
    assert first.tool_calls[0].function_name == "Skill"
    assert first.metrics.completion_tokens is None
    assert first.metrics.extra["output_tokens_at_start"] == 48
    assert first.metrics.prompt_tokens == 3 + 2100 + 11000
    assert last.metrics.completion_tokens == 30  # stop_reason set: the final usage
    assert script.observation.results[0].extra is None  # not an error, no exit code given
    assert sub.extra["is_sidechain"] is True and sub.extra["parent_tool_use_id"] == \
        "toolu_01Task"
    assert last.message.startswith("Monthly revenue")
    # what the metrics read off it: the Skill tool activates, the script ran from the
    # harness's own skills folder
    assert activated_skills(traj) == ["csv-insights"]
    (run,) = script_runs(traj)
    assert (run.skill_name, run.script, run.ok) == ("csv-insights", "scripts/summarize.py",
                                                     True)


def test_a_codex_exec_json_run_becomes_atif():
    result = import_codex(FIXTURES / "codex_exec.jsonl")
    traj = result.trajectory
    assert validate_trajectory(traj) == []
    assert result.warnings == [] and result.skipped.count == 0
    assert traj.session_id == "0199a8f2-3c4d-7e5f-8a9b-0c1d2e3f4a5b"
    assert traj.agent.name == "codex" and traj.agent.model_name is None  # not in the stream
    calls = [c for s in traj.steps for c in s.tool_calls or []]
    assert [c.function_name for c in calls] == ["exec_command", "exec_command",
                                                 "apply_patch", "mcp__docs__search",
                                                 "exec_command"]
    # `bash -lc '...'` is kept as argv, so readers see the script it runs
    assert calls[0].arguments == {"command": [
        "/bin/bash", "-lc", "cat /home/agent/.agents/skills/csv-insights/SKILL.md"]}
    assert [c.command for c in commands(traj)] == [
        "cat /home/agent/.agents/skills/csv-insights/SKILL.md",
        "python3 /home/agent/.agents/skills/csv-insights/scripts/summarize.py missing.csv",
        "sleep 900"]
    assert activated_skills(traj) == ["csv-insights"]
    (run,) = script_runs(traj)
    assert run.exit_code == 2 and run.ok is False
    outcomes = {(o.function_name, o.tool_call_id): o for o in call_outcomes(traj)}
    assert outcomes[("exec_command", "item_1")].error is False
    assert outcomes[("exec_command", "item_2")].error is True
    assert outcomes[("mcp__docs__search", "item_4")].error is True
    assert outcomes[("exec_command", "item_6")].error is None  # started, never finished
    results = {r.source_call_id: r for s in traj.steps for r in
               (s.observation.results if s.observation else [])}
    assert results["item_4"].content == "server docs is not running"
    assert results["item_3"].content == "add /workspace/summary.md"
    # reasoning and the answer are agent text; the turn's usage sits on its last step
    texts = [s.message for s in traj.steps if s.message]
    assert texts == ["Monthly revenue is in /workspace/summary.md."]
    assert traj.steps[0].reasoning_content.startswith("**Looking for a skill**")
    usage = [s.metrics for s in traj.steps if s.metrics]
    assert len(usage) == 1 and usage[0].prompt_tokens == 24763 and \
        usage[0].cached_tokens == 24448 and usage[0].completion_tokens == 122
    assert traj.final_metrics.total_prompt_tokens == 24763
    assert traj.extra["errors"] == [
        "stream disconnected before completion: Transport error: timeout",
        "stream disconnected before completion"]


def test_a_cut_off_stream_keeps_what_arrived(tmp_path):
    lines = (FIXTURES / "claude_stream.jsonl").read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:5]) + "\n" + lines[5][:40])  # killed mid-line
    result = import_claude_code(cut)
    assert result.skipped.reasons == {"truncated final line": 1}
    assert "result" not in (result.trajectory.extra or {})
    assert [c.function_name for s in result.trajectory.steps for c in s.tool_calls or []] == \
        ["Skill", "Bash"]
