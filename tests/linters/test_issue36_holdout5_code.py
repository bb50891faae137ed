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

import sys

import pytest

from linters import lint_skill
from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill


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


# --- SF601: the Python a package requires ---------------------------------------------------

ALIAS = "type Amount = int | float\n\n\ndef total(xs: list[Amount]) -> Amount:\n    return sum(xs)\n"
PYPROJECT = '[project]\nname = "ledger"\nrequires-python = ">=3.12"\n'
_OLD_PYTHON = pytest.mark.skipif(sys.version_info >= (3, 12),
                                 reason="this Python parses 3.12 syntax itself")


def _package(tmp_path, script: str, pyproject: str | None = PYPROJECT):
    files = {"lib/ledger/amounts.py": script}
    if pyproject is not None:
        files["pyproject.toml"] = pyproject
    return make_skill(tmp_path, "# Ledger\n\nRun `python -m ledger` from `lib/`.\n", files)


@_OLD_PYTHON
def test_syntax_of_the_python_the_package_requires_is_not_an_error(tmp_path):
    """Before: SF601 error ("Python 3.11 cannot parse")."""
    skill = _package(tmp_path, ALIAS)
    assert _severe(skill, "SF601") == []
    assert _severe(skill, "SF602", external=True) == []


@_OLD_PYTHON
@pytest.mark.parametrize("pyproject", [
    None,  # no pyproject: judged by this Python
    PYPROJECT.replace(">=3.12", ">=3.10"),  # the package says this Python is supported
])
def test_newer_syntax_than_the_package_supports_stays_an_error(tmp_path, pyproject):
    assert _severe(_package(tmp_path, ALIAS, pyproject), "SF601") == [
        ("lib/ledger/amounts.py", 1, "error")]


def test_a_real_syntax_error_in_such_a_package_still_fails(tmp_path):
    skill = _package(tmp_path, ALIAS + "\ndef broken(:\n    pass\n")
    assert _severe(skill, "SF601") + _severe(skill, "SF602", external=True)


# --- SF116: task lists, planned helpers, a captioned block ----------------------------------

_BODY = "# Ledger\n\nClose the month with [the guide](references/close.md).\n"
_GUIDE = "# Close\n\nSum the entries.\n"


def test_paths_in_the_authors_task_list_are_warnings(tmp_path):
    """Before: two errors."""
    todo = ("# Backlog\n\n- [x] Document the pattern (references/close-notes.md)\n"
            "- [ ] Helper script: `scripts/new-entry.sh`\n")
    skill = make_skill(tmp_path, _BODY, {"references/close.md": _GUIDE,
                                         ".claude/todo.kb/2025-03-01-000-notes.md": todo,
                                         ".claude/todo.md": todo})
    assert _severe(skill, "SF116") == []
    assert _found(skill, "SF116")


def test_the_same_items_in_a_reference_stay_errors(tmp_path):
    todo = ("# Notes\n\n- Read the pattern in references/close-notes.md\n"
            "- Run `scripts/new-entry.sh` first\n")
    skill = make_skill(tmp_path, _BODY, {"references/close.md": _GUIDE,
                                         "references/todo-pattern.md": todo})
    assert _severe(skill, "SF116") == [("references/todo-pattern.md", 3, "error"),
                                       ("references/todo-pattern.md", 4, "error")]


_PLANNED = ("# Close\n\nThe shared rounding helper in `scripts/rounding.js` (added when the "
            "next currency block lands) does all of the above.\n")


def test_a_helper_added_when_a_later_block_lands_is_planned(tmp_path):
    """Before: error."""
    skill = make_skill(tmp_path, _BODY, {"references/close.md": _PLANNED})
    assert _severe(skill, "SF116") == []


def test_a_helper_added_in_the_past_is_still_a_broken_reference(tmp_path):
    text = _PLANNED.replace("added when the next currency block lands",
                            "added when we refactored the blocks")
    skill = make_skill(tmp_path, text)
    assert [(path, sev) for path, _line, sev in _severe(skill, "SF116")] == [
        ("SKILL.md", "error")]


_CAPTIONED = """\
# Ledger

If the report is long, create extra files:

**templates/page.md** - Template for the generated pages:
```markdown
[Page content with clear {{ placeholders }}]
```
"""


def test_a_path_glossed_over_the_block_of_its_content_is_a_caption(tmp_path):
    """Before: error."""
    assert _severe(make_skill(tmp_path, _CAPTIONED), "SF116") == []


@pytest.mark.parametrize("text", [
    # not over a block: a pointer to read
    _CAPTIONED.replace("```markdown\n[Page content with clear {{ placeholders }}]\n```\n", ""),
    # the path does not open the line: a sentence, not a caption
    _CAPTIONED.replace("**templates/page.md** - Template for the generated pages:",
                       "Fill in **templates/page.md** - the template for the pages:"),
])
def test_a_glossed_path_that_captions_nothing_stays_an_error(tmp_path, text):
    assert _severe(make_skill(tmp_path, text), "SF116") == [("SKILL.md", 10, "error")]


# --- SF301: a checklist's criterion ---------------------------------------------------------

_CHECKLIST = """\
# Ledger review

Review the ledger repository before a release.

## Validation

- [ ] `./scripts/check.sh -v` passes (schemas, totals, cross-refs)
- [ ] Every journal has an owner
"""


def test_a_checklist_item_saying_a_command_passes_is_a_criterion(tmp_path):
    """Before: error."""
    assert _severe(make_skill(tmp_path, _CHECKLIST), "SF301") == []


@pytest.mark.parametrize("item", [
    "- [ ] Run `./scripts/check.sh -v` and fix what it reports",  # an instruction
    "- `./scripts/check.sh -v` passes (schemas, totals, cross-refs)",  # not a checklist
])
def test_a_command_the_checklist_tells_the_agent_to_run_stays_an_error(tmp_path, item):
    text = _CHECKLIST.replace("- [ ] `./scripts/check.sh -v` passes (schemas, totals, cross-refs)",
                              item)
    assert [x[2] for x in _severe(make_skill(tmp_path, text), "SF301")] == ["error"]
