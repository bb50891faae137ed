"""The fast tier's promise (README, tests/hypothesis_budget.py): every property test draws its
examples through `examples()`, so `make test-fast` draws a tenth of each (at least 100) and
`make test` the full count. A count written as a bare number would silently escape it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.hypothesis_budget import FAST_FLOOR, examples

TESTS = Path(__file__).resolve().parent
BARE = re.compile(r"max_examples\s*=\s*(\d+)")


def test_no_property_test_sets_a_bare_count_above_the_floor():
    bare = []
    for path in sorted(TESTS.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = BARE.search(line)
            if m and int(m.group(1)) > FAST_FLOOR:  # at or below the floor both tiers agree
                bare.append(f"{path.relative_to(TESTS)}:{number}: {line.strip()}")
    assert not bare, "use max_examples=examples(N) (tests/hypothesis_budget.py):\n" + "\n".join(bare)


def test_the_budget_per_tier(monkeypatch):
    monkeypatch.delenv("SKILLFORGE_TEST_TIER", raising=False)
    assert examples(3000) == 3000 and examples(150) == 150
    monkeypatch.setenv("SKILLFORGE_TEST_TIER", "fast")
    assert examples(3000) == 300 and examples(150) == FAST_FLOOR and examples(40) == 40
