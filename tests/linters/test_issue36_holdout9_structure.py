"""Readings from the ninth held-out part of issue 36 for SF110 and SF116.

- A category layout whose skills are all named `<category>-<folder>` (`skills/billing/
  refunds` named `billing-refunds`, like every skill of `billing/`): installers that copy a
  skill into a folder named after `name` match it; a warning that says to rename the folder.
  A lone such name, or one in a category with names of no scheme, stays an error.
- A reference file dense with `{placeholder}` names outside code is a document template:
  its links are for the document filled in from it (a warning). Links in SKILL.md, and in a
  reference with a placeholder or two, stay errors.
- A path under "(if available)" / "If ... exists, load it:" is read only if it is there: a
  warning. The same list under a plain lead-in stays an error.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin that stays an error.
"""

from __future__ import annotations

from pathlib import Path

from tests.linters.rule_findings import found
from tests.linters.test_security import make_skill

_DESCRIPTION = "Handles one billing task. Use when the user asks about billing."


def _skill(root: Path, folder: str, name: str) -> Path:
    skill = root / folder
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {_DESCRIPTION}\n---\n\n# Task\n\nDo the task.\n",
        encoding="utf-8")
    return skill


# --- SF110: the category's naming scheme -----------------------------------------------------


def test_a_categorys_prefixed_names_are_a_warning(tmp_path):
    cat = tmp_path / "skills" / "billing"
    refunds = _skill(cat, "refunds", "billing-refunds")
    _skill(cat, "invoices", "billing-invoices")
    _skill(cat, "billing-disputes", "billing-disputes")  # already prefixed in its folder
    assert found(refunds, "SF110") == [("SKILL.md", 2, "warning")]


def test_a_lone_prefixed_name_stays_an_error(tmp_path):
    cat = tmp_path / "skills" / "billing"
    refunds = _skill(cat, "refunds", "billing-refunds")
    _skill(cat, "invoices", "invoices")
    assert found(refunds, "SF110") == [("SKILL.md", 2, "error")]


def test_prefixed_names_among_names_of_no_scheme_stay_errors(tmp_path):
    cat = tmp_path / "skills" / "billing"
    refunds = _skill(cat, "refunds", "billing-refunds")
    _skill(cat, "invoices", "billing-invoices")
    _skill(cat, "disputes", "chargeback-helper")
    assert found(refunds, "SF110") == [("SKILL.md", 2, "error")]


def test_any_other_mismatch_in_a_prefixed_category_stays_an_error(tmp_path):
    cat = tmp_path / "skills" / "billing"
    _skill(cat, "refunds", "billing-refunds")
    _skill(cat, "invoices", "billing-invoices")
    odd = _skill(cat, "disputes", "billing-chargebacks")
    assert found(odd, "SF110") == [("SKILL.md", 2, "error")]


# --- SF116: a reference that is a document template full of {placeholders} ------------------

_BODY = "# Changelog writer\n\nWrite the file from [the template](references/changelog-form.md).\n"

_FORM = """\
# Release notes form

## {Product Name} {version}

Released {release-date} by {team-name}.

{Summary of the release in two sentences.}

See [the upgrade guide](UPGRADING.md) and [{License}](LICENSE).
"""


def test_links_in_a_placeholder_template_are_warnings(tmp_path):
    skill = make_skill(tmp_path, _BODY, files={"references/changelog-form.md": _FORM})
    assert found(skill, "SF116") == [("references/changelog-form.md", 9, "warning"),
                                     ("references/changelog-form.md", 9, "warning")]


def test_a_reference_with_a_placeholder_or_two_stays_an_error(tmp_path):
    form = _FORM.replace("Released {release-date} by {team-name}.", "Released monthly.")
    form = form.replace("{Summary of the release in two sentences.}", "A short summary.")
    skill = make_skill(tmp_path, _BODY, files={"references/changelog-form.md": form})
    assert found(skill, "SF116") == [("references/changelog-form.md", 9, "error"),
                                     ("references/changelog-form.md", 9, "error")]


def test_the_same_links_in_skill_md_stay_errors(tmp_path):
    skill = make_skill(tmp_path, _FORM)
    assert {sev for _p, _l, sev in found(skill, "SF116")} == {"error"}


def test_braces_of_code_and_url_parameters_are_no_placeholders(tmp_path):
    api = """\
# Ledger API

Call `GET /ledgers/{id}` then `/entries/{entry}/lines/{line}` and read {account}/{year}.

<Chart data={rows} width={width} height={height} />

```js
const { a, b, c, d, e } = load({ x, y })
```

See [the schema](schema.md).
"""
    skill = make_skill(tmp_path, "# Ledger\n\nRead [the API](references/api.md).\n",
                       files={"references/api.md": api})
    assert found(skill, "SF116") == [("references/api.md", 11, "error")]


# --- SF116: a file read only if it exists --------------------------------------------------

_OPTIONAL = """\
# Query helper

### Step 3: Load the dialect notes (if available)
If a dialect-specific note exists, read it for the quirks:
- `references/dialects/postgres.md` - Postgres quirks
- `references/dialects/sqlite.md` - SQLite quirks
"""


def test_paths_read_only_if_present_are_warnings(tmp_path):
    skill = make_skill(tmp_path, _OPTIONAL)
    assert {sev for _p, _l, sev in found(skill, "SF116")} == {"warning"}


def test_a_lead_in_saying_if_it_exists_is_enough(tmp_path):
    text = _OPTIONAL.replace(" (if available)", "")
    skill = make_skill(tmp_path, text)
    assert {sev for _p, _l, sev in found(skill, "SF116")} == {"warning"}


def test_the_same_list_under_a_plain_lead_in_stays_an_error(tmp_path):
    text = _OPTIONAL.replace(" (if available)", "").replace(
        "If a dialect-specific note exists, read it for the quirks:",
        "Read the note of the dialect for the quirks:")
    skill = make_skill(tmp_path, text)
    assert {sev for _p, _l, sev in found(skill, "SF116")} == {"error"}
    assert len(found(skill, "SF116")) == 2



def test_an_optional_reading_of_a_missing_file_stays_an_error(tmp_path):
    """"Optional" makes the reading optional, not the file: a broken link under it is broken."""
    text = ("# Dialects\n\n## Optional reading\n\n"
            "See [the Postgres notes](references/dialects/postgres.md).\n")
    skill = make_skill(tmp_path, text)
    assert [sev for _p, _l, sev in found(skill, "SF116")] == ["error"]
