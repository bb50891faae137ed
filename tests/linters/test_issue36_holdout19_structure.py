"""Issue 36, holdout19: SF110 repeating SF108's defect.

A name that differs from its folder only in the characters SF108 disallows (`ledger:sync` in
the folder `ledger-sync`: each run of them read as `-` gives the folder's name) is one
defect: SF108's error, and SF110 a warning pointing to it. A name that differs otherwise
(`ledger-sync` in `ledger`, `ledger:push` in `ledger-sync`, `Ledger Sync` in `ledger-sync`,
whose letters differ in case) keeps SF110's error.

Every skill text here is written for this file; the first test failed before the reading.
"""

from __future__ import annotations

import pytest

from skillforge.models.findings import Severity
from tests.linters.correctness_skill import lint

_DESCRIPTION = "Syncs the team ledger with the bank export. Use when the books are stale."


@pytest.mark.parametrize("name", ["ledger:sync", "ledger_sync", "ledger sync", "ledger: sync"])
def test_a_name_off_only_in_sf108s_characters_is_a_warning(tmp_path, name):
    """Before: SF110 error "`name` is `ledger:sync` but the folder is `ledger-sync`"."""
    fm = f'name: "{name}"\ndescription: {_DESCRIPTION}\n'
    [sf108] = lint(tmp_path, "SF108", fm, folder="ledger-sync")
    [sf110] = lint(tmp_path, "SF110", fm, folder="ledger-sync")
    assert sf108.severity is Severity.error
    assert sf110.severity is Severity.warning and "SF108" in sf110.message


@pytest.mark.parametrize("name, folder", [
    ("ledger-sync", "ledger"),  # a valid name, another word
    ("ledger:push", "ledger-sync"),  # another word after the colon
    ("Ledger Sync", "ledger-sync"),  # the letters differ in case
])
def test_any_other_mismatch_stays_an_error(tmp_path, name, folder):
    fm = f'name: "{name}"\ndescription: {_DESCRIPTION}\n'
    [sf110] = lint(tmp_path, "SF110", fm, folder=folder)
    assert sf110.severity is Severity.error
