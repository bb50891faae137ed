"""Readings from the twenty-eighth held-out part of issue 36: paths a list sets aside (SF116,
`linters.text.paths.listed_aside`).

Two shapes of list name missing files that the text never sends the agent to:
- what the run writes: "Write findings to:" over `./audit_output/fields.json`: files that
  appear once the step has run;
- what the skill no longer ships: "## Removed features" or "These helpers are not needed in
  this edition:" over `scripts/preview.py`.
A missing file there is a warning. Its twins keep the error: a path later in the item ("- See
`./guide/layout.md`"), a script or a guide of the skill's own folders in an output list, a
Markdown link there, the same path in a plain list or a sentence that says to read it.

Every skill text here is written for this file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from tests.hypothesis_budget import examples
from tests.linters.probe_skill import probe_skill
from tests.linters.rule_findings import found

# The probe skill's body starts on line 8 (frontmatter, a blank line, the title, a blank).
_FIRST = 8


def _sf116(tmp_path: Path, body: str, files: dict[str, str] | None = None):
    skill = probe_skill(tmp_path, body, files, name="ledger-check")
    return found(skill, "SF116")


def _at(body: str, text: str) -> int:
    """The SKILL.md line of the first body line holding `text`."""
    return _FIRST + next(i for i, ln in enumerate(body.splitlines()) if text in ln)


_OUTPUT_STEP = """\
## Step 3: Compare the totals

For each invoice, compare its total with the ledger's entry.

Write the results to:

- `./ledger_check/mismatches.json`
- `./ledger_check/summary.md`

Then tell the user how many mismatches there were.
"""


def test_an_output_list_under_a_write_lead_in_is_a_warning(tmp_path):
    rows = _sf116(tmp_path, _OUTPUT_STEP)
    assert rows == [("SKILL.md", _at(_OUTPUT_STEP, "mismatches.json"), "warning"),
                    ("SKILL.md", _at(_OUTPUT_STEP, "summary.md"), "warning")]


def test_the_warning_says_the_run_writes_it(tmp_path):
    skill = probe_skill(tmp_path, _OUTPUT_STEP, name="ledger-check")
    messages = [f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF116"]
    assert messages and all("files the run writes" in m for m in messages)


def test_a_see_entry_under_a_write_lead_in_stays_an_error(tmp_path):
    body = "Write the results to:\n\n- See `./guide/layout.md` for the layout of each file.\n"
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "layout.md"), "error")]


def test_a_guide_or_a_script_in_an_output_list_stays_an_error(tmp_path):
    body = ("Write the results to:\n\n- `references/layout.md`\n- `./tools/fix_totals.py`\n"
            "- `./ledger_check/summary.md`\n")
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "layout.md"), "error"),
                                      ("SKILL.md", _at(body, "fix_totals.py"), "error"),
                                      ("SKILL.md", _at(body, "summary.md"), "warning")]


def test_a_link_in_an_output_list_stays_an_error(tmp_path):
    body = "Save the report as:\n\n- [the summary](ledger_check/summary.md)\n"
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "summary.md"), "error")]


def test_a_lead_in_that_says_to_read_is_not_an_output_list(tmp_path):
    body = ("Before you write anything, read the notes in:\n\n"
            "- `./ledger_check/summary.md`\n")
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "summary.md"), "error")]


_REMOVED = """\
## Viewing the ledger

Open the ledger in the hosted viewer.

## Removed features

This edition leaves out the desktop helpers:

- `scripts/preview_server.py` (local preview) - use the hosted viewer instead
- `scripts/export_pdf.sh` - printing happens in the viewer
"""


def test_entries_under_a_removed_heading_are_warnings(tmp_path):
    assert _sf116(tmp_path, _REMOVED) == [
        ("SKILL.md", _at(_REMOVED, "preview_server.py"), "warning"),
        ("SKILL.md", _at(_REMOVED, "export_pdf.sh"), "warning")]


def test_entries_below_a_removed_lead_in_are_warnings(tmp_path):
    body = ("## Tools\n\nThese helpers are **not needed** in this edition:\n\n"
            "- `scripts/preview_server.py` - the viewer previews\n")
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "preview_server.py"), "warning")]


def test_the_same_scripts_in_a_plain_list_stay_errors(tmp_path):
    body = _REMOVED.replace("## Removed features", "## Helpers").replace(
        "This edition leaves out the desktop helpers:", "The desktop helpers:")
    assert _sf116(tmp_path, body) == [
        ("SKILL.md", _at(body, "preview_server.py"), "error"),
        ("SKILL.md", _at(body, "export_pdf.sh"), "error")]


def test_a_replacement_named_later_in_a_removed_entry_stays_an_error(tmp_path):
    body = ("## Removed features\n\n- The desktop preview: run `scripts/hosted_view.py` "
            "instead\n")
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "hosted_view.py"), "error")]


def test_a_topic_heading_that_mentions_deprecation_is_no_removed_list(tmp_path):
    body = "## Handling deprecated accounts\n\n- `references/closed_accounts.md` - the rules\n"
    assert _sf116(tmp_path, body) == [("SKILL.md", _at(body, "closed_accounts.md"), "error")]


# --- the property: only an entry a set-aside list opens with the path softens ----------------

_OUTPUT_LEADS = ("Write the findings to:", "Save results as:", "Outputs:", "**Output files:**",
                 "The script writes the following files:", "This step creates:")
_REMOVED_LEADS = ("The following scripts were removed:", "No longer shipped:",
                  "These helpers are **not needed** in this edition:")
_PLAIN_LEADS = ("Files:", "Read these first:", "Use the following:", "Check these files:",
                "The ledger's notes:")
_DIRS = ("ledger_out", "audit_output", "results", "run-data")
_STEMS = ("mismatches", "summary", "totals", "accounts", "notes", "ledger")
_EXTS = ("json", "md", "csv", "txt")


@st.composite
def _cases(draw):
    path = f"./{draw(st.sampled_from(_DIRS))}/{draw(st.sampled_from(_STEMS))}" \
           f".{draw(st.sampled_from(_EXTS))}"
    kind = draw(st.sampled_from(("output", "removed", "plain")))
    leads = {"output": _OUTPUT_LEADS, "removed": _REMOVED_LEADS, "plain": _PLAIN_LEADS}[kind]
    lead = draw(st.sampled_from(leads))
    opens = draw(st.booleans())
    marker = draw(st.sampled_from(("-", "*", "+")))
    return path, kind, lead, opens, marker


@settings(max_examples=examples(80), deadline=None)
@given(_cases())
def test_only_an_entry_of_an_output_or_removed_list_softens(case):
    path, kind, lead, opens, marker = case
    item = f"`{path}` - one per run" if opens else f"See `{path}` for the layout"
    body = (f"## Step 2\n\nCompare the totals.\n\n{lead}\n\n{marker} {item}\n\n"
            f"## Step 3\n\nRead `{path}` before you answer.\n")
    with tempfile.TemporaryDirectory() as tmp:
        rows = _sf116(Path(tmp), body)
    listed, prose = _at(body, f"{marker} {item}"), _at(body, "before you answer")
    assert ("SKILL.md", prose, "error") in rows
    at_list = [sev for _f, line, sev in rows if line == listed]
    if opens and kind in ("output", "removed"):
        # a warning, or no finding where an older reading already takes the list for the
        # run folder's ("Outputs:" over `./` files)
        assert at_list in (["warning"], [])
    else:
        assert at_list == ["error"]
