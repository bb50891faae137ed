"""Every real trace in shared/corpus/traces imports, validates, and keeps its real content."""

from __future__ import annotations

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.importers import detect_format, import_path, import_trajectory, trace_files
from skillforge.trajectory import facts as facts
from tests.conftest import CORPUS

TRACES = CORPUS / "traces"
ALL = trace_files(TRACES)
EXPECTED_FORMAT = {"claude_code": "claude_code", "codex": "codex", "atif": "atif",
                   "gemini_cli": "gemini_cli", "opencode": "opencode"}


def _call(traj, call_id):
    for step in traj.steps:
        for call in step.tool_calls or []:
            if call.tool_call_id == call_id:
                return step, call, traj.result_for(step, call)
    raise AssertionError(f"no tool call {call_id}")


def test_the_corpus_is_all_found():
    names = {p.relative_to(TRACES).parts[0] for p in ALL}
    assert names == set(EXPECTED_FORMAT)
    assert len(ALL) == 26  # 8 atif + 8 claude_code + 6 codex + 3 gemini + 1 opencode storage


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name[:60])
def test_every_trace_imports_and_validates(path):
    fmt = EXPECTED_FORMAT[path.relative_to(TRACES).parts[0]]
    assert detect_format(path) == fmt
    results = import_path(path)
    assert results
    for result in results:
        assert result.format == fmt
        assert result.source_sha256 and len(result.source_sha256) == 64
        problems = validate_trajectory(result.trajectory)
        assert problems == [], [str(p) for p in problems[:5]]
        # tool results always sit in the step of the call they answer
        for step in result.trajectory.steps:
            ids = {c.tool_call_id for c in step.tool_calls or []}
            for res in step.observation.results if step.observation else []:
                assert res.source_call_id is None or res.source_call_id in ids


# -- Claude Code --------------------------------------------------------------------------

def test_claude_code_pairs_a_bash_call_with_its_result_across_lines():
    r = import_trajectory(TRACES / "claude_code" / "codemie-ai__codemie-code__session-3fe1b6bc.jsonl")
    _, call, result = _call(r.trajectory, "toolu_bdrk_01NumKwuSjJrRLMF2i1yem9h")
    assert call.function_name == "Bash"
    assert call.arguments["command"] == 'find ~/.codex -name "sessions" -type d 2>/dev/null | head -5'
    assert result.content == "/Users/user/.codex/sessions"
    _, read, failed = _call(r.trajectory, "toolu_bdrk_01R4fCMRyQ2eMk3XVTpAVLVv")
    assert read.arguments == {"file_path": "/Users/user/repo/src/analytics/plugins/registry.ts"}
    assert failed.content == "<tool_use_error>File does not exist.</tool_use_error>"
    assert failed.extra == {"is_error": True}
    assert r.trajectory.session_id and r.trajectory.agent.name == "claude-code"
    assert r.ignored == {"file-history-snapshot": 10, "queue-operation": 4}
    assert r.skipped.count == 0


def test_claude_code_merges_streamed_lines_of_one_message_with_its_final_usage():
    r = import_trajectory(TRACES / "claude_code" / "codemie-ai__codemie-code__session-3fe1b6bc.jsonl")
    step, _, _ = _call(r.trajectory, "toolu_bdrk_016cgsPeNYUSR5rkDYiwMrkx")
    # lines 8-10 of the file are one message (msg_bdrk_01FXFjGxhbF6BagJGmFUU5FQ): text + 2 Reads
    assert step.text.startswith("I'll help you execute the create-tech-spec workflow")
    assert [c.function_name for c in step.tool_calls] == ["Read", "Read"]
    assert step.model_name == "claude-sonnet-4-5-20250929"
    # usage: input 2 + cache creation 31738 + cache read 0; the last line's output_tokens 214
    assert (step.metrics.prompt_tokens, step.metrics.cached_tokens,
            step.metrics.completion_tokens) == (31740, 0, 214)


def test_claude_code_skill_tool_is_an_activation_and_a_mention_is_not():
    r = import_trajectory(TRACES / "claude_code" / "codemie-ai__codemie-code__session-3fe1b6bc.jsonl")
    acts = facts.skill_activations(r.trajectory)
    # the session also prints a Codex skills list naming .../skill-creator/SKILL.md in a tool
    # *result*; only the Skill tool call counts
    assert [(a.skill_name, a.how) for a in acts] == [("bmad:core:workflows:party-mode",
                                                      "skill_tool")]


def test_claude_code_usage_only_lines_carry_tokens_and_cost():
    r = import_trajectory(TRACES / "claude_code" / "ryoppippi__ccusage__chat.jsonl")
    fm = r.trajectory.final_metrics
    # (100+25+10) + (200+50+20) + (300+0+40) prompt; 50+75+125 out; 10+20+40 cached; $0.12+0.34+0.56
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (745, 250, 70)
    assert fm.total_cost_usd == pytest.approx(1.02)
    assert [s.source for s in r.trajectory.steps] == ["agent"] * 3


def test_claude_code_edge_cases_are_skipped_and_counted_by_line():
    r = import_trajectory(TRACES / "claude_code" / "daaain__claude-code-log__edge_cases.jsonl")
    assert r.skipped.count == 7
    assert {(e.line, e.reason) for e in r.skipped.examples} == {
        (10, "user message without content"),  # "contenst" misspelled
        (11, "user event without a message object"),  # "message": "error"
        (13, "not a JSON object (a str)"),
        (14, "no event type"),  # {"silly": "this"}
        (15, "not a JSON object (a int)"),
        (16, "not a JSON object (a list)"),
        (18, "content block is not an object"),  # content: ["wow error"]
    }
    _, call, result = _call(r.trajectory, "tool_edge_001")
    assert call.function_name == "FailingTool"
    assert result.extra == {"is_error": True}
    assert facts.call_error(result) == (True, "the harness flagged the result as an error")
    assert r.trajectory.extra["summaries"][0].startswith("Tested various edge cases")


def test_claude_code_representative_edit_and_bash():
    r = import_trajectory(TRACES / "claude_code" /
                          "daaain__claude-code-log__representative_messages.jsonl")
    _, call, result = _call(r.trajectory, "tool_002")
    assert call.arguments["command"] == "python /tmp/decorator_example.py"
    assert result.content == "Hello, Alice!\nHello, Alice!\nHello, Alice!"
    assert [w.path for w in facts.file_writes(r.trajectory)] == ["/tmp/decorator_example.py"]


def test_truncated_final_line_is_one_skipped_line(tmp_path):
    src = (TRACES / "claude_code" / "daaain__claude-code-log__representative_messages.jsonl")
    data = src.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: len(data) - 40])  # the last line loses its end, no newline
    r = import_trajectory(cut)
    assert r.skipped.reasons == {"truncated final line": 1}
    full = import_trajectory(src)
    assert len(r.trajectory.steps) <= len(full.trajectory.steps)


def test_unknown_event_types_are_skipped_with_a_counted_warning(tmp_path):
    src = TRACES / "claude_code" / "daaain__claude-code-log__representative_messages.jsonl"
    lines = src.read_text().splitlines()
    weird = '{"type": "telemetry-ping", "sessionId": "x"}'
    path = tmp_path / "with-unknown.jsonl"
    path.write_text("\n".join([lines[0], weird, weird, *lines[1:]]) + "\n")
    r = import_trajectory(path)
    assert r.skipped.reasons == {"unknown event type 'telemetry-ping'": 2}
    assert r.warnings == ["unknown event type 'telemetry-ping' (2 times)"]


def test_claude_code_subagent_log():
    r = import_trajectory(TRACES / "claude_code" / "codemie-ai__codemie-code__agent-36541525.jsonl")
    assert r.trajectory.agent.extra and r.trajectory.agent.extra.get("agent_id")
    assert all(s.extra.get("is_sidechain") for s in r.trajectory.steps)


# -- Codex --------------------------------------------------------------------------------

ROLLOUT = "codemie-ai__codemie-code__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"


def test_codex_pairs_exec_command_with_output_and_exit_code():
    r = import_trajectory(TRACES / "codex" / ROLLOUT)
    _, call, result = _call(r.trajectory, "call_AvUkcEDS8tiUyr1JW8hw2z43")
    assert call.function_name == "exec_command"
    assert call.arguments["cmd"].endswith("skills/using-superpowers/SKILL.md")
    assert result.content.startswith("Chunk ID: bd7d7c\n")
    assert result.extra == {"exit_code": 0}
    assert r.trajectory.session_id == "019e1695-0522-7c83-8b39-0dd379793f80"
    assert r.trajectory.agent.version == "0.128.0-alpha.1"
    assert r.trajectory.steps[0].source == "system"  # base instructions
    assert r.trajectory.steps[1].text.lstrip().startswith("# Files mentioned by the user")


def test_codex_skills_read_with_sed_and_cat_are_activations():
    r = import_trajectory(TRACES / "codex" / ROLLOUT)
    assert facts.activated_skills(r.trajectory) == ["using-superpowers", "browser",
                                                    "brainstorming"]
    assert {a.how for a in facts.skill_activations(r.trajectory)} == {"shell"}
    errors = [o for o in facts.call_outcomes(r.trajectory) if o.error]
    assert [(o.tool_call_id, o.reason) for o in errors] == [("call_3f7AXDMZ9PHz7zedrTO4twut",
                                                             "exit code 1")]


def test_codex_spawn_skill_sample():
    r = import_trajectory(TRACES / "codex" / "codemie-ai__codemie-code__turn-spawn-skill.jsonl")
    acts = facts.skill_activations(r.trajectory)
    assert [(a.skill_name, a.how, a.tool_call_id) for a in acts] == [
        ("brainstorming", "shell", "call_skill1")]
    _, _, result = _call(r.trajectory, "call_skill1")
    assert result.content == "ok"
    fm = r.trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (5000, 200, 1000)


def test_codex_token_counts_usage_only_file():
    r = import_trajectory(TRACES / "codex" / "ryoppippi__ccusage__session-alpha.jsonl")
    steps = r.trajectory.steps
    assert [(s.metrics.prompt_tokens, s.metrics.completion_tokens, s.metrics.cached_tokens)
            for s in steps] == [(1000, 125, 250), (2500, 300, 500)]
    fm = r.trajectory.final_metrics  # the last total_token_usage
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (3500, 425, 750)
    assert steps[0].model_name == "gpt-5.2-codex" and steps[1].model_name == "gpt-5.3-codex"


def test_codex_repeated_token_counts_are_not_double_counted():
    r = import_trajectory(TRACES / "codex" /
                          "madshn__localpush__rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl")
    fm = r.trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (298373, 1123, 238848)
    summed = sum(s.metrics.prompt_tokens for s in r.trajectory.steps if s.metrics)
    assert summed == 298373  # each model call counted once
    _, call, _ = _call(r.trajectory, "call_OIMY41RetdVChp5U51mMLGOD")
    assert call.function_name == "mcp__cloud-associates__search_workflows"
    assert call.extra == {"raw_arguments": "[REDACTED_ARGUMENTS len=46 sha=4cb9a2fc]"}


# -- ATIF, Gemini CLI, OpenCode ----------------------------------------------------------

def test_atif_passes_through_with_its_calls_and_results():
    r = import_trajectory(TRACES / "atif" / "sachiny0106__Xelron__hello-world.trajectory.json")
    step, call, result = _call(r.trajectory, "call_fake_1")
    assert step.step_id == 5 and call.function_name == "str_replace_editor"
    assert call.arguments["path"] == "/app/hello.txt"
    assert result.content == "File created successfully at: /app/hello.txt"
    fm = r.trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens) == (220, 80)
    assert r.warnings == [] and r.skipped.count == 0
    assert [w.path for w in facts.file_writes(r.trajectory)] == ["/app/hello.txt"]


def test_atif_invalid_json_sample_has_nothing_skipped():
    # "invalid JSON" here is the agent's output, kept as an observation; the file is sound
    r = import_trajectory(TRACES / "atif" / "sachiny0106__Xelron__hello-world-invalid-json.trajectory.json")
    assert r.skipped.count == 0 and r.warnings == []
    step2 = r.trajectory.steps[1]
    assert step2.observation.results[0].content.startswith("Previous response had parsing errors")
    assert step2.reasoning_content.startswith("The task is straightforward")


def test_gemini_cli_tool_call_result_and_tokens():
    r = import_trajectory(TRACES / "gemini_cli" /
                          "codemie-ai__codemie-code__session-2025-12-01T21-45-5b959dae.json")
    _, call, result = _call(r.trajectory, "list_directory-1764625554423-6b5d2c6179cc4")
    assert call.arguments == {"dir_path": "/Users/Jane_Smith/Documents/projects/epm-cdme/assistants/"}
    assert result.content.startswith("Directory listing for /Users/Jane_Smith/Documents")
    assert "lead.txt" in result.content and result.extra == {"status": "success"}
    small = import_trajectory(TRACES / "gemini_cli" / "sachiny0106__Xelron__gemini-cli-trajectory.json")
    fm = small.trajectory.final_metrics
    assert (fm.total_prompt_tokens, fm.total_completion_tokens, fm.total_cached_tokens) == \
        (5915, 24, 0)
    assert small.trajectory.steps[1].model_name == "gemini-2.0-flash"


def test_opencode_storage_folder_is_one_session():
    storage = TRACES / "opencode" / "codemie-ai__codemie-code__storage"
    assert detect_format(storage) == "opencode"
    r = import_trajectory(storage)
    user, agent = r.trajectory.steps
    assert user.text == "Create a test file with console.log statements"
    assert [c.function_name for c in agent.tool_calls] == ["Write", "Read"]  # listed order
    _, read, result = _call(r.trajectory, "part-tool-read")
    assert read.arguments == {"filePath": "src/existing.ts"}
    assert result.content == '{"content": "existing content"}'
    assert agent.text == "Created src/test.ts with three console.log statements and read " \
                         "src/existing.ts."
    # tokens: input 1000 + cache read 200 + cache write 100; output 500
    assert (agent.metrics.prompt_tokens, agent.metrics.cached_tokens,
            agent.metrics.completion_tokens) == (1300, 200, 500)
    assert agent.model_name == "claude-sonnet-4-6"
    assert [w.path for w in facts.file_writes(r.trajectory)] == ["src/test.ts"]
