"""Issue 36, holdout24: scripts of the user's project that a skill documenting the project's
layout names (SF116, SF301; linters.text.paths.project_layout).

A DevOps skill teaches the layout a scaffold tool writes into the user's repository: a
Makefile of one-line targets that call `scripts/*.sh`. It names those scripts ("the
scaffolded `scripts/deploy.sh`", "`make check` (Makefile target, runs `scripts/dev.sh
check`)", "the retry helpers in `scripts/lib.sh`") without shipping them. Those are
warnings naming the reading; a skill's own script it forgot to ship stays an error.

Every text here is written for this file; each demoted case was an error before.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from linters.text.paths.project_layout import project_layout
from skillforge.models.findings import Severity
from tests.hypothesis_budget import examples
from tests.linters.test_security import make_skill


def _found(skill, *rules: str):
    return [f for f in lint_skill(skill, external=False).findings if f.rule in rules]


_LAYOUT = """\
# Project operations

Conventions for the operations layer of a service repository.

## Make targets

Each target is a single line handing off to a script:

```makefile
dev-check: ## Lint and test
\t@bash scripts/dev.sh check
```

Keep retries and cleanup traps in `scripts/lib.sh`, never in the Makefile.

## Agent notes

- {scaffold_line}
- Always go through `make`; the trap handlers live in `scripts/lib.sh`.
"""


@pytest.mark.parametrize("scaffold_line", [
    "The bootstrap tool generates the Makefile, the shell scripts in `scripts/` and a CI file.",
    "Scaffolding creates a Makefile, helper scripts in `scripts/` and the CI config.",
])
def test_a_documented_project_layout_makes_its_scripts_a_warning(tmp_path, scaffold_line):
    """Before: SF116 errors on `scripts/lib.sh` (the recipe reading, or the scaffold's)."""
    skill = make_skill(tmp_path, _LAYOUT.format(scaffold_line=scaffold_line), name="ops-layout")
    found = _found(skill, "SF116", "SF301")
    assert found and all(f.severity == Severity.warning for f in found)
    assert all("user's project" in f.message for f in found)


def test_the_scaffolded_file_is_a_warning(tmp_path):
    body = ("# Cloud roles\n\nThe scaffolded `scripts/deploy.sh` has a `grant` helper that "
            "picks the right project for each binding.\n")
    found = _found(make_skill(tmp_path, body, name="cloud-roles"), "SF116")
    assert [f.severity for f in found] == [Severity.warning]
    assert "scaffold" in found[0].message


@pytest.mark.parametrize("line", [
    "1. `make check` - Makefile target (preferred, runs `scripts/dev.sh check`)",
    "- `make release`, which calls `scripts/release.sh publish`, comes last.",
])
def test_a_script_a_make_target_runs_is_a_warning(tmp_path, line):
    """Before: SF301 error on the inline command."""
    body = f"# Checks\n\nThe checker looks for tests in this order:\n\n{line}\n"
    found = _found(make_skill(tmp_path, body, name="check-order"), "SF301", "SF116")
    assert found and all(f.severity == Severity.warning for f in found)
    assert any("Make target" in f.message for f in found)


@pytest.mark.parametrize("body,files", [
    # The skill's own script, forgotten: no word of a project's layout.
    ("# Build\n\nRun the build:\n\n```bash\nbash scripts/build.sh\n```\n", None),
    ("# Build\n\nTo build, run `scripts/build.sh` from this skill's folder.\n", None),
    # A skill with a scripts/ folder that lacks the helper it points to.
    ("# Build\n\nSee `scripts/common.sh` for the helpers.\n\nScaffolding generates a Makefile "
     "and scripts in `scripts/`.\n", {"scripts/run.sh": "#!/bin/sh\n"}),
    # A scaffold that makes a skill, not the user's project.
    ("# New skill\n\nThe init script scaffolds a new skill and creates `scripts/` in it.\n\n"
     "Then run `scripts/init_skill.py my-skill`.\n", None),
    # The sentence calls it the skill's own.
    ("# Build\n\nThe `make build` target runs `scripts/build.sh`, bundled with this skill.\n",
     None),
    # A Make target of a Makefile the skill ships.
    ("# Build\n\n1. `make build` - Makefile target (uses `scripts/build.sh`)\n",
     {"Makefile": "build:\n\tbash scripts/build.sh\n"}),
])
def test_the_skills_own_missing_script_stays_an_error(tmp_path, body, files):
    skill = make_skill(tmp_path, body, files=files, name="builder")
    assert Severity.error in [f.severity for f in _found(skill, "SF116", "SF301")]


def test_a_makefile_recipe_in_a_skill_that_has_the_folder_keeps_the_error(tmp_path):
    body = _LAYOUT.format(scaffold_line="Keep it short.")
    skill = make_skill(tmp_path, body, files={"scripts/dev.sh": "#!/bin/sh\n"},
                       name="ops-layout")
    assert Severity.error in [f.severity for f in _found(skill, "SF116")]


_folder = st.from_regex(r"[a-z]{3,8}", fullmatch=True).filter(lambda s: s != "skill")
_script = st.from_regex(r"[a-z]{2,8}\.sh", fullmatch=True)


@settings(max_examples=examples(40), deadline=None)
@given(folder=_folder, script=_script)
def test_the_layout_reading_needs_the_folder_missing(folder, script):
    """Whatever the folder, a scaffold's folder the skill lacks gives the reading, one it has
    never does, and a document that says nothing of a scaffold or a Makefile never does."""
    doc = f"Scaffolding generates a Makefile and scripts in `{folder}/`.\n"
    path = f"{folder}/{script}"
    def read(exists, text, before, after=""):
        return project_layout(exists, text, before + path + after, len(before), path)
    assert read(lambda p: False, doc, "See ") is not None
    assert read(lambda p: p == folder, doc, "See ") is None
    assert read(lambda p: False, f"Keep scripts in `{folder}/`.\n", "See ") is None
    assert read(lambda p: False, doc, "Use this skill's ") is None
    assert read(lambda p: False, doc, "Use ", ", bundled with this skill") is None
