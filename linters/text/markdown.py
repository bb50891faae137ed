"""A small, fast Markdown reader for linting: fences, headings, links, inline code, comments.

Not a renderer. It finds the structures the rules ask about, with 1-based line numbers in
the original file, in one pass over the lines. Every reference file of a skill is read, so
speed matters: the lines that cannot open or close anything (most prose, list items and
lines inside a fence) are dealt with by a membership test or two, and the regexes run only
on the rest.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from linters.text.compiled_regex import rx

_FENCE = rx(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
# A fence may open a list item's content: "2. ```sh" or "- ```python".
_LIST_MARKER = rx(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
# An ATX heading, the definition `_atx_heading` implements by string operations.
_HEADING = rx(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_SETEXT = rx(r"^ {0,3}(=+|-+)\s*$")
# A target in quotes is code, not a link: `global[r]("child_process")` in a payload.
_LINK = rx(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?((?![\"'])[^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
_REF_DEF = rx(r"^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_INLINE_CODE = rx(r"(`+)(.+?)\1")
_COMMENT_OPEN = "<!--"
_COMMENT_CLOSE = "-->"
# First characters of a line that may start a block: indentation, a fence, a heading, a
# setext underline or a list item (which may hold a fence). Other lines are plain prose.
_BLOCK_FIRST = frozenset(" \t`~#=-*+0123456789")
_ITEM_FIRST = frozenset("-*+0123456789")


# The parts a document is made of are NamedTuples: immutable like frozen dataclasses, and
# several times cheaper to create (a body has dozens of spans and headings).


class Fence(NamedTuple):
    start: int  # line of the opening fence (1-based, in the file)
    end: int | None  # line of the closing fence; None when never closed
    lang: str
    body: tuple[str, ...]

    @property
    def length(self) -> int:
        return len(self.body)


class Heading(NamedTuple):
    line: int
    level: int
    text: str


class Link(NamedTuple):
    line: int
    column: int
    target: str
    text: str
    image: bool = False


class Span(NamedTuple):
    line: int
    column: int
    text: str


@dataclass
class MarkdownDoc:
    """`text` parsed once; `first_line` is the file line number of text's first line."""

    text: str
    first_line: int = 1
    lines: list[str] = field(init=False)
    fences: list[Fence] = field(init=False, default_factory=list)
    headings: list[Heading] = field(init=False, default_factory=list)
    comments: list[Span] = field(init=False, default_factory=list)
    # Fenced and indented code lines as [start, end) runs of 0-based indexes, in order.
    _code_runs: list[tuple[int, int]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()
        self._scan()

    def _scan(self) -> None:
        # One pass, cheapest test first: most lines are plain prose (or plain code inside a
        # fence) and are dealt with by one membership test, touching no regex.
        # (opening line number, marker, language, index of the first body line, indent)
        fence_open: tuple[int, str, str, int, int] | None = None
        fence_char = ""
        comment_start: tuple[int, int, list[str]] | None = None
        prev_prose = ""
        runs = self._code_runs
        first_line = self.first_line
        for idx, line in enumerate(self.lines):
            if fence_open is not None:
                if fence_char not in line:
                    continue  # cannot close the fence: part of its body
                no = idx + first_line
                start, marker, lang, body_at, indent = fence_open
                stripped = line.strip()
                if (
                    len(line) - len(line.lstrip(" ")) <= indent + 3
                    and stripped[:1] == marker[0]
                    and len(stripped) >= len(marker)
                    and stripped == marker[0] * len(stripped)
                ):
                    self.fences.append(Fence(start, no, lang, tuple(self.lines[body_at:idx])))
                    runs.append((start - first_line, idx + 1))
                    fence_open = None
                continue
            if comment_start is None and "<!--" not in line:
                c = line[:1]
                if c not in _BLOCK_FIRST or (
                    c in _ITEM_FIRST
                    and "```" not in line
                    and "~~~" not in line
                    and not (c == "-" and line.rstrip()[-1:] == "-")
                ):
                    prev_prose = line  # prose or a list item that opens nothing
                    continue
                if c == "#":
                    # A heading (or a line that only looks like one): nothing else applies.
                    h = _atx_heading(line)
                    if h is not None:
                        self.headings.append(Heading(idx + first_line, h[0], h[1].strip()))
                    prev_prose = line
                    continue
            no = idx + first_line
            if comment_start is not None:
                start, col, buf = comment_start
                end = line.find(_COMMENT_CLOSE)
                if end >= 0:
                    buf.append(line[:end])
                    self.comments.append(Span(start, col, "\n".join(buf)))
                    comment_start = None
                else:
                    buf.append(line)
                continue
            lead = line.lstrip(" ")
            first = lead[:1]
            opener, indent = line, len(line) - len(lead)
            if first and first in "-*+0123456789" and ("```" in line or "~~~" in line):
                item = _LIST_MARKER.match(line)
                if item:
                    # Judge the fence as if the list marker were indentation.
                    opener, indent = line[item.end() :], len(item.group(0))
                    lead = opener
            if lead[:1] in ("`", "~") and len(opener) - len(lead) <= 3:
                m = _FENCE.match(opener)
                if m:
                    fence_open = (no, m.group(2), m.group(3).lower(), idx + 1, indent)
                    fence_char = m.group(2)[0]
                    prev_prose = ""
                    continue
            if (
                (line.startswith("    ") or line[:1] == "\t")
                and lead.strip()
                and not prev_prose.strip()
            ):
                # Indented code block (only after a blank line, as CommonMark says).
                if runs and runs[-1][1] == idx:
                    runs[-1] = (runs[-1][0], idx + 1)
                else:
                    runs.append((idx, idx + 1))
                continue
            if "<!--" in line:
                pos = 0
                while True:
                    s = line.find(_COMMENT_OPEN, pos)
                    if s < 0:
                        break
                    e = line.find(_COMMENT_CLOSE, s + 4)
                    if e >= 0:
                        self.comments.append(Span(no, s + 1, line[s + 4 : e]))
                        pos = e + 3
                    else:
                        comment_start = (no, s + 1, [line[s + 4 :]])
                        break
            if first == "#":
                h = _atx_heading(line)
                if h is not None:
                    self.headings.append(Heading(no, h[0], h[1].strip()))
            elif (
                (first == "=" or first == "-")
                and line.rstrip()[-1:] == first  # an underline ends as it starts
                and _SETEXT.match(line)
            ):
                prev = prev_prose.strip()
                if prev and not prev_prose.startswith(("-", "*", "|", ">")):
                    level = 1 if first == "=" else 2
                    self.headings.append(Heading(no - 1, level, prev))
            prev_prose = line
        if fence_open is not None:
            start, _marker, lang, body_at, _indent = fence_open
            self.fences.append(Fence(start, None, lang, tuple(self.lines[body_at:])))
            runs.append((start - first_line, len(self.lines)))
        if comment_start is not None:
            start, col, buf = comment_start
            self.comments.append(Span(start, col, "\n".join(buf)))

    def last_heading(self, line_no: int) -> int:
        """Index in `headings` of the last heading at or above `line_no` (-1: none)."""
        return bisect.bisect_right(self._heading_lines, line_no) - 1

    @cached_property
    def _heading_lines(self) -> list[int]:
        return [h.line for h in self.headings]  # in order: headings are read top down

    @cached_property
    def memo(self) -> dict:
        """Answers rules derive from this document and share (keyed by the rule's module)."""
        return {}

    def is_code(self, line_no: int) -> bool:
        return line_no in self._code_lines

    @cached_property
    def _code_lines(self) -> set[int]:
        # Made on the first question: many documents are read for their links alone.
        first = self.first_line
        return {first + i for start, end in self._code_runs for i in range(start, end)}

    def prose_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of every line outside fenced or indented code."""
        return self._prose_lines

    @cached_property
    def _prose_lines(self) -> list[tuple[int, str]]:
        # Slices between the code runs: no per-line test.
        lines, first = self.lines, self.first_line
        out: list[tuple[int, str]] = []
        pos = 0
        for start, end in self._code_runs:
            out.extend(zip(range(pos + first, start + first), lines[pos:start]))
            pos = end
        out.extend(zip(range(pos + first, len(lines) + first), lines[pos:]))
        return out

    @cached_property
    def prose(self) -> str:
        return "\n".join([ln for _, ln in self.prose_lines()])

    @cached_property
    def prose_low(self) -> str:
        """`prose` lower-cased, shared by the rules that look for words in it."""
        return self.prose.lower()

    @cached_property
    def links(self) -> list[Link]:
        out: list[Link] = []
        # Both kinds of link need a "[" on the line: pick those lines in one C-speed pass.
        for no, line in [pl for pl in self.prose_lines() if "[" in pl[1]]:
            if "](" in line:
                for m in _LINK.finditer(_strip_inline_code(line)):
                    out.append(
                        Link(no, m.start() + 1, m.group(2), m.group(1), line[m.start()] == "!")
                    )
            if line.lstrip().startswith("["):
                r = _REF_DEF.match(line)
                if r:
                    out.append(Link(no, line.index("[") + 1, r.group(2), r.group(1)))
        return out

    @cached_property
    def inline_code(self) -> list[Span]:
        out: list[Span] = []
        for no, line in [pl for pl in self.prose_lines() if "`" in pl[1]]:
            out += [Span(no, m.start() + 1, m.group(2)) for m in _INLINE_CODE.finditer(line)]
        return out

    def paragraphs(self) -> list[tuple[int, str]]:
        """Prose paragraphs (blank-line separated, outside code) as (first line, text)."""
        out: list[tuple[int, str]] = []
        buf: list[str] = []
        start = 0
        for no, line in self.prose_lines():
            if line.strip():
                if not buf:
                    start = no
                buf.append(line.strip())
            elif buf:
                out.append((start, " ".join(buf)))
                buf = []
        if buf:
            out.append((start, " ".join(buf)))
        return out


def _atx_heading(line: str) -> tuple[int, str] | None:
    """(level, text) of a `## Title ##` line, as `_HEADING` would match it, without the regex
    (whose lazy group makes it the slowest part of reading a heading)."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if not 1 <= level <= 6 or rest[:1] not in (" ", "\t"):
        return None
    return level, rest.lstrip(" \t").rstrip(" \t#")


def _strip_inline_code(line: str) -> str:
    """Blank out inline code so `[x](y)` inside backticks is not taken for a link."""
    if "`" not in line:
        return line
    return _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)


def line_col(text: str, offset: int, first_line: int = 1) -> tuple[int, int]:
    """1-based (line, column) of a character offset in `text`."""
    line = text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1)
    return line + first_line, col + 1
