"""Undo for fixes written by the workbench: put the files back as they were before.

The screen pushes each `FixRecord` it writes and calls `undo()` on ctrl+z. An undo is
refused, restoring nothing, when a file changed after the fix (the author edited it
since): putting the old bytes back would throw that edit away.
"""

from __future__ import annotations

import shutil

from skillforge.models.fileio import atomic_write_bytes
from skillforge.workspace.fixing import FixRecord

# Enough for a session of one-key fixes; the oldest records go first.
UNDO_LIMIT = 50


class UndoRefused(RuntimeError):
    """The files are no longer what the fix left; nothing was restored."""


class FixUndo:
    """A stack of written fixes, newest last."""

    def __init__(self, limit: int = UNDO_LIMIT) -> None:
        self._records: list[FixRecord] = []
        self._limit = limit

    def push(self, record: FixRecord) -> None:
        self._records.append(record)
        del self._records[:-self._limit]

    def __len__(self) -> int:
        return len(self._records)

    def peek(self) -> FixRecord | None:
        return self._records[-1] if self._records else None

    def undo(self) -> FixRecord | None:
        """Restore the newest fix's files and drop it; None when there is nothing to undo.
        Raises UndoRefused (and keeps the record) when a file changed since the fix."""
        if not self._records:
            return None
        record = self._records[-1]
        for change in record.changes:
            target = record.root / change.path
            if change.is_dir:
                if target.exists():
                    raise UndoRefused(f"{change.path}/ exists again; nothing was restored")
                continue
            now = target.read_bytes() if target.is_file() else None
            if now != change.after:
                raise UndoRefused(f"{change.path} changed after the fix; undoing would lose that "
                                  "edit, so nothing was restored")
        for change in record.changes:
            target = record.root / change.path
            if change.is_dir:
                aside = record.trash.get(change.path)
                if aside is not None and aside.exists():
                    shutil.move(aside, target)
            elif change.before is None:
                target.unlink(missing_ok=True)
            else:
                atomic_write_bytes(target, change.before)
        self._records.pop()
        return record
