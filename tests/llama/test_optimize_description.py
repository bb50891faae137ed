"""`skillforge optimize-description` against llama-cpp-python's server: two iterations, the
agent and the proposer both the real 135M model, trigger trials in Docker.

Plumbing only: the dry run prints its estimate; the loop finishes; the current description
is scored on both splits by stored, labelled trials with valid trajectories; each proposal
came back through the grammar-constrained structured answer and was linted (tried, or
rejected by the linter with its findings, or failed with the model named); the report of a
trigger run renders the loop. Never what a 135M model wrote or chose.
"""

from __future__ import annotations

import json

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.models.triggers import parse_run_label
from tests.docker_fixtures import managed_containers
from tests.llama.cli import no_model, skillforge
from tests.trials.scripted_triggers import QUERIES, TARGET, trigger_skills

pytestmark = [pytest.mark.docker, pytest.mark.timeout(3600)]

KEEP = ("ledger-totals", "pivot-sales", "poem-coffee", "resize-photos")


def test_two_iterations_against_the_real_server(llama_server, trial_image, tmp_path):
    home, state = tmp_path / "home", tmp_path / "state"
    skill = trigger_skills(tmp_path)
    doc = {"skill_name": TARGET, "evals": [
        {"id": q, "prompt": QUERIES[q][0], "should_trigger": QUERIES[q][1]} for q in KEEP]}
    (skill / "evals" / "evals.json").write_text(json.dumps(doc, indent=2))
    args = ("optimize-description", str(skill), "--iterations", "2", "--runs", "1",
            "--holdout", "0.5", "--decoys", "2", "--max-turns", "2", "--concurrency", "1",
            "--image", trial_image, "--state-dir", str(state))

    dry = skillforge(llama_server, home, *args, "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0, dry.explain()
    assert "trigger trials: at most 12" in dry.stdout
    with RunStore(state) as store:
        assert store.runs() == []  # a dry run runs nothing

    ran = skillforge(llama_server, home, *args, "--format", "json", cwd=tmp_path)
    assert ran.returncode == 0, ran.explain()
    h = ran.json()
    assert h["status"] == "finished" and h["agent_model"] == llama_server.model
    assert [a["iteration"] for a in h["attempts"]] == [0, 1, 2]
    current = h["attempts"][0]
    assert current["train"]["trials"] == 2 and current["test"]["trials"] == 2
    for a in h["attempts"][1:]:
        assert a["status"] in ("tried", "lint_rejected", "failed", "duplicate"), a
        if a["status"] == "failed":
            assert llama_server.model in a["note"]
        else:
            assert a["propose_tokens_in"] > 0 and a["description"]
        if a["status"] == "lint_rejected":
            assert a["lint_findings"] and a["train"] is None
        if a["status"] == "tried":
            assert len(a["description"]) <= 1024 and a["lint_findings"] == []
            assert a["test"]["trials"] == 2
    with RunStore(state) as store:
        runs = [r for r in store.runs() if r.label]
        assert {parse_run_label(r.label)[0] for r in runs} == {h["loop_id"]}
        for r in runs:
            assert managed_containers(r.run_id) == []
            for t in store.trials(r.run_id):
                assert t.status == "ok", (t.key, t.error)
                raw = json.loads(open(t.trajectory_path, encoding="utf-8").read())
                assert validate_trajectory(raw) == []
    report = no_model("report", current["test_run"], "--state-dir", str(state), "--format",
                      "md", home=home, cwd=tmp_path)
    assert report.returncode == 0, report.explain()
    assert "## Trigger evaluation and description loop" in report.stdout
