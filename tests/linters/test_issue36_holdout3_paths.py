"""Readings from the third held-out part of issue 36 for the path rules: whose file a
missing path names (SF116, SF301) and where a UTF-8 byte-order mark breaks something
(SF118).

- An evaluation report of the skill (`EVAL.md`) records what the skill had, lacks or might
  add: a missing path there is a warning, never a gate failure.
- A path in a parenthesis right after another skill's name, or after an entry's dash that
  glosses that skill, is that skill's file; so is each path of a list given so.
- "project-local" scripts are the user's project's, whose folder is the agent's.
- A missing `./config.yaml` whose example the skill ships (`config.example.yaml`) is the
  user's copy.
- Files offered as suggestions ("Consider:", a long-term section) are not written yet.
- A BOM before frontmatter a parser reads (a Kiro steering file's) or a `#!` line breaks
  them (an error); before anything else it is harmless (info).

Every skill text here is written for this file; each test failed before its reading.
"""

from __future__ import annotations

from linters import lint_skill
from skillforge.models.findings import Severity
from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill


# --- SF116: an evaluation report ----------------------------------------------------------

_REPORT = """\
# Ledger Evaluation

**Score:** 91/100

## Revision history

| Date | Notes |
|------|-------|
| 2025-03-02 | The rate table lives in `references/rates-2024.md`. |

## Gaps

1. Split the tax tables into `references/tax-tables.md` once the body passes 400 lines.
"""


def test_missing_paths_in_an_evaluation_report_are_warnings(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nFile each receipt.\n", files={"EVAL.md": _REPORT})
    assert _found(skill, "SF116") == [("EVAL.md", 9, "warning"), ("EVAL.md", 13, "warning")]
    report = lint_skill(skill, external=False)
    assert all("evaluation report" in f.message for f in report.findings if f.rule == "SF116")


def test_the_same_text_in_skill_md_is_still_an_error(tmp_path):
    # (In a reference file an unlinked mention is a warning anyway: test_issue36_prose_mentions.)
    skill = make_skill(tmp_path, _REPORT)
    assert [sev for path, _line, sev in _found(skill, "SF116") if path == "SKILL.md"] == [
        "error", "error"]


# --- SF116: another skill's files -----------------------------------------------------------

_RELATED = """\
# Ledger

File each receipt.

## Related skills

- `pdf-forms-kit` (community) — filling PDF forms
  (`references/form-fields.md`, `references/signatures.md`)
- `sheet-tools` — `references/pivots.md`, `references/charts.md`

For currency rounding defer to the community `money-rounding`
(`references/banker-rounding.md`); this skill only applies it.
"""


def test_paths_given_in_parentheses_after_another_skill_are_that_skills(tmp_path):
    skill = make_skill(tmp_path, _RELATED)
    assert _severe(skill, "SF116") == []
    # Still reported, as files of skills not found beside this one.
    assert len(_found(skill, "SF116")) == 5


def test_a_tool_named_before_a_parenthesis_does_not_own_the_path(tmp_path):
    body = "# Ledger\n\nTidy the sheet with `csv-cleaner` first (see `references/tidy.md`).\n"
    skill = make_skill(tmp_path, body)
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


def test_a_path_from_this_skills_folder_stays_this_skills(tmp_path):
    body = ("# Ledger\n\nThe fixture `receipt-ingest` also reads "
            "([`../golden/receipts.json`](../golden/receipts.json)) is piped through.\n")
    assert _severe(make_skill(tmp_path, body), "SF116") == [("SKILL.md", 8, "error")]


# --- SF116: the user's project, a shipped example, suggestions ----------------------------


def test_project_local_scripts_are_the_users(tmp_path):
    body = ("# Ledger\n\nFind the test command in the config files. Prefer project-local "
            "scripts (`./scripts/run_gate.sh`, `make test`) over bare framework runs.\n")
    assert _severe(make_skill(tmp_path, body), "SF116") == []


def test_a_config_whose_example_the_skill_ships_is_the_users_copy(tmp_path):
    body = ("# Ledger\n\nThe `ledger` commands read `./ledger.config.yaml` by default; "
            "see `references/ledger.config.example.yaml` for every key.\n")
    shipped = make_skill(tmp_path / "a", body,
                         files={"references/ledger.config.example.yaml": "currency: EUR\n"})
    assert _found(shipped, "SF116") == [("SKILL.md", 8, "warning")]
    bare = make_skill(tmp_path / "b", body.replace("see `references/ledger.config.example.yaml`"
                                                    " for every key", "that is all"))
    assert _found(bare, "SF116") == [("SKILL.md", 8, "error")]


_DESIGN_NOTES = """\
# Design notes

## Helper scripts

Bundling helpers has worked well elsewhere. Consider:

**`scripts/ratios.py`** — derived ratios from the raw figures:
- margin trend
- debt to equity

**`scripts/forecast.py`** — a simple forecast.

## Cleaner long-term path

The clean solution is a dedicated `assets/custom-report.tmpl` the skill picks by name.
"""


def test_files_offered_as_suggestions_are_warnings(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nSee `references/design.md`.\n",
                       files={"references/design.md": _DESIGN_NOTES})
    assert _found(skill, "SF116") == [("references/design.md", 7, "warning"),
                                      ("references/design.md", 11, "warning"),
                                      ("references/design.md", 15, "warning")]


# --- SF301: a project-local validator ------------------------------------------------------


def test_a_project_local_validator_is_not_the_skills_script(tmp_path):
    lead = "Use project-local validators for the checks this skill cannot know:"
    body = f"# Ledger\n\n{lead}\n\n```bash\n./scripts/validate_names.sh\n```\n"
    assert _severe(make_skill(tmp_path / "a", body), "SF301") == []
    told = body.replace(lead, "Validate the names:")
    assert _severe(make_skill(tmp_path / "b", told), "SF301") == [("SKILL.md", 11, "error")]


# --- SF118: where a byte-order mark breaks something ---------------------------------------

BOM = b"\xef\xbb\xbf"


def _with_bom(tmp_path, rel: str, text: str):
    skill = make_skill(tmp_path, "# Ledger\n\nRun `scripts/tally.sh`; see `references/`.\n")
    p = skill / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(BOM + text.encode("utf-8"))
    return [(f.path, f.severity) for f in lint_skill(skill, external=False).findings
            if f.rule == "SF118"]


def test_a_bom_before_frontmatter_or_a_shebang_is_an_error(tmp_path):
    assert _with_bom(tmp_path / "a", "assets/steering/steer.md",
                     "---\ninclusion: always\n---\n# S\n") \
        == [("assets/steering/steer.md", Severity.error)]
    assert _with_bom(tmp_path / "b", "scripts/tally.sh", "#!/bin/sh\necho ok\n") \
        == [("scripts/tally.sh", Severity.error)]


def test_a_bom_before_anything_else_is_info(tmp_path):
    assert _with_bom(tmp_path / "a", "references/rates.md", "# Rates\n\nEUR only.\n") \
        == [("references/rates.md", Severity.info)]
    assert _with_bom(tmp_path / "b", "scripts/check.ps1", "Write-Host 'ok'\n") \
        == [("scripts/check.ps1", Severity.info)]
    assert _with_bom(tmp_path / "c", "profile.yaml", "name: ledger\n") \
        == [("profile.yaml", Severity.info)]


# --- SF116: a README template with blocks of its own inside ---------------------------------

_README_GUIDE = """\
# README guide

A README should have the sections [the checklist](checklist.md) lists:

```markdown
# Project name

## Install

```bash
npm install thing
```

## Contributing
See [CONTRIBUTING.md](CONTRIBUTING.md).

## License
[MIT](LICENSE)
```
"""


def test_links_of_a_template_with_inner_blocks_are_the_templates(tmp_path):
    skill = make_skill(tmp_path, "# Docs\n\nSee `references/readme.md`.\n",
                       files={"references/readme.md": _README_GUIDE})
    # The template's own links are not the skill's; the guide's own link still is.
    assert _found(skill, "SF116") == [("references/readme.md", 3, "error")]


def test_a_path_a_template_mentions_in_words_is_still_the_skills(tmp_path):
    comment = "<!-- Wording: see `references/licences.md`. -->\n"
    guide = _README_GUIDE.replace("## License\n", "## License\n" + comment)
    skill = make_skill(tmp_path, "# Docs\n\nSee `references/readme.md`.\n",
                       files={"references/readme.md": guide})
    assert ("references/readme.md", 18, "error") in _found(skill, "SF116")
