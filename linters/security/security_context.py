"""What the security scanners share: one file's text, its candidate lines, and whether a
spot is an instruction or talk about one.

Speed: a skill is mostly prose, and Python's `re` pays ~20 ns per character for a pattern
that starts with an alternation or a look-behind. So no scanner runs a regex over a whole
file. Each declares a few literal *anchors* (`linters.text.anchor_index.declare`), and the
rule's regex runs only on the lines that hold one: the file's shared `AnchorIndex` lists
them, found in one pass with every other rule's needles.

Precision: security-focused skills *discuss* the patterns the rules look for ("attackers
write `ignore previous instructions`"). `text_role` decides whether the text at a hit
is an instruction, shipped code or text about the pattern, with the structure this module
gives it (is this line code, a table row, inside inline code?) and the vocabulary of
`linters.security.attack_talk`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from linters.text.anchor_index import AnchorIndex, file_bytes
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from skillforge.models.findings import Severity

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")

_LICENSE_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE")

@dataclass(frozen=True)
class Hit:
    """One security finding before it becomes a Finding (cached per file content)."""

    rule: str
    line: int
    column: int
    severity: Severity
    message: str
    # The text places the command on a system under test (linters.security.practice).
    on_target: bool = False
    # The Markdown text puts it in a step of host-side work (enumeration, exploitation): on
    # the target when the skill's purpose is a phase there (linters.security.practice).
    host_step: bool = False
    # The CLI whose own store a read takes a credential from, when the value goes nowhere
    # else: a skill about that CLI lists the read as its reference (cli_credentials).
    cli: str = ""
    # The local script a TypeScript/JavaScript runner package (`npx tsx scripts/x.ts`) runs:
    # when the skill ships it, the data goes to the skill's own code (own_scripts).
    script: str = ""
    # The package an unpinned run hands the data to, when the run sends it nowhere else and
    # confirms nothing: a skill about that package runs its own tool (subject_tool).
    package: str = ""


@dataclass(frozen=True)
class Line:
    """One physical line: 1-based number, decoded text (no newline), byte span in the file."""

    no: int
    text: str
    start: int
    end: int

    @cached_property
    def low(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class Logical:
    """A command line with its backslash (or trailing-pipe) continuations joined by spaces."""

    text: str
    parts: tuple[tuple[int, Line], ...]  # (offset in `text`, physical line)

    def where(self, offset: int) -> tuple[Line, int]:
        """The physical line holding `offset` and the 0-based column in it."""
        idx = bisect_right([p[0] for p in self.parts], offset) - 1
        base, line = self.parts[max(idx, 0)]
        return line, min(offset - base, max(len(line.text) - 1, 0))


class SecurityText:
    """One decoded file seen by the security scanners."""

    def __init__(
        self,
        path: str,
        text: str,
        doc: MarkdownDoc | Callable[[], MarkdownDoc | None] | None = None,
        owner: str = "",
        index: AnchorIndex | None = None,
        exposed: bool = False,
        halts: bool = False,
        sample: bool = False,
    ) -> None:
        self.path = path
        # Another text of the skill names this file as a test sample not to follow
        # (linters.security.sample_files): its text is data, not instructions.
        self.sample = sample
        # SKILL.md tells the agent to stop when this script fails
        # (linters.security.printed_hints): what it prints on its way out is for the user.
        self.halts = halts
        # Code of the skill that runs computed strings reads this file
        # (linters.security.code_flow): none of its strings is certainly inert.
        self.exposed = exposed
        self.text = text
        # The skill's name: a credential named after it (its own keychain item) is its own.
        self.owner = owner
        # Parsing Markdown costs more than most scans: take a factory and parse only when a
        # hit needs its context (code block? heading?) or the file has HTML comments.
        self._doc = doc
        # The index of the file's bytes (LintContext.anchors), when a rule made it first;
        # else of the text's UTF-8.
        self.index = index if index is not None else AnchorIndex(file_bytes(text))
        self.raw = self.index.raw
        # A Markdown file is rendered, and a renderer hides its HTML comments (SF503).
        self.rendered = self.is_markdown = path.lower().endswith(MARKDOWN_SUFFIXES)
        if not self.is_markdown and written_in_markdown(path, text):
            # A plain-text document in Markdown: its structure frames a hit as in a `.md`.
            self.is_markdown = True
            self._doc = doc if doc is not None else (lambda: MarkdownDoc(text))
        self.is_license = path.rsplit("/", 1)[-1].upper().startswith(_LICENSE_NAMES)
        self._lines: dict[int, Line] = {}
        self._marks: list[tuple[int, int]] = [(0, 1)]  # (byte offset, line) checkpoints
        self._anchored: dict[bytes, tuple[Line, ...]] = {}

    @cached_property
    def doc(self) -> MarkdownDoc | None:
        """The parsed Markdown, if its line numbers agree with ours (else None)."""
        doc = self._doc
        doc = doc() if callable(doc) else doc
        if doc is None:
            return None
        # str.splitlines also breaks at \x0b, \x0c, \x1c-\x1e, \x85, U+2028 and U+2029; such
        # a file would shift code-block and heading lines, so its context is not trusted.
        lines = self.raw.count(b"\n") + (0 if self.raw.endswith(b"\n") else 1)
        return doc if doc.first_line - 1 + len(doc.lines) == lines else None

    @property
    def low(self) -> bytes:
        """Lower-cased UTF-8 bytes: ASCII-only lowering, cheap and offset-preserving."""
        return self.index.low

    # --- finding lines ----------------------------------------------------------------

    def lines_with(self, *needles: bytes) -> list[Line]:
        """Every line that contains one of the (lower-case) needles, in file order."""
        index = self.index
        found: dict[int, Line] | None = None
        anchored = self._anchored
        for needle in index.held(needles):  # usually none: most needles are absent
            got = anchored.get(needle)
            if got is None:
                got = anchored[needle] = self._lines_at(index.places(needle))
            if got:
                if found is None:
                    found = {}
                for line in got:
                    found[line.start] = line
        if not found:
            return []
        return [found[k] for k in sorted(found)]

    def places(self, needle: bytes) -> list[int]:
        """Every offset of `needle` (lower-case) in the lower-cased bytes, overlaps included,
        in order; for the scanners that need each place (not only each line)."""
        return self.index.places(needle)

    def _lines_at(self, offsets: list[int]) -> tuple[Line, ...]:
        found: list[Line] = []
        end = -1
        for at in offsets:
            if at > end:  # the first place on a line not listed yet
                line = self.line_at(at)
                found.append(line)
                end = line.end
        return tuple(found)

    def line_at(self, offset: int) -> Line:
        """The physical line holding byte `offset`."""
        raw = self.raw
        start = raw.rfind(b"\n", 0, offset) + 1
        line = self._lines.get(start)
        if line is None:
            end = raw.find(b"\n", offset)
            end = len(raw) if end < 0 else end
            text = raw[start:end].decode("utf-8", "replace").rstrip("\r")
            line = Line(self._line_no(start), text, start, end)
            self._lines[start] = line
        return line

    def _line_no(self, offset: int) -> int:
        # Count newlines from the nearest checkpoint below, so many hits cost one pass.
        idx = bisect_right(self._marks, (offset, 1 << 62)) - 1
        base, no = self._marks[idx]
        no += self.raw.count(b"\n", base, offset)
        self._marks.insert(idx + 1, (offset, no))
        return no

    def neighbour(self, line: Line, step: int) -> Line | None:
        if step < 0:
            return self.line_at(line.start - 1) if line.start > 0 else None
        return self.line_at(line.end + 1) if line.end < len(self.raw) else None

    def run_from(self, line: Line, step: int, limit: int = 6) -> Iterator[Line]:
        """The lines after (`step` 1) or before (-1) `line`, nearest first, up to `limit` of
        them and up to a blank line."""
        cur: Line | None = line
        for _ in range(limit):
            cur = self.neighbour(cur, step) if cur is not None else None
            if cur is None or not cur.text.strip():
                return
            yield cur

    def logical(self, line: Line) -> Logical:
        """`line` joined with the lines it continues and that continue it (max 20)."""
        first = line
        for _ in range(20):
            prev = self.neighbour(first, -1)
            if prev is None or not _continues(prev.text):
                break
            first = prev
        parts: list[tuple[int, Line]] = []
        chunks: list[str] = []
        offset = 0
        cur: Line | None = first
        for _ in range(40):
            if cur is None:
                break
            chunk = cur.text.rstrip()
            cont = _continues(chunk)
            chunk = chunk.removesuffix("\\")
            parts.append((offset, cur))
            chunks.append(chunk)
            offset += len(chunk) + 1
            if not cont:
                break
            cur = self.neighbour(cur, 1)
        return Logical(" ".join(chunks), tuple(parts))

    # --- context ----------------------------------------------------------------------

    def in_code(self, line: Line) -> bool:
        """Inside a fenced or indented code block, or any line of a non-Markdown file."""
        if not self.is_markdown:
            return True
        return self.doc is not None and self.doc.is_code(line.no)

    def is_table_row(self, line: Line) -> bool:
        return self.is_markdown and line.text.lstrip().startswith("|")


# A plain-text document written in Markdown: fenced blocks open and close in it. Its headings,
# fences and lead-ins frame a hit as they do in a `.md` file (an example file's
# "### VULNERABLE: ..." section with the attack quoted in a fence); a `.txt` without fences
# (a prompt, a list of commands) is still read whole, as text that runs or is followed.
_TEXT_SUFFIXES = (".txt", ".text")
_FENCE_LINE = rx(r"^ {0,3}(?:```|~~~)", re.MULTILINE)


def written_in_markdown(path: str, text: str) -> bool:
    """A `.txt` file with at least one fenced block: a document in Markdown, not code."""
    if not path.lower().endswith(_TEXT_SUFFIXES) or ("```" not in text and "~~~" not in text):
        return False
    fences = 0
    for _ in _FENCE_LINE.finditer(text):
        fences += 1
        if fences >= 2:
            return True
    return False


def _continues(text: str) -> bool:
    t = text.rstrip()
    return t.endswith("\\") or (t.endswith("|") and not t.lstrip().startswith("|"))


def in_inline_code(line: Line, col: int) -> bool:
    return line.text.count("`", 0, col) % 2 == 1


def inline_span(line: Line, col: int) -> tuple[int, str]:
    """(start column, text) of the backtick span holding `col` (call when inside one)."""
    start = line.text.rfind("`", 0, col) + 1
    end = line.text.find("`", col)
    return start, line.text[start : len(line.text) if end < 0 else end]


def short(s: str, limit: int = 70) -> str:
    """`s` on one line, without backticks, cut to `limit` characters for a message."""
    s = " ".join(s.split()).replace("`", "'")
    return s if len(s) <= limit else s[: limit - 3] + "..."


_CLOSERS = {")": "(", "]": "[", "}": "{"}


def shown_command(s: str, limit: int = 70) -> str:
    """`short` of a matched command, without what closes the code around it: the quote and
    brackets after `curl ... | sh` in `{"run": "curl ... | sh"}` are not part of it."""
    s = s.rstrip()
    while s and s[-1] in "\"'`)]},;":
        ch, body = s[-1], s[:-1]
        if ch in "\"'`" and body.count(ch) % 2 == 1:
            break  # it closes a quote opened inside the command: `sh -c 'echo hi'`
        if ch in _CLOSERS and body.count(_CLOSERS[ch]) > body.count(ch):
            break  # it closes a bracket opened inside the command: `$(curl ...)`
        s = body.rstrip()
    return short(s, limit)


# --- command lines the command rules search ------------------------------------------

# A command word must not be the tail of another word or path (checked after the match:
# a leading look-behind would make every regex slow).
_WORDISH = rx(r"[\w./-]")


def _starts_word(text: str, i: int) -> bool:
    return i == 0 or not _WORDISH.match(text[i - 1])


# A command line longer than this (minified JSON, a table row holding a script) is searched
# only near its anchors, so no regex walks 50 kB once per candidate match.
SPAN_LIMIT = 600
SPAN_REACH = 200


def _spans(log: Logical, anchors: tuple[bytes, ...]) -> list[tuple[int, int]]:
    n = len(log.text)
    if n <= SPAN_LIMIT:
        return [(0, n)]
    low = log.text.lower()
    points: list[int] = []
    for anchor in anchors:
        a = anchor.decode()
        i = low.find(a)
        while i >= 0 and len(points) < 64:
            points.append(i)
            i = low.find(a, i + len(a))
    spans: list[tuple[int, int]] = []
    for p in sorted(points):
        s, e = max(0, p - SPAN_REACH), min(n, p + SPAN_REACH)
        if spans and s <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], e))
        else:
            spans.append((s, e))
    return spans


def matches(
    rx: re.Pattern[str], log: Logical, spans: list[tuple[int, int]], word: bool = True
) -> list[re.Match[str]]:
    """`rx`'s matches in the spans of a command line, each starting a word when `word`."""
    out: list[re.Match[str]] = []
    last = -1
    for s, e in spans:
        for m in rx.finditer(log.text, s, e):
            if m.start() > last and (not word or _starts_word(log.text, m.start())):
                out.append(m)
                last = m.start()
    return out


def command_lines(
    st: SecurityText, anchors: tuple[bytes, ...]
) -> Iterator[tuple[Logical, list[tuple[int, int]]]]:
    """Each command line holding an anchor, once (continuations joined), with its spans."""
    covered: set[int] = set()
    for line in st.lines_with(*anchors):
        if line.start in covered:
            continue
        log = st.logical(line)
        covered.update(part.start for _off, part in log.parts)
        yield log, _spans(log, anchors)


_STAGE_SEPARATORS = ("|", ";", "&&", "`", "$(", "\n")


def command_at(text: str, start: int, end: int) -> str:
    """The command around text[start:end] (a command line): from the start of its pipeline
    stage to the end of it, for a message."""
    begin = lo = max(0, start - SPAN_REACH)
    for sep in _STAGE_SEPARATORS:
        i = text.rfind(sep, lo, start)
        if i >= 0:
            begin = max(begin, i + len(sep))
    stops = [i for i in (text.find(sep, end) for sep in (*_STAGE_SEPARATORS[:4], ")"))
             if i >= 0]
    finish = min(stops) if stops else min(len(text), end + 80)
    return text[begin:finish].strip().lstrip("(\"'").strip() or text[start:end]

