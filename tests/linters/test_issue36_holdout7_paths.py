"""Readings from the seventh held-out part of issue 36 for the path rules (SF116, SF316).

- A reference file whose opening presents it as a template to copy and adapt ("# Workflow
  Checklist Template / This template shows ... Copy and adapt these checklists") holds
  links for the adapted copy: a warning saying so. A reference titled "Email templates" that
  lists the skill's own template files is not one: its broken links stay errors.
- "Document rules in `references/custom_rules.md`" tells the agent where to write, like
  "save the summary to `x.md`": no finding. "the rules documented in `x.md`" still reads.
- A file the text recommends creating, in Thai ("แนะนำให้สร้าง `x.md`", recommend creating),
  is not there yet, as "create `x.md`" in English; a Thai sentence that sends the agent to
  read a missing file stays an error.
- An eval case's file in a sibling skill (`../other-skill/SKILL.md`) is there in the
  repository but not in an installed copy: a warning; a `../x` found nowhere stays an error.

Every skill text here is written for this file; each test failed before its reading, and
each has a guard that a really broken reference still fails.
"""

from __future__ import annotations

import json

from linters import lint_skill
from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill

_BODY = "# Port scanning\n\nScan the hosts. See [the checklist](references/checklist.md).\n"

# --- SF116: a reference that presents itself as a template to copy and adapt ---------------

_TEMPLATE = """\
# Incident Triage Checklist Template

This template shows checklist patterns for incident work. Copy and adapt these checklists
to the needs of your own skill.

## Branching

1. Classify the alert
   - If malware → See [malware-playbook.md](malware-playbook.md)
   - If phishing → See [phishing-playbook.md](phishing-playbook.md)
"""

_TEMPLATE_LISTING = """\
# Email templates

Copy and adapt the template that fits the customer's question.

- [Refund reply](../templates/refund.md)
- [Delay notice](../templates/delay.md)
"""


def test_links_of_a_template_to_copy_and_adapt_are_warnings(tmp_path):
    skill = make_skill(tmp_path, _BODY, files={"references/checklist.md": _TEMPLATE})
    assert _found(skill, "SF116") == [("references/checklist.md", 9, "warning"),
                                      ("references/checklist.md", 10, "warning")]
    messages = [f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF116"]
    assert all("template to copy and adapt" in m for m in messages)


def test_a_reference_listing_template_files_keeps_its_broken_links_errors(tmp_path):
    skill = make_skill(tmp_path, _BODY, files={"references/checklist.md": _TEMPLATE_LISTING,
                                               "templates/refund.md": "# Refund\n"})
    assert _severe(skill, "SF116") == [("references/checklist.md", 6, "error")]


def test_a_reference_not_saying_to_copy_it_keeps_its_broken_links_errors(tmp_path):
    text = _TEMPLATE.replace("Copy and adapt these checklists\nto the needs of your own skill.",
                             "Follow them in order.")
    skill = make_skill(tmp_path, _BODY, files={"references/checklist.md": text})
    assert [sev for _p, _l, sev in _found(skill, "SF116")] == ["error", "error"]


# --- SF116: a file the agent is told to record something in ---------------------------------

_RECORD = """\
# Custom rules

## Workflow

1. Write the new rule in YAML.
2. Test it on the samples.
3. Document rules in `references/custom_rules.md`
4. Log each false positive to `notes/false-positives.md`.
"""

_READ = """\
# Custom rules

## Workflow

1. Write the new rule in YAML.
2. Follow the rules documented in `references/custom_rules.md`.
"""


def test_a_file_to_record_things_in_is_an_output(tmp_path):
    skill = make_skill(tmp_path, _RECORD)
    assert _found(skill, "SF116") == []


def test_a_file_said_to_hold_documentation_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _READ)
    assert _severe(skill, "SF116") == [("SKILL.md", 11, "error")]


# --- SF116: a file recommended for creation, in Thai -----------------------------------------

_THAI_PLAN = """\
# เรซูเม่

ปัจจุบัน skill นี้มีเฉพาะ `template-a.md`. แนะนำให้สร้าง `templates/template-b.md` แยกต่างหาก สำหรับงานราชการ.
"""

_THAI_READ = """\
# เรซูเม่

ปัจจุบัน skill นี้มีเฉพาะ `template-a.md`. อ่าน `templates/template-b.md` ก่อนเขียน.
"""


def test_a_file_recommended_for_creation_in_thai_is_not_a_reference(tmp_path):
    skill = make_skill(tmp_path, _THAI_PLAN, files={"template-a.md": "# A\n"})
    assert _found(skill, "SF116") == []


def test_a_thai_sentence_sending_to_a_missing_file_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _THAI_READ, files={"template-a.md": "# A\n"})
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


# --- SF316: eval files in a sibling skill -----------------------------------------------------


def _evals(files: list[str]) -> str:
    cases = [{"id": 1, "prompt": "Tighten this prose", "expected_output": "Shorter prose.",
              "files": files}]
    return json.dumps({"skill_name": "prose-editor", "evals": cases}, indent=2)


def test_an_eval_file_of_a_sibling_skill_is_a_warning(tmp_path):
    make_skill(tmp_path / "skills", "# Style\n\nWrite well.\n", name="style-guide",
               files={"AGENTS.md": "# Agents\n"})
    skill = make_skill(tmp_path / "skills", "# Prose editor\n\nEdit prose.\n",
                       name="prose-editor",
                       files={"evals/evals.json": _evals(["../style-guide/SKILL.md",
                                                          "../style-guide/AGENTS.md"])})
    assert [sev for _p, _l, sev in _found(skill, "SF316")] == ["warning", "warning"]
    messages = [f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF316"]
    assert all("sibling skill `style-guide`" in m and "installed copy" in m for m in messages)


def test_an_eval_file_climbing_to_nothing_stays_an_error(tmp_path):
    make_skill(tmp_path / "skills", "# Style\n\nWrite well.\n", name="style-guide")
    skill = make_skill(tmp_path / "skills", "# Prose editor\n\nEdit prose.\n",
                       name="prose-editor",
                       files={"evals/evals.json": _evals(["../style-guide/AGENTS.md",
                                                          "../nowhere/SKILL.md"])})
    assert [sev for _p, _l, sev in _found(skill, "SF316")] == ["error", "error"]
