"""Reading a Markdown table row by its header (for `linters.security.text_role`): the header
row over a row, and the column a spot sits in when that column lists what not to do."""

from __future__ import annotations

import re

from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from linters.text.table_cells import cell_at


def table_header(st: SecurityText, line: Line) -> Line | None:
    """The header row of the table `line` is a row of (None off a table)."""
    if not st.is_table_row(line):
        return None
    cur: Line | None = line
    for _ in range(200):
        prev = st.neighbour(cur, -1) if cur is not None else None
        if prev is None or not st.is_table_row(prev):
            break
        cur = prev
    return cur


# The header of a column that lists what not to do: "| Don't | Do instead |", "| Avoid |
# Prefer |", "| ❌ Bad | ✅ Good |". Only at the cell's start: "Do instead" is the other column.
_AVOID_CELL = rx(r"^\W*(?:don'?t|do\s+not|avoid|bad|never|wrong|incorrect|anti-?patterns?|"
                 r"instead\s+of)\b|^\s*(?:\*\*|__)?\s*[\u274c\u2717\U0001f6ab]", re.IGNORECASE)


def avoid_column(st: SecurityText, line: Line, start: int) -> str | None:
    """The header of the column holding 0-based `start` of a table row, when it heads a list
    of what not to do ("| Don't | Do instead |"); None off a table or in another column.
    The cell is read by the shared table reader (`linters.text.table_cells`)."""
    doc = st.doc if st.is_table_row(line) else None
    cell = cell_at(doc, line.no, start + 1) if doc is not None else None
    if cell is None:
        return None
    title = cell.heading
    return title.strip("*_ ")[:30] if _AVOID_CELL.search(title) else None
