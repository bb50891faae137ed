"""Unfilled scaffold placeholders (SF319): `skillforge new`'s template text left in a skill.

The scaffold (skillforge/authoring/scaffold.py) is built to lint clean once filled in: it has
a title, a "When to use" section, a workflow with a verification step, an example and
limitations. Untouched, it therefore scored 100 (A) while every sentence in it was an
instruction to the author (issue 37). Its placeholder sentences, each with what belongs in
its place, are in linters/text/scaffold_text.py. The rule's subject (`scaffold_text`) is
present only in a skill that holds one, so the rule weighs in no other skill's score.
"""

from __future__ import annotations

from collections.abc import Iterator

from linters.context import LintContext
from linters.registry import check
from linters.text.compiled_regex import rx
from linters.text.scaffold_text import (
    EVALS_PLACEHOLDERS,
    SKILL_MD_PLACEHOLDERS,
    placeholder_lines,
)
from skillforge.models.findings import Finding

EVALS_PATH = "evals/evals.json"
_EXCERPT = 60
_JSON_MEMBER = rx(r'\s*"(\w+)"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _excerpt(text: str) -> str:
    """The placeholder as the author sees it: no list marker, cut at a word past 60."""
    text = text.strip().lstrip("-*0123456789. ").strip()
    if len(text) <= _EXCERPT:
        return text
    return text[:_EXCERPT].rsplit(" ", 1)[0].rstrip(",;:") + " …"


@check("SF319")
def unfilled_placeholders(ctx: LintContext) -> Iterator[Finding]:
    """`skillforge new`'s placeholder sentences, one finding per line that still holds one."""
    fm_end = ctx.skill.body_start_line
    for number, line, hint in placeholder_lines(ctx.skill_md_text, SKILL_MD_PLACEHOLDERS):
        if number >= fm_end and ctx.body.is_code(number):
            continue  # quoted in a code block: shown, not meant to be filled in
        key, _sep, value = line.partition(":")
        shown = (f"The description \"{_excerpt(value)}\"" if number < fm_end
                 and key.strip() == "description" else f"\"{_excerpt(line)}\"")
        yield ctx.finding(
            "SF319",
            f"{shown} is `skillforge new`'s placeholder, not yet filled in; replace it "
            f"with {hint}.",
            line=number,
        )
    evals = ctx.skill.file(EVALS_PATH)
    if evals is None or evals.text is None:
        return
    for number, line, hint in placeholder_lines(evals.text, EVALS_PLACEHOLDERS):
        member = _JSON_MEMBER.match(line)
        shown = (f"The `{member[1]}` \"{_excerpt(member[2])}\"" if member
                 else f"\"{_excerpt(line)}\"")
        yield ctx.finding(
            "SF319",
            f"{shown} is `skillforge new`'s placeholder, not yet filled in; replace it "
            f"with {hint}.",
            path=EVALS_PATH,
            line=number,
        )
