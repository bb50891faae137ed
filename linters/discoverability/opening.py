"""The body's opening (SF208): a title or a short overview among its first blocks tells
the agent where it is before the details start."""

from __future__ import annotations

from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding

# A word as the description rules count them: "e.g." and "C++" are one word each.
_WORD = rx(r"[^\W_][\w'’.+#/-]*")
_HTML_TAG_LINE = rx(r"^\s*</?[A-Za-z][\w:-]*(?:\s[^>]*)?/?>\s*$")
_BLOCK_START = rx(r"^\s*(?:[-*+]\s|\d+[.)]\s|\||```|~~~|<)")
OVERVIEW_WORDS = 8
# A title or overview counts when it is among the body's first few blocks.
OPENING_BLOCKS = 3


@check("SF208")
def title_or_overview(ctx: LintContext) -> Iterator[Finding]:
    """SF208: none of the body's first blocks is a heading or an overview paragraph."""
    blocks = _opening_blocks(ctx, OPENING_BLOCKS)
    if not blocks:
        return  # empty body: SF119's business
    for kind, words, _line in blocks:
        if kind == "heading" or (kind == "prose" and words >= OVERVIEW_WORDS):
            return
    yield ctx.finding(
        "SF208",
        "The body starts without a title or an overview; open with a `# Title` heading and a "
        "sentence or two on what the skill does, so the agent knows where it is.",
        line=blocks[0][2],
    )


def _opening_blocks(ctx: LintContext, limit: int) -> list[tuple[str, int, int]]:
    """The body's first blocks as (heading | prose | other, word count, first line)."""
    doc = ctx.body
    skip = {c.line + i for c in doc.comments for i in range(c.text.count("\n") + 1)}
    headings = {h.line for h in doc.headings}
    blocks: list[tuple[str, int, int]] = []
    para: list[str] = []
    para_line = 0
    in_other = False  # inside a list, table or code block that is already counted
    for idx, raw in enumerate(doc.lines):
        no = idx + doc.first_line
        stripped = raw.strip()
        code = doc.is_code(no)
        if para and (not stripped or no in headings or code):
            blocks.append(("prose", len(_WORD.findall(" ".join(para))), para_line))
            para = []
        if len(blocks) >= limit:
            return blocks
        if not stripped and not code:
            in_other = False
            continue
        if no in skip or _HTML_TAG_LINE.match(raw):
            continue
        if no in headings:
            blocks.append(("heading", 0, no))
            in_other = False
        elif para:
            para.append(stripped)
        elif code or _BLOCK_START.match(raw):
            if not in_other:
                blocks.append(("other", 0, no))
                in_other = True
        elif not in_other:  # lazy continuation lines of a list item stay in the list
            para, para_line = [stripped], no
    if para:
        blocks.append(("prose", len(_WORD.findall(" ".join(para))), para_line))
    return blocks[:limit]
