"""A vendored copy of another project's skill (issue 36, holdout13): SF112, SF116, SF301.

A skill under a folder whose whole name says it holds other projects' code (`upstream/`,
`third_party/`, `vendor/`, `upstream-snapshots/`), between the repository's top (its `.git`)
and the skill, is a copy: its missing companion files and unknown frontmatter keys are the
upstream project's, so they are warnings that say so. The same skill under an ordinary path,
under a folder merely named like one (`vendor-tools/`), in a checkout that itself sits in a
`vendor/` folder, or a skill about vendoring keeps its errors; so do the skill's own files
under `references/upstream/`.

Every skill text here is written for this file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from linters import lint_skill
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Release notes

Collect the merged changes since the last tag:

```bash
python3 scripts/collect_changes.py --since "$LAST_TAG"
```

Then read `references/notes-style.md` and write the notes in that style, one bullet per
user-visible change.
"""
_KEYS = "stage: beta\nrecipe-kind: motion\n"
_RULES = ("SF112", "SF116", "SF301")


def _repo(tmp_path: Path, *below: str) -> Path:
    """A repository (its `.git`) with the skill `release-notes` under `below`."""
    top = tmp_path / "checkout"
    (top / ".git").mkdir(parents=True)
    return make_skill(top.joinpath(*below), _BODY, fm_extra=_KEYS, name="release-notes")


def _severities(skill: Path) -> dict[str, set[str]]:
    return {rule: {row[2] for row in found(skill, rule)} for rule in _RULES}


@pytest.mark.parametrize(("below", "folder"), [
    (("third_party", "acme-kit", "skills"), "third_party"),
    (("apps", "motion", "assets", "upstream", "recipes", "fades"), "upstream"),
    (("RESEARCH", "upstream-snapshots", "0a1b2c3", "plugins", "acme", "skills"),
     "upstream-snapshots"),
    (("vendored",), "vendored"),
])
def test_a_vendored_copys_missing_files_and_keys_are_warnings(tmp_path, below, folder):
    skill = _repo(tmp_path, *below)
    assert _severities(skill) == {rule: {"warning"} for rule in _RULES}
    report = lint_skill(skill, external=False)
    messages = [f.message for f in report.findings if f.rule in _RULES]
    assert len(messages) == 4  # two keys, one file, one script
    assert all(f"sits under `{folder}/`, a vendored copy of another project's skill" in m
               for m in messages)


def test_a_submodule_under_vendor_is_a_vendored_copy(tmp_path):
    # A submodule's `.git` is a file pointing into the superproject: not the repository's top.
    top = tmp_path / "checkout"
    (top / ".git" / "modules").mkdir(parents=True)
    sub = top / "vendor" / "acme-skills"
    sub.mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/vendor/acme-skills\n", "utf-8")
    skill = make_skill(sub / "skills", _BODY, fm_extra=_KEYS, name="release-notes")
    assert _severities(skill) == {rule: {"warning"} for rule in _RULES}


@pytest.mark.parametrize("below", [
    ("skills",),                     # an ordinary place
    ("vendor-tools", "skills"),      # a name that merely contains the word
    ("plugins", "upstream-sync"),    # likewise
])
def test_the_same_skill_elsewhere_keeps_its_errors(tmp_path, below):
    skill = _repo(tmp_path, *below)
    assert _severities(skill) == {rule: {"error"} for rule in _RULES}


def test_a_checkout_inside_a_vendor_folder_is_read_from_its_own_top(tmp_path):
    # ~/src/vendor/checkout/skills/x: the `vendor/` folder is above the repository's top.
    skill = _repo(tmp_path / "vendor", "skills")
    assert _severities(skill) == {rule: {"error"} for rule in _RULES}


def test_a_skill_about_vendoring_keeps_its_errors(tmp_path):
    top = tmp_path / "checkout"
    (top / ".git").mkdir(parents=True)
    skill = make_skill(top / "skills", """\
        # Vendor sync

        Copy the upstream project's skills into `vendor/` and `third_party/`, then record the
        commit in `references/vendoring-log.md`.
        """, fm_extra="upstream: acme\n", name="vendor-sync")
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]
    assert [r[2] for r in severe(skill, "SF112")] == ["error"]


def test_the_skills_own_upstream_references_keep_their_errors(tmp_path):
    # A folder named `upstream` inside the skill is the skill's own material, not a copy's place.
    top = tmp_path / "checkout"
    (top / ".git").mkdir(parents=True)
    skill = make_skill(top / "skills", "# Notes\n\nRead `references/upstream/setup.md` first.\n",
                       name="release-notes",
                       files={"references/upstream/setup.md": "# Setup\n\nThen open "
                              "[the checklist](checklist.md) and follow it.\n"})
    assert severe(skill, "SF116") == [("references/upstream/setup.md", 3, "error")]
