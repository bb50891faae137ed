"""Mutated real lines never crash an importer: a bad field costs a line, never the file."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions.atif import trajectory_to_dict
from sessions.atif_rules import rule_problems
from sessions.importers import TraceImportError, import_trajectory
from tests.conftest import CORPUS
from tests.hypothesis_budget import examples
from tests.sessions.json_mutation import mutate

TRACES = CORPUS / "traces"
SOURCES = {
    "claude_code": TRACES / "claude_code" / "codemie-ai__codemie-code__4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
    "codex": TRACES / "codex" / "madshn__localpush__rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl",
}
LINES = {k: [json.loads(x) for x in p.read_text().splitlines()[:25]] for k, p in SOURCES.items()}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), fmt=st.sampled_from(sorted(SOURCES)))
def test_mutated_lines_are_skipped_not_fatal(tmp_path, data, fmt):
    lines = [mutate(x, data) if data.draw(st.integers(0, 4)) == 0 else x for x in LINES[fmt]]
    path = tmp_path / f"fuzz-{fmt}.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    try:
        result = import_trajectory(path, fmt)
    except TraceImportError:
        return  # nothing usable left is a clean, named refusal
    assert rule_problems(trajectory_to_dict(result.trajectory)) == []


DOCS = {
    "atif": TRACES / "atif" / "sachiny0106__Xelron__hello-world.trajectory.json",
    "gemini_cli": TRACES / "gemini_cli" / "codemie-ai__codemie-code__session-2025-12-01T21-45-5b959dae.json",
}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), fmt=st.sampled_from(sorted(DOCS)))
def test_mutated_documents_import_or_are_refused_by_name(tmp_path, data, fmt):
    doc = json.loads(DOCS[fmt].read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        doc = mutate(doc, data)
    path = tmp_path / f"fuzz-{fmt}.json"
    path.write_text(json.dumps(doc))
    try:
        result = import_trajectory(path, fmt)
    except TraceImportError as exc:
        assert str(exc).startswith(str(path))
        return
    assert rule_problems(trajectory_to_dict(result.trajectory)) == []
