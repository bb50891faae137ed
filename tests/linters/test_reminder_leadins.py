"""A lead-in that reminds the agent to do a step ("Don't forget to run:", "Never skip this
check:", "Do not omit the audit:") asks for the run; only a lead-in that forbids it ("Do not
run this on production:") makes the block a thing not to do.

Found while reading the sixteenth held-out part of issue 36: `command_context` took every
"don't"/"never" in a block's lead-in as a negation, so a skill that told the agent not to
forget its own missing script got no SF301 finding. Every skill text here is written for
this file; each reminder test failed before the reading, and the forbidding twins pass
before and after.
"""

from __future__ import annotations

import pytest

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_OWN = {"scripts/run.sh": "echo\n"}  # the skill has a scripts/ folder of its own

_BODY = """\
# Release check

Build the package first.

{lead}

```bash
python3 scripts/check_release.py
```
"""


@pytest.mark.parametrize("lead", [
    "Don't forget to run the release check:",
    "Do not skip the release check:",
    "Never skip this step:",
    "Do not omit the check before tagging:",
    "Don’t neglect the final check:",
])
def test_a_reminder_lead_in_still_runs_the_missing_script(tmp_path, lead):
    skill = make_skill(tmp_path, _BODY.format(lead=lead), _OWN)
    assert severe(skill, "SF301") == [("SKILL.md", 13, "error")]


@pytest.mark.parametrize("lead", [
    "Don't run this on production:",
    "Never run the old check:",
    "Do not use this form:",
    "If it fails, don't retry by hand; never do this:",
])
def test_a_forbidding_lead_in_still_marks_the_block_as_not_to_do(tmp_path, lead):
    skill = make_skill(tmp_path, _BODY.format(lead=lead), _OWN)
    assert found(skill, "SF301") == []


_COMMENTED = """\
# Release check

Build the package first, then:

```bash
{comment}
python3 scripts/check_release.py
```
"""


def test_a_reminder_comment_in_the_block_still_runs_the_missing_script(tmp_path):
    body = _COMMENTED.format(comment="# Don't skip this: it checks the tag")
    skill = make_skill(tmp_path, body, _OWN)
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error")]


def test_a_forbidding_comment_in_the_block_still_marks_it_as_not_to_do(tmp_path):
    body = _COMMENTED.format(comment="# Don't: the old check, removed")
    assert found(make_skill(tmp_path, body, _OWN), "SF301") == []
