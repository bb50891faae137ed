"""Where Markdown code is, read strictly enough that a fix can promise not to touch it.

A fix's edit is placed by line and column in `text.split("\\n")`, so a text whose other line
breaks (a lone `\\r`, form feed, U+2028 ...) would make a reader's line numbers disagree is
left alone (`plain_line_breaks`). Code spans follow CommonMark: a run of backticks opens one
that the next run of the same length closes, across the lines of a paragraph; a run that is
never closed is literal text.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
# Breaks str.splitlines() honours besides "\n" and "\r\n".
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def plain_line_breaks(text: str) -> bool:
    """Whether `text` breaks lines only with "\\n" or "\\r\\n"."""
    return _OTHER_BREAKS.search(text) is None


def code_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of every code span in `text` (one paragraph), backticks included."""
    runs = [m.span() for m in _BACKTICKS.finditer(text)]
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        a, b = runs[i]
        if _escaped(text, a):
            a += 1  # `\`` is a literal backtick; the rest of its run may still open a span
        close = next((k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == b - a),
                     None) if a < b else None
        if close is None:
            i += 1
            continue
        spans.append((a, runs[close][1]))
        i = close + 1
    return spans


def _escaped(text: str, at: int) -> bool:
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def paragraph_at(lines: list[str], idx: int) -> tuple[int, int]:
    """[first, last) line indexes of the run of non-blank lines holding line `idx`."""
    first = idx
    while first > 0 and lines[first - 1].strip():
        first -= 1
    last = idx + 1
    while last < len(lines) and lines[last].strip():
        last += 1
    return first, last
