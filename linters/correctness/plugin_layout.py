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

A skill kept anywhere in a repository whose README or install script installs it only into
Claude Code (`linters.text.install_places`: `git clone URL .claude`, a copy or link into
`~/.claude/skills/`, a Claude Code plugin install, and no other harness's folder or installer
named; or, where a sync script maps the repository's folders to places, the skill's own
folder's line naming only Claude Code's, holdout31) is read by Claude Code the same way
(issue 36, holdout21):

- SF106: a missing `name` is a warning naming that document.
- SF102: a missing frontmatter is a warning, naming the paragraph Claude Code takes as the
  description (holdout30). So it is for a Claude Code project skill or plugin skill whose
  repository names no other harness's place. Until holdout30 only a title naming the skill by
  its folder (`# /infosec-scan — Guided Scan`, `# Skill: content-writer`) softened it, and a
  bare title (`# Content Writer Skill`) opening an introduction stayed an error; but the
  readers of holdout15, holdout18, holdout24, holdout27 and holdout30 (13 skills of five
  repositories) read such a skill as policy: it loads in the one product it is made for,
  named by its folder and described by its first paragraph, and only the Agent Skills spec
  and other harnesses require the fields. A SKILL.md with no paragraph for Claude Code to take
  (headings, code and lists only) has no description anywhere and stays an error, as it does
  with `--target claude-ai`. Nor has one whose first paragraph only names it (holdout32: a
  lone code span under a `## Skill Name` heading, `_only_a_name`): Claude Code documents
  that it takes "the first paragraph" as the description, and that paragraph says nothing of
  what the skill does or when to use it, so the error stays and says why.

A SKILL.md a Claude Code plugin keeps outside the skills folders its manifest names is no
skill of it (`outside_plugin_skills`, holdout27): SF106 and SF102 are warnings saying so. So
is SF102 for the documentation of a plugin of the project's own "skills" system
(`project_plugin`, holdout32).
"""

from __future__ import annotations

import re
from pathlib import Path

from linters.context import LintContext
from linters.correctness.outside_plugin_skills import outside_reason
from linters.correctness.project_plugin import project_plugin_reason
from linters.text.compiled_regex import rx
from linters.text.install_places import claude_code_install, install_reading
from linters.text.markdown import MarkdownDoc
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
    a skill of a Claude Code plugin (`in_claude_code_plugin`) or one its repository installs
    only into Claude Code (`claude_code_install`), which Claude Code names after its folder,
    unless the target is claude.ai's upload, which requires `name`."""
    if ctx.config.target != "claude-ai":
        if in_claude_code_plugin(ctx.skill.root):
            home = "This skill is part of a Claude Code plugin"
        elif (outside := outside_reason(ctx)) is not None:
            return ctx.finding(
                "SF106",
                f"The frontmatter has no `name`; {outside}. If another tool installs it as a "
                f"skill, add `name: {proposal}`.",
                line=1, severity=Severity.warning,
            )
        elif (installed := claude_code_install(ctx.skill.root)) is not None:
            home = ("This skill's repository installs it only into Claude Code "
                    f"({installed.where()})")
        else:
            home = None
        if home is not None:
            return ctx.finding(
                "SF106",
                f"The frontmatter has no `name`. {home}, and Claude Code takes the folder's "
                "name; other harnesses and strict validators (the Agent Skills spec) require "
                f"`name`: add `name: {proposal}`.",
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


# A line that opens no paragraph: a title, a list item, a table row, a quotation, an HTML
# comment or tag, a rule (code is left out by MarkdownDoc.prose_lines).
_NOT_PROSE = rx(r"^\s{0,3}(?:#{1,6}\s|#{1,6}$|```|~~~|[-*+]\s|\d+[.)]\s|\||>|<|(?:[-*_]\s*){3,}$)")


def _first_paragraph(doc: MarkdownDoc) -> tuple[int, str] | None:
    """(line, text) of the content's first paragraph of prose, which Claude Code takes as the
    description of a skill without one; None when the content has none (headings, lists, tables
    and code only). A code block ends a paragraph."""
    words: list[str] = []
    start = prev = 0
    for no, line in doc.prose_lines():
        prose = bool(line.strip()) and not _NOT_PROSE.match(line)
        if words and (no != prev + 1 or not prose):
            break
        if prose:
            start = start if words else no
            words.append(line.strip())
        prev = no
    return (start, " ".join(words)) if words else None


# A paragraph that only names the skill: one code span (`` `kit-scan` ``) or one word with no
# stop after it (`kit-scan`, `**scan**`), or, with no stop, the paragraph right under a heading
# that labels a name (`## Skill Name`, `## ID`). A sentence ends with a stop; a name does not.
_ONE_TOKEN = rx(r"^(?:`[^`]+`|[*_]*[^\s`*_]+[*_]*)$")
_NAME_LABEL = rx(r"^[\W_]*(?:skill\s+|command\s+)?(?:name|id|identifier|slug)[\W_]*$",
                 re.IGNORECASE)


def _only_a_name(doc: MarkdownDoc, line: int, words: str) -> bool:
    """The first paragraph (`_first_paragraph`) at `line` names the skill and says nothing of
    what it does (see `_NAME_LABEL`): Claude Code takes that name as the description."""
    if words.endswith((".", "!", "?", "。")):
        return False
    if _ONE_TOKEN.match(words):
        return True
    at = doc.last_heading(line)
    if at < 0 or not _NAME_LABEL.match(doc.headings[at].text):
        return False
    above = doc.headings[at].line
    return all(not doc.lines[n - doc.first_line].strip() for n in range(above + 1, line))


# The first line a title that names the skill as a command (`# /scan — Guided Scan`) or with
# a label (`# Skill: scan`, `# SKILL — scan`), then at most a tagline after a dash or colon.
_NAMED_TITLE = rx(
    r"^\s{0,3}#{1,6}\s+[*_`]*(?:/|skill(?:\s*[:：]\s*|\s+[—–-]\s+)/?)[*_`]*"
    r"(?P<name>[\w.:-]+?)[*_`]*(?:\s+[—–:-]\s+.*|\s*[:：]\s+.*)?\s*$",
    re.IGNORECASE,
)


def _named_title(text: str, folder: str) -> str | None:
    """The first line of `text`, when it is a title naming the skill `folder` as its command
    or with a `Skill:` label (see `_NAMED_TITLE`), or None."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    m = _NAMED_TITLE.match(first)
    return first.strip() if m and m.group("name") == folder else None


def _read_only_by_claude_code(root: Path) -> str | None:
    """Why only Claude Code reads the skill at `root`, as a sentence ("This skill is a Claude
    Code project skill ..."): its home (`claude_code_home`) when its repository's install
    documents name no other harness, or the document that installs it only into Claude Code
    (`claude_code_install`); None otherwise."""
    installed, other_harness = install_reading(root)
    home = claude_code_home(root)
    if home is not None and not other_harness:
        return f"This skill is {home}"
    if installed is not None:
        return f"This skill's repository installs it only into Claude Code ({installed.where()})"
    return None


def missing_frontmatter(ctx: LintContext) -> Finding:
    """SF102: SKILL.md has no frontmatter. An error by the Agent Skills spec; a warning where
    Claude Code reads the skill (`claude_code_home`) and its content opens with a name and
    description table, which Claude Code takes as its description, or where Claude Code alone
    reads it (`_read_only_by_claude_code`) and its content has a paragraph Claude Code takes
    as the description (`_first_paragraph`, unless it only names the skill: `_only_a_name`)
    or a title naming the skill by its folder (`_named_title`); or where the folder is a
    plugin of the project's own skills system (`project_plugin`); unless the target is
    claude.ai's upload."""
    text = ctx.skill_md_text
    table = _field_table_line(text)
    claude_ai = ctx.config.target == "claude-ai"
    home = claude_code_home(ctx.skill.root) if not claude_ai else None
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
    folder = ctx.skill.root.resolve().name
    title = _named_title(text, folder) if not claude_ai and table is None else None
    paragraph = (_first_paragraph(ctx.body) if not claude_ai and table is None and title is None
                 else None)
    named = paragraph if paragraph is not None and _only_a_name(ctx.body, *paragraph) else None
    paragraph = None if named is not None else paragraph
    read_by = (_read_only_by_claude_code(ctx.skill.root)
               if paragraph is not None or title is not None else None)
    if read_by is not None and title is not None:
        return ctx.finding(
            "SF102",
            f"SKILL.md has no YAML frontmatter; its title (`{title[:60]}`) names the skill "
            f"`{folder}`, its folder's name. {read_by}, and Claude Code takes the folder's "
            "name as its name and the first paragraph of the content as its description; "
            "other harnesses and strict validators (the Agent Skills spec) need frontmatter: "
            f"start the file with a `---` block holding `name: {folder}` and a `description:` "
            "of what the skill does and when to use it.",
            line=1, severity=Severity.warning,
        )
    if read_by is not None and paragraph is not None:
        line, words = paragraph
        shown = words if len(words) <= 80 else words[:77].rstrip() + "..."
        return ctx.finding(
            "SF102",
            f"SKILL.md has no YAML frontmatter. {read_by}, and Claude Code names the skill "
            f"`{folder}` after its folder and describes it by its first paragraph (line {line}: "
            f"\"{shown}\"), which decides when the skill is used; other harnesses and strict "
            "validators (the Agent Skills spec) need frontmatter: start the file with a `---` "
            f"block holding `name: {folder}` and a `description:` of what the skill does and "
            "when to use it.",
            line=1, severity=Severity.warning,
        )
    hint = (f" The table on line {table} looks meant as the frontmatter: move its name and "
            "description there." if table else "")
    if named is not None:  # holdout32
        name = named[1] if len(named[1]) <= 60 else named[1][:57].rstrip() + "..."
        hint += (f" Its first paragraph (line {named[0]}: \"{name}\") only names the "
                 "skill, and Claude Code takes the first paragraph as the description of a skill "
                 "without one: there is no description to route on.")
    if (plugin := project_plugin_reason(ctx)) is not None:  # holdout32
        return ctx.finding(
            "SF102",
            f"SKILL.md has no YAML frontmatter; {plugin}. If agents are to load it as a skill "
            "too, start the file with a `---` line, then the manifest's `name:` and "
            f"`description:`, then a closing `---`.{hint}",
            line=1, severity=Severity.warning,
        )
    outside = outside_reason(ctx)
    if outside is not None:  # a plugin's non-skill file: nothing reads its frontmatter
        return ctx.finding(
            "SF102",
            f"SKILL.md has no YAML frontmatter; {outside}. If another tool installs it as a "
            "skill, start the file with a `---` line, then `name:` and `description:`, then a "
            f"closing `---`.{hint}",
            line=1, severity=Severity.warning,
        )
    return ctx.finding(
        "SF102",
        "SKILL.md has no YAML frontmatter; start the file with a `---` line, then `name:` and "
        f"`description:`, then a closing `---`.{hint}",
        line=1,
    )
