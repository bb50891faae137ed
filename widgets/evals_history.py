"""Undo and redo for the evals editor: snapshots of the whole EvalSet (pure; no Textual).

Every change is preceded by `checkpoint()`, which keeps a deep copy of the set as it was.
Typing on in one field (same `group`) within `GROUP_SECONDS` extends the last step instead
of adding one. Every state of the set gets its own version number (undo brings the old
number back with the old set), so a version names one content: the editor caches "differs
from the file" per version. Whether the set is unsaved is the editor's question, answered by
comparing content with the file, not by counting steps.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Hashable
from dataclasses import dataclass

from skillforge.models.evals import EvalSet

GROUP_SECONDS = 2.0
MAX_STEPS = 200


@dataclass
class Snapshot:
    evalset: EvalSet
    selected: int | None
    version: int


class EditHistory:
    """The undo and redo stacks, and the version of the set being edited."""

    def __init__(self) -> None:
        self._undo: list[Snapshot] = []
        self._redo: list[Snapshot] = []
        self._counter = itertools.count(1)
        self.version = 0
        self._group: Hashable | None = None
        self._group_time = 0.0

    def reset(self, kept: EvalSet | None = None, selected: int | None = None) -> None:
        """A fresh start (a file loaded): nothing to redo; `kept` (the set as it was before
        the load) is the one step to undo, else nothing is."""
        self._undo.clear()
        self._redo.clear()
        self._group = None
        if kept is not None:
            # Its own version: sharing the loaded set's number made undo look "unchanged".
            self.version = next(self._counter)
            self.keep(kept, selected)
        self.version = next(self._counter)

    def keep(self, evalset: EvalSet, selected: int | None) -> None:
        """Remember `evalset` as an undo step (a copy), whatever the grouping."""
        self._undo.append(Snapshot(evalset.model_copy(deep=True), selected, self.version))
        del self._undo[:-MAX_STEPS]

    def checkpoint(self, evalset: EvalSet, selected: int | None,
                   group: Hashable | None = None) -> None:
        """Call before changing `evalset`; a change in the same group soon after is merged."""
        now = time.monotonic()
        if group is not None and group == self._group and now - self._group_time < GROUP_SECONDS:
            self._group_time = now
            return
        self.keep(evalset, selected)
        self._redo.clear()
        self._group, self._group_time = group, now

    def changed(self) -> None:
        """Call after a change: the set has a new version."""
        self.version = next(self._counter)

    def end_group(self) -> None:
        """The next change starts a new undo step (e.g. another case was selected)."""
        self._group = None

    def undo(self, evalset: EvalSet, selected: int | None) -> Snapshot | None:
        """The state before the last change (None when there is none); redo can return."""
        return self._swap(self._undo, self._redo, evalset, selected)

    def redo(self, evalset: EvalSet, selected: int | None) -> Snapshot | None:
        return self._swap(self._redo, self._undo, evalset, selected)

    def _swap(self, source: list[Snapshot], target: list[Snapshot], evalset: EvalSet,
              selected: int | None) -> Snapshot | None:
        if not source:
            return None
        target.append(Snapshot(evalset, selected, self.version))
        snap = source.pop()
        self.version = snap.version
        self._group = None
        return snap
