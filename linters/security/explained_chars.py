"""SF502 in an example whose text names the trick (issue 36).

A catalogue of attacks shows the bidi trick as it is: a payload in a fenced block, or a
quoted string, with a right-to-left isolate inside, and beside it a comment or sentence that
says what such characters do ("The bidi override chars make humans see only the first
line"). The reader is told they are there, so the text hides nothing from the user; they
are still invisible when rendered, so the finding stays a warning that asks for escapes.

The explanation must be near the characters: in the same block within a few lines, in the
line that introduces the block or the first line after it, or (for a quoted string in prose)
on the line or the one before or after. Hidden characters in ordinary prose, or in a block
that nowhere names them, keep their severity: an instruction that mentions the trick
elsewhere in the file is not an example of it.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import quoted
from linters.security.block_frame import fence_of, lead_in
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# What the characters are called when a text explains them: bidi or direction controls by
# name or code point, zero-width and tag characters, invisible Unicode, Trojan Source.
_NAMES_TRICK = rx(
    r"\bbidi\b|\bbi-?directional\b|"
    r"\b(?:right|left)[- ]to[- ](?:left|right)\s+(?:override|isolate|embedding|mark)s?\b|"
    r"\b(?:rtl|ltr|rlo|lro|rli|lri)\s+(?:override|isolate|embedding|mark|char)|"
    r"\bdirection(?:al(?:ity)?)?\s+(?:override|control|formatting|isolate|mark)s?\b|"
    r"\bzero[- ]width\b|\binvisible\s+(?:unicode|characters?|chars?|text|glyphs?)\b|"
    r"\bunicode\s+(?:tricks?|smuggling|tags?|tag\s+characters?|steganography)\b|"
    r"\btag\s+characters?\b|\btrojan[- ]source\b|"
    r"\bU\+(?:200[B-F]|202[A-E]|206[0-9]|FEFF|E00[0-7][0-9A-F])\b|"
    r"\\u(?:200[b-f]|202[a-e]|206[0-9]|feff)\b",
    re.IGNORECASE,
)
# How far into its block a comment may stand from the characters it explains.
_REACH = 12


def explained_example(st: SecurityText, line: Line, col: int) -> str | None:
    """The words naming the trick when the invisible characters at (line, 0-based `col`)
    sit in an example that says what they are: a fenced block, or a quoted string in prose,
    with the explanation beside it."""
    if not st.is_markdown or st.doc is None:
        return None
    if st.in_code(line):
        texts = _around_block(st, line)
    elif quoted(line, col, col + 1):
        texts = [line.text]
        texts += [n.text for n in (st.neighbour(line, -1), st.neighbour(line, 1)) if n]
    else:
        return None
    for text in texts:
        m = _NAMES_TRICK.search(text)
        if m:
            return m.group(0)
    return None


def _around_block(st: SecurityText, line: Line) -> list[str]:
    """The lines of `line`'s fenced block within reach, its lead-in and the first prose line
    after it."""
    fence = fence_of(st, line)
    doc = st.doc
    if fence is None or doc is None:
        return []
    last = fence.end - 1 if fence.end is not None else doc.first_line + len(doc.lines) - 1
    lo, hi = max(fence.start + 1, line.no - _REACH), min(last, line.no + _REACH)
    texts = [doc.lines[no - doc.first_line] for no in range(lo, hi + 1)]
    lead = lead_in(st, fence)
    if lead:
        texts.append(lead)
    if fence.end is not None:
        for no in range(fence.end + 1, min(fence.end + 4, doc.first_line + len(doc.lines))):
            text = doc.lines[no - doc.first_line].strip()
            if text:
                if not text.startswith(("#", "```", "~~~")):
                    texts.append(text)
                break
    return texts
