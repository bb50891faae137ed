"""Readings from the fourth held-out part of issue 36 for the path rules (SF116, SF301):
what a careful reader takes a missing path to name.

- A file that is itself a template (`rules/_template.md`) holds placeholder links.
- A ```` ```markdown ```` template whose inner sample block opens with a bare fence still
  holds its links for the user's project, though a Markdown reader ends it early.
- `[scripts](./scripts)` in a reference is the skill's folder read from the skill's root.
- "per-product `references/catalog.md`" points at the sibling skills that ship it.
- A skill whose description calls it deliberately broken is a checker's test fixture.
- Where SKILL.md says the scripts folder is (`$SKILL_DIR/../../scripts/x.py`, or a run of
  `../scripts/x.py`), `scripts/x.py` is shorthand for it.
- A relative script run after a `cd` into another tree is that tree's, in later blocks too.

Every skill text here is written for this file; each test failed before its reading, and
each has a guard that a really broken reference still fails.
"""

from __future__ import annotations

from pathlib import Path

from linters import lint_skill

from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill


# --- SF116: a template file's placeholder links ---------------------------------------------

_RULE_TEMPLATE = """\
# Rule title

**Impact:** HIGH

Explain the rule in one paragraph.

Reference: [Link](url) · Related: [sibling rule](sibling-rule.md)
"""


def test_links_of_a_template_file_are_warnings(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nRules are in `rules/`.\n",
                       files={"rules/_template.md": _RULE_TEMPLATE,
                              "rules/receipts.md": "# Receipts\n\nKeep them.\n"})
    # `[Link](url)` is the template's blank (holdout25, disabled_links): only the sibling
    # rule's link is left, a warning.
    assert _found(skill, "SF116") == [("rules/_template.md", 7, "warning")]


def test_the_same_links_in_a_rule_are_errors(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nRules are in `rules/`.\n",
                       files={"rules/receipts.md": _RULE_TEMPLATE})
    assert _severe(skill, "SF116") == [("rules/receipts.md", 7, "error")] * 2


# --- SF116: a Markdown template with a bare-fenced sample inside ------------------------------

_GUIDE = """\
# Contributing guide

Give the user's project a CONTRIBUTING.md:

```markdown
# Contributing

## Commits

Messages look like:

```
fix(ledger): round half to even
```

## Setup

```bash
make setup
```

## Conduct

Please read our [code of conduct](CONDUCT.md).
```

Keep it short.
"""


def test_a_link_inside_a_markdown_template_with_a_bare_inner_block_is_the_projects(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nSee `references/guide.md`.\n",
                       files={"references/guide.md": _GUIDE})
    assert _severe(skill, "SF116") == []


def test_a_link_after_a_closed_markdown_block_is_still_checked(tmp_path):
    closed = ("# Contributing guide\n\n```markdown\n# Contributing\n\nBe kind.\n```\n\n"
              "## Commits\n\nMessages look like:\n\n```\nfix: x\n```\n\n"
              "Please read our [code of conduct](CONDUCT.md).\n")
    skill = make_skill(tmp_path, "# Ledger\n\nSee `references/guide.md`.\n",
                       files={"references/guide.md": closed})
    assert _severe(skill, "SF116") == [("references/guide.md", 17, "error")]


# --- SF116: a folder linked from the skill's root ---------------------------------------------

def test_a_folder_link_read_from_the_skill_root_is_a_warning(tmp_path):
    ref = "# Overview\n\nAll automation lives in the [scripts](./scripts) folder.\n"
    skill = make_skill(tmp_path, "# Ledger\n\nSee `references/overview.md`.\n",
                       files={"references/overview.md": ref,
                              "scripts/tally.sh": "#!/bin/sh\necho ok\n"})
    assert _found(skill, "SF116") == [("references/overview.md", 3, "warning")]


def test_a_folder_link_to_a_folder_the_skill_lacks_is_an_error(tmp_path):
    ref = "# Overview\n\nAll automation lives in the [tools](./tools) folder.\n"
    skill = make_skill(tmp_path, "# Ledger\n\nSee `references/overview.md`.\n",
                       files={"references/overview.md": ref,
                              "scripts/tally.sh": "#!/bin/sh\necho ok\n"})
    assert _severe(skill, "SF116") == [("references/overview.md", 3, "error")]


# --- SF116: a path given to each sibling skill ------------------------------------------------

def _siblings(tmp_path: Path, sentence: str, sibling_has: bool, in_skill_md: bool = False) -> Path:
    skills = tmp_path / "skills"
    for name in ("eu-vat", "us-sales-tax"):
        make_skill(skills, "# Tax\n\nFile it.\n", name=name,
                   files={"references/rates.md": "# Rates\n"} if sibling_has else {})
    ref = f"# Tax across regions\n\n{sentence}\n"
    if in_skill_md:  # an unlinked mention in a reference file is a warning anyway
        return make_skill(skills, ref, name="tax-overview")
    return make_skill(skills, "# Overview\n\nSee `references/regions.md`.\n",
                      name="tax-overview", files={"references/regions.md": ref})


def test_a_per_product_path_is_the_siblings_file(tmp_path):
    skill = _siblings(tmp_path, "Use the table, then per-product `references/rates.md`.", True)
    assert _severe(skill, "SF116") == []


def test_a_per_product_path_no_sibling_has_is_an_error(tmp_path):
    skill = _siblings(tmp_path, "Use the table, then per-product `references/rates.md`.", False,
                      in_skill_md=True)
    assert [(p, sev) for p, _line, sev in _severe(skill, "SF116")] == [("SKILL.md", "error")]


def test_the_path_without_the_distributive_words_is_an_error(tmp_path):
    skill = _siblings(tmp_path, "Use the table, then read `references/rates.md`.", True)
    assert _severe(skill, "SF116") == [("references/regions.md", 3, "error")]


# --- SF116: a skill its description calls deliberately broken ---------------------------------

def _described(tmp_path: Path, description: str) -> Path:
    root = tmp_path / "router"
    root.mkdir()
    (root / "SKILL.md").write_text(
        f"---\nname: router\ndescription: {description}\n---\n\n# Router\n\n"
        "[Runtime](../missing/RUNTIME.md)\n", encoding="utf-8")
    return root


def test_a_deliberately_broken_fixture_skill_is_a_warning(tmp_path):
    skill = _described(tmp_path, "A deliberately unresolved router.")
    assert _found(skill, "SF116") == [("SKILL.md", 8, "warning")]


def test_a_skill_that_finds_deliberately_broken_links_is_checked(tmp_path):
    skill = _described(tmp_path, "Finds deliberately broken links in a router's pages.")
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


# --- SF301 and SF116: the scripts folder SKILL.md places above the skill ---------------------

_PLUGIN_SKILL = """\
# Tally

`$SKILL_DIR` is the folder holding this file. The tool lives at
`$SKILL_DIR/../../scripts/tally.py`; resolve it from where you loaded this skill.

```bash
python3 scripts/tally.py build --out totals.json
```

See `references/checks.md` for the checks.
"""
_CHECKS = "# Checks\n\nRun by `tally.py verify`, implemented in `scripts/tally_lib/checks.py`.\n"


def _plugin(tmp_path: Path, body: str, with_scripts: bool = False) -> Path:
    plugin = tmp_path / "tally-plugin"
    skill = make_skill(plugin / "skills", body, name="tally",
                       files={"references/checks.md": _CHECKS})
    if with_scripts:
        for rel in ("scripts/tally.py", "scripts/tally_lib/checks.py"):
            (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
            (plugin / rel).write_text("print('ok')\n", encoding="utf-8")
    return skill


def test_a_run_of_the_placed_scripts_folder_is_a_warning(tmp_path):
    skill = _plugin(tmp_path, _PLUGIN_SKILL)
    assert _found(skill, "SF301") == [("SKILL.md", 12, "warning")]
    assert _found(skill, "SF116") == [("references/checks.md", 3, "warning")]


def test_the_placed_scripts_on_disk_are_not_reported(tmp_path):
    skill = _plugin(tmp_path, _PLUGIN_SKILL, with_scripts=True)
    assert _found(skill, "SF301") == []
    assert _found(skill, "SF116") == []


def test_without_the_statement_the_run_and_mention_are_errors(tmp_path):
    body = _PLUGIN_SKILL.replace("`$SKILL_DIR/../../scripts/tally.py`", "the plugin")
    skill = _plugin(tmp_path, body)
    assert _severe(skill, "SF301") == [("SKILL.md", 12, "error")]
    # The reference's unlinked mention is a warning, for being one, not for the placed folder.
    assert _found(skill, "SF116") == [("references/checks.md", 3, "warning")]
    (mention,) = [f for f in lint_skill(skill, external=False).findings if f.rule == "SF116"]
    assert "not a link" in mention.message and "places it" not in mention.message


_CLIMB = """\
# Gatekeeper

The harness is a project under `harness/`; the validator is one file, `scripts/gate.py`.

```text
cd harness && make test
python3 ../scripts/gate.py validate manifests/*.json
```
"""


def test_a_mention_the_skill_runs_from_above_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _CLIMB, name="gatekeeper")
    assert _found(skill, "SF116") == [("SKILL.md", 8, "warning")]


def test_a_mention_the_skill_never_places_is_an_error(tmp_path):
    body = _CLIMB.replace("../scripts/gate.py", "../bin/gate")
    skill = make_skill(tmp_path, body, name="gatekeeper")
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


# --- SF301: a relative script of another tree, run again in a later block ---------------------

_KERNEL = """\
# Kernel lab

```bash
cd "$LAB/src/linux"
make defconfig
scripts/config --enable DEBUG_INFO
```

For a build without KASLR:

```bash
scripts/config --disable RANDOMIZE_BASE
{extra}
```
"""


def test_the_other_trees_script_in_a_later_block_is_not_the_skills(tmp_path):
    skill = make_skill(tmp_path, _KERNEL.format(extra="make olddefconfig"))
    assert _severe(skill, "SF301") == []


def test_a_script_that_tree_never_ran_is_still_checked(tmp_path):
    skill = make_skill(tmp_path, _KERNEL.format(extra="bash scripts/collect.sh"))
    assert _severe(skill, "SF301") == [("SKILL.md", 18, "error")]
