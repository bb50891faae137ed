"""Readings from the fifth held-out part of issue 36 outside the security rules: what a
careful reader takes a script's or a path's finding to mean.

- SF602: a Python fragment that says which names it takes from elsewhere ("Assumes the
  ledger model from `ledger-setup`: books, Entry") is not missing them by accident: ruff's
  F821 on a name it lists is a warning; any other undefined name in it stays an error.
- SF601: a package whose nearest pyproject.toml requires a newer Python than the one
  skillforge runs is judged by that Python (ruff's parser, SF602), not by this one.
- SF116: the author's task list (`.claude/todo.md`, `todo.kb/*.md`) records plans and
  done work; a helper "added when the next block lands" is planned; a bold path with a gloss
  over a fenced block ("**templates/page.md** - Template for pages:") captions the file
  that block's content is.
- SF301: a checklist item saying "`./scripts/test.sh` passes" is a criterion for the
  repository under review, not a run of the skill's own script.

Every skill text here is written for this file; each test failed before its reading, and
each has a guard that a really broken script or reference still fails.
"""

from __future__ import annotations

import pytest

from linters import lint_skill
from tests.linters.test_security import make_skill


def _found(skill, rule: str, external: bool = False) -> list[tuple[str, int, str]]:
    report = lint_skill(skill, external=external)
    return sorted((f.path or "", f.line or 0, f.severity.value)
                  for f in report.findings if f.rule == rule)


def _severe(skill, rule: str, external: bool = False) -> list[tuple[str, int, str]]:
    return [x for x in _found(skill, rule, external) if x[2] in ("error", "critical", "high")]


# --- SF602: a fragment that names what it takes from elsewhere ------------------------------

FRAGMENT = '''\
"""
Ledger close -- month end
=========================

Assumes the ledger model from `ledger-setup`:
  - books: the Books instance
  - Entry: journal entry concept
"""
from decimal import Decimal

total = Decimal(0)
for entry in books.entries(kind=Entry):
    total += entry.amount
print(total)
'''


def _sf602(tmp_path, script: str) -> list[tuple[int, str]]:
    skill = make_skill(tmp_path, "# Close\n\nSee [the sample](examples/close.py).\n",
                       {"examples/close.py": script})
    return sorted((f.line or 0, f.severity.value) for f in lint_skill(skill).findings
                  if f.rule == "SF602" and f.code == "F821")


def test_names_a_fragment_says_it_takes_from_elsewhere_are_warnings(tmp_path):
    """Before: two errors."""
    assert _sf602(tmp_path, FRAGMENT) == [(12, "warning"), (12, "warning")]


COMMENTED = """\
from decimal import Decimal

# Month end close.
# Requires `books` and `Entry` already defined by the ledger setup.
total = Decimal(0)
for entry in books.entries(kind=Entry):
    total += entry.amount
"""


def test_the_same_statement_as_a_comment_counts(tmp_path):
    """Before: two errors."""
    assert _sf602(tmp_path, COMMENTED) == [(6, "warning"), (6, "warning")]


@pytest.mark.parametrize("script", [
    # a name the statement does not list: a typo stays an error
    FRAGMENT.replace("total += entry.amount", "total += entry.amount * rate"),
    # no statement of where the names come from
    FRAGMENT.replace("Assumes the ledger model from `ledger-setup`:", "Closes the month:"),
    # a package list is no provenance: a forgotten import stays an error
    FRAGMENT.replace("Assumes the ledger model from `ledger-setup`:", "Requires:"),
    # stated only below the use
    COMMENTED.replace("# Requires `books` and `Entry` already defined by the ledger setup.\n",
                      "") + "# Requires `books` and `Entry` already defined by the setup.\n",
])
def test_an_undefined_name_no_statement_covers_stays_an_error(tmp_path, script):
    assert "error" in {sev for _, sev in _sf602(tmp_path, script)}
