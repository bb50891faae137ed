"""Files whose frontmatter a harness reads, known by where they sit or how they are named.

A skill ships Markdown files besides SKILL.md that open with a `---` block. Some are files of
a harness's own format, copied or installed where that harness reads them, and the harness
parses their frontmatter as strictly as a skill's: a subagent's `name` and `tools`, a slash
command's `description`, a Kiro steering file's `inclusion`, a Cursor rule's `globs`. Others
are references the agent reads as text (`references/api.md`, `SKILL.ref.md`), where a
leftover frontmatter is only words on the page. SF118 asks which one a file is: a
byte-order mark before `---` hides the frontmatter only from a parser (issue 36, holdout3: a
Kiro steering template, labelled right; holdout21: a reference manual, labelled wrong).

Only the formats below are known; the table says what each reader takes from the block
(code.claude.com/docs sub-agents, slash-commands and output-styles; kiro.dev steering;
docs.cursor.com rules; GitHub Copilot's customization files; opencode's, Windsurf's,
Cline's and Codex's rule, agent and prompt folders).
"""

from __future__ import annotations

from typing import NamedTuple

from skillforge.models.skill import SKILL_MD


class FrontmatterFormat(NamedTuple):
    reader: str  # who parses the frontmatter, as a message names it
    folders: tuple[str, ...] = ()  # consecutive folders of the path (`.cursor/rules`)
    suffix: str = ".md"  # how the file's name ends


FORMATS = (
    FrontmatterFormat("Claude Code reads it as a subagent (name, description, tools)",
                      ("agents",)),
    FrontmatterFormat("Claude Code reads it as a slash command (description, allowed-tools)",
                      ("commands",)),
    FrontmatterFormat("Claude Code reads it as an output style (name, description)",
                      ("output-styles",)),
    FrontmatterFormat("Kiro reads it as a steering file (inclusion, fileMatchPattern)",
                      ("steering",)),
    FrontmatterFormat("Cursor reads it as a rule (description, globs, alwaysApply)",
                      suffix=".mdc"),
    FrontmatterFormat("Cursor reads it as a rule (description, globs, alwaysApply)",
                      (".cursor", "rules")),
    FrontmatterFormat("GitHub Copilot reads it as an instructions file (applyTo)",
                      suffix=".instructions.md"),
    FrontmatterFormat("GitHub Copilot reads it as a prompt file (mode, tools)",
                      suffix=".prompt.md"),
    FrontmatterFormat("GitHub Copilot reads it as a custom agent (description, tools)",
                      suffix=".agent.md"),
    FrontmatterFormat("GitHub Copilot reads it as a chat mode (description, tools)",
                      suffix=".chatmode.md"),
    FrontmatterFormat("opencode reads it as an agent (description, mode, tools)",
                      (".opencode", "agent")),
    FrontmatterFormat("opencode reads it as a command (description, agent)",
                      (".opencode", "command")),
    FrontmatterFormat("Windsurf reads it as a rule (trigger, globs)", (".windsurf", "rules")),
    FrontmatterFormat("Windsurf reads it as a workflow (description)",
                      (".windsurf", "workflows")),
    FrontmatterFormat("Cline reads it as a rule (paths)", (".clinerules",)),
    FrontmatterFormat("Codex reads it as a custom prompt (description, argument-hint)",
                      (".codex", "prompts")),
)


def frontmatter_reader(path: str) -> str | None:
    """Who parses the frontmatter of the skill file at `path` (skill-relative, `/`
    separators): "the skill loader" for a SKILL.md, what a known harness format's reader
    takes (see `FORMATS`), or None for a file no parser reads that way."""
    *folders, name = path.split("/")
    if name == SKILL_MD:
        return "the skill loader reads it as a skill (name, description)"
    lower = name.lower()
    for fmt in FORMATS:
        if lower.endswith(fmt.suffix) and _has_run(folders, fmt.folders):
            return fmt.reader
    return None


def _has_run(folders: list[str], run: tuple[str, ...]) -> bool:
    """`run` appears among `folders` as consecutive names (an empty run always does)."""
    n = len(run)
    return any(tuple(folders[i:i + n]) == run for i in range(len(folders) - n + 1))
