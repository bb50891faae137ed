"""SF106's finding for a missing `name`, and whether the skill is part of a Claude Code
plugin. Claude Code's plugin format puts skills at `<plugin>/skills/<skill>/SKILL.md` beside
`<plugin>/.claude-plugin/plugin.json` (code.claude.com/docs/en/plugins-reference), and
documents a skill's `name` as optional: the skill takes its folder's name (issue 36,
holdout13). Other harnesses and the Agent Skills spec require it."""

from __future__ import annotations

from pathlib import Path

from linters.context import LintContext
from skillforge.models.findings import Finding, Severity

PLUGIN_MANIFEST = (".claude-plugin", "plugin.json")
SKILLS_DIR = "skills"


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
