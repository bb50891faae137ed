"""Trial-cache look-ups of the run store: stored trials by the key of their inputs.

Mixed into `sessions.store.RunStore`. A trial record carries its `cache_key` (the hash of
everything the trial saw: skillforge.trials.cache) inside `record_json`; an index on that
JSON field (migration 6) finds the trials of every run that share a key:

    store.trials_by_cache_key(keys, exclude_run=run_id)   # newest first
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from skillforge.models.trial import TrialRecord

# The indexed expression: a query must spell it exactly so for SQLite to use the index.
CACHE_KEY_SQL = "json_extract(record_json, '$.cache_key')"
# SQLite's default limit on host parameters is 999 on old builds: ask in chunks.
CHUNK = 500


class TrialCacheRows:
    """Trials by cache key; needs RunStore's connection helper."""

    def _conn(self) -> sqlite3.Connection: ...  # provided by RunStore

    def trials_by_cache_key(self, keys: Sequence[str], *, exclude_run: str | None = None
                            ) -> list[TrialRecord]:
        """The stored trials whose cache key is one of `keys` (not of run `exclude_run`),
        newest first."""
        out: list[tuple[str, TrialRecord]] = []
        for i in range(0, len(keys), CHUNK):
            chunk = list(keys[i:i + CHUNK])
            rows = self._conn().execute(
                f"SELECT record_json, updated_at FROM trials WHERE {CACHE_KEY_SQL} IN "
                f"({','.join('?' * len(chunk))}) AND run_id IS NOT ?",
                (*chunk, exclude_run))
            out += [(r["updated_at"], TrialRecord.model_validate_json(r["record_json"]))
                    for r in rows]
        return [rec for _, rec in sorted(out, key=lambda item: item[0], reverse=True)]
