"""Which steps of a shown trajectory are highlighted: activations, script runs, errors.

Pure (no Textual). The trajectory view asks for a step's marks as it draws the step, so the
steps on screen are marked at once; the rest are marked in short slices after the first
paint (`mark_for`), unless the caller already had the trajectory's facts. `StepMarkBook`
holds both: the marks of the steps asked for so far and, once every step is marked, all of
them by step id.
"""

from __future__ import annotations

import time

from widgets.trajectory_index import StepIndex
from widgets.trajectory_layout import StepMarks, TrajectoryFacts, count, step_marks


class StepMarkBook:
    """The marks of one trajectory's steps: all of them once known, else those asked for."""

    def __init__(self) -> None:
        self.known: dict[int, StepMarks] | None = None  # by step_id, once all are known
        self._asked: dict[int, StepMarks] = {}  # by entry, as steps are drawn or marked
        self._next = 0  # the next entry to mark in the background
        self._index = StepIndex()

    def reset(self, index: StepIndex, facts: TrajectoryFacts | None) -> None:
        """Start over on the entries of `index`; `facts` (when given) holds every step's marks."""
        self._index = index
        self._asked.clear()
        self.known = facts.by_step() if facts is not None else None

    @property
    def complete(self) -> bool:
        """True once every step's marks are known."""
        return self.known is not None

    def at(self, entry: int) -> StepMarks:
        """The marks of the step in `entry` (marking it now if need be; empty for a slot)."""
        step = self._index.step_at(entry)
        if step is None:
            return StepMarks()
        if self.known is not None:
            return self.known.get(step.step_id) or StepMarks()
        marks = self._asked.get(entry)
        if marks is None:
            marks = self._asked[entry] = step_marks(self._index.trajectory, step)
        return marks

    def restart(self) -> None:
        """Mark from the first entry on at the next `mark_for`."""
        self._next = 0

    def mark_for(self, seconds: float) -> bool:
        """Mark the next entries for about `seconds`; True once every step is marked."""
        deadline = time.perf_counter() + seconds
        total = len(self._index)
        while self._next < total and time.perf_counter() < deadline:
            self.at(self._next)
            self._next += 1
        if self._next < total:
            return False
        self.known = {step.step_id: marks for e, marks in self._asked.items()
                      if (step := self._index.step_at(e)) is not None}
        return True

    def summary(self) -> list[str]:
        """`3 activations`, `1 script run`, `0 errors` once all are known, else nothing."""
        if self.known is None:
            return []
        marks = self.known.values()
        return [count(sum(len(m.activations) for m in marks), "activation"),
                count(sum(len(m.script_runs) for m in marks), "script run"),
                count(sum(len(m.errors) for m in marks), "error")]
