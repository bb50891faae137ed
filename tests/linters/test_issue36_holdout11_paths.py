"""Readings from the eleventh held-out part of issue 36 for SF116 (a missing file named).

- Another root stated for a sentence's paths: "Read `<vendor_dir>/references/intake.md`
  and `references/rubric.md`", "Read these (paths relative to `<vendor_dir>`):". The paths are
  another installed package's, not the skill's: no finding, and the same folder's paths
  elsewhere in the document are a warning. The skill's own placeholder (`<skill-dir>`,
  `{baseDir}`) states no other root: its sentence's missing paths stay errors.
- A file in the agent's memory store ("check the agent's memory tree for `x.md`"), a list
  led in as files to write ("Write targets:"), and a name to fill in (`log-YYYY-MM-DD.md`,
  `NNN-slug.md`) are not files of the skill. Reading a missing `references/guide.md`
  stays an error, as does a list led in as files to read.
- A file the sentence detects in the user's project ("checking for `scripts/app.js` in
  cwd") is the project's; a sentence that checks for it without placing it in the project
  keeps its finding.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin that a really broken reference still fails.
"""

from __future__ import annotations

import pytest

from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill

# --- another root stated for the paths ---------------------------------------------------------

_VENDOR = """\
# Intake review

Run `scripts/locate.py` to find the vendor package; call its folder `<vendor_dir>`.

Read these files at run time (paths relative to `<vendor_dir>`):
`references/intake.md`, `references/rubric.md`.

## Review

Read `<vendor_dir>/references/review.md` and `references/scoring.md`, then score each case.

Score each case with the fields defined in `references/rubric.md`.
"""


def test_paths_under_another_placeholder_root_are_not_the_skills(tmp_path):
    skill = make_skill(tmp_path, _VENDOR, files={"scripts/locate.py": "print('x')\n"})
    assert _severe(skill, "SF116") == []
    # the last mention states no root itself: the document's reading makes it a warning
    assert _found(skill, "SF116") == [("SKILL.md", 17, "warning")]


def test_the_skills_own_placeholder_root_keeps_its_paths_checked(tmp_path):
    text = _VENDOR.replace("<vendor_dir>", "<skill-dir>")
    skill = make_skill(tmp_path, text, files={"scripts/locate.py": "print('x')\n"})
    assert [sev for _p, _l, sev in _severe(skill, "SF116")] == ["error"] * 5


def test_base_dir_placeholder_keeps_its_paths_checked(tmp_path):
    body = "# Review\n\nRead `{baseDir}/references/review.md` and `references/scoring.md`.\n"
    skill = make_skill(tmp_path, body)
    assert [p for _f, p, _s in _severe(skill, "SF116")] == [8, 8]


# --- files the agent writes --------------------------------------------------------------------

_MEMORY = """\
# Journal import

When this skill loads, check the agent's memory tree for `reference/journal.md`.

Write targets (every import makes the first two):
- `reference/imports/summary.md` — always create
- `reference/imports/people.md` — create when people are named

Save each long conversation as `reference/imports/log-YYYY-MM-DD.md`, and each topic at
`reference/imports/topics/NNN-slug.md`.
"""

_READ_GUIDE = """\
# Journal import

Read `references/guide.md` before importing.

Files to follow (read each first):
- `references/steps.md` — the import steps
"""


def test_memory_files_outputs_and_templated_names_are_not_the_skills(tmp_path):
    skill = make_skill(tmp_path, _MEMORY)
    assert _found(skill, "SF116") == []


def test_a_missing_guide_to_read_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _READ_GUIDE)
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error"), ("SKILL.md", 11, "error")]


# --- a file detected in the user's project -----------------------------------------------------

_DETECT = """\
# Site setup

Detect a site project by checking for `site.yaml`, `scripts/app.js`, or `head.html` in cwd.
If none is found, skip this step.
"""


def test_a_file_detected_in_the_users_project_is_the_projects(tmp_path):
    skill = make_skill(tmp_path, _DETECT)
    assert _found(skill, "SF116") == []


def test_a_check_that_does_not_place_the_file_in_the_project_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _DETECT.replace(" in cwd", ""))
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


@pytest.mark.parametrize("lead", [
    "Before you write code, read these:",
    "To produce the report, load:",
    "The outputs depend on these references:",
])
def test_a_lead_in_that_only_mentions_writing_leads_in_files_to_read(tmp_path, lead):
    """A write word somewhere in the lead-in is not a list of files to write."""
    text = f"# Report\n\n{lead}\n- `references/steps.md` - the steps\n"
    skill = make_skill(tmp_path, text)
    assert [sev for _f, _l, sev in _severe(skill, "SF116")] == ["error"]


@pytest.mark.parametrize("lead", ["Outputs:", "Files to create:", "It writes:",
                                  "Write targets (both made on each run):",
                                  "Create these when the import finds the material:"])
def test_a_lead_in_that_says_the_files_are_written(tmp_path, lead):
    text = f"# Report\n\n{lead}\n- `reference/summary.md` - the summary\n"
    skill = make_skill(tmp_path, text)
    assert _found(skill, "SF116") == []


@pytest.mark.parametrize("root", ["<output_dir>", "<work_dir>", "{tmp_dir}", "<report_root>"])
def test_a_place_the_agent_writes_to_is_no_other_root(tmp_path, root):
    """A placeholder for where the agent writes does not make the sentence's other paths
    another root's: the template it follows is still the skill's."""
    text = (f"# Plan\n\nFollow `references/plan-template.md`, then put the plan in "
            f"`{root}/plan.md`.\n")
    skill = make_skill(tmp_path, text)
    assert [sev for _f, _l, sev in _severe(skill, "SF116")] == ["error"]
