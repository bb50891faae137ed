"""What a rule is about, and whether a skill has it (rule applicability for the score)."""

from __future__ import annotations

import re
from collections.abc import Callable

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.text.literal_search import any_match, search_at_words
from linters.text.scaffold_text import (
    EVALS_PLACEHOLDERS,
    SKILL_MD_PLACEHOLDERS,
    holds_placeholders,
)

# Parts every skill must have. A rule about them is always applicable; if the part is
# missing or unreadable the rule counts as failed.
REQUIRED_SUBJECTS = {"skill", "skill_md", "frontmatter", "name", "description", "body"}

_ORDERED_ITEM = rx(r"^\s{0,3}\d+[.)]\s+\S")
_WORKFLOW_HEADING = rx(
    r"\b(workflow|steps|procedure|process|how to|quick ?start|usage|instructions)\b",
    re.IGNORECASE,
)
_MCP = rx(r"\bmcp\b|\bmcp__\w+|model context protocol", re.IGNORECASE)
_MCP_STARTS = ("mcp", "model context protocol")  # every match of `_MCP` begins with one


def has_workflow(ctx: LintContext) -> bool:
    """The body lays out steps: a workflow heading, or an ordered list of three or more
    (worked out once per lint pass)."""
    return ctx.memo("has_workflow", lambda: _has_workflow(ctx))


def _has_workflow(ctx: LintContext) -> bool:
    return any_match(_WORKFLOW_HEADING, ctx.heading_texts, ctx.heading_lows) or has_numbered_steps(ctx)


def has_numbered_steps(ctx: LintContext) -> bool:
    """Three or more numbered items in a row in the prose (indented lines may sit between)."""
    return ctx.memo("numbered_steps", lambda: _numbered_run(ctx))


def _numbered_run(ctx: LintContext) -> bool:
    run = 0
    for _no, line in ctx.body.prose_lines():
        if _ORDERED_ITEM.match(line):
            run += 1
            if run >= 3:
                return True
        elif line.strip() and not line.startswith((" ", "\t")):
            run = 0
    return False


def mentions_mcp(ctx: LintContext) -> bool:
    """The body talks about MCP (worked out once per lint pass)."""
    return ctx.memo("mentions_mcp", lambda: _mentions_mcp(ctx.skill.body, ctx.body_low))


def _mentions_mcp(body: str, low: str) -> bool:
    # A cheap substring test first: most skills never mention MCP.
    if "mcp" not in low and "model context protocol" not in low:
        return False
    return search_at_words(_MCP, body, _MCP_STARTS, low) is not None


def has_scaffold_text(ctx: LintContext) -> bool:
    """SKILL.md or evals/evals.json still holds `skillforge new`'s placeholder text. Only
    then does SF319 count: a rule every other skill passes by construction would lift the
    score of any skill failing another reliability rule."""
    if holds_placeholders(ctx.skill_md_text, SKILL_MD_PLACEHOLDERS):
        return True
    evals = ctx.skill.file("evals/evals.json")
    return bool(evals and evals.text and holds_placeholders(evals.text, EVALS_PLACEHOLDERS))


def _has_key(key: str) -> Callable[[LintContext], bool]:
    def present(ctx: LintContext) -> bool:
        fm = ctx.skill.frontmatter
        return ctx.frontmatter_ok and fm is not None and key in fm.data

    return present


_SUBJECTS: dict[str, Callable[[LintContext], bool]] = {
    "skill": lambda ctx: ctx.skill.root.is_dir() or bool(ctx.skill.files),
    "skill_md": lambda ctx: ctx.skill.skill_md is not None and ctx.skill.skill_md.text is not None,
    "frontmatter": lambda ctx: ctx.frontmatter_ok,
    # A rule about the description cannot pass when there is no description to judge.
    "name": lambda ctx: bool((ctx.skill.name or "").strip()),
    "description": lambda ctx: bool((ctx.skill.description or "").strip()),
    "body": lambda ctx: bool(ctx.skill.body.strip()),
    "scripts": lambda ctx: bool(ctx.skill.scripts),
    "references": lambda ctx: bool(ctx.skill.references),
    "evals": lambda ctx: ctx.skill.file("evals/evals.json") is not None,
    "workflow": has_workflow,
    "mcp": mentions_mcp,
    "scaffold_text": has_scaffold_text,
    "code_blocks": lambda ctx: bool(ctx.body.fences),
    "allowed_tools": _has_key("allowed-tools"),
    "compatibility": _has_key("compatibility"),
    "metadata": _has_key("metadata"),
}

SUBJECTS = frozenset(_SUBJECTS)


def subject_present(ctx: LintContext, subject: str) -> bool:
    """Whether the skill has `subject`; worked out once per lint pass (the score asks per rule)."""
    try:
        test = _SUBJECTS[subject]
    except KeyError:
        raise KeyError(f"rule subject {subject!r} is not one of {sorted(_SUBJECTS)}") from None
    return ctx.memo(("subject", subject), lambda: test(ctx))
