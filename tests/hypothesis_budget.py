"""How many random examples the property tests draw, per tier.

`make test` (the whole suite, what CI runs) draws each property test's full count.
`make test-fast`, the contributors' loop between two edits, sets SKILLFORGE_TEST_TIER=fast
and draws a tenth of it (at least 100): the same tests and strategies, with less search.
A tenth, not a fifth: the property tests were ~10 s of the tier's ~270 CPU-seconds.
"""

from __future__ import annotations

import os

FAST_SHARE = 10
FAST_FLOOR = 100


def examples(full: int) -> int:
    """The max_examples for a property test whose thorough count is `full`."""
    if os.environ.get("SKILLFORGE_TEST_TIER") == "fast":
        return min(full, max(FAST_FLOOR, full // FAST_SHARE))
    return full
