"""SF301 and a pointer to a section of one of the skill's documents (issue 36, holdout25: an
audit collection's summary tables point into their prose chunks as `chunks/02 §Procedure`,
which SF301 read as a run of the extensionless script `chunks/02`).

A path followed by a section sign, or an extensionless stem that names one of the skill's
documents by its prefix followed by a section's name, is a document reference, not a
command. Every skill text here is written for this file; the twins (a missing
`python scripts/audit.py`, `bash notes/run.sh`, `./tools/check --all`, a stem followed by an
option, a stem that names a script too) keep the error.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.reliability.section_pointers import section_pointer
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_NOTES = {
    "notes/01-scope-and-roles.md": "# Scope\n\n## 2. Procedure\n\nAgree the scope.\n",
    "notes/03-sampling.md": "# Sampling\n\n## 4. Output template\n\n| item | result |\n",
    "tools/lint.sh": "#!/bin/sh\necho lint\n",
    "tools/check-guide.md": "# How the checker reads a ledger\n",
}

_BODY = """\
# Ledger review

Review a ledger's access controls against the firm's checklist.

## Where the detail lives

| Need | Read |
|---|---|
| Agree the scope | {cell} |
| Lay out the sample | `notes/03` |
"""


@pytest.mark.parametrize("cell", [
    "`notes/01 §Procedure`",
    "`notes/03 §Output template`",
    "`notes/01 § 2`",
    "`notes/01 Procedure`",
    "`notes/03 Output template`",
])
def test_a_pointer_into_a_document_is_no_run(tmp_path, cell):
    skill = make_skill(tmp_path, _BODY.format(cell=cell), _NOTES, name="ledger-review")
    assert found(skill, "SF301") == []


def test_a_section_sign_points_into_a_document_even_without_the_file_at_hand(tmp_path):
    # No script is named: a missing document is SF116's concern, not a missing run.
    skill = make_skill(tmp_path, _BODY.format(cell="`guides/04 §Steps`"), _NOTES,
                       name="ledger-review")
    assert found(skill, "SF301") == []


@pytest.mark.parametrize("cell", [
    "`python scripts/audit.py --ledger gl.csv`",
    "`bash notes/run.sh`",
    "`./tools/check --all`",
    "`notes/01 --all`",      # an option: an argument of a command
    "`notes/01 out/report`",  # a path argument
    "`tools/check.sh Procedure`",  # a script's suffix
    "`tools/verify Procedure`",  # the stem names no document of the skill
])
def test_a_missing_script_run_keeps_the_error(tmp_path, cell):
    skill = make_skill(tmp_path, _BODY.format(cell=cell), _NOTES, name="ledger-review")
    assert [sev for _p, _l, sev in severe(skill, "SF301")] == ["error"]


def test_a_stem_a_script_shares_is_no_document(tmp_path):
    files = dict(_NOTES, **{"notes/01-scope.sh": "#!/bin/sh\necho scope\n"})
    skill = make_skill(tmp_path, _BODY.format(cell="`notes/01 Procedure`"), files,
                       name="ledger-review")
    assert [sev for _p, _l, sev in severe(skill, "SF301")] == ["error"]


def test_an_explicit_run_of_a_stem_stays_a_run(tmp_path):
    skill = make_skill(tmp_path, _BODY.format(cell="`./notes/01 Procedure`"), _NOTES,
                       name="ledger-review")
    assert [sev for _p, _l, sev in severe(skill, "SF301")] == ["error"]


_FILES = ("notes/01-scope.md", "notes/02-sample.md", "scripts/audit.py", "tools/check")
_WORD = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9.-]{0,8}", fullmatch=True)


@settings(max_examples=examples(300))
@given(path=st.sampled_from(["notes/01", "notes/02", "tools/check", "scripts/x"]),
       words=st.lists(_WORD, min_size=1, max_size=3))
def test_a_section_sign_always_makes_a_pointer(path, words):
    assert section_pointer(path, ["§" + words[0], *words[1:]], _FILES) is not None


@settings(max_examples=examples(300))
@given(path=st.sampled_from(["notes/01", "notes/02", "./notes/01", "tools/check"]),
       words=st.lists(_WORD, max_size=3),
       option=st.from_regex(r"--?[a-z][a-z-]{0,6}", fullmatch=True),
       at=st.integers(min_value=0, max_value=3))
def test_an_option_keeps_a_run(path, words, option, at):
    """An option anywhere in the words, without a section sign first, is a command's."""
    rest = [*words[:at], option, *words[at:]]
    assert section_pointer(path, rest, _FILES) is None
