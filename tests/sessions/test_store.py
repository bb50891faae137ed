"""The run store: migrations, WAL, upserts, resume keys, kill -9 survival, concurrent writers."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime

import pytest

from sessions.atif import Agent, Step, Trajectory, load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.migrations import LATEST, StoreVersionError, migrate
from sessions.store import MetricEvidence, RunStore, new_run_id
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from tests.conftest import ROOT


def _run(store: RunStore, run_id: str | None = None, **kw) -> str:
    run_id = run_id or new_run_id()
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC), **kw))
    return run_id


def _trial(run_id: str, case: str, cond: str = "with_skill", attempt: int = 1, **kw):
    return TrialRecord(run_id=run_id, case_id=case, condition=cond, attempt=attempt, **kw)


def test_first_use_creates_state_dir_with_gitignore_and_wal(tmp_path):
    state = tmp_path / "proj" / ".skillforge"
    with RunStore(state) as store:
        assert (state / ".gitignore").read_text() == "*\n"
        assert (state / "skillforge.db").exists()
        assert store.journal_mode() == "wal"
        assert store.version == LATEST >= 5


def test_default_state_dir_is_dot_skillforge_in_the_launch_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with RunStore() as store:
        assert store.state_dir == (tmp_path / ".skillforge").resolve()


def test_upgrade_from_v1_keeps_runs_and_trials(tmp_path):
    db = tmp_path / "skillforge.db"
    conn = sqlite3.connect(db, isolation_level=None)
    assert migrate(conn, target=1) == 1
    old = _trial("r1", "case-a", status="ok", metrics={"security": 1.0})
    conn.execute("INSERT INTO runs (run_id, created_at, engine, status) VALUES "
                 "('r1', '2026-01-01T00:00:00+00:00', 'local', 'finished')")
    conn.execute("INSERT INTO trials (run_id, case_id, condition, attempt, status, record_json, "
                 "updated_at) VALUES ('r1', 'case-a', 'with_skill', 1, 'ok', ?, 'now')",
                 (old.model_dump_json(),))
    conn.close()
    with RunStore(tmp_path) as store:
        assert store.version == LATEST
        assert store.trials("r1") == [old]
        assert store.finished_keys("r1") == {("case-a", "with_skill", 1)}
        cols = {r[1] for r in store._conn().execute("PRAGMA table_info(trials)")}
        assert {"case_kind", "activated", "script_runs", "script_runs_ok"} <= cols
        versions = [r[0] for r in store._conn().execute("SELECT version FROM schema_version")]
        assert versions == list(range(1, LATEST + 1))
        store.upsert_trial(_trial("r1", "case-b", activated=True))  # new columns in use
        assert len(store.trials("r1")) == 2


def test_a_store_from_a_newer_skillforge_is_refused(tmp_path):
    with RunStore(tmp_path):
        pass
    conn = sqlite3.connect(tmp_path / "skillforge.db", isolation_level=None)
    conn.execute("INSERT INTO schema_version VALUES (99, 'future', 'now')")
    conn.close()
    with pytest.raises(StoreVersionError, match="schema version 99, newer than"):
        RunStore(tmp_path)


def test_runs_latest_and_finish(tmp_path):
    with RunStore(tmp_path) as store:
        spec = RunSpec(skill_path="sample_skills/csv-insights", attempts=2)
        a = _run(store, "20260101T000000-aaaaaa", skill_name="csv-insights", spec=spec)
        b = _run(store, "20260102T000000-bbbbbb", engine="harbor")
        assert [r.run_id for r in store.runs()] == [b, a]
        assert store.latest_run().run_id == b
        assert store.run(a).spec == spec
        store.finish_run(a)
        assert store.run(a).status == "finished"
        with pytest.raises(ValueError, match="already exists"):
            _run(store, a)
        with pytest.raises(KeyError):
            store.finish_run("nope")


def test_upsert_replaces_by_key_and_resume_keys_are_the_ok_trials(tmp_path):
    with RunStore(tmp_path) as store:
        rid = _run(store)
        store.upsert_trial(_trial(rid, "a", status="error", error="docker died"))
        store.upsert_trial(_trial(rid, "a", attempt=2, status="timeout"))
        store.upsert_trial(_trial(rid, "b", cond="baseline", status="ok"))
        assert store.finished_keys(rid) == {("b", "baseline", 1)}
        store.upsert_trial(_trial(rid, "a", status="ok", tokens_in=120, turns=4))  # the retry
        trials = store.trials(rid)
        assert [(t.case_id, t.condition, t.attempt, t.status) for t in trials] == [
            ("a", "with_skill", 1, "ok"), ("a", "with_skill", 2, "timeout"),
            ("b", "baseline", 1, "ok")]
        assert trials[0].tokens_in == 120 and trials[0].error is None
        assert store.finished_keys(rid) == {("a", "with_skill", 1), ("b", "baseline", 1)}
        with pytest.raises(KeyError, match="create_run it first"):
            store.upsert_trial(_trial("no-such-run", "a"))


def test_metrics_keep_the_judges_evidence(tmp_path):
    with RunStore(tmp_path) as store:
        rid = _run(store)
        ev = MetricEvidence(evidence={"quote": "Jan 1200", "step": 7}, judge_model="gpt-judge",
                            rubric_version="accuracy-v2")
        store.upsert_trial(_trial(rid, "a", metrics={"accuracy": 0.8, "security": 1.0}),
                           evidence={"accuracy": ev})
        rows = {m.metric: m for m in store.metrics(rid)}
        assert rows["accuracy"].evidence == {"quote": "Jan 1200", "step": 7}
        assert (rows["accuracy"].judge_model, rows["accuracy"].rubric_version) == \
            ("gpt-judge", "accuracy-v2")
        assert rows["security"].evidence is None and rows["security"].value == 1.0
        # re-storing the trial with the same value keeps the evidence
        store.upsert_trial(_trial(rid, "a", metrics={"accuracy": 0.8, "security": 1.0},
                                  turns=3))
        assert store.metrics(rid, ("a", "with_skill", 1))[0].evidence == {"quote": "Jan 1200",
                                                                         "step": 7}
        store.record_metric(rid, ("a", "with_skill", 1), "goal_accuracy", 0.5,
                            MetricEvidence(evidence="half", judge_model="j"))
        assert store.trials(rid)[0].metrics == {"accuracy": 0.8, "security": 1.0,
                                                "goal_accuracy": 0.5}
        assert [m.metric for m in store.metrics(rid)] == ["accuracy", "goal_accuracy",
                                                          "security"]


def test_trial_trajectories_and_imports_are_files_under_the_state_dir(tmp_path):
    traj = Trajectory(agent=Agent(name="builtin", version="0.1"),
                      steps=[Step(step_id=1, source="user", message="go")],
                      extra={"case_id": "a/b", "run_id": "r"})
    with RunStore(tmp_path / "st") as store:
        rid = _run(store)
        path = store.save_trajectory(traj, run_id=rid, case_id="a/b", condition="baseline",
                                     attempt=2)
        assert path.parent == store.state_dir / "runs" / rid
        assert path.name.startswith("a_b-") and path.name.endswith("__baseline__2.json")
        assert validate_trajectory(json.loads(path.read_text())) == []
        assert load_trajectory(path) == traj
        rec = store.trajectories(run_id=rid)[0]
        assert (rec.steps, rec.tool_calls, rec.case_id, rec.attempt) == (1, 0, "a/b", 2)

        from sessions.importers import import_trajectory
        from tests.conftest import CORPUS

        result = import_trajectory(CORPUS / "traces" / "codex" /
                                   "ryoppippi__ccusage__session-alpha.jsonl")
        first = store.record_import(result)
        again = store.record_import(import_trajectory(result.source))
        assert first.id == again.id and len(store.trajectories(imported=True)) == 1
        assert first.path == store.state_dir / "imported" / f"{first.id}.json"
        assert (first.tokens_in, first.tokens_out, first.tokens_cached) == (3500, 425, 750)
        assert store.load(first.id).final_metrics.total_prompt_tokens == 3500


def test_judge_cache(tmp_path):
    with RunStore(tmp_path) as store:
        assert store.cache_get("k") is None
        store.cache_put("k", {"score": 7.5}, model="m")
        assert store.cache_get("k") == {"score": 7.5}


WRITER = """
import sys, time
from datetime import UTC, datetime
from sessions.store import RunStore
from skillforge.models.trial import RunRecord, TrialRecord
store = RunStore(sys.argv[1])
run_id, mode = sys.argv[2], sys.argv[3]
if store.run(run_id) is None:
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC)))
if mode == "hold":  # stopped inside an open transaction
    with store._write() as c:
        c.execute("INSERT INTO trials (run_id, case_id, condition, attempt, status, record_json,"
                  " updated_at) VALUES (?, 'half', 'baseline', 1, 'ok', '{}', 'now')", (run_id,))
        print("inside", flush=True)
        time.sleep(60)
for i in range(100000):
    store.upsert_trial(TrialRecord(run_id=run_id, case_id=f"case-{i}", condition="with_skill",
                                   attempt=1, metrics={"security": 1.0}, tokens_in=i))
    print("committed", i, flush=True)
"""


def _writer(state, run_id, mode="loop"):
    return subprocess.Popen([sys.executable, "-c", WRITER, str(state), run_id, mode],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


def test_kill_9_mid_run_loses_nothing_committed(tmp_path):
    proc = _writer(tmp_path, "run-k")
    last = -1
    for line in proc.stdout:
        last = int(line.split()[1])
        if last >= 30:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    with RunStore(tmp_path) as store:
        assert store._conn().execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = store.finished_keys("run-k")
        assert {(f"case-{i}", "with_skill", 1) for i in range(last + 1)} <= keys
        trials = store.trials("run-k")
        assert all(t.metrics == {"security": 1.0} for t in trials)
        assert len(store.metrics("run-k")) == len(trials)  # trial and metric rows together


def test_kill_9_inside_a_transaction_leaves_it_undone_and_the_store_usable(tmp_path):
    proc = _writer(tmp_path, "run-h", "hold")
    assert proc.stdout.readline().strip() == "inside"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    with RunStore(tmp_path) as store:
        assert store.trials("run-h") == []  # the half-done insert never happened
        store.upsert_trial(_trial("run-h", "after", status="ok"))  # not locked
        assert store.finished_keys("run-h") == {("after", "with_skill", 1)}


def test_concurrent_threads_and_asyncio_tasks(tmp_path):
    with RunStore(tmp_path) as store:
        rid = _run(store)

        def work(worker: int) -> None:
            for i in range(25):
                store.upsert_trial(_trial(rid, f"t{worker}-{i}", metrics={"overall": i / 25}))

        threads = [threading.Thread(target=work, args=(w,)) for w in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        async def main() -> None:
            await asyncio.gather(*(asyncio.to_thread(store.upsert_trial,
                                                     _trial(rid, f"a{i}", cond="baseline"))
                                   for i in range(20)))

        asyncio.run(main())
        assert len(store.trials(rid)) == 6 * 25 + 20
        assert len(store.metrics(rid)) == 6 * 25


def test_two_processes_write_the_same_store(tmp_path):
    with RunStore(tmp_path) as store:
        _run(store, "shared")
    procs = [_writer(tmp_path, "shared") for _ in range(2)]
    counts = []
    for proc in procs:
        n = 0
        for line in proc.stdout:
            n = int(line.split()[1])
            if n >= 40:
                break
        counts.append(n)
    for proc in procs:
        proc.kill()
        proc.wait(timeout=30)
    with RunStore(tmp_path) as store:
        # both wrote case-0 ... case-40 under the same keys: upserts, no duplicates, no errors
        keys = store.finished_keys("shared")
        assert {(f"case-{i}", "with_skill", 1) for i in range(41)} <= keys
