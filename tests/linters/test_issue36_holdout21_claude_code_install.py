"""Issue 36, holdout21: a skill its repository installs only into Claude Code.

The README (or install script) of such a repository clones it into a project's `.claude/`,
links its skills into `~/.claude/skills/` or installs it as a Claude Code plugin, and names no
other harness. Claude Code takes a missing `name` from the folder and registers a skill under
its `name`, so there:

- SF106, a missing `name`, is a warning naming the document;
- SF102, a missing frontmatter, is a warning when the title names the skill by its folder's
  name as its command or labelled as the skill (`# /scan-report — ...`, `# Skill: x`), and
  (since holdout30) when a bare title opens an introduction Claude Code takes as the
  description; with no paragraph and no such title it stays an error;
- SF110, a name that is the folder's with Claude Code's namespace colon (`kit:design` in
  `kit-design/`), is a warning; any other mismatch stays an error.

Twins keep the errors: the same README also naming Codex's folder, `npx skills` or another
harness's folder or install command, no README at all, and `--target claude-ai`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.correctness.correctness import load_problems, name_field
from linters.text.install_places import claude_code_install, install_reading
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.linters.correctness_skill import checkout, findings

CLONE_README = """\
# pentest-kit

Workflows for Claude Code.

## Install

Clone this repository into your project's `.claude/` folder:

```bash
git clone https://example.org/someone/pentest-kit.git .claude
```

Then replace the placeholders in CLAUDE.md.
"""
NO_NAME = """\
---
description: Maps a target's open ports and services. Use when recon starts.
---
# Recon

1. Run the scan.
"""
SCAN_REPORT = """\
# /scan-report — Guided Report
# Usage: /scan-report

## Purpose

Turns the findings of a scan session into a report for the client.

## Steps

1. Read the findings.
"""


def _repo(tmp_path: Path, docs: dict[str, str], skill: str, text: str) -> Path:
    """A checkout (`.git` at its top) holding `docs` at its top and a skill at `skill`."""
    return checkout(tmp_path / "pentest-kit", docs, skill, text)


def _claude_ai(root: Path, check) -> list:
    return list(check(LintContext(load_skill(root), LintConfig(target="claude-ai"))))


# --- SF106 ----------------------------------------------------------------------------------


def test_a_missing_name_in_a_collection_cloned_into_claude_is_a_warning(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/recon", NO_NAME)
    [f] = findings(root, "SF106")
    assert f.severity is Severity.warning
    assert "installs it only into Claude Code" in f.message
    assert "(README.md, line 10: `git clone https://example.org/someone/pentest-kit.git " \
           ".claude`)" in f.message
    assert "takes the folder's name" in f.message and "add `name: recon`" in f.message


@pytest.mark.parametrize("docs", [
    {"setup": '#!/bin/bash\nfor s in "$DIR"/skills/*/; do\n'
              '  ln -sf "$s" "$HOME/.claude/skills/$(basename "$s")"\ndone\n'},
    {"README.md": "# Kit\n\n```\ncp -r skills/* ~/.claude/skills/\n```\n"},
    {"README.md": "# Kit\n\n```\n/plugin marketplace add someone/pentest-kit\n"
                  "/plugin install pentest-kit@someone\n```\n"},
    {"docs/README.md": "unread: not above the skill", "INSTALL.md":
        "Run `claude plugin install pentest-kit` in a terminal.\n"},
    {"scripts/install.sh": "mkdir -p .claude/skills && cp -r skills/* .claude/skills/\n"},
    # holdout24: the plugin manager's menu ("Add marketplace"), opened from the CLI
    {"README.md": "# Kit\n\n```bash\nclaude /plugin\n# Select \"Add marketplace\" -> "
                  "someone/pentest-kit\n```\n"},
])
def test_each_way_of_installing_only_into_claude_code_counts(tmp_path, docs):
    root = _repo(tmp_path, docs, "skills/recon", NO_NAME)
    [f] = findings(root, "SF106")
    assert f.severity is Severity.warning and "only into Claude Code" in f.message


@pytest.mark.parametrize("also", [
    "For Codex, copy the skills into `~/.codex/skills/` instead.",
    "Or with any agent: `npx skills add someone/pentest-kit`.",
    "Cursor users: link `skills/` to `.cursor/skills/`.",
    "For OpenCode: `cp -r skills ~/.config/opencode/skills/`.",
    "Gemini CLI: `gemini extensions install https://example.org/someone/pentest-kit`.",
    "GitHub Copilot reads them from `.github/skills/`.",
    "Also installs into `.agents/skills/` for other agents.",
])
def test_the_same_readme_naming_another_harness_keeps_the_error(tmp_path, also):
    root = _repo(tmp_path, {"README.md": CLONE_README + "\n" + also + "\n"}, "skills/recon",
                 NO_NAME)
    [f] = findings(root, "SF106")
    assert f.severity is Severity.error and "Claude Code" not in f.message


def test_a_harness_named_in_prose_is_no_place(tmp_path):
    # The skills go where the commands put them; the Copilot part of such a framework is its
    # prompt files.
    readme = CLONE_README + "\nThe framework also works with GitHub Copilot and Cline.\n"
    root = _repo(tmp_path, {"README.md": readme}, "skills/recon", NO_NAME)
    [f] = findings(root, "SF106")
    assert f.severity is Severity.warning


def test_another_harness_named_by_the_install_script_keeps_the_error(tmp_path):
    docs = {"README.md": CLONE_README,
            "install.sh": "cp -r skills/* ~/.claude/skills/\ncp -r skills/* ~/.gemini/skills/\n"}
    [f] = findings(_repo(tmp_path, docs, "skills/recon", NO_NAME), "SF106")
    assert f.severity is Severity.error


@pytest.mark.parametrize("readme", [
    None,  # a copied skill, or a repository that says nothing
    "# Kit\n\nSkills for red teams.\n",  # no place named
    "# Kit\n\nReference your skills from `.claude/settings.json`.\n",  # not a skills folder
    "# Kit\n\nCopy `commands/*.md` into `~/.claude/commands/`.\n",  # commands, not skills
])
def test_no_claude_code_install_keeps_the_error(tmp_path, readme):
    docs = {"README.md": readme} if readme else {}
    [f] = findings(_repo(tmp_path, docs, "skills/recon", NO_NAME), "SF106")
    assert f.severity is Severity.error


def test_a_readme_higher_than_four_folders_is_not_the_repositorys(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "a/b/c/skills/recon", NO_NAME)
    assert claude_code_install(root) is None
    [f] = findings(root, "SF106")
    assert f.severity is Severity.error


def test_the_claude_ai_upload_keeps_the_error(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/recon", NO_NAME)
    [f] = [f for f in _claude_ai(root, name_field) if f.rule == "SF106"]
    assert f.severity is Severity.error and "Claude Code" not in f.message


# --- SF102 ----------------------------------------------------------------------------------


def test_no_frontmatter_under_a_title_naming_the_command_is_a_warning(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/scan-report", SCAN_REPORT)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.warning and f.line == 1
    assert "its title (`# /scan-report — Guided Report`) names the skill `scan-report`" \
        in f.message
    assert "installs it only into Claude Code (README.md, line 10" in f.message
    assert "`name: scan-report`" in f.message


@pytest.mark.parametrize("title", [
    "# Scan report",  # a title, then an introduction
    "# scan-report",  # the folder's name, but as a bare title
    "# Scan Report Skill",
    "# Skill: scan-reporting",  # labelled, but not the folder's name
    "# /scan — Guided Report",
])
def test_any_title_over_an_introduction_is_a_warning_quoting_it(tmp_path, title):
    # holdout30: Claude Code describes the skill by its first paragraph; readers of five parts
    # read a bare title over an introduction in a Claude Code-only repository as policy.
    text = title + "\n\nTurns the findings of a scan session into a report.\n"
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/scan-report", text)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.warning
    assert ('first paragraph (line 3: "Turns the findings of a scan session into a report.")'
            in f.message)
    assert "installs it only into Claude Code (README.md, line 10" in f.message


@pytest.mark.parametrize("title", ["# Scan report", "# Scan Report Skill"])
def test_a_bare_title_over_steps_alone_keeps_the_error(tmp_path, title):
    # No paragraph for Claude Code to take, no name written: no description anywhere.
    text = title + "\n\n## Steps\n\n1. Collect the findings.\n2. Write the report.\n"
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/scan-report", text)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error and "Claude Code" not in f.message


def test_an_introduction_in_a_repository_for_other_harnesses_keeps_the_error(tmp_path):
    readme = CLONE_README + "\nCodex users: `cp -r skills/* ~/.codex/skills/`.\n"
    text = "# Scan report\n\nTurns the findings of a scan session into a report.\n"
    root = _repo(tmp_path, {"README.md": readme}, "skills/scan-report", text)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error


def test_a_named_title_in_a_repository_for_other_harnesses_keeps_the_error(tmp_path):
    readme = CLONE_README + "\nOr `npx skills add someone/pentest-kit` for other agents.\n"
    root = _repo(tmp_path, {"README.md": readme}, "skills/scan-report", SCAN_REPORT)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error


def test_a_named_title_without_an_install_document_keeps_the_error(tmp_path):
    [f] = findings(_repo(tmp_path, {}, "skills/scan-report", SCAN_REPORT), "SF102")
    assert f.severity is Severity.error


def test_a_project_skill_with_a_labelled_title_is_a_warning(tmp_path):
    text = "# Skill: content-writer\n\n## When to use\n\n- A new post is due.\n"
    root = _repo(tmp_path, {"README.md": "# Site automation\n"},
                 ".claude/skills/content-writer", text)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.warning
    assert "a Claude Code project skill" in f.message


def test_a_project_skill_of_a_repository_naming_codex_keeps_the_error(tmp_path):
    text = "# Skill: content-writer\n\n## When to use\n\n- A new post is due.\n"
    readme = "# Site automation\n\nThe same skills run in Codex from `.codex/skills/`.\n"
    root = _repo(tmp_path, {"README.md": readme}, ".claude/skills/content-writer", text)
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error


def test_a_named_title_is_an_error_for_the_claude_ai_upload(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/scan-report", SCAN_REPORT)
    [f] = [f for f in _claude_ai(root, load_problems) if f.rule == "SF102"]
    assert f.severity is Severity.error


# --- SF110 ----------------------------------------------------------------------------------

NAMESPACED = "---\nname: kit:design\ndescription: Drafts a design. Use for a new feature.\n---\n"


def test_a_namespaced_name_in_a_claude_code_only_repository_is_a_warning(tmp_path):
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/kit-design", NAMESPACED)
    [f] = findings(root, "SF110")
    assert f.severity is Severity.warning
    assert "written with Claude Code's namespace colon" in f.message
    assert "registers the skill under its `name`" in f.message
    assert "name it `kit-design`" in f.message


def test_a_namespaced_name_in_a_repository_naming_codex_keeps_the_error(tmp_path):
    readme = CLONE_README + "\nCodex users: `cp -r skills/* ~/.codex/skills/`.\n"
    root = _repo(tmp_path, {"README.md": readme}, "skills/kit-design", NAMESPACED)
    [f] = findings(root, "SF110")
    assert f.severity is Severity.error


def test_a_namespaced_project_skill_without_the_repositorys_word_keeps_the_error(tmp_path):
    # Other harnesses read `.claude/skills/` too; a copy of the folder cannot show whether the
    # repository installs the skills for them as well.
    root = _repo(tmp_path, {}, ".claude/skills/kit-design", NAMESPACED)
    [f] = findings(root, "SF110")
    assert f.severity is Severity.error


def test_a_namespaced_project_skill_of_a_claude_code_only_repository_is_a_warning(tmp_path):
    readme = "# Kit\n\nThe skills live in `.claude/skills/`; open the project in Claude Code.\n"
    root = _repo(tmp_path, {"README.md": readme}, ".claude/skills/kit-design", NAMESPACED)
    [f] = findings(root, "SF110")
    assert f.severity is Severity.warning and "README.md, line 3" in f.message


@pytest.mark.parametrize("name", ["kit-design-flow", "design", "kit:design-flow", "kit/design"])
def test_any_other_mismatch_in_a_claude_code_only_repository_keeps_the_error(tmp_path, name):
    text = f"---\nname: {name}\ndescription: Drafts a design. Use for a new feature.\n---\n"
    root = _repo(tmp_path, {"README.md": CLONE_README}, "skills/kit-design", text)
    [f] = findings(root, "SF110")
    assert f.severity is Severity.error


# --- the reading itself ---------------------------------------------------------------------

_CLAUDE_LINES = [
    "git clone https://example.org/a/kit.git .claude",
    "git submodule add https://example.org/a/kit.git .claude",
    "cp -r skills/* ~/.claude/skills/",
    'ln -s "$PWD/skills/recon" "$HOME/.claude/skills/recon"',
    "/plugin marketplace add a/kit",
    "claude plugin install kit@a",
    "claude /plugin",
]
_OTHER_LINES = [
    "cp -r skills/* ~/.codex/skills/",
    "npx skills add a/kit",
    "ln -s skills .cursor/skills",
    "mkdir -p .gemini/skills",
    "cp -r skills ~/.config/opencode/skills",
    "Copilot reads `.github/skills/` in the repository.",
    "gemini extensions install https://example.org/a/kit",
]
_PROSE = st.sampled_from([
    "Red-team workflows.", "Replace the placeholders after installing.",
    "Each skill has a SKILL.md and scripts.", "Requires Python 3.11.", "",
])


@settings(max_examples=40, deadline=None)
@given(claude=st.lists(st.sampled_from(_CLAUDE_LINES), min_size=1, max_size=2),
       other=st.lists(st.sampled_from(_OTHER_LINES), max_size=2),
       prose=st.lists(_PROSE, max_size=4), data=st.data())
def test_claude_code_only_exactly_when_no_other_harness_is_named(tmp_path_factory, claude,
                                                                 other, prose, data):
    lines = data.draw(st.permutations(claude + other + prose))
    tmp = tmp_path_factory.mktemp("kit")
    root = _repo(tmp, {"README.md": "# Kit\n\n" + "\n\n".join(lines) + "\n"}, "skills/recon",
                 NO_NAME)
    installed, other_harness = install_reading(root)
    assert other_harness is bool(other)
    assert (installed is not None) is (not other)
    assert claude_code_install(root) == installed


@pytest.mark.parametrize("line", [
    "Run `claude /plugin-audit` to check the kit.",  # another slash command
    "See claude /plugins.md for the list.",  # a file
    "The claude /plugin/ folder holds the manifests.",  # a path
])
def test_a_plugin_word_that_is_no_plugin_manager_is_no_place(tmp_path, line):
    root = _repo(tmp_path, {"README.md": f"# Kit\n\n{line}\n"}, "skills/recon", NO_NAME)
    assert claude_code_install(root) is None
