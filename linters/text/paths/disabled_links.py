"""Links no reader follows (SF116, issue 36): commented out, or a template's blank.

- A link inside an HTML comment (`<!-- ![Diagram](./images/flow.svg) -->`) was disabled by
  its authors: a renderer shows it to nobody and it names no file the skill means to ship.
  The comment is read as CommonMark reads one in prose: opened by `<!--` outside code (not
  inside an inline code span such as `` `<!--` ``) and closed by the next `-->`; a link after
  the close on the same line (`<!-- x --> [a](b.md)`) is a link again. A comment never
  closed is not read as one: a stray `<!--` must not switch the rule off for the rest of a
  file.
- A link target that is only a placeholder word (`[View the run](link)`, `(url)`, `(<url>)`,
  `(...)`) in a file that presents itself as a template (its name says `template`, or its
  title or opening does: "# Incident Report Template", "Use this template when...") is the
  blank the agent fills in when it writes the document. Outside a template a bare `link` or
  `url` is a stub the author forgot to fill in, and stays an error, as does any real path in
  a template.
- The same blank in a skill that shows its templates inline: a heading above the link names
  one ("## Template 1: CTF Writeup", "### Report template"). The headings are read in the raw
  lines, not as a Markdown reader parses them: a ```` ```markdown ```` template holding bare
  blocks of its own is ended early by the reader (linters.text.nested_templates cannot
  always tell a bare inner fence from the template's close), and its `## References` then
  reads as the skill's. A placeholder word is never a file of the skill, so the reading
  only decides whose blank it is.
"""

from __future__ import annotations

import bisect
import posixpath
import re

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

_OPEN, _CLOSE = "<!--", "-->"
_CODE_SPAN = rx(r"(`+)(?:(?!\1).)+?\1")


def _blank_code(line: str) -> str:
    """The line with its inline code spans blanked (same length), so `<!--` in code is no
    comment."""
    if "`" not in line:
        return line
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def _comment_ranges(doc: MarkdownDoc) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((line, column) of `<!--`, (line, column) just past `-->`) of every closed comment in
    the document's prose, in order."""
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    start: tuple[int, int] | None = None
    for no, raw in doc.prose_lines():
        if start is None and _OPEN not in raw:
            continue
        line = _blank_code(raw) if start is None else raw
        pos = 0
        while True:
            if start is None:
                s = line.find(_OPEN, pos)
                if s < 0:
                    break
                start, pos = (no, s + 1), s + len(_OPEN)
            e = line.find(_CLOSE, pos)
            if e < 0:
                break
            out.append((start, (no, e + len(_CLOSE) + 1)))
            start, pos = None, e + len(_CLOSE)
            line = line[:pos] + _blank_code(line[pos:])
    return out


def commented_out(doc: MarkdownDoc, line: int, column: int) -> bool:
    """The text at `line`, `column` (1-based) lies inside a closed HTML comment."""
    if "<!--" not in doc.text:
        return False
    key = (__name__, "comments")
    ranges = doc.memo.get(key)
    if ranges is None:
        ranges = doc.memo[key] = _comment_ranges(doc)
    if not ranges:
        return False
    i = bisect.bisect_right([r[0] for r in ranges], (line, column)) - 1
    return i >= 0 and (line, column) < ranges[i][1]


# A target that is only a placeholder word: `link`, `url`, `uri`, `href` (any case, with
# `your-`/`the_` and the like before it), or an ellipsis.
_SLOT_WORD = rx(r"^(?:(?:your|the|a|an|some|target|page|doc|docs)[-_])?(?:links?|urls?|uris?|href)$"
                r"|^(?:\.\.\.|…)$", re.IGNORECASE)
# A file naming itself a template: `report-template.md`, `templates.md`, `TEMPLATE.md`.
_TEMPLATE_NAME = rx(r"(?:^|[-_.])templates?(?:[-_.]|$)", re.IGNORECASE)
# Its title or opening presents it as one: "# Cost Report Template", "Use this template".
_TEMPLATE_OPENING = rx(r"^\s{0,3}#[^\n]*\btemplate\W*$|\bthis\s+template\b",
                       re.IGNORECASE | re.MULTILINE)
_OPENING_CHARS = 600
# A heading naming a template: "## Template 2: Malware Report", "### Writeup templates".
_TEMPLATE_HEADING = rx(r"^ {0,3}#{1,6}[ \t].*\btemplates?\b", re.IGNORECASE)


def template_slot(path: str, file: str, text: str | MarkdownDoc,
                  line: int | None = None) -> bool:
    """`path`, a link target of `file` (holding `text`, or parsed as a document), is a
    placeholder word in a file that presents itself as a template, or (given a document and
    the link's file `line`) under a heading naming one: the blank of the document the agent
    writes."""
    if not _SLOT_WORD.match(path.strip()):
        return False
    doc = text if isinstance(text, MarkdownDoc) else None
    body = text.text if isinstance(text, MarkdownDoc) else text
    stem = posixpath.basename(file).rsplit(".", 1)[0]
    if _TEMPLATE_NAME.search(stem) or _TEMPLATE_OPENING.search(body[:_OPENING_CHARS]):
        return True
    if doc is None or line is None:
        return False
    # Raw lines, not the reader's headings: see the module docstring.
    above = doc.lines[:max(0, line - doc.first_line)]
    return any(_TEMPLATE_HEADING.match(raw) for raw in above)
