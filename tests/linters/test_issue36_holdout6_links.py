"""Readings from the sixth held-out part of issue 36 for the path rules (SF116, SF316):
what a careful reader takes a missing path to name.

- A link to a sibling skill's file written from the wrong folder (`repo/skills/<it>/SKILL.md`
  from the repository's root, or `<it>/SKILL.md` without its `../`) is that skill's file:
  a warning giving the path that works, not a broken reference; no autofix retargets it.
- In a category layout (`skills/<category>/<skill>`), a skill of another category that a
  list's lead-in names owns the list's paths; a skill nested in a skill is found too.
- An example README of another project inside a ```` ```markdown ```` block, after an
  earlier template put the Markdown reader one fence off, holds that project's links.
- An eval case's file written from the repository's root (`skills/<this>/evals/x.md`) is
  the skill's file: a warning giving the skill-relative path.

Every skill text here is written for this file; each test failed before its reading, and
each has a guard that a really broken reference still fails.
"""

from __future__ import annotations

import json
from pathlib import Path

from linters import lint_skill
from skillforge.models.findings import Severity
from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill


def _sibling(root: Path, name: str, files: dict[str, str] | None = None) -> Path:
    return make_skill(root, "# Sibling\n\nDoes its own job.\n", files=files, name=name)


# --- SF116: a sibling skill's file written from the wrong folder ----------------------------

_WRONG_ROOT = """\
# Expense reports

## Related skills

- [`receipt-scanner`](receipt-scanner/SKILL.md) reads the receipts first.
- [`ledger-sync`](my-skills/skills/ledger-sync/SKILL.md) posts the totals.
"""


def test_a_sibling_skill_file_from_the_wrong_folder_is_a_warning(tmp_path):
    skills = tmp_path / "skills"
    _sibling(skills, "receipt-scanner")
    _sibling(skills, "ledger-sync")
    skill = make_skill(skills, _WRONG_ROOT)
    assert _found(skill, "SF116") == [("SKILL.md", 10, "warning"), ("SKILL.md", 11, "warning")]
    messages = [f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF116"]
    assert any("`../receipt-scanner/SKILL.md`" in m for m in messages)
    assert any("`../ledger-sync/SKILL.md`" in m and "sibling skill `ledger-sync`" in m
               for m in messages)


def test_a_link_to_a_sibling_that_does_not_exist_stays_an_error(tmp_path):
    skills = tmp_path / "skills"
    _sibling(skills, "receipt-scanner", files={"references/other.md": "# Other\n"})
    skill = make_skill(skills, _WRONG_ROOT + "- [more](receipt-scanner/references/gone.md)\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 11, "error"), ("SKILL.md", 12, "error")]


def test_a_link_that_climbs_too_few_levels_stays_an_error(tmp_path):
    # From a subfolder, `../receipt-scanner/...` miscounts its levels: a broken relative
    # link, not one written from another root; nor does `../` reach a skill of another
    # category.
    skills = tmp_path / "skills" / "finance"
    _sibling(skills, "receipt-scanner")
    _sibling(tmp_path / "skills" / "billing", "ledger-sync")
    skill = make_skill(skills, "# Expense reports\n\nRead `references/rules.md`.\n",
                       files={"references/rules.md": "# Rules\n\nSee [scanner](../receipt-"
                              "scanner/SKILL.md) and [sync](../ledger-sync/SKILL.md).\n"})
    assert _severe(skill, "SF116") == [("references/rules.md", 3, "error")] * 2


def test_no_fix_retargets_a_sibling_skills_file(tmp_path):
    from linters.fixes import fixes_for

    skills = tmp_path / "skills"
    _sibling(skills, "receipt-scanner", files={"references/rates.md": "# Rates\n"})
    skill = make_skill(skills, "# Expense reports\n\nSee [rates](receipt-scanner/references/"
                       "rates.md).\n", files={"references/rates.md": "# Own rates\n"})
    report = lint_skill(skill, external=False)
    found = [f for f in report.findings if f.rule == "SF116"]
    assert [f.severity for f in found] == [Severity.warning]
    from skillforge.models.skill import load_skill
    assert fixes_for(load_skill(skill), found) == {}


# --- SF116: a skill of another category named by a list's lead-in ---------------------------

_COUSIN = """\
# Interview rules

The wiring touched these `release-flow` surfaces; change them together:

- `templates/planner.agent.md` — the companion row.
- `templates/runner.agent.md` — the flag pass-through.
"""


def test_a_cousin_skills_files_named_by_the_lead_in_are_its(tmp_path):
    _sibling(tmp_path / "skills" / "workflow", "release-flow",
             files={"templates/planner.agent.md": "x\n", "templates/runner.agent.md": "y\n"})
    skill = make_skill(tmp_path / "skills" / "analysis", "# Interview\n\nSee `rules/`.\n",
                       files={"rules/wiring.md": _COUSIN}, name="interview")
    assert _severe(skill, "SF116") == []


def test_a_file_the_cousin_lacks_stays_an_error(tmp_path):
    _sibling(tmp_path / "skills" / "workflow", "release-flow",
             files={"templates/planner.agent.md": "x\n"})
    # In SKILL.md: in a reference file an unlinked mention is a warning whoever owns it.
    skill = make_skill(tmp_path / "skills" / "analysis", _COUSIN, name="interview")
    assert [(p, sev) for p, _line, sev in _severe(skill, "SF116")] == [("SKILL.md", "error")]


def test_a_skill_nested_in_a_cousin_is_found(tmp_path):
    outer = _sibling(tmp_path / "skills" / "workflow", "release-flow")
    _sibling(outer, "flow-setup", files={"templates/planner.agent.md": "x\n",
                                         "templates/runner.agent.md": "y\n"})
    text = _COUSIN.replace("`release-flow`", "`flow-setup`")
    skill = make_skill(tmp_path / "skills" / "analysis", "# Interview\n\nSee `rules/`.\n",
                       files={"rules/wiring.md": text}, name="interview")
    assert _severe(skill, "SF116") == []


# --- SF116: an example README after a template the reader ended early ------------------------

_ARCHETYPES = """\
# Archetypes

Each example is a project of its own, not this skill (its [guide](./docs/guide.md)).

### `CLAUDE.md` skeleton

```markdown
# my-cli

## Commands

```bash
pnpm test
```

## Gotchas

- Keep it short.
```

### `README.md` opens with

```markdown
# my-cli

```bash
npm install -g my-cli
```

![demo](./docs/demo.gif)
```
"""


def test_an_example_readme_after_an_early_ended_template_holds_its_links(tmp_path):
    skill = make_skill(tmp_path, "# Docs\n\nRead `references/archetypes.md`.\n",
                       files={"references/archetypes.md": _ARCHETYPES})
    assert _severe(skill, "SF116") == [("references/archetypes.md", 3, "error")]


# --- SF316: eval files written from the repository's root -----------------------------------


def _evals(files: list[str]) -> str:
    cases = [{"id": i, "prompt": f"Write letter {i}", "expected_output": "A letter.",
              "files": files} for i in range(3)]
    return json.dumps({"skill_name": "cover-letter", "evals": cases}, indent=2)


def test_eval_files_from_the_repository_root_are_warnings(tmp_path):
    skill = make_skill(tmp_path / "skills", "# Cover letter\n\nWrite one.\n",
                       name="cover-letter",
                       files={"evals/inputs/resume.md": "# Resume\n",
                              "evals/evals.json": _evals(
                                  ["skills/cover-letter/evals/inputs/resume.md"])})
    found = _found(skill, "SF316")
    assert found and all(sev == "warning" for _p, _l, sev in found)
    messages = [f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF316"]
    assert all("'evals/inputs/resume.md'" in m for m in messages)


def test_eval_files_missing_under_the_skill_stay_errors(tmp_path):
    skill = make_skill(tmp_path / "skills", "# Cover letter\n\nWrite one.\n",
                       name="cover-letter",
                       files={"evals/inputs/resume.md": "# Resume\n",
                              "evals/evals.json": _evals(
                                  ["skills/cover-letter/evals/inputs/gone.md",
                                   "skills/other/evals/inputs/resume.md"])})
    assert [sev for _p, _l, sev in _found(skill, "SF316")] == ["error", "error"]
