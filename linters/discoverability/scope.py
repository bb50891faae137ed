"""When not to use the skill (SF209): a boundary in the body or the description keeps an
agent from loading the skill for nearby requests it does not handle."""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.discoverability.description import description_text
from linters.text.literal_search import any_match, search_at_words
from linters.registry import check
from skillforge.models.findings import Finding

# Phrases that set the skill's boundary, wherever they appear. Generic advice inside a
# step ("never use `rm -rf`", "use RandomTiler instead", "skip this step", "unless") is not a
# boundary and does not count. Matched against lowercased text by patterns that start with a
# literal, so `re` can skip ahead quickly over a long body (an alternation of phrases would
# make it try every position: each phrase is a pattern of its own).
_SCOPE_PATTERNS = tuple(
    rx(p)
    for p in (
        r"when\s+not\s+to\b",
        r"out\s+of\s+scope",
        r"non-?goal",
        r"not\s+covered",
        r"wrong\s+(?:tool|skill)",
        r"skip\s+this\s+skill",
        r"better\s+(?:served|handled)\s+by",
        (
            r"n(?:ot|['’]t|ever)\s+(?:use|invoke|load|trigger|apply|activate)\s+"
            r"(?:this|it\b|the\s+skill|when|whenever|for|if|on\s|in\s+(?:cases|situations))"
        ),
        (
            r"n(?:ot|['’]t)\s+(?:have|need)\s+to\s+use\s+(?:it|this(?:\s+skill)?|the\s+skill)"
            r"(?=\s*[.,;:)]|$)"
        ),
        (
            r"not\s+(?:for|intended\s+for|meant\s+for|designed\s+for|suitable\s+for"
            r"|suited\s+(?:for|to)|appropriate\s+for|a\s+(?:fit|replacement|substitute)\s+for)\b"
        ),
        r"outside\s+(?:the|its|this)\s+(?:skill['’]s\s+)?scope\b",
    )
)
# An "Exceptions:" label; the line is searched only when the word is there at all.
_EXCEPTIONS = rx(r"(?m:^[\s>*_-]*exceptions?\b[^\n]{0,40}?:)")
_DOES_NOT_COVER = rx(r"does(?:\s+not|n['’]t)\s+(?:cover|handle|support|apply)\b")
_NOT_A_NAME = r"(?!(?:this|that|the|a|an|any|each|every|which|my|your|our|its|their|it)\b)"
# Another skill named for part of the work: "use the `gget` skill for quick lookups", "for
# diagrams, use the X skill", "use X skill instead". A bare hand-over to the next skill in a
# chain ("Use superpowers:finishing-a-branch") says nothing about scope. Only lines that
# contain "use" are searched.
_SKILL_NAME = r"(?:the\s+)?[`*]*" + _NOT_A_NAME + r"[\w.-]+"
_SKILL_POINTER = rx(
    "|".join(
        (
            r"(?:use|try|prefer|see|switch\s+to|invoke|load)\s+"
            + _SKILL_NAME
            + r"(?::[\w.-]+[`*]*(?:\s+skill)?|[`*]*\s+skill)\b"
            + r"[^.\n]{0,60}?\b(?:for|when|if|instead)\b",
            r"for\s[^.\n]{3,80}?,\s*use\s+" + _SKILL_NAME + r"(?::[\w.-]+|[`*]*\s+skill)",
            r"instead\s*,?\s+use\s+(?:the\s+)?[`*]*[\w:.-]+[`*]*\s+skill\b",
        )
    )
)


_POINTER_STARTS = ("use", "try", "prefer", "see", "switch", "invoke", "load", "for", "instead")


def says_when_not_to_use(text: str, low: str | None = None) -> bool:
    """True when `text` sets a boundary: "when not to use", "not for", "use the X skill for".
    `low`: text.lower(), when at hand."""
    low = text.lower() if low is None else low
    if any(rx.search(low) for rx in _SCOPE_PATTERNS):
        return True
    if "exception" in low and _EXCEPTIONS.search(low):
        return True
    for m in _DOES_NOT_COVER.finditer(low):
        if low[max(0, m.start() - 7) : m.start()].endswith(("skill ", "it ")):
            return True
    if "use" in low:
        lines = [ln for ln in low.splitlines() if "use" in ln]
        return search_at_words(_SKILL_POINTER, "\n".join(lines), _POINTER_STARTS) is not None
    return False


# In the description, which is routing text, any pointer elsewhere is a boundary: "For
# larger-than-RAM data use dask", "use the semgrep skill instead", "Skip only when ...".
# (Each of these is two regexes: one alternative anchored at a sentence or line start,
# mixed with the word alternatives, makes `re` try every position, ~2.5 times slower.)
_DESCRIPTION_SCOPE = (
    rx(r"\binstead\b|\bskip\b|\bunless\b|\bnot\s+for\b", re.IGNORECASE),
    rx(r"(?:^|[.;]\s*)for\s[^.;]{3,120}?,?\s+use\s", re.IGNORECASE),
)
_SCOPE_HEADING = (
    rx(
        r"\bwhen\s+not\b|\bnot\s+to\s+use\b|\bout\s+of\s+scope\b|\bnon-?goals?\b"
        r"|\brelated\s+skills\b",
        re.IGNORECASE,
    ),
    rx(
        r"^\W*(?:scope|boundaries|alternatives)(?:\s+(?:and|&)\s+\w+|\s+restrictions)?\W*$",
        re.IGNORECASE,
    ),
)


def _any_search(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
    return any(rx.search(text) for rx in patterns)


@check("SF209")
def when_not_to_use(ctx: LintContext) -> Iterator[Finding]:
    """SF209: nothing in the body or description says when the skill does not apply."""
    if not ctx.skill.body.strip():
        return
    desc = description_text(ctx) or ""
    if (
        _any_search(_DESCRIPTION_SCOPE, desc)
        or says_when_not_to_use(desc)
        or any(any_match(rx, ctx.heading_texts, ctx.heading_lows) for rx in _SCOPE_HEADING)
        or says_when_not_to_use(ctx.body.prose, ctx.body.prose_low)
    ):
        return
    yield ctx.finding(
        "SF209",
        'Nothing says when not to use this skill; add a short "When not to use" note naming '
        "the nearby requests it does not handle and what to use instead.",
        line=ctx.skill.body_start_line,
    )
