"""Markdown table cells: which column of which table a spot of a line is in, and what the
table's header calls that column.

A pipe table is a header row, a delimiter row (`|---|:--:|`) and body rows. Pipes inside a
code span do not split a cell here: authors write `a | b` commands in cells and mean one
cell (GitHub's renderer splits them, which shows the author's intent no better).
"""

from __future__ import annotations

from typing import NamedTuple

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

_DELIMITER = rx(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_ROW_REACH = 200  # body rows searched above a row for its table's header


class Cell(NamedTuple):
    """The cell at a spot: its column index, the header's cells and the row's cells (each
    stripped of spaces)."""

    index: int
    header: tuple[str, ...]
    row: tuple[str, ...]

    @property
    def heading(self) -> str:
        """What the header calls the cell's column ("" when the header is shorter)."""
        return self.header[self.index] if self.index < len(self.header) else ""


def _row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _cells(line: str) -> list[tuple[int, str]]:
    """(start column, text) of each cell of a row: split at pipes outside code spans and
    not escaped; the row's outer pipes open and close it."""
    cells: list[tuple[int, str]] = []
    start, i, n = 0, 0, len(line)
    tick = 0  # the length of the backtick run that opened the code span we are in
    while i < n:
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            j = i
            while j < n and line[j] == "`":
                j += 1
            run = j - i
            tick = 0 if tick == run else (run if tick == 0 else tick)
            i = j
            continue
        if ch == "|" and tick == 0:
            cells.append((start, line[start:i]))
            start = i + 1
        i += 1
    cells.append((start, line[start:]))
    if cells and not cells[0][1].strip():
        cells = cells[1:]  # before the leading pipe
    if cells and not cells[-1][1].strip():
        cells = cells[:-1]  # after the trailing pipe
    return cells


def cell_at(doc: MarkdownDoc, line_no: int, column: int) -> Cell | None:
    """The table cell holding the 1-based `column` of file line `line_no`, with its table's
    header; None outside a table body row."""
    lines, first = doc.lines, doc.first_line
    idx = line_no - first
    if not 0 <= idx < len(lines) or not _row(lines[idx]) or doc.is_code(line_no):
        return None
    for i in range(idx - 1, max(-1, idx - _ROW_REACH), -1):
        line = lines[i]
        if _DELIMITER.match(line) and "|" in line:
            if i < 1 or not _row(lines[i - 1]) or i == idx:
                return None
            row = _cells(lines[idx])
            at = [k for k, (start, _t) in enumerate(row) if start <= column - 1]
            if not at:
                return None
            header = tuple(t.strip() for _s, t in _cells(lines[i - 1]))
            return Cell(at[-1], header, tuple(t.strip() for _s, t in row))
        if not _row(line):
            return None
    return None
