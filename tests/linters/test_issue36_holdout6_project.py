"""Readings from the sixth held-out part of issue 36: paths and scripts of the user's
project, not of the skill.

- SF301: a script the skill installs into the user's project from a template whose name
  carries the template's mark (`templates/auth-login.template.mjs` copied to
  `scripts/auth-login.mjs`) is the project's copy once installed: a warning that says so,
  as for a template shipped under the script's own name.
- SF116: a sentence that says where a file is varies ("Script location varies:
  `scripts/Init.s.sol` or `scripts/solidity/Init.s.sol`") names a file of the user's
  repository, wherever it keeps it, in a folder the skill does not have.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin that a really missing script or file still fails.
"""

from __future__ import annotations

from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill

# --- SF301: a script installed from a marked template ---------------------------------------

_PROBE = """\
# Login probe

## Set up

Copy the template the user picked into the project: `templates/auth-login.template.mjs`
becomes the project's login script.

## Probe

| Strategy | Probe command |
|----------|---------------|
| Headful | `AUTH_URL=... node scripts/auth-login.mjs` |
"""
_TEMPLATE = "import { chromium } from 'playwright';\n"


def test_a_script_installed_from_a_marked_template_is_the_projects(tmp_path):
    """Before: an error for `node scripts/auth-login.mjs`."""
    skill = make_skill(tmp_path, _PROBE, {"templates/auth-login.template.mjs": _TEMPLATE})
    assert _severe(skill, "SF301") == []
    assert _found(skill, "SF301") == [("SKILL.md", 17, "warning")]


def test_a_script_no_template_installs_is_still_missing(tmp_path):
    skill = make_skill(tmp_path, _PROBE, {"templates/auth-other.template.mjs": _TEMPLATE})
    assert _severe(skill, "SF301") == [("SKILL.md", 17, "error")]


def test_a_template_mark_in_another_form_is_read_too(tmp_path):
    """`run.sh.tmpl` installs as `run.sh`."""
    text = "# Run\n\nRun it:\n\n```bash\nbash scripts/run.sh\n```\n"
    assert _severe(make_skill(tmp_path / "a", text, {"templates/run.sh.tmpl": "echo\n"}),
                   "SF301") == []
    assert _severe(make_skill(tmp_path / "b", text, {"templates/walk.sh.tmpl": "echo\n"}),
                   "SF301") == [("SKILL.md", 11, "error")]


# --- SF116: a file whose location the text says varies --------------------------------------

_DEPLOY = """\
# Deploy test streams

Run the init script of the protocol's repository.

## Notes

- Script location varies: `scripts/Init.s.sol` or `scripts/solidity/Init.s.sol`
- Check the actual script for its exact signature
"""


def test_a_path_whose_location_varies_is_the_users_repository(tmp_path):
    """Before: two errors, one per path."""
    skill = make_skill(tmp_path, "# Deploy\n\nSee [streams](references/streams.md).\n",
                       {"references/streams.md": _DEPLOY})
    assert _found(skill, "SF116") == []


def test_a_missing_path_without_such_words_is_still_broken(tmp_path):
    text = _DEPLOY.replace("Script location varies:", "Run the init script:")
    # In SKILL.md: in a reference file an unlinked mention is a warning whatever the words.
    skill = make_skill(tmp_path, text)
    assert [(p, sev) for p, _line, sev in _severe(skill, "SF116")] == [("SKILL.md", "error"),
                                                                      ("SKILL.md", "error")]


def test_a_varying_location_in_a_folder_the_skill_has_is_still_checked(tmp_path):
    """The skill's own `references/` holds one place for its files: a missing one there is
    broken whatever the sentence says."""
    text = "# Guide\n\nThe guide's location varies: `references/a.md` or `references/b.md`.\n"
    skill = make_skill(tmp_path, text, {"references/c.md": "# C\n"})
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error"), ("SKILL.md", 8, "error")]
