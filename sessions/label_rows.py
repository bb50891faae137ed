"""The author's labels and repeated judgments in the run store (migration 5, issue 19).

Mixed into `sessions.store.RunStore`. A label is keyed by (kind, content hash, metric or
criterion, judge model, prompt version): a re-judge of the same content by the same judge
and prompt meets its old label, and labels live apart from runs and trials, so they survive
`--resume`, re-scoring and a re-judge. The API:

    store.save_labels([label, ...])          # insert or replace by key, one transaction
    store.labels(kind=None, skill=None)      # every label (of a kind / skill)
    store.label_for(judgment)                # the label of exactly this judgment key
    store.author_value(kind, content, metric) # the author's value whatever the judge
    store.record_judgments([judgment, ...])  # remember judge answers (self-consistency)
    store.repeated_judgments(...)            # {(kind, content, metric, judge, version): [v]}
    store.recorded_judgments(kind, skill)    # the latest answer of each judgment key

Content hash of a trial: sha256 of "trial", the stored trajectory file's sha256 and the case
id (the trajectory is what the judge read; a resumed or re-scored trial keeps its file);
`skillforge.lift.judgments` builds a run's judgments with it.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path

from skillforge.models.labels import Judgment, Label

_KEY = ("kind", "content_hash", "metric", "judge_model", "prompt_version")
_COLS = (*_KEY, "author_value", "judge_value", "reason", "skill", "run_id", "case_id",
         "condition", "attempt", "source", "created_at")
RepeatKey = tuple[str, str, str, str, str]


def trial_content_hash(trajectory_sha256: str, case_id: str) -> str:
    """The content hash of a trial's judged content (see the module docstring)."""
    return hashlib.sha256(f"trial\0{trajectory_sha256}\0{case_id}".encode()).hexdigest()


class LabelRows:
    """The labels and judgments tables; needs RunStore's connection helpers."""

    db_path: Path

    def _conn(self) -> sqlite3.Connection: ...  # provided by RunStore

    def _write(self) -> AbstractContextManager[sqlite3.Connection]: ...  # by RunStore

    # -- labels --------------------------------------------------------------------------
    def save_labels(self, labels: Iterable[Label]) -> int:
        """Insert or replace labels by key, in one committed transaction; returns how many."""
        now = datetime.now(UTC).isoformat()
        rows = [(lb.kind, lb.content_hash, lb.metric, lb.judge_model, lb.prompt_version,
                 lb.author_value, lb.judge_value, lb.reason, lb.skill, lb.run_id, lb.case_id,
                 lb.condition, lb.attempt, lb.source,
                 lb.created_at.isoformat() if lb.created_at else now) for lb in labels]
        with self._write() as c:
            c.executemany(f"INSERT OR REPLACE INTO labels ({', '.join(_COLS)}) VALUES "
                          f"({', '.join('?' * len(_COLS))})", rows)
        return len(rows)

    @staticmethod
    def _label(row: sqlite3.Row) -> Label:
        return Label.model_validate({k: row[k] for k in _COLS})

    def labels(self, kind: str | None = None, skill: str | None = None) -> list[Label]:
        sql, args = "SELECT * FROM labels WHERE 1=1", []
        if kind is not None:
            sql, args = sql + " AND kind=?", [*args, kind]
        if skill is not None:
            sql, args = sql + " AND skill=?", [*args, skill]
        rows = self._conn().execute(sql + " ORDER BY created_at, rowid", args)
        return [self._label(r) for r in rows]

    def label_for(self, j: Judgment) -> Label | None:
        """The label of exactly this judgment's key (same content, metric, judge, prompt)."""
        row = self._conn().execute(
            "SELECT * FROM labels WHERE kind=? AND content_hash=? AND metric=? AND "
            "judge_model=? AND prompt_version=?",
            (j.kind, j.content_hash, j.metric, j.judge_model, j.prompt_version)).fetchone()
        return self._label(row) if row else None

    def author_value(self, kind: str, content_hash: str, metric: str) -> Label | None:
        """The author's latest label of this content and metric, whichever judge it was for
        (the author's value does not depend on the judge: other judges are compared to it)."""
        row = self._conn().execute(
            "SELECT * FROM labels WHERE kind=? AND content_hash=? AND metric=? "
            "ORDER BY created_at DESC, rowid DESC LIMIT 1", (kind, content_hash, metric)).fetchone()
        return self._label(row) if row else None

    def author_values(self, kind: str | None = None) -> dict[tuple[str, str, str], Label]:
        """{(kind, content, metric): latest label} for every labelled item."""
        out: dict[tuple[str, str, str], Label] = {}
        for lb in self.labels(kind):
            out[(lb.kind, lb.content_hash, lb.metric)] = lb  # ordered by time: latest wins
        return out

    # -- judgments (self-consistency) ------------------------------------------------------
    def record_judgments(self, judgments: Iterable[Judgment]) -> None:
        """Remember judge answers; the same answer (same judged_at) is stored once, and one
        with no judged_at (when the judge answered is unknown) not at all."""
        rows = [(j.kind, j.content_hash, j.metric, j.judge_model, j.prompt_version,
                 j.judged_at, j.value, j.skill) for j in judgments if j.judged_at]
        with self._write() as c:
            c.executemany("INSERT OR IGNORE INTO judgments (kind, content_hash, metric, "
                          "judge_model, prompt_version, judged_at, value, skill) VALUES "
                          "(?,?,?,?,?,?,?,?)", rows)

    def repeated_judgments(self, kind: str | None = None) -> dict[RepeatKey, list[float]]:
        """Values of each (kind, content, metric, judge, version) judged more than once."""
        sql = "SELECT * FROM judgments" + (" WHERE kind=?" if kind else "")
        out: dict[RepeatKey, list[float]] = {}
        for r in self._conn().execute(sql + " ORDER BY judged_at", (kind,) if kind else ()):
            key = (r["kind"], r["content_hash"], r["metric"], r["judge_model"],
                   r["prompt_version"])
            out.setdefault(key, []).append(r["value"])
        return {k: v for k, v in out.items() if len(v) >= 2}

    def recorded_judgments(self, kind: str | None = None, skill: str | None = None
                           ) -> list[Judgment]:
        """The latest recorded answer of each (kind, content, metric, judge, version), of a
        kind / skill: what every judge model said, for ranking the judges (issue 19)."""
        sql, args = "SELECT * FROM judgments WHERE 1=1", []
        if kind is not None:
            sql, args = sql + " AND kind=?", [*args, kind]
        if skill is not None:
            sql, args = sql + " AND skill=?", [*args, skill]
        out: dict[RepeatKey, Judgment] = {}
        for r in self._conn().execute(sql + " ORDER BY judged_at", args):
            j = Judgment(kind=r["kind"], content_hash=r["content_hash"], metric=r["metric"],
                         judge_model=r["judge_model"], prompt_version=r["prompt_version"],
                         value=r["value"], skill=r["skill"], judged_at=r["judged_at"])
            out[(j.kind, j.content_hash, j.metric, j.judge_model, j.prompt_version)] = j
        return list(out.values())
