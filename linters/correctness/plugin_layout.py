"""Where Claude Code reads a skill, and the findings that depend on it (issue 36).

Claude Code reads a skill from a project's (or the user's) `.claude/skills/<skill>/SKILL.md`
and from a plugin, `<plugin>/skills/<skill>/SKILL.md` beside
`<plugin>/.claude-plugin/plugin.json` (code.claude.com/docs/en/skills, plugins-reference).
It documents every frontmatter field as optional: without `name` the skill takes its
folder's name, without `description` the first paragraph of its content. Other harnesses and
the Agent Skills spec require both, and so does claude.ai's upload (`--target claude-ai`).

- SF106 (holdout13): a missing `name` there is a warning.
- SF102 (holdout15): a missing frontmatter there is a warning when the content opens with
  the name and description written as a table (`| name | description |`): the author wrote
  a description, and the first paragraph Claude Code takes is it. A SKILL.md that opens with
  an introduction has no description anybody wrote to route on, and stays an error.
"""

from __future__ import annotations

import re
from pathlib import Path

from linters.context import LintContext
from linters.text.compiled_regex import rx
from skillforge.models.findings import Finding, Severity

PLUGIN_MANIFEST = (".claude-plugin", "plugin.json")
SKILLS_DIR = "skills"
PROJECT_DIR = ".claude"


def in_claude_code_plugin(skill_root: Path) -> bool:
    """The skill folder sits in a Claude Code plugin's `skills/` folder: its parent is named
    `skills` and the parent of that holds `.claude-plugin/plugin.json`. A manifest anywhere
    else (higher up, or beside the skill) does not make this skill the plugin's."""
    real = skill_root.resolve()
    if real.parent.name != SKILLS_DIR:
        return False
    # One stat per lint, not cached: a manifest added while the TUI watches counts at once.
    try:  # an unreadable folder is no plugin (a lint must not raise)
        return real.parent.parent.joinpath(*PLUGIN_MANIFEST).is_file()
    except OSError:
        return False


def claude_code_home(skill_root: Path) -> str | None:
    """How Claude Code reads this skill: "a Claude Code project skill" (in
    `.claude/skills/<skill>/`), "part of a Claude Code plugin", or None."""
    real = skill_root.resolve()
    if real.parent.name == SKILLS_DIR and real.parent.parent.name == PROJECT_DIR:
        return "a Claude Code project skill (in `.claude/skills/`)"
    if in_claude_code_plugin(skill_root):
        return "part of a Claude Code plugin"
    return None


def missing_name(ctx: LintContext, proposal: str) -> Finding:
    """SF106: the frontmatter has no `name`. An error by the Agent Skills spec; a warning for
    a skill of a Claude Code plugin (`in_claude_code_plugin`), which Claude Code names after
    its folder, unless the target is claude.ai's upload, which requires `name`."""
    if ctx.config.target != "claude-ai" and in_claude_code_plugin(ctx.skill.root):
        return ctx.finding(
            "SF106",
            "The frontmatter has no `name`. This skill is part of a Claude Code plugin, and "
            "Claude Code takes the folder's name; other harnesses and strict validators (the "
            f"Agent Skills spec) require `name`: add `name: {proposal}`.",
            line=1, severity=Severity.warning,
        )
    return ctx.finding(
        "SF106",
        f"The frontmatter has no `name`; add `name: {proposal}` (it must match the folder "
        "name).",
        line=1,
    )


# A Markdown table's header row naming `name` and `description` as its columns, opening the
# content (under a title, say): the frontmatter written as a table.
_FIELD_TABLE = rx(r"^\s*\|\s*\**name\**\s*\|\s*\**description\**\s*\|", re.IGNORECASE)
_TITLE = rx(r"^\s{0,3}#{1,6}\s")


def _field_table_line(text: str) -> int | None:
    """The line of a `| name | description |` table header that is the content's first
    paragraph (nothing but blank lines and headings above it), or None."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or _TITLE.match(line):
            continue
        return n if _FIELD_TABLE.match(line) else None
    return None


def missing_frontmatter(ctx: LintContext) -> Finding:
    """SF102: SKILL.md has no frontmatter. An error by the Agent Skills spec; a warning where
    Claude Code reads the skill (`claude_code_home`) and its content opens with a name and
    description table, which Claude Code takes as its description, unless the target is
    claude.ai's upload."""
    table = _field_table_line(ctx.skill_md_text)
    home = claude_code_home(ctx.skill.root) if ctx.config.target != "claude-ai" else None
    if home is not None and table is not None:
        return ctx.finding(
            "SF102",
            f"SKILL.md has no YAML frontmatter; the table on line {table} looks meant as the "
            f"frontmatter. This skill is {home}, and Claude Code takes the folder's name as "
            "its name and the first paragraph of the content as its description; other "
            "harnesses and strict validators (the Agent Skills spec) need frontmatter: move "
            "the table's name and description into a `---` block on the first line.",
            line=1, severity=Severity.warning,
        )
    hint = (f" The table on line {table} looks meant as the frontmatter: move its name and "
            "description there." if table else "")
    return ctx.finding(
        "SF102",
        "SKILL.md has no YAML frontmatter; start the file with a `---` line, then `name:` and "
        f"`description:`, then a closing `---`.{hint}",
        line=1,
    )
