"""SF403: add a table of contents to a long reference, from its own `##` headings (safe).

The list goes under a `## Contents` heading right after the title and its opening
paragraph (or right after the title when that paragraph is long), so it starts within the
lines SF403 looks at. Each entry links to its section by the anchor GitHub gives it.
"""

from __future__ import annotations

import re

from linters.fixes.registry import fixer
from linters.markdown import MarkdownDoc
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import Skill

# SF403 accepts a contents heading starting within this many lines (efficiency.TOC_WINDOW),
# less a margin for the blank line before the heading.
_WINDOW = 38
_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]", re.UNICODE)


def anchor(heading: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens;
    repeats get -1, -2, ..."""
    plain = re.sub(r"`|\*\*|__|\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    slug = _NOT_IN_ANCHOR.sub("", plain.strip().lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else f"{slug}-{n}"


@fixer("SF403")
def add_contents(skill: Skill, finding: Finding) -> list[Fix]:
    f = skill.file(finding.path or "")
    if f is None or f.text is None:
        return []
    text = f.text
    nl = "\r\n" if "\r\n" in text else "\n"
    doc = MarkdownDoc(text)
    seen: dict[str, int] = {}
    entries = []
    for h in doc.headings:
        target = anchor(h.text, seen)
        if h.level == 2:
            entries.append(f"- [{h.text.strip()}](#{target})")
    if len(entries) < 3:
        return []
    lines = text.split("\n")
    at = _insert_at(lines, doc)
    block = nl.join(["## Contents", "", *entries]) + nl
    # Blank lines around the block, unless it opens the file or one is already there.
    if at > 0 and lines[at - 1].strip():
        block = nl + block
    if at < len(lines) and lines[at].strip():
        block += nl
    edit = TextEdit(path=f.path, start_line=at, start_col=0, end_line=at, end_col=0, new_text=block)
    return [Fix(rule="SF403", title=f"Add a table of contents to {f.path} ({len(entries)} sections)",
                safety="safe", edits=(edit,))]


def _insert_at(lines: list[str], doc: MarkdownDoc) -> int:
    """0-based line the contents block goes before."""
    title = next((h for h in doc.headings if h.level == 1 and h.line <= _WINDOW), None)
    start = 0
    if title is None and lines and lines[0].strip() == "---":
        # A YAML header: the contents go after it.
        close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        start = close + 1 if close is not None and close < _WINDOW else 0
    if title is None:
        return start
    at = title.line  # the line after the title (0-based index of title.line + 1)
    while at < len(lines) and not lines[at].strip():
        at += 1
    # The opening paragraph: up to the next blank line, heading or fence.
    end = at
    while end < len(lines) and lines[end].strip() and not lines[end].lstrip().startswith(("#", "```", "~~~")):
        end += 1
    if end == at or end + 2 > _WINDOW:
        return title.line
    return end + 1 if end < len(lines) and not lines[end].strip() else end
