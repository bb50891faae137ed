"""Importer behaviour beyond the corpus: repairs of non-conforming ATIF, detection, folders."""

from __future__ import annotations

import json

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.importers import TraceImportError, detect_format, import_path, import_trajectory


def _write(path, data):
    path.write_text(json.dumps(data))
    return path


def test_atif_with_bent_rules_is_repaired_with_warnings(tmp_path):
    doc = {
        "schema_version": "ATIF-v1.2",
        "session_id": "s",
        "agent": {"name": "mini", "version": "1", "provider": "acme"},
        "steps": [
            {"step_id": 0, "source": "user", "message": "hi", "model_name": "gpt"},
            {"step_id": 1, "source": "agent", "message": "ok", "latency_ms": 12,
             "tool_calls": [{"tool_call_id": "a", "function_name": "bash",
                             "arguments": {"command": "ls"}}],
             "observation": {"results": [{"source_call_id": "zzz", "content": "x"}]}},
        ],
    }
    r = import_trajectory(_write(tmp_path / "t.json", doc))
    t = r.trajectory
    assert [s.step_id for s in t.steps] == [1, 2]
    assert t.agent.extra == {"provider": "acme"}
    assert t.steps[0].model_name is None and t.steps[0].extra == {"model_name": "gpt"}
    assert t.steps[1].extra == {"latency_ms": 12}
    res = t.steps[1].observation.results[0]
    assert res.source_call_id is None and res.extra == {"unpaired_call_id": "zzz"}
    assert validate_trajectory(t) == []
    assert set(r.warnings) == {
        "unknown agent key(s) provider moved into extra",
        "model_name on a user step moved into extra",
        "unknown step key(s) latency_ms moved into extra",
        "an observation names a call its step never made; the id moved into extra",
        "step ids were not 1, 2, 3, ...; renumbered",
    }


def test_atif_without_steps_cannot_be_imported(tmp_path):
    path = _write(tmp_path / "empty.json", {"schema_version": "ATIF-v1.5",
                                             "agent": {"name": "a", "version": "1"}, "steps": []})
    with pytest.raises(TraceImportError, match="empty.json: the trajectory has no steps"):
        import_trajectory(path)


def test_unrecognised_file_names_the_file_and_what_was_expected(tmp_path):
    path = _write(tmp_path / "config.json", {"name": "not a trace"})
    assert detect_format(path) is None
    with pytest.raises(TraceImportError, match=r"config.json: not a trace skillforge can read"):
        import_path(path)


def test_jsonl_with_only_bookkeeping_lines_has_no_steps(tmp_path):
    path = tmp_path / "snap.jsonl"
    path.write_text('{"type": "file-history-snapshot", "messageId": "m", "snapshot": {}}\n')
    with pytest.raises(TraceImportError, match="no conversation steps found"):
        import_trajectory(path)


def test_tool_result_for_an_unknown_call_is_kept_unpaired(tmp_path):
    lines = [
        {"type": "user", "sessionId": "s", "message": {"role": "user", "content": "go"}},
        {"type": "assistant", "sessionId": "s", "message": {
            "id": "m1", "role": "assistant", "content": [{"type": "text", "text": "done"}]}},
        {"type": "user", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "ghost", "content": "orphan output"}]}},
    ]
    path = tmp_path / "orphan.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    r = import_trajectory(path)
    res = r.trajectory.steps[1].observation.results[0]
    assert res.source_call_id is None and res.extra == {"unpaired_call_id": "ghost"}
    assert r.warnings == ["tool result for an unknown call id kept unpaired (line 3)"]
    assert validate_trajectory(r.trajectory) == []


def test_codex_older_shell_output_json_and_exec_end_exit_codes(tmp_path):
    lines = [
        {"type": "session_meta", "payload": {"id": "x", "cli_version": "0.40.0"}},
        {"type": "response_item", "payload": {"type": "message", "role": "user",
                                              "content": [{"type": "input_text", "text": "run"}]}},
        {"type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "c1",
            "arguments": json.dumps({"command": ["bash", "-lc", "python /skills/a/scripts/x.py"]})}},
        {"type": "event_msg", "payload": {"type": "exec_command_end", "call_id": "c1",
                                          "exit_code": 3}},
        {"type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "c1",
            "output": json.dumps({"output": "boom", "metadata": {"exit_code": 3}})}},
        {"type": "response_item", "payload": {
            "type": "custom_tool_call", "name": "apply_patch", "call_id": "c2",
            "input": "*** Begin Patch\n*** Add File: out.txt\n+hi\n*** End Patch"}},
        {"type": "response_item", "payload": {"type": "custom_tool_call_output", "call_id": "c2",
                                              "output": "Done"}},
    ]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    from skillforge.trajectory import facts as facts
    r = import_trajectory(path)
    step = r.trajectory.steps[1]
    assert step.tool_calls[0].arguments == {"command": ["bash", "-lc",
                                                        "python /skills/a/scripts/x.py"]}
    assert step.observation.results[0].content == "boom"
    assert step.observation.results[0].extra == {"exit_code": 3}
    runs = facts.script_runs(r.trajectory)
    assert [(x.skill_name, x.script, x.exit_code, x.ok) for x in runs] == [
        ("a", "scripts/x.py", 3, False)]
    assert [w.path for w in facts.file_writes(r.trajectory)] == ["out.txt"]


def test_a_folder_of_traces_lists_opencode_storage_whole(tmp_path):
    from sessions.importers import trace_files
    from tests.conftest import CORPUS

    found = trace_files(CORPUS / "traces" / "opencode")
    assert [p.name for p in found] == ["codemie-ai__codemie-code__storage"]


def test_a_broken_middle_line_is_invalid_json_not_truncation(tmp_path):
    from tests.conftest import CORPUS

    src = CORPUS / "traces" / "codex" / "codemie-ai__codemie-code__turn-spawn-skill.jsonl"
    lines = src.read_text().splitlines()
    lines[4] = lines[4][:30]  # line 5 loses its end; later lines are fine
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = import_trajectory(path)
    assert r.skipped.reasons == {"invalid JSON": 1}
    assert [(e.line, e.reason) for e in r.skipped.examples] == [(5, "invalid JSON")]
    assert [c.tool_call_id for _, c in r.trajectory.tool_calls()] == ["call_spawn1", "call_wait1"]


@pytest.mark.parametrize("bad_id", [["a"], {"id": "a"}, 7])
def test_an_observation_id_that_is_not_a_string_moves_into_extra(tmp_path, bad_id):
    """Found by the mutation fuzz: a list there made the pairing check raise TypeError."""
    doc = {
        "schema_version": "ATIF-v1.5",
        "session_id": "s",
        "agent": {"name": "mini", "version": "1"},
        "steps": [
            {"step_id": 1, "source": "agent", "message": "ok",
             "tool_calls": [{"tool_call_id": ["a"], "function_name": "bash",
                             "arguments": {"command": "ls"}}],
             "observation": {"results": [{"source_call_id": bad_id, "content": "x"}]}},
        ],
    }
    r = import_trajectory(_write(tmp_path / "t.json", doc))
    res = r.trajectory.steps[0].observation.results[0]
    assert res.source_call_id is None and res.extra == {"unpaired_call_id": bad_id}
