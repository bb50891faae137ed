"""Gemini CLI's JSONL session logs (gemini-cli 0.39 on) import like its .json recordings.

Fixtures: tests/sessions/fixtures/gemini_jsonl/ (see its README for what each one shows).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions.atif import trajectory_to_dict
from sessions.atif_rules import rule_problems, validate_trajectory
from sessions.importers import TraceImportError, detect_format, import_path, import_trajectory
from sessions.importers.gemini_jsonl import REWOUND
from skillforge.trajectory import facts
from tests.conftest import CORPUS
from tests.hypothesis_budget import examples
from tests.sessions.json_mutation import mutate

FIXTURES = Path(__file__).parent / "fixtures" / "gemini_jsonl"
SESSION = FIXTURES / "session-2026-05-12T09-14-3f2a9c1e.jsonl"
CUT = FIXTURES / "session-2026-05-12T10-02-8c41d7e2.jsonl"
FUTURE = FIXTURES / "session-2026-06-02T16-40-d19b6a2e.jsonl"
SYNCED = FIXTURES / "session-2026-05-14T14-20-5e7a1c3f.jsonl"
GEMINI_CORPUS = CORPUS / "traces" / "gemini_cli"


def _call(traj, call_id):
    for step in traj.steps:
        for call in step.tool_calls or []:
            if call.tool_call_id == call_id:
                return step, call, facts.result_for(step, call)
    raise AssertionError(f"no tool call {call_id}")


def _ids(traj):
    return [s.extra["id"] for s in traj.steps]


def test_a_session_log_is_gemini_cli_not_claude_code():
    # its message lines carry `type: "user"` as Claude Code's do
    assert detect_format(SESSION) == "gemini_cli"
    [result] = import_path(SESSION)
    assert result.format == "gemini_cli" and result.trajectory.agent.name == "gemini-cli"
    assert validate_trajectory(result.trajectory) == []
    assert result.skipped.count == 0 and result.warnings == []
    assert result.records == 21


def test_a_message_is_its_latest_record_in_its_first_place():
    traj = import_trajectory(SESSION).trajectory
    assert _ids(traj) == [
        "b6f0c2d1-1e4a-4c2b-9a57-3d0e8f1a2b61",  # user: total the March invoices
        "0d9e4b7a-5c3f-4a81-b2e6-7f1c8d9a0e42",  # activate_skill, written 3 times
        "5a2c8e1f-9d4b-4f37-a6c0-1b3e5d7f9a24",  # read_file + run_shell_command, 3 times
        "e81f3c5a-2b7d-4e90-8c14-6a9f0d2e4b73",  # the answer
        "f4a1b8c6-3e9d-4a27-8b5f-0c2d6e8a4f31",  # user, after the rewind
        "2e6c9a4f-0b3d-4e71-a8c2-5f9d1b7e3a60",  # write_file
        "9c0f5e3b-4d2a-4b86-91e7-8a3c6f0d2b55",  # done
    ]
    assert [s.source for s in traj.steps] == ["user"] + ["agent"] * 3 + ["user"] + ["agent"] * 2
    skill_step, call, result = _call(traj, "activate_skill-1778577255021-4c1f9e2a7b3d8")
    # tokens came in the 2nd record, the result in the 3rd: both kept
    assert (skill_step.metrics.prompt_tokens, skill_step.metrics.completion_tokens,
            skill_step.metrics.cached_tokens) == (8412, 21 + 64, 6144)
    assert call.arguments == {"name": "invoice-totals"}
    assert result.content.startswith('<activated_skill name="invoice-totals">')
    assert result.extra == {"status": "success"}
    assert skill_step.reasoning_content.startswith("Finding the right skill: The user wants")
    assert skill_step.model_name == "gemini-3-flash-preview"


def test_tool_calls_pair_with_their_results_errors_included():
    traj = import_trajectory(SESSION).trajectory
    step, read, failed = _call(traj, "read_file-1778577258940-9e2b7c4d1a6f3")
    assert read.arguments == {
        "file_path": "/home/ana/projects/invoice-tool/invoices/2026-03/README.md"}
    assert failed.content == ("File not found: "
                              "/home/ana/projects/invoice-tool/invoices/2026-03/README.md")
    assert failed.extra == {"is_error": True, "status": "error"}
    _, shell, ran = _call(traj, "run_shell_command-1778577258951-2a7d4f9c0b1e5")
    assert [c.function_name for c in step.tool_calls] == ["read_file", "run_shell_command"]
    assert "TOTAL (3 invoices)              4,601.50 EUR" in ran.content
    assert facts.exit_code(ran) == 0 and facts.call_error(ran) == (False, None)
    _, write, wrote = _call(traj, "write_file-1778577335102-3d8a1f6c9e0b4")
    assert wrote.content.startswith("Successfully created and wrote to new file")
    assert [w.path for w in facts.file_writes(traj)] == [
        "/home/ana/projects/invoice-tool/totals.md"]


def test_the_skill_activation_and_its_script_run_are_seen():
    traj = import_trajectory(SESSION).trajectory
    assert [(a.skill_name, a.how) for a in facts.skill_activations(traj)] == [
        ("invoice-totals", "skill_tool")]
    runs = facts.script_runs(traj)
    assert [(r.skill_name, r.script, r.exit_code, r.ok) for r in runs] == [
        ("invoice-totals", "scripts/totals.py", 0, True)]


def test_a_rewind_drops_the_prompt_it_names_and_everything_after():
    r = import_trajectory(SESSION)
    texts = " ".join(s.text for s in r.trajectory.steps)
    assert "April" not in texts  # "Also add the April ones." and its answer were rewound
    assert "run_shell_command-1778577305877-7c0e3a9d5b2f1" not in {
        c.tool_call_id for s in r.trajectory.steps for c in s.tool_calls or []}
    assert r.ignored == {REWOUND: 2}
    assert r.trajectory.extra["rewound_messages"] == 2


def test_set_lines_update_the_session_metadata():
    traj = import_trajectory(SESSION).trajectory
    assert traj.session_id == "3f2a9c1e-7b4d-4e0a-9c61-2d8f5a0b7e13"
    assert traj.extra == {
        "source_format": "gemini_cli",
        "projectHash": "9b1e6f0c4d2a8e7b35f1c0a9d8e7f6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9",
        "startTime": "2026-05-12T09:14:03.118Z",
        "lastUpdated": "2026-05-12T09:15:38.641Z",  # the last of five $set lines
        "summary": "Total the March invoices and write totals.md",
        "kind": "main",
        "rewound_messages": 2,
    }
    fm = traj.final_metrics  # each message's tokens counted once, from its latest record
    assert (fm.total_prompt_tokens, fm.total_cached_tokens) == (
        8412 + 9377 + 10114 + 10398 + 10527, 6144 + 8192 + 8192 + 10112 + 10368)


def test_a_set_of_all_messages_replaces_them_and_later_records_follow():
    traj = import_trajectory(SYNCED).trajectory
    assert [s.text for s in traj.steps if s.source == "user"] == [
        "Read invoices/2026-03/ledger.csv and tell me how many rows it has.",
        "Thanks. Which vendor is the largest?"]
    _, _, result = _call(traj, "read_file-1778768419302-1b9e5d3a7c0f2")
    assert result.content.startswith("[Tool output masked to save context")
    assert traj.steps[-1].text == "blue-ocean-it, with 2,975.00 EUR."
    assert traj.extra["lastUpdated"] == "2026-05-14T14:21:44.119Z"


def test_a_truncated_last_line_is_a_counted_warning_and_loses_nothing_before_it():
    assert not CUT.read_bytes().endswith(b"\n")
    r = import_trajectory(CUT)
    assert r.skipped.reasons == {"truncated final line": 1}
    assert r.skipped.examples[0].line == 5
    assert r.warnings == ["the last line was cut off mid-write (a live session?) and "
                          "skipped; every record before it was kept"]
    # the cut line was the call's finished version; its earlier record stays: the call,
    # still running, with no result invented for it
    step, call, result = _call(r.trajectory, "run_shell_command-1778580175512-6f1a9d3c8e2b7")
    assert call.extra == {"display_name": "Shell", "status": "executing"}
    assert result is None and step.observation is None
    assert step.metrics.prompt_tokens == 7951
    assert validate_trajectory(r.trajectory) == []


def test_unknown_records_are_skipped_with_counted_warnings():
    r = import_trajectory(FUTURE)
    assert r.skipped.reasons == {
        "unknown record '$unset'": 2,
        "unknown record '$tag'": 1,
        "unknown record (keys: at, event)": 1,
        "unknown message type 'compression_checkpoint'": 1,
    }
    assert r.warnings == ["unknown record '$unset' (2 times)", "unknown record '$tag'",
                          "unknown record (keys: at, event)",
                          "unknown message type 'compression_checkpoint'"]
    assert sorted(e.line for e in r.skipped.examples) == [2, 6, 7, 8, 9]
    assert [s.text for s in r.trajectory.steps] == [
        "What does scripts/totals.py do?",
        "It reads every PDF invoice in a folder, extracts the `total` field and prints one "
        "line per invoice plus the grand total."]
    assert r.trajectory.extra["lastUpdated"] == "2026-06-02T16:41:05.001Z"


def test_a_log_saved_as_json_is_still_read_as_a_log(tmp_path):
    renamed = tmp_path / "session-2026-05-12T09-14-3f2a9c1e.json"
    shutil.copy(SESSION, renamed)
    assert detect_format(renamed) == "gemini_cli"
    assert import_trajectory(renamed).trajectory == import_trajectory(SESSION).trajectory


# Corpus recordings with a projectHash: Gemini CLI's own loader needs one in the metadata
# line, so a session without it (timestamp-mismatch-session.json) is never migrated.
MIGRATABLE = ["codemie-ai__codemie-code__session-2025-12-01T21-45-5b959dae.json",
              "sachiny0106__Xelron__gemini-cli-trajectory.json"]


@pytest.mark.parametrize("name", MIGRATABLE)
def test_a_json_recording_resumed_as_jsonl_imports_the_same(tmp_path, name):
    # Resuming a .json session, Gemini CLI writes the same record as `<name>.jsonl`: its
    # metadata, every message, then a $set of the session id.
    doc = json.loads((GEMINI_CORPUS / name).read_text())
    meta = {k: v for k, v in doc.items() if k != "messages"}
    lines = [meta, *doc["messages"], {"$set": {"sessionId": doc["sessionId"]}}]
    log = tmp_path / (Path(name).stem + ".jsonl")
    log.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines))
    assert detect_format(log) == "gemini_cli"
    assert import_trajectory(log).trajectory == import_trajectory(GEMINI_CORPUS / name).trajectory


LINES = [json.loads(x) for x in SESSION.read_text().splitlines()]


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_log_lines_are_skipped_not_fatal(tmp_path, data):
    lines = [mutate(x, data) if data.draw(st.integers(0, 4)) == 0 else x for x in LINES]
    path = tmp_path / "fuzz-gemini.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    try:
        result = import_trajectory(path, "gemini_cli")
    except TraceImportError as exc:
        assert str(exc).startswith(str(path))  # nothing usable left: a named refusal
        return
    assert rule_problems(trajectory_to_dict(result.trajectory)) == []
