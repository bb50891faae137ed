"""The run orchestration through its API (what the TUI uses): streaming events, cancel(),
resume, and runs that cannot start or trials that cannot be staged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions.atif_rules import validate_trajectory
from skillforge.sandbox import SandboxUnavailable
from skillforge.trials.events import RunFinished
from skillforge.trials.run import TrialRunner
from tests.docker_fixtures import managed_containers
from tests.trials.conftest import CSV_CASES

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]


async def test_cancel_from_the_stream_stops_and_cleans_up(csv_skill, scripted, make_runner,
                                                          store, run_id):
    scripted.delays = {"missing-values": 60.0, "order-stats": 60.0}
    runner, _ = make_runner(csv_skill, case_ids=CSV_CASES, attempts=2, concurrency=2)
    seen = []
    async for event in runner.stream():
        seen.append(event)
        # Both monthly-revenue trials are done, and both missing-values trials of attempt 1
        # are in their agent loop (hanging in the model call): cancel.
        done = sum(e.kind == "finished" for e in seen)
        looping = sum(e.kind == "phase" and e.phase == "agent" and e.key[0] ==
                      "missing-values" for e in seen)
        if done == 2 and looping == 2 and not runner.cancelled:
            runner.cancel()
    assert isinstance(seen[-1], RunFinished) and seen[-1].status == "cancelled"
    assert managed_containers(run_id) == []
    assert store.run(run_id).status == "cancelled"
    stored = {t.key: t.status for t in store.trials(run_id)}
    assert list(stored.values()).count("ok") == 2
    started = {e.key for e in seen if e.kind == "started"}
    # Started trials are stored as cancelled; queued ones never started and are not stored.
    assert {k for k, s in stored.items() if s == "cancelled"} == started - {
        k for k, s in stored.items() if s == "ok"}
    assert sum(e.kind == "cancelled" for e in seen) == 12 - 2
    # What a cancelled trial did so far is kept (unless it was still creating its sandbox).
    kept = [t for t in store.trials(run_id) if t.status == "cancelled" and t.trajectory_path]
    assert kept
    for t in kept:
        data = json.loads(Path(t.trajectory_path).read_text())
        assert validate_trajectory(data) == [], t.key
        assert data["extra"]["stop_reason"] == "cancelled" and data["steps"][1]["source"] == \
            "user"
    assert seen[-1].counts == {"ok": 2, "cancelled": len(started) - 2, "skipped": 0}


async def test_resume_skips_the_trials_already_ok(csv_skill, scripted, make_runner, store,
                                                  agent_client, run_id):
    first, _ = make_runner(csv_skill, case_ids=["monthly-revenue"])
    await first.run()
    assert len(store.finished_keys(run_id)) == 2
    events: list = []
    again = TrialRunner(first.spec, client=agent_client, store=store, resume=run_id,
                        on_event=events.append)
    summary = await again.run()
    assert summary.records == [] and len(summary.skipped) == 2
    skipped = [e for e in events if e.kind == "skipped"]
    assert len(skipped) == 2 and all(e.record.status == "ok" for e in skipped)
    assert sum(scripted.conversations.values()) == 2  # nothing asked of the model again


async def test_a_missing_image_refuses_to_start(csv_skill, scripted, make_runner, store):
    runner, _ = make_runner(csv_skill, image="skillforge-test/no-such-image:0")
    with pytest.raises(SandboxUnavailable, match="docker pull skillforge-test/no-such-image:0"):
        await runner.run()
    assert store.runs() == []


async def test_a_case_that_cannot_be_staged_fails_alone(csv_skill, scripted, make_runner,
                                                        store):
    evals = csv_skill / "evals" / "evals.json"
    doc = json.loads(evals.read_text())
    doc["evals"][1]["files"] = ["evals/files/gone.csv"]  # missing-values
    evals.write_text(json.dumps(doc))
    runner, _ = make_runner(csv_skill, case_ids=["monthly-revenue", "missing-values"])
    summary = await runner.run()
    by = {r.key: r for r in summary.records}
    assert by[("monthly-revenue", "with_skill", 1)].status == "ok"
    bad = by[("missing-values", "with_skill", 1)]
    assert bad.status == "error" and "evals/files/gone.csv" in bad.error
    assert bad.trajectory_path is None and bad.turns == 0
    assert summary.status == "finished"
