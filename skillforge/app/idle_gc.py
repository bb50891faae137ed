"""The workbench collects its cyclic garbage while the author is idle, not in the middle of a key.

Python's collector walks every tracked object on a full collection, and it starts one
whenever enough allocations pile up: in the workbench that was a 70-130 ms pause every few
key presses (the widgets built since the last `gc.freeze`, the render caches), right in
the middle of a tab switch or a move in the case list (tests/bench/bench_tui.py: tab switch
p95 ~200 ms with them, ~85 ms without). So while the app runs, full collections are not
started by allocations; the young generations still are (they are cheap). A full
collection runs once the keys and the mouse have been still for `IDLE_S`, and at the latest
`MAX_DEFER_S` after the previous one, so a long session never holds its garbage for long.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

IDLE_S = 1.0
MAX_DEFER_S = 60.0
CHECK_EVERY_S = 0.5
# gen2's threshold counts gen1 collections; this many never come in a session.
NEVER = 1 << 30


class IdleCollector:
    """Start it when the app is up, tell it of every key and mouse event, call `tick`
    every CHECK_EVERY_S, stop it on the way out (the thresholds come back as they were)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._saved: tuple[int, int, int] | None = None
        self._last_input = self._last_collect = clock()
        self._input_since_collect = False
        self.collections = 0

    def start(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gen0, gen1, _ = self._saved
            gc.set_threshold(gen0, gen1, NEVER)
        self._last_input = self._last_collect = self._clock()

    def stop(self) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def input_seen(self) -> None:
        self._last_input = self._clock()
        self._input_since_collect = True

    def tick(self) -> bool:
        """Collect now if the author is idle (or it was put off too long); True if it did."""
        if self._saved is None or not gc.isenabled():
            return False
        now = self._clock()
        idle = now - self._last_input >= IDLE_S
        if not (idle and self._input_since_collect) and now - self._last_collect < MAX_DEFER_S:
            return False  # busy, or nothing happened since the last collection
        gc.collect()
        self._last_collect = self._clock()
        self._input_since_collect = False
        self.collections += 1
        return True
