"""Where a line of a Markdown document sits: the heading above it, and whether its section
is a changelog's (a list item there records what a file was, rather than telling the agent
to use it). Shared by the path rules (SF116) and the command rules (SF301).
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

# A heading that opens a changelog: the whole heading names one ("Changelog", "Release
# notes") or a version ("1.3.0", "[2.0.0] - 2024-05-01", "Version 2.1"). A heading that only
# holds such a word ("Database migrations", "Git history", "Making changes") is instructions:
# issue 36 found broken links of 6 real skills hidden by a title like that.
_CHANGELOG_HEADING = rx(
    r"^(?:change\s*log|changes|history|version\s+history|release\s+(?:notes|history)|releases"
    r"|what'?s\s+new|unreleased|upgrade\s+notes)$"
    # a version alone, or with a date or a name after a dash or in parentheses (not "2.1
    # Install the tools", a numbered section)
    r"|^\[?(?:v|version\s*)?\d+(?:\.\d+){1,3}(?:-[\w.]+)?\]?"
    r"(?:\s*(?:[-\u2013\u2014(:]|\d{4}-\d\d).*)?$",
    re.IGNORECASE,
)
# The kinds of change Keep a Changelog groups a version's entries by.
_CHANGE_KIND = rx(
    r"^(?:added|changed|deprecated|removed|fixed|security|breaking(?:\s+changes)?|features?"
    r"|bug\s*fixes|improvements)$",
    re.IGNORECASE,
)
# A list item's first line, or a line of one.
_LIST_ITEM = rx(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")


def section_title(doc: MarkdownDoc, line_no: int) -> str:
    """The text of the nearest heading above `line_no` ("" if none)."""
    i = doc.last_heading(line_no)
    return doc.headings[i].text if i >= 0 else ""


def changelog_entry(doc: MarkdownDoc, line_no: int, whole_file: bool = False) -> bool:
    """Line `line_no` is in a list item of a changelog section: under a changelog or version
    heading, or under a kind of change ("Fixed") that is under one (`whole_file`: the
    document is a changelog, CHANGELOG.md). Such an entry records what a file was, so a
    broken path there is softened, never dropped."""
    return _in_list_item(doc, line_no) and (whole_file or in_changelog(doc, line_no))


def in_changelog(doc: MarkdownDoc, line_no: int) -> bool:
    """The section holding `line_no` is a changelog's (see `_CHANGELOG_HEADING`)."""
    # The answer depends only on the last heading above: worked out once per heading.
    last = doc.last_heading(line_no)
    memo = doc.memo.setdefault(__name__ + ".in_changelog", {})
    found = memo.get(last)
    if found is None:
        found = memo[last] = _changelog_section(doc, last)
    return found


def _changelog_section(doc: MarkdownDoc, last: int) -> bool:
    if last < 0:
        return False
    own = doc.headings[last]
    text = own.text.strip(" #*_`")
    if _CHANGELOG_HEADING.search(text):
        return True
    if not _CHANGE_KIND.match(text):
        return False
    for h in reversed(doc.headings[:last]):  # the parent: the nearest higher heading
        if h.level < own.level:
            return bool(_CHANGELOG_HEADING.search(h.text.strip(" #*_`")))
    return False


def _in_list_item(doc: MarkdownDoc, line_no: int) -> bool:
    """The line opens a list item or continues one (up to a blank line)."""
    i = line_no - doc.first_line
    return 0 <= i < len(doc.lines) and _list_item_lines(doc)[i]


def _list_item_lines(doc: MarkdownDoc) -> list[bool]:
    """Per line of `doc`: it is not blank and it, or a line above it with no blank line
    between, opens a list item. Worked out once per document (a paragraph of a thousand
    lines with a path on each would otherwise be walked back a thousand times)."""
    memo = doc.memo.get(__name__ + ".list_items")
    if memo is None:
        memo, open_ = [], False
        for line in doc.lines:
            open_ = bool(line.strip()) and (open_ or bool(_LIST_ITEM.match(line)))
            memo.append(open_)
        doc.memo[__name__ + ".list_items"] = memo
    return memo


def list_lead_in(doc: MarkdownDoc, line_no: int, item: re.Pattern[str], reach: int = 40) -> str:
    """The line that opens the list holding line `line_no` (its lead-in: walked up across blank
    lines, other items and their indented lines, at most `reach` lines, within the section),
    "" if the line is no `item` or the list has no lead-in."""
    first = doc.first_line
    idx = line_no - first
    if not 0 <= idx < len(doc.lines) or not item.match(doc.lines[idx]):
        return ""
    for i in range(idx - 1, max(-1, idx - reach - 1), -1):
        line = doc.lines[i]
        if not line.strip() or item.match(line) or line.startswith(("  ", "\t")):
            continue
        return "" if doc.is_code(i + first) or line.lstrip().startswith("#") else line
    return ""
