"""Issue 36, holdout15: two structural readings.

- SF102: a SKILL.md without frontmatter where Claude Code reads it (a project's
  `.claude/skills/<skill>/`, or a plugin's `skills/<skill>/` beside
  `.claude-plugin/plugin.json`) whose content opens with its name and description as a table
  works there: Claude Code takes the folder's name and the first paragraph, that table. A
  warning, as SF106's missing `name` in a plugin is; an error elsewhere and with
  `--target claude-ai`. (Since holdout30 a content opening with prose is a warning there too,
  quoting the paragraph Claude Code takes; with no paragraph at all it stays an error.)
- SF110: a SKILL.md whose own description says it is no skill to install (a test fixture, a
  build script's prompt "not shipped") is never looked up by its folder: a mismatch of `name`
  and folder is a warning that quotes the sentence. Its other errors stay errors.
"""

from __future__ import annotations

import pytest

from linters import lint_skill
from linters.context import LintContext
from linters.correctness.not_installed import not_installed_sentence
from linters.correctness.plugin_layout import missing_frontmatter
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.linters.correctness_skill import findings, lint, write_skill

# A SKILL.md whose author wrote name and description as a table under the title.
TABLE_SKILL = """\
# Session notes

| name | description |
|------|-------------|
| session-notes | Summarises the current session into notes. Use when the user says "wrap up". |

Summarise what was done in this session as a short list.

## Steps

1. List the files changed.
2. Write one line per change.
"""
PLAIN_SKILL = "# Session notes\n\nSummarise what was done in this session as a short list.\n"


def _no_frontmatter(tmp_path, folder: str, text: str = TABLE_SKILL,
                    manifest: str | None = None):
    if manifest is not None:
        (tmp_path / manifest).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / manifest).write_text('{"name": "notes-kit"}\n', "utf-8")
    root = tmp_path / folder
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(text, "utf-8")
    return root


# --- SF102 ----------------------------------------------------------------------------------


def test_a_claude_code_project_skill_with_a_name_table_is_a_warning(tmp_path):
    root = _no_frontmatter(tmp_path, "app/.claude/skills/session-notes")
    [f] = findings(root, "SF102")
    assert f.severity is Severity.warning and f.line == 1
    assert "table on line 3 looks meant as the frontmatter" in f.message
    assert "Claude Code project skill" in f.message
    assert "folder's name" in f.message and "first paragraph" in f.message
    assert "other harnesses" in f.message


def test_a_plugin_skill_with_a_name_table_is_a_warning(tmp_path):
    root = _no_frontmatter(tmp_path, "kits/notes/skills/session-notes",
                           manifest="kits/notes/.claude-plugin/plugin.json")
    [f] = findings(root, "SF102")
    assert f.severity is Severity.warning
    assert "part of a Claude Code plugin" in f.message


def test_the_warning_does_not_fail_the_gate_on_its_own(tmp_path):
    root = _no_frontmatter(tmp_path, "app/.claude/skills/session-notes")
    report = lint_skill(load_skill(root), external=False)
    assert [f.severity for f in report.findings if f.rule == "SF102"] == [Severity.warning]
    assert not any(f.severity is Severity.error and f.category == "correctness"
                   for f in report.findings)


@pytest.mark.parametrize("folder, manifest", [
    ("repo/skills/session-notes", None),  # a skills/ folder of no plugin
    ("repo/skills/session-notes", "repo/.claude-plugin/plugin.json.bak"),  # not the manifest
    ("repo/.claude/session-notes", None),  # not in .claude/skills/
    ("repo/.claude/skills/notes/session-notes", None),  # a folder deeper than Claude Code reads
    ("repo/claude/skills/session-notes", None),  # not the .claude folder
])
def test_a_name_table_elsewhere_stays_an_error(tmp_path, folder, manifest):
    [f] = findings(_no_frontmatter(tmp_path, folder, manifest=manifest), "SF102")
    assert f.severity is Severity.error
    assert "Claude Code" not in f.message
    assert "table on line 3 looks meant as the frontmatter" in f.message


@pytest.mark.parametrize("folder, manifest", [
    ("app/.claude/skills/session-notes", None),
    ("kits/notes/skills/session-notes", "kits/notes/.claude-plugin/plugin.json"),
])
def test_a_claude_code_skill_that_opens_with_prose_is_a_warning_quoting_it(tmp_path, folder,
                                                                            manifest):
    # holdout30: Claude Code takes the introduction as the description; the readers of five
    # parts read such a skill as policy. The message shows what Claude Code routes on.
    [f] = findings(_no_frontmatter(tmp_path, folder, PLAIN_SKILL, manifest), "SF102")
    assert f.severity is Severity.warning and f.line == 1
    assert ('describes it by its first paragraph (line 3: "Summarise what was done in this '
            'session as a short list.")') in f.message
    assert "`name: session-notes`" in f.message and "Agent Skills spec" in f.message


@pytest.mark.parametrize("text", [
    "# Session notes\n\n## Steps\n\n1. List the files changed.\n",  # headings and a list
    "# Session notes\n\n```bash\ngit log --oneline\n```\n",  # code only
    "# Session notes\n\n| step | what |\n| --- | --- |\n| 1 | list |\n",  # a table, no fields
    "<!-- notes -->\n# Session notes\n\n> Quoted, not written here.\n",
])
def test_a_claude_code_skill_with_no_paragraph_to_take_stays_an_error(tmp_path, text):
    # Nothing Claude Code could take as the description: no description anywhere.
    [f] = findings(_no_frontmatter(tmp_path, "app/.claude/skills/session-notes", text),
                   "SF102")
    assert f.severity is Severity.error
    assert f.message == ("SKILL.md has no YAML frontmatter; start the file with a `---` line, "
                         "then `name:` and `description:`, then a closing `---`.")


def test_a_name_table_below_the_first_paragraph_is_no_frontmatter(tmp_path):
    text = PLAIN_SKILL + "\n" + TABLE_SKILL.split("\n", 2)[2]
    [f] = findings(_no_frontmatter(tmp_path, "app/.claude/skills/session-notes", text), "SF102")
    assert "table" not in f.message and "first paragraph (line 3" in f.message


def test_a_skill_in_skills_without_frontmatter_keeps_the_plain_message(tmp_path):
    [f] = findings(_no_frontmatter(tmp_path, "skills/x", PLAIN_SKILL), "SF102")
    assert f.severity is Severity.error
    assert f.message == ("SKILL.md has no YAML frontmatter; start the file with a `---` line, "
                         "then `name:` and `description:`, then a closing `---`.")


def test_a_project_skill_without_frontmatter_is_an_error_for_the_claude_ai_upload(tmp_path):
    root = _no_frontmatter(tmp_path, "app/.claude/skills/session-notes")
    ctx = LintContext(load_skill(root), LintConfig(target="claude-ai"))
    f = missing_frontmatter(ctx)
    assert f.severity is Severity.error and "Claude Code" not in f.message


def test_frontmatter_below_the_top_of_a_project_skill_stays_an_error(tmp_path):
    # Claude Code, too, reads only a block on the first line: this one is lost there.
    text = "# Session notes\n\n---\nname: session-notes\ndescription: Summarises.\n---\nBody.\n"
    [f] = findings(_no_frontmatter(tmp_path, "app/.claude/skills/session-notes", text), "SF102")
    assert f.severity is Severity.error and f.line == 3


# --- SF110 ----------------------------------------------------------------------------------

BUILD_PROMPT = ("Scans one service and records the metrics it emits as inventory files. "
                "Run headless by tools/scan.sh, one agent per service. "
                "Build-time only — not shipped.")
FIXTURE = ("Fixture skill. It exists so the checker has a file to grade; no agent should "
           "ever load it outside the tests.")


@pytest.mark.parametrize("description, sentence", [
    (BUILD_PROMPT, "Build-time only — not shipped."),
    (FIXTURE, "Fixture skill."),
    ("Grades the checker's replies. This skill is not installed.",
     "This skill is not installed."),
    ("Replays recorded cases. NOT FOR any real task: it does nothing.",
     "NOT FOR any real task: it does nothing."),
])
def test_a_self_declared_uninstalled_skill_has_a_name_mismatch_warning(tmp_path, description,
                                                                       sentence):
    fm = f"name: metric-inventory\ndescription: \"{description}\"\n"
    [f] = lint(tmp_path, "SF110", fm, folder="inventory-scan")
    assert f.severity is Severity.warning and f.line == 2
    assert f'("{sentence}")' in f.message
    assert "`metric-inventory`" in f.message and "`inventory-scan`" in f.message


@pytest.mark.parametrize("description", [
    # "shipped" and "fixture" in another sense: the skill works and is installed.
    "Lists the features that are not shipped yet. Use when planning a release.",
    "Writes release notes for what shipped this week. Use when the user asks for a changelog.",
    "Generates test fixtures for pytest. Use when a test needs sample data.",
    "Checks whether a package is not installed. Use when an import fails.",
    "Keeps the agent from loading stale data; no agent should load it twice per session.",
])
def test_a_name_mismatch_of_a_working_skill_stays_an_error(tmp_path, description):
    fm = f"name: metric-inventory\ndescription: \"{description}\"\n"
    [f] = lint(tmp_path, "SF110", fm, folder="inventory-scan")
    assert f.severity is Severity.error
    assert "no skill to install" not in f.message


def test_the_reading_needs_the_statement_itself():
    assert not_installed_sentence(None) is None
    assert not_installed_sentence("Flags code that is never released to users.") is None
    assert not_installed_sentence("**Not shipped** with the plugin.") == \
        "**Not shipped** with the plugin."


def test_other_errors_of_a_self_declared_uninstalled_skill_stay_errors(tmp_path):
    md = (f"---\nname: metric-inventory\ndescription: {BUILD_PROMPT}\nowner: infra\n---\n"
          "\n# Inventory scan\n\nRead [the format](references/format.md) first.\n")
    root = write_skill(tmp_path / "inventory-scan", md)
    report = lint_skill(load_skill(root), external=False)
    severity = {f.rule: f.severity for f in report.findings}
    assert severity["SF110"] is Severity.warning
    assert severity["SF112"] is Severity.error  # the unknown key
    assert severity["SF116"] is Severity.error  # the missing reference
