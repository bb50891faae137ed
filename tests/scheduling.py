"""The order `make test-fast` hands tests to its xdist workers.

Tests that mostly wait (a Textual app between key presses, an LSP server between
messages: tests/tui, tests/widgets, tests/lsp) use about a third of a core each; the rest
compute. In file order the waiting ones come last, all together, and the cores idled while
every worker waited at once. Spreading each kind evenly over the run, a module at a time (so
module fixtures are set up once), keeps both cores busy.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

WAITING = ("tui", "widgets", "lsp")


def spread(items: Sequence[pytest.Item]) -> list[pytest.Item]:
    """`items` with the waiting modules spread evenly among the computing ones; each
    module's tests stay together and in their order."""
    modules: dict[object, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    waiting, computing = [], []
    for path, group in modules.items():
        parts = path.parts
        folder = parts[parts.index("tests") + 1] if "tests" in parts[:-1] else ""
        (waiting if folder in WAITING else computing).append(group)
    order = sorted(
        [((i + 0.5) / len(waiting), 0, g) for i, g in enumerate(waiting)]
        + [((j + 0.5) / len(computing), 1, g) for j, g in enumerate(computing)],
        key=lambda t: (t[0], t[1]))
    return [item for _pos, _kind, group in order for item in group]
