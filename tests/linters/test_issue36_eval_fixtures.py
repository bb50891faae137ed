"""SF316 on eval files that the evals' own setup script makes (issue 36, the test part).

An evals file may name a setup script of the skill (`"fixture_setup":
"evals/make_fixtures.sh"`) that builds the cases' input files before they run, because they
are too big or too odd to commit (sparse files, a fake home folder). A case's file that is
not in the skill, but that such a script of the skill names, is made by it: a warning that
says so, not an error. Without the script, or when the script does not name the file, it
stays an error.
"""

from __future__ import annotations

import json

from skillforge.models.findings import Severity
from tests.linters.reliability_skill import fired, make_skill

SETUP = """#!/usr/bin/env bash
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
HOME_DIR="$ROOT/inputs/pretend-home"
mkdir -p "$HOME_DIR/.cache/big"
truncate -s 3G "$HOME_DIR/.cache/big/blob.bin"
"""


def _evals(setup_key: str | None, setup_path: str = "evals/make_fixtures.sh") -> dict:
    data: dict = {"skill_name": "disk-usage"}
    if setup_key:
        data[setup_key] = setup_path
    data["evals"] = [
        {"id": 1, "prompt": "Measure the caches.", "files": ["evals/inputs/pretend-home"]},
        {"id": 2, "prompt": "And the sheet.", "files": ["evals/inputs/usage.csv"]},
    ]
    return {"evals/evals.json": json.dumps(data, indent=2)}


def _sf316(tmp_path, files: dict) -> dict[str, object]:
    found = fired(make_skill(tmp_path, "# Disk usage\n", files), "SF316")
    return {("pretend-home" if "pretend-home" in f.message else "usage.csv"): f
            for f in found}


def test_a_file_the_evals_setup_script_makes_is_a_warning_naming_the_script(tmp_path):
    found = _sf316(tmp_path, {**_evals("fixture_setup"), "evals/make_fixtures.sh": SETUP})
    made = found["pretend-home"]
    assert made.severity == Severity.warning
    assert "evals/make_fixtures.sh" in made.message and "fixture_setup" in made.message
    # The script does not name the sheet: that one is missing for real.
    assert found["usage.csv"].severity == Severity.error


def test_other_setup_key_names_are_read_the_same_way(tmp_path):
    for key in ("setup", "prepare", "generate_inputs", "before_all"):
        found = _sf316(tmp_path / key, {**_evals(key), "evals/make_fixtures.sh": SETUP})
        assert found["pretend-home"].severity == Severity.warning, key


def test_without_a_setup_script_of_the_skill_a_missing_file_stays_an_error(tmp_path):
    cases = {
        "no key": {**_evals(None), "evals/make_fixtures.sh": SETUP},
        "script missing": _evals("fixture_setup"),
        "not a setup key": {**_evals("notes"), "evals/make_fixtures.sh": SETUP},
        "script elsewhere": {**_evals("fixture_setup", "../shared/make.sh")},
    }
    for name, files in cases.items():
        found = _sf316(tmp_path / name.replace(" ", "-"), files)
        assert found["pretend-home"].severity == Severity.error, name


def test_a_script_that_does_not_name_the_file_leaves_it_an_error(tmp_path):
    other = SETUP.replace("pretend-home", "sandbox")
    found = _sf316(tmp_path, {**_evals("fixture_setup"), "evals/make_fixtures.sh": other})
    assert found["pretend-home"].severity == Severity.error
