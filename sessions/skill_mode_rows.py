"""Skill Mode rows of the run store: one `SkillModeTrial` per `skill_mode` trial.

Mixed into `sessions.store.RunStore` (kept apart so the store stays one screen of code per
concept). The SkillCraft metrics, harvesting and the trial runner read and write only
through these three methods:

    store.save_skill_mode_trial(row)          # insert or replace by (run, attempt, case)
    store.skill_mode_trials(run_id)           # ordered by attempt, then seq
    store.final_skill_cache(run_id)           # the cache a chain ended with (see below)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path

from skillforge.models.skill_mode import SkillCache, SkillModeTrial


class SkillModeRows:
    """The skill_mode_trials table (migration 4); needs RunStore's connection helpers."""

    db_path: Path

    def _conn(self) -> sqlite3.Connection: ...  # provided by RunStore

    def _write(self) -> AbstractContextManager[sqlite3.Connection]: ...  # by RunStore

    def save_skill_mode_trial(self, row: SkillModeTrial) -> None:
        """Insert or replace the row of one skill_mode trial (KeyError: unknown run)."""
        conn = self._conn()
        if conn.execute("SELECT 1 FROM runs WHERE run_id=?", (row.run_id,)).fetchone() is None:
            raise KeyError(f"no run {row.run_id!r} in {self.db_path}; create_run it first")
        with self._write() as c:
            c.execute("INSERT OR REPLACE INTO skill_mode_trials (run_id, case_id, attempt, seq, "
                      "mode, row_json, updated_at) VALUES (?,?,?,?,?,?,?)",
                      (row.run_id, row.case_id, row.attempt, row.seq, row.mode,
                       row.model_dump_json(), datetime.now(UTC).isoformat()))

    def _skill_rows(self, run_id: str, attempt: int | None = None) -> Iterator[SkillModeTrial]:
        sql = "SELECT row_json FROM skill_mode_trials WHERE run_id=?"
        args: tuple[object, ...] = (run_id,)
        if attempt is not None:
            sql, args = sql + " AND attempt=?", (run_id, attempt)
        for r in self._conn().execute(sql + " ORDER BY attempt, seq, case_id", args):
            yield SkillModeTrial.model_validate_json(r["row_json"])

    def skill_mode_trials(self, run_id: str) -> list[SkillModeTrial]:
        """Every skill_mode row of a run, ordered by attempt, then position in the chain."""
        return list(self._skill_rows(run_id))

    def final_skill_cache(self, run_id: str, attempt: int | None = None) -> SkillCache | None:
        """The cache a chain of the run ended with: `cache_after` of its last case.

        `attempt` None takes the highest attempt that has rows (not a merge: attempts are
        independent chains and may hold different skills under one name). None when the run
        has no skill_mode rows (for that attempt).
        """
        sql = ("SELECT row_json FROM skill_mode_trials WHERE run_id=?"
               + (" AND attempt=?" if attempt is not None else "")
               + " ORDER BY attempt DESC, seq DESC LIMIT 1")
        args = (run_id,) if attempt is None else (run_id, attempt)
        row = self._conn().execute(sql, args).fetchone()
        if row is None:
            return None
        return SkillModeTrial.model_validate_json(row["row_json"]).cache_after
