"""Readings from the twentieth held-out part of issue 36: a Python template the skill fills in
before it runs (SF601, SF602).

A skill may ship `scripts/worker_template.py` holding `from {{PACKAGE}} import {{HANDLER}}`
or `LIMITS: dict[str, int] = {{LIMITS_DICT}}`, and tell the agent to copy it and fill the
slots. Python cannot run the file as written and is not meant to: a `{{NAME}}` in code (not
in a string or a comment) is a slot. The file is checked with each slot filled by a name; it
gets one note that it is a template (info when its name or the skill says so, else a
warning), and no error about the slots themselves.

Every skill text here is written for this file; the template readings failed before (an
SF601 or SF602 error), and each twin (a real syntax error or a misspelt name around the
slots, a `{{ }}` inside a string) keeps its error.
"""

from __future__ import annotations

from linters import lint_skill
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Queue worker

Copy `scripts/worker_template.py` to `worker.py` in the user's project, replace
`{{PACKAGE}}` and `{{HANDLER}}` with the module and function that handle one job, and
`{{LIMITS_DICT}}` with a dict literal of per-queue limits. Put one `assert` line per
required setting where `{{SETTING_CHECKS}}` stands (or nothing).
"""

_TEMPLATE = '''\
"""Run one queued job through the project's handler."""
import json
import os
import sys

from {{PACKAGE}} import {{HANDLER}}  # , {{OTHER_HANDLER}}

LIMITS: dict[str, int] = {{LIMITS_DICT}}

assert os.getenv("QUEUE_URL"), "QUEUE_URL is not set"
{{SETTING_CHECKS}}


def main() -> int:
    job = json.load(sys.stdin)
    if job.get("size", 0) > LIMITS.get(job["queue"], 100):
        print("too large", file=sys.stderr)
        return 2
    {{HANDLER}}(**job["args"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _worker(tmp_path, script: str = _TEMPLATE, body: str = _BODY,
            name: str = "scripts/worker_template.py"):
    return make_skill(tmp_path, body, {name: script})


def test_a_template_with_slots_in_its_code_is_not_a_broken_script(tmp_path):
    """Before: SF601 error on line 6 (`from {{PACKAGE}} import`)."""
    skill = _worker(tmp_path)
    assert severe(skill, "SF601") == []
    assert found(skill, "SF601") == [("scripts/worker_template.py", 6, "info")]


def test_ruff_reads_the_template_with_its_slots_filled(tmp_path):
    """Before (a template that parses: slots only as values and lines): SF602 F821 errors
    on `{{LIMITS_DICT}}` (a set of a set holding an undefined name) and `{{SETTING_CHECKS}}`."""
    script = _TEMPLATE.replace("from {{PACKAGE}} import {{HANDLER}}  # , {{OTHER_HANDLER}}\n",
                               "").replace("    {{HANDLER}}(**job[\"args\"])\n", "")
    skill = _worker(tmp_path, script)
    assert severe(skill, "SF602", external=True) == []
    assert severe(skill, "SF601") == []


def test_an_undeclared_template_is_a_warning(tmp_path):
    """A plain name and a skill that names no slot: the agent may run it unfilled."""
    body = "# Queue worker\n\nRun `python scripts/worker.py < job.json`.\n"
    skill = _worker(tmp_path, body=body, name="scripts/worker.py")
    assert found(skill, "SF601") == [("scripts/worker.py", 6, "warning")]


def test_a_real_syntax_error_around_the_slots_stays_an_error(tmp_path):
    script = _TEMPLATE.replace('print("too large", file=sys.stderr)', 'print "too large"')
    skill = _worker(tmp_path, script)
    assert severe(skill, "SF601") == [("scripts/worker_template.py", 17, "error")]
    message = next(f.message for f in lint_skill(skill).findings
                   if f.rule == "SF601" and f.severity.value == "error")
    assert "with its 5 `{{…}}` slots filled by names" in message


def test_a_misspelt_name_around_the_slots_stays_an_error(tmp_path):
    script = _TEMPLATE.replace("return 2", "return EXIT_TOO_LARGE")
    skill = _worker(tmp_path, script)
    assert severe(skill, "SF602", external=True) == [("scripts/worker_template.py", 18, "error")]


def test_braces_inside_strings_are_not_slots(tmp_path):
    """A script that prints a `{{ name }}` and also does not parse: no template, an error."""
    script = 'GREETING = "Hello {{ name }}"\nprint GREETING\n'
    skill = _worker(tmp_path, script, body="# Greeter\n\nRun `scripts/greet.py`.\n",
                    name="scripts/greet.py")
    assert found(skill, "SF601") == [("scripts/greet.py", 2, "error")]
