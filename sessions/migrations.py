"""Versioned schema of the run store (`<state dir>/skillforge.db`).

Each migration is a list of SQL statements applied in one transaction together with the
row that records its version in `schema_version`; a crash mid-migration leaves the database
at the previous version, and the next open applies it again. Never edit a released
migration: add the next one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

MIGRATIONS: tuple[tuple[str, Sequence[str]], ...] = (
    ("runs and trials", (
        """CREATE TABLE runs (
            run_id      TEXT PRIMARY KEY,
            created_at  TEXT NOT NULL,
            skill_name  TEXT,
            skill_path  TEXT,
            skill_hash  TEXT,
            engine      TEXT NOT NULL,
            status      TEXT NOT NULL,
            label       TEXT,
            spec_json   TEXT,
            finished_at TEXT
        )""",
        """CREATE TABLE trials (
            run_id          TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            case_id         TEXT NOT NULL,
            condition       TEXT NOT NULL,
            attempt         INTEGER NOT NULL,
            status          TEXT NOT NULL,
            error           TEXT,
            trajectory_path TEXT,
            metrics_json    TEXT NOT NULL DEFAULT '{}',
            grader          REAL,
            tokens_in       INTEGER NOT NULL DEFAULT 0,
            tokens_out      INTEGER NOT NULL DEFAULT 0,
            tokens_cached   INTEGER NOT NULL DEFAULT 0,
            cost_usd        REAL,
            turns           INTEGER NOT NULL DEFAULT 0,
            tool_calls      INTEGER NOT NULL DEFAULT 0,
            wall_s          REAL NOT NULL DEFAULT 0,
            started_at      TEXT,
            finished_at     TEXT,
            record_json     TEXT NOT NULL,
            updated_at      TEXT NOT NULL,
            PRIMARY KEY (run_id, case_id, condition, attempt)
        )""",
        "CREATE INDEX trials_by_status ON trials (run_id, status)",
    )),
    ("metric evidence and stored trajectories", (
        """CREATE TABLE trial_metrics (
            run_id         TEXT NOT NULL,
            case_id        TEXT NOT NULL,
            condition      TEXT NOT NULL,
            attempt        INTEGER NOT NULL,
            metric         TEXT NOT NULL,
            value          REAL,
            evidence_json  TEXT,
            judge_model    TEXT,
            rubric_version TEXT,
            updated_at     TEXT NOT NULL,
            PRIMARY KEY (run_id, case_id, condition, attempt, metric),
            FOREIGN KEY (run_id, case_id, condition, attempt)
                REFERENCES trials (run_id, case_id, condition, attempt) ON DELETE CASCADE
        )""",
        """CREATE TABLE trajectories (
            id            TEXT PRIMARY KEY,
            path          TEXT NOT NULL,
            source_format TEXT NOT NULL,
            source_path   TEXT,
            session_id    TEXT,
            sha256        TEXT NOT NULL,
            source_sha256 TEXT,
            steps         INTEGER NOT NULL,
            tool_calls    INTEGER NOT NULL,
            tokens_in     INTEGER,
            tokens_out    INTEGER,
            tokens_cached INTEGER,
            run_id        TEXT,
            case_id       TEXT,
            condition     TEXT,
            attempt       INTEGER,
            skipped_json  TEXT,
            warnings_json TEXT,
            imported_at   TEXT NOT NULL
        )""",
        "CREATE INDEX trajectories_by_run ON trajectories (run_id)",
        "CREATE INDEX trajectories_by_source ON trajectories (source_sha256)",
    )),
    ("judge cache and trial facts", (
        """CREATE TABLE judge_cache (
            key        TEXT PRIMARY KEY,
            kind       TEXT NOT NULL,
            model      TEXT,
            value_json TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "ALTER TABLE trials ADD COLUMN case_kind TEXT",
        "ALTER TABLE trials ADD COLUMN activated INTEGER",
        "ALTER TABLE trials ADD COLUMN script_runs INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE trials ADD COLUMN script_runs_ok INTEGER NOT NULL DEFAULT 0",
    )),
    ("skill mode trials", (
        # One row per skill_mode trial (skillforge.models.skill_mode.SkillModeTrial as JSON):
        # the skill cache before and after the trial and the skill tools' events.
        """CREATE TABLE skill_mode_trials (
            run_id     TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            case_id    TEXT NOT NULL,
            attempt    INTEGER NOT NULL,
            seq        INTEGER NOT NULL,
            mode       TEXT NOT NULL,
            row_json   TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (run_id, attempt, case_id)
        )""",
        "CREATE INDEX skill_mode_trials_by_chain ON skill_mode_trials (run_id, attempt, seq)",
    )),
    ("author labels and repeated judgments", (
        # The author's own score of one judged thing (sessions.label_rows): keyed by the
        # judged content's hash, the metric or rubric criterion, the judge model and its
        # prompt (rubric) version, so a re-judge of the same content meets its old label.
        # Not tied to a run row: labels outlive re-scoring, --resume and deleted runs.
        """CREATE TABLE labels (
            kind           TEXT NOT NULL,
            content_hash   TEXT NOT NULL,
            metric         TEXT NOT NULL,
            judge_model    TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            author_value   REAL NOT NULL,
            judge_value    REAL,
            reason         TEXT NOT NULL DEFAULT '',
            skill          TEXT,
            run_id         TEXT,
            case_id        TEXT,
            condition      TEXT,
            attempt        INTEGER,
            source         TEXT NOT NULL,
            created_at     TEXT NOT NULL,
            PRIMARY KEY (kind, content_hash, metric, judge_model, prompt_version)
        )""",
        "CREATE INDEX labels_by_skill ON labels (skill, kind)",
        # Every distinct judgment seen of a labelled kind of content (one row per judge
        # answer, by when it was made: a cache hit is the same answer, not a repeat), so
        # self-consistency (the same judge on the same content, repeated) can be measured.
        """CREATE TABLE judgments (
            kind           TEXT NOT NULL,
            content_hash   TEXT NOT NULL,
            metric         TEXT NOT NULL,
            judge_model    TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            judged_at      TEXT NOT NULL,
            value          REAL NOT NULL,
            skill          TEXT,
            PRIMARY KEY (kind, content_hash, metric, judge_model, prompt_version, judged_at)
        )""",
    )),
    ("trial cache keys", (
        # A trial's cache key (the hash of its inputs, skillforge.trials.cache) lives in its
        # record_json; a new run finds stored trials with its keys through this index
        # (sessions.trial_cache_rows spells the same expression).
        "CREATE INDEX trials_by_cache_key ON trials (json_extract(record_json, '$.cache_key'))",
    )),
)
LATEST = len(MIGRATIONS)


class StoreVersionError(RuntimeError):
    """The database was written by a newer skillforge than this one."""


def current_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT name FROM sqlite_master WHERE type='table' "
                       "AND name='schema_version'").fetchone()
    if row is None:
        return 0
    return conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, target: int = LATEST, db_name: str = "the run store") -> int:
    """Bring the schema up to `target`, one transaction per migration; returns the version.

    `conn` must be in autocommit mode (isolation_level=None): transactions are explicit.
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                 "name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    version = current_version(conn)
    if version > LATEST:
        raise StoreVersionError(f"{db_name} is at schema version {version}, newer than this "
                                f"skillforge knows ({LATEST}); upgrade skillforge or use "
                                "another --state-dir")
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = current_version(conn)  # another process may have migrated meanwhile
            if version >= target:
                conn.execute("COMMIT")
                break
            name, statements = MIGRATIONS[version]
            for sql in statements:
                conn.execute(sql)
            conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                         (version + 1, name, datetime.now(UTC).isoformat()))
            conn.execute("COMMIT")
            version += 1
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version
