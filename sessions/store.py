"""The run store: runs, trials, metric evidence and trajectories, in SQLite plus ATIF files.

Layout of a state dir (default `.skillforge` in the launch directory, made on first use
with a `.gitignore` of `*`): `skillforge.db` (WAL mode, versioned by sessions.migrations),
`runs/<run_id>/*.json` (trial trajectories) and `imported/*.json` (imported traces).

Every write is one transaction committed before the call returns, so a process killed at
any point leaves every earlier trial stored and the database consistent; resuming a run
skips the keys `finished_keys` returns. Safe to share between threads and asyncio tasks:
each thread gets its own connection and writes are serialised by a lock (and, across
processes, by SQLite's own locking with a generous busy timeout).
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, Field

from sessions.atif import Trajectory, dumps_trajectory, load_trajectory
from sessions.importers.base import ImportResult
from sessions.label_rows import LabelRows
from sessions.migrations import migrate
from sessions.skill_mode_rows import SkillModeRows
from sessions.trial_cache_rows import TrialCacheRows
from skillforge.models.fileio import atomic_write_text
from skillforge.models.trial import RunRecord, TrialRecord

DB_NAME = "skillforge.db"
DEFAULT_STATE_DIR = ".skillforge"
TrialKey = tuple[str, str, int]  # (case_id, condition, attempt)


class MetricEvidence(BaseModel):
    """Why a metric has its value: the judge's evidence, which judge, which rubric."""

    evidence: Any = None
    judge_model: str | None = None
    rubric_version: str | None = None


class MetricRecord(MetricEvidence):
    run_id: str
    case_id: str
    condition: str
    attempt: int
    metric: str
    value: float | None
    updated_at: datetime


class TrajectoryRecord(BaseModel):
    """A trajectory file the store keeps, and where it came from."""

    id: str
    path: Path  # absolute
    source_format: str
    source_path: str | None = None
    session_id: str | None = None
    sha256: str
    source_sha256: str | None = None
    steps: int
    tool_calls: int
    tokens_in: int | None = None
    tokens_out: int | None = None
    tokens_cached: int | None = None
    run_id: str | None = None
    case_id: str | None = None
    condition: str | None = None
    attempt: int | None = None
    skipped: dict[str, int] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    imported_at: datetime


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _safe(part: Any) -> str:
    """A file-name-safe form of an id; ids that had to change get a hash so none collide."""
    text = str(part)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:80] or "x"
    return safe if safe == text else f"{safe}-{_sha(text)[:8]}"


def new_run_id() -> str:
    """A sortable, unique run id: UTC time plus a random suffix."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"


def ensure_state_dir(state_dir: Path | str) -> Path:
    """Create the state dir (with a .gitignore of `*`) if missing; returns it."""
    path = Path(state_dir)
    path.mkdir(parents=True, exist_ok=True)
    ignore = path / ".gitignore"
    if not ignore.exists():
        atomic_write_text(ignore, "*\n")
    return path


def import_id(result: ImportResult) -> str:
    """Stable id of an imported trace: the same source bytes always get the same id."""
    digest = result.source_sha256 or _sha(dumps_trajectory(result.trajectory))
    return f"{result.format}-{digest[:16]}"


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class RunStore(SkillModeRows, LabelRows, TrialCacheRows):
    """The SQLite run store of one state dir. Use as a context manager or call close().

    Skill Mode rows (`save_skill_mode_trial`, `skill_mode_trials`, `final_skill_cache`) come
    from sessions.skill_mode_rows; the author's labels and repeated judgments
    (`save_labels`, `labels`, `label_for`, `record_judgments`, ...) from sessions.label_rows.
    """

    def __init__(self, state_dir: Path | str | None = None) -> None:
        self.state_dir = ensure_state_dir(Path(state_dir) if state_dir else
                                          Path.cwd() / DEFAULT_STATE_DIR).resolve()
        self.db_path = self.state_dir / DB_NAME
        self._local = threading.local()
        self._lock = threading.RLock()
        self._conns: list[sqlite3.Connection] = []
        self.version = migrate(self._conn(), db_name=str(self.db_path))

    # -- connections -------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.db_path, timeout=60, isolation_level=None,
                                   check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=60000")
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        with self._lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            for conn in self._conns:
                conn.close()
            self._conns.clear()
        self._local = threading.local()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def journal_mode(self) -> str:
        return self._conn().execute("PRAGMA journal_mode").fetchone()[0]

    # -- runs --------------------------------------------------------------------------
    def create_run(self, run: RunRecord) -> RunRecord:
        """Store a new run; ValueError if its id is taken."""
        try:
            with self._write() as c:
                c.execute("INSERT INTO runs (run_id, created_at, skill_name, skill_path, "
                          "skill_hash, engine, status, label, spec_json) VALUES (?,?,?,?,?,?,?,?,?)",
                          (run.run_id, _iso(run.created_at), run.skill_name, run.skill_path,
                           run.skill_hash, run.engine, run.status, run.label,
                           run.spec.model_dump_json() if run.spec else None))
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"run {run.run_id!r} already exists in {self.db_path}") from exc
        return run

    def finish_run(self, run_id: str, status: str = "finished") -> None:
        with self._write() as c:
            cur = c.execute("UPDATE runs SET status=?, finished_at=? WHERE run_id=?",
                            (status, _now(), run_id))
            if cur.rowcount == 0:
                raise KeyError(f"no run {run_id!r} in {self.db_path}")

    def _run(self, row: sqlite3.Row) -> RunRecord:
        return RunRecord.model_validate({
            "run_id": row["run_id"], "created_at": row["created_at"],
            "skill_name": row["skill_name"], "skill_path": row["skill_path"],
            "skill_hash": row["skill_hash"], "engine": row["engine"], "status": row["status"],
            "label": row["label"],
            "spec": json.loads(row["spec_json"]) if row["spec_json"] else None,
        })

    def runs(self) -> list[RunRecord]:
        """Every run, newest first."""
        rows = self._conn().execute("SELECT * FROM runs ORDER BY created_at DESC, rowid DESC")
        return [self._run(r) for r in rows]

    def run(self, run_id: str) -> RunRecord | None:
        row = self._conn().execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
        return self._run(row) if row else None

    def latest_run(self) -> RunRecord | None:
        runs = self.runs()
        return runs[0] if runs else None

    # -- trials ------------------------------------------------------------------------
    def upsert_trial(self, trial: TrialRecord,
                     evidence: Mapping[str, MetricEvidence] | None = None) -> None:
        """Insert or replace one trial and its metric rows, in one committed transaction."""
        now = _now()
        key = (trial.run_id, trial.case_id, trial.condition, trial.attempt)
        if self.run(trial.run_id) is None:
            raise KeyError(f"no run {trial.run_id!r} in {self.db_path}; create_run it first")
        with self._write() as c:
            # Read before replacing: REPLACE deletes the old row, cascading to its metrics.
            old = {r["metric"]: r for r in c.execute(
                "SELECT * FROM trial_metrics WHERE run_id=? AND case_id=? AND condition=? "
                "AND attempt=?", key)}
            c.execute(
                "INSERT OR REPLACE INTO trials (run_id, case_id, condition, attempt, status, "
                "error, trajectory_path, metrics_json, grader, tokens_in, tokens_out, "
                "tokens_cached, cost_usd, turns, tool_calls, wall_s, started_at, finished_at, "
                "case_kind, activated, script_runs, script_runs_ok, record_json, updated_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*key, trial.status, trial.error, trial.trajectory_path,
                 json.dumps(trial.metrics), trial.grader, trial.tokens_in, trial.tokens_out,
                 trial.tokens_cached, trial.cost_usd, trial.turns, trial.tool_calls, trial.wall_s,
                 _iso(trial.started_at), _iso(trial.finished_at), trial.case_kind,
                 None if trial.activated is None else int(trial.activated), trial.script_runs,
                 trial.script_runs_ok, trial.model_dump_json(), now))
            c.execute("DELETE FROM trial_metrics WHERE run_id=? AND case_id=? AND condition=? "
                      "AND attempt=?", key)
            for metric, value in trial.metrics.items():
                ev = (evidence or {}).get(metric)
                prev = old.get(metric)
                if ev is None and prev is not None and prev["value"] == value:
                    ev = MetricEvidence(evidence=json.loads(prev["evidence_json"] or "null"),
                                        judge_model=prev["judge_model"],
                                        rubric_version=prev["rubric_version"])
                self._put_metric(c, key, metric, value, ev or MetricEvidence(), now)

    @staticmethod
    def _put_metric(c: sqlite3.Connection, key: tuple[str, str, str, int], metric: str,
                    value: float | None, ev: MetricEvidence, now: str) -> None:
        c.execute("INSERT OR REPLACE INTO trial_metrics (run_id, case_id, condition, attempt, "
                  "metric, value, evidence_json, judge_model, rubric_version, updated_at) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?)",
                  (*key, metric, value, json.dumps(ev.evidence, ensure_ascii=False),
                   ev.judge_model, ev.rubric_version, now))

    def record_metric(self, run_id: str, key: TrialKey, metric: str, value: float | None,
                      evidence: MetricEvidence | None = None) -> None:
        """Set one metric of a stored trial (e.g. after re-judging), with its evidence."""
        full = (run_id, *key)
        with self._write() as c:
            row = c.execute("SELECT record_json FROM trials WHERE run_id=? AND case_id=? AND "
                            "condition=? AND attempt=?", full).fetchone()
            if row is None:
                raise KeyError(f"no trial {key} in run {run_id!r}")
            trial = TrialRecord.model_validate_json(row["record_json"])
            trial.metrics[metric] = value
            c.execute("UPDATE trials SET metrics_json=?, record_json=?, updated_at=? WHERE "
                      "run_id=? AND case_id=? AND condition=? AND attempt=?",
                      (json.dumps(trial.metrics), trial.model_dump_json(), _now(), *full))
            self._put_metric(c, full, metric, value, evidence or MetricEvidence(), _now())

    def trials(self, run_id: str) -> list[TrialRecord]:
        rows = self._conn().execute("SELECT record_json FROM trials WHERE run_id=? ORDER BY "
                                    "case_id, condition, attempt", (run_id,))
        return [TrialRecord.model_validate_json(r["record_json"]) for r in rows]

    def finished_keys(self, run_id: str) -> set[TrialKey]:
        """Keys of the trials of a run that finished ok (a resumed run skips these)."""
        rows = self._conn().execute("SELECT case_id, condition, attempt FROM trials WHERE "
                                    "run_id=? AND status='ok'", (run_id,))
        return {(r["case_id"], r["condition"], r["attempt"]) for r in rows}

    def metrics(self, run_id: str, key: TrialKey | None = None) -> list[MetricRecord]:
        sql = "SELECT * FROM trial_metrics WHERE run_id=?"
        args: tuple[Any, ...] = (run_id,)
        if key is not None:
            sql += " AND case_id=? AND condition=? AND attempt=?"
            args += tuple(key)
        rows = self._conn().execute(sql + " ORDER BY case_id, condition, attempt, metric", args)
        return [MetricRecord(run_id=r["run_id"], case_id=r["case_id"], condition=r["condition"],
                             attempt=r["attempt"], metric=r["metric"], value=r["value"],
                             evidence=json.loads(r["evidence_json"] or "null"),
                             judge_model=r["judge_model"], rubric_version=r["rubric_version"],
                             updated_at=r["updated_at"]) for r in rows]

    # -- trajectories ------------------------------------------------------------------
    def _put_trajectory(self, rec_id: str, rel: str, traj: Trajectory, text: str,
                        **fields: Any) -> TrajectoryRecord:
        atomic_write_text(self.state_dir / rel, text)
        totals = traj.totals()
        row = {
            "id": rec_id, "path": rel, "sha256": _sha(text), "session_id": traj.session_id,
            "steps": len(traj.steps), "tool_calls": sum(len(s.tool_calls or [])
                                                        for s in traj.steps),
            "tokens_in": totals.total_prompt_tokens, "tokens_out": totals.total_completion_tokens,
            "tokens_cached": totals.total_cached_tokens, "imported_at": _now(),
            "source_format": "skillforge", "source_path": None, "source_sha256": None,
            "run_id": None, "case_id": None, "condition": None, "attempt": None,
            "skipped_json": None, "warnings_json": None, **fields,
        }
        cols = ", ".join(row)
        with self._write() as c:
            c.execute(f"INSERT OR REPLACE INTO trajectories ({cols}) VALUES "
                      f"({', '.join('?' * len(row))})", tuple(row.values()))
        rec = self.trajectory(rec_id)
        assert rec is not None
        return rec

    def save_trajectory(self, traj: Trajectory, *, run_id: str, case_id: str | int,
                        condition: str, attempt: int) -> Path:
        """Store a trial's trajectory under runs/<run_id>/ and record it; returns its path."""
        name = f"{_safe(case_id)}__{_safe(condition)}__{attempt}.json"
        rel = f"runs/{_safe(run_id)}/{name}"
        rec = self._put_trajectory(f"{run_id}/{case_id}/{condition}/{attempt}", rel, traj,
                                   dumps_trajectory(traj), run_id=run_id, case_id=str(case_id),
                                   condition=condition, attempt=attempt)
        return rec.path

    def record_import(self, result: ImportResult) -> TrajectoryRecord:
        """Store an imported trace under imported/ (re-importing the same bytes replaces it)."""
        rec_id = import_id(result)
        return self._put_trajectory(
            rec_id, f"imported/{rec_id}.json", result.trajectory,
            dumps_trajectory(result.trajectory), source_format=result.format,
            source_path=result.source, source_sha256=result.source_sha256,
            skipped_json=json.dumps(result.skipped.reasons),
            warnings_json=json.dumps(result.warnings))

    def _trajectory(self, row: sqlite3.Row) -> TrajectoryRecord:
        data = {k: row[k] for k in row.keys() if not k.endswith("_json")}  # noqa: SIM118
        data["path"] = self.state_dir / row["path"]
        data["skipped"] = json.loads(row["skipped_json"] or "{}")
        data["warnings"] = json.loads(row["warnings_json"] or "[]")
        return TrajectoryRecord.model_validate(data)

    def trajectory(self, rec_id: str) -> TrajectoryRecord | None:
        row = self._conn().execute("SELECT * FROM trajectories WHERE id=?", (rec_id,)).fetchone()
        return self._trajectory(row) if row else None

    def trajectories(self, run_id: str | None = None,
                     imported: bool | None = None) -> list[TrajectoryRecord]:
        """Stored trajectories, newest first; of one run, or only imported ones."""
        sql, args = "SELECT * FROM trajectories", []
        if run_id is not None:
            sql, args = sql + " WHERE run_id=?", [run_id]
        elif imported is not None:
            sql += " WHERE run_id IS NULL" if imported else " WHERE run_id IS NOT NULL"
        rows = self._conn().execute(sql + " ORDER BY imported_at DESC, rowid DESC", args)
        return [self._trajectory(r) for r in rows]

    def load(self, rec_id: str) -> Trajectory:
        """The stored trajectory itself (sessions.atif.AtifError if its file is damaged)."""
        rec = self.trajectory(rec_id)
        if rec is None:
            raise KeyError(f"no trajectory {rec_id!r} in {self.db_path}")
        return load_trajectory(rec.path)

    # -- judge cache -------------------------------------------------------------------
    def cache_get(self, key: str) -> Any | None:
        row = self._conn().execute("SELECT value_json FROM judge_cache WHERE key=?",
                                   (key,)).fetchone()
        return json.loads(row["value_json"]) if row else None

    def cache_put(self, key: str, value: Any, *, kind: str = "judge",
                  model: str | None = None) -> None:
        with self._write() as c:
            c.execute("INSERT OR REPLACE INTO judge_cache (key, kind, model, value_json, "
                      "created_at) VALUES (?,?,?,?,?)",
                      (key, kind, model, json.dumps(value, ensure_ascii=False), _now()))
