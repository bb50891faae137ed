"""The built-in agent loop on its own: prompt, tools, limits and the ATIF it records.

These run the agent against the loopback server in a `local` sandbox (a temp folder: fast,
no Docker); the same loop in Docker is covered by the paired-run and CLI tests.
"""

from __future__ import annotations

import json
import re

import pytest

from sessions.atif import dumps_trajectory
from sessions.atif_rules import validate_trajectory
from skillforge.agent.loop import AgentRun, system_prompt
from skillforge.agent.tools import MAX_RESULT_CHARS
from skillforge.models.evals import load_evals
from skillforge.models.trial import RunSpec
from skillforge.sandbox import SandboxSpec, open_sandbox
from skillforge.trials.staging import SELF_GENERATED_INSTRUCTION, load_skill_set, stage_trial
from tests.llm_server import error, text, tool_call, tool_calls

pytestmark = pytest.mark.timeout(60)


def _stage(skill, case_id="monthly-revenue", condition="with_skill"):
    spec = RunSpec(skill_path=str(skill))
    evals, _ = load_evals(skill / "evals" / "evals.json")
    return stage_trial(evals.case(case_id), condition, spec, load_skill_set(spec))


async def _run(client, stage, **kw):
    async with open_sandbox("local", SandboxSpec(timeout_sec=60), stage.archive,
                            warn=lambda _m: None) as sb:
        run = AgentRun(client, sb, stage, "Summarise sales.csv by month.",
                       meta={"run_id": "r1", "case_id": "c", "condition": stage.condition,
                             "attempt": 1}, **kw)
        return await run.run()


def test_system_prompt_lists_the_visible_skills_and_nothing_more(csv_skill):
    with_skill = system_prompt(_stage(csv_skill))
    assert "<name>csv-insights</name>" in with_skill
    assert "<location>/skills/csv-insights/SKILL.md</location>" in with_skill
    assert "Summarises CSV and other delimited data files" in with_skill
    assert "# CSV Insights" not in with_skill  # the body stays in SKILL.md
    baseline = system_prompt(_stage(csv_skill, condition="baseline"))
    assert "csv-insights" not in baseline.lower() and "skill" not in baseline.lower()
    assert "sales.csv" in baseline  # the task's files are named in both


async def test_a_final_answer_ends_the_run(llm_server, agent_client, csv_skill):
    llm_server.script(tool_call("bash", {"command": "wc -l sales.csv"}),
                      text("There are 49 lines."))
    result = await _run(agent_client, _stage(csv_skill))
    assert result.stop == "final_answer" and result.final_answer == "There are 49 lines."
    assert result.turns == 2 and result.tool_calls == 1
    step = result.trajectory.steps[2]
    assert step.observation.results[0].content.startswith("49 sales.csv")
    assert step.observation.results[0].extra["exit_code"] == 0
    assert validate_trajectory(json.loads(dumps_trajectory(result.trajectory))) == []


async def test_max_turns_stops_a_model_that_never_answers(llm_server, agent_client, csv_skill):
    llm_server.handler = lambda _req: tool_call("bash", {"command": "true"})
    result = await _run(agent_client, _stage(csv_skill), max_turns=3)
    assert result.stop == "max_turns" and result.turns == 3
    assert len(llm_server.requests) == 3
    assert result.trajectory.extra["stop_reason"] == "max_turns"


async def test_the_timeout_ends_a_slow_run(llm_server, agent_client, csv_skill):
    llm_server.handler = lambda _req: text("late", delay=10)
    result = await _run(agent_client, _stage(csv_skill), timeout_s=1.0)
    assert result.stop == "timeout" and "1 s" in result.error
    assert result.turns == 0 and result.trajectory.steps[-1].source == "user"


async def test_a_tool_command_cannot_outlive_the_trial(llm_server, agent_client, csv_skill):
    llm_server.script(tool_call("bash", {"command": "sleep 30", "timeout": 600}))
    result = await _run(agent_client, _stage(csv_skill), timeout_s=1.5)
    assert result.stop == "timeout"


async def test_tool_errors_come_back_to_the_model(llm_server, agent_client, csv_skill):
    llm_server.script(
        tool_calls([("read_file", {"path": "nope.txt"}), ("frobnicate", {}),
                    ("bash", {"command": "exit 3"}), ("read_file", "{not json"),
                    ("write_file", {"path": "out.txt"})]),
        text("gave up"))
    result = await _run(agent_client, _stage(csv_skill))
    assert result.stop == "final_answer"
    results = result.trajectory.steps[2].observation.results
    contents = [r.content for r in results]
    assert contents[0] == "Error: no such file: /workspace/nope.txt"
    assert "no tool named 'frobnicate'" in contents[1]
    assert contents[2] == "[exit code 3]"
    assert "not a JSON object" in contents[3]
    assert "`content` is required" in contents[4]
    assert all(r.extra["is_error"] for r in results)
    # The model saw every error as a tool result (OpenAI wire: role "tool").
    sent = [m for m in llm_server.requests[1].messages if m["role"] == "tool"]
    assert len(sent) == 5 and sent[0]["content"].startswith("[error] Error: no such file")


async def test_read_and_write_file(llm_server, agent_client, csv_skill):
    llm_server.script(
        tool_call("write_file", {"path": "notes/a.txt", "content": "one\ntwo\nthree\n"}),
        tool_call("read_file", {"path": "/workspace/notes/a.txt", "offset": 2, "limit": 1}),
        tool_call("read_file", {"path": "/skills/csv-insights/SKILL.md", "limit": 3}),
        text("ok"))
    result = await _run(agent_client, _stage(csv_skill))
    wrote, part, head = (s.observation.results[0] for s in result.trajectory.steps[2:5])
    assert wrote.content == "wrote 14 bytes to /workspace/notes/a.txt"
    assert part.content == "two\n\n[lines 2-2 of 3; pass offset=3 to read on]"
    assert head.content.startswith("---\nname: csv-insights\n")
    assert "pass offset=4 to read on" in head.content


async def test_long_outputs_are_capped(llm_server, agent_client, csv_skill):
    llm_server.script(tool_call("bash", {"command": "head -c 300000 /dev/zero | tr '\\0' x"}),
                      text("ok"))
    result = await _run(agent_client, _stage(csv_skill))
    content = result.trajectory.steps[2].observation.results[0].content
    assert len(content) <= MAX_RESULT_CHARS + 200
    assert "omitted" in content and content.endswith("[exit code 0]")


async def test_a_capped_output_says_how_many_bytes_are_missing(llm_server, agent_client,
                                                                csv_skill):
    # The sandbox cuts each stream, the tool cuts again: the model must still see one marker
    # per stream that counts every byte it did not get (not "49 characters omitted").
    command = "head -c 300000 /dev/zero | tr '\\0' q; head -c 70000 /dev/zero | tr '\\0' z >&2"
    llm_server.script(tool_call("bash", {"command": command}), text("ok"))
    result = await _run(agent_client, _stage(csv_skill))
    content = result.trajectory.steps[2].observation.results[0].content
    assert len(content) <= MAX_RESULT_CHARS and content.endswith("[exit code 0]")
    out, _, err = content.partition("\n[stderr]\n")
    for stream, char, total in ((out, "q", 300_000), (err, "z", 70_000)):
        counts = re.findall(r"\[\.\.\. (\d+) bytes omitted \.\.\.\]", stream)
        assert len(counts) == 1 and int(counts[0]) + stream.count(char) == total


async def test_a_provider_failure_ends_the_run_with_an_error(llm_server, agent_client,
                                                             csv_skill):
    llm_server.script(tool_call("bash", {"command": "true"}), error(401, "bad key"))
    result = await _run(agent_client, _stage(csv_skill))
    assert result.stop == "error" and "HTTP 401" in result.error
    assert result.turns == 1  # the turn before the failure is kept
    assert result.cause == "infrastructure"  # left out of the lift, not the run's failure


async def test_a_conversation_the_provider_refuses_is_the_runs_own_failure(
        llm_server, agent_client, csv_skill):
    # A 400 mid-run (the conversation outgrew the context) can be the skill's doing: the trial
    # counts as a failure instead of being left out (skillforge.models.trial.ErrorCause).
    llm_server.script(tool_call("bash", {"command": "true"}),
                      error(400, "prompt is too long"))
    result = await _run(agent_client, _stage(csv_skill))
    assert result.stop == "error" and result.cause == "run"


async def test_per_step_metrics_follow_the_provider_usage(llm_server, agent_client, csv_skill):
    llm_server.script(tool_call("bash", {"command": "true"},
                                usage={"input": 1200, "output": 30, "cached": 1000}),
                      text("done", usage={"input": 1300, "output": 7, "cached": 1200}))
    result = await _run(agent_client, _stage(csv_skill))
    m1, m2 = (s.metrics for s in result.trajectory.steps[2:4])
    assert (m1.prompt_tokens, m1.completion_tokens, m1.cached_tokens) == (1200, 30, 1000)
    assert (m2.prompt_tokens, m2.completion_tokens, m2.cached_tokens) == (1300, 7, 1200)
    fm = result.trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (2500, 37, 2200)


async def test_self_generated_asks_for_notes_before_the_task(llm_server, agent_client,
                                                            csv_skill):
    llm_server.script(text("ok"))
    stage = _stage(csv_skill, condition="self_generated")
    result = await _run(agent_client, stage)
    first_user = llm_server.requests[0].messages[1]["content"]
    assert first_user.startswith(SELF_GENERATED_INSTRUCTION)
    assert first_user.endswith("The task:\nSummarise sales.csv by month.")
    assert "csv-insights" not in llm_server.requests[0].system_text()
    assert result.trajectory.steps[1].text == first_user


async def test_the_loop_speaks_the_anthropic_wire_with_thinking(llm_server, make_client,
                                                                csv_skill):
    # Claude's thinking blocks must go back unchanged with the tool calls they led to; the
    # server refuses the second request otherwise.
    llm_server.thinking = True
    llm_server.script(tool_call("bash", {"command": "wc -l sales.csv"}), text("49 lines"))
    result = await _run(make_client("anthropic"), _stage(csv_skill))
    assert result.stop == "final_answer" and result.final_answer == "49 lines"
    assert result.trajectory.steps[2].reasoning_content == "Let me work this out."
    assert llm_server.requests[0].wire == "anthropic"
    assert "<location>/skills/csv-insights/SKILL.md</location>" in \
        llm_server.requests[0].system_text()
