"""The shared table reader (linters/text/table_cells.py) finds, for every spot of every body
cell of a generated pipe table, that cell's column, its header and its row: with code spans
that hold pipes, escaped pipes, a lead-in paragraph and another table after it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.text.markdown import MarkdownDoc
from linters.text.table_cells import cell_at
from tests.hypothesis_budget import examples

WORD = st.sampled_from(["a", "Default", "Don't", "x_y", "./run.sh", "ÉTÉ", "1.0", r"a \| b"])
CODE = st.sampled_from(["`a | b`", "``x ` | y``", "`./s.sh`"])
CELL = st.lists(st.one_of(WORD, CODE), min_size=1, max_size=3).map(" ".join)


@st.composite
def tables(draw):
    cols = draw(st.integers(1, 5))
    header = draw(st.lists(CELL, min_size=cols, max_size=cols))
    rows = draw(st.lists(st.lists(CELL, min_size=cols, max_size=cols), min_size=1,
                         max_size=4))
    return header, rows


@given(tables(), st.booleans())
@settings(max_examples=examples(400), deadline=None)
def test_every_spot_of_a_body_cell_is_read_as_that_cell(table, lead):
    header, rows = table
    lines = ["Some text.", ""] if lead else []
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" for _ in header) + "|")
    first_row = len(lines)
    for row in rows:
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| other | table |", "|---|---|", "| q | r |"]
    doc = MarkdownDoc("\n".join(lines))
    for r, row in enumerate(rows):
        line_no = first_row + r + 1
        text = lines[first_row + r]
        pos = 2  # after "| "
        for k, cell in enumerate(row):
            for offset in (0, len(cell) - 1):
                got = cell_at(doc, line_no, pos + offset + 1)
                assert got is not None, (text, k)
                assert got.index == k and got.heading == header[k], (text, k, got)
                assert got.row == tuple(row)
            pos += len(cell) + 3  # " | "
    # The header row, the delimiter row and a line off the table hold no body cell.
    assert cell_at(doc, first_row - 1, 3) is None
    assert cell_at(doc, first_row, 2) is None
    if lead:
        assert cell_at(doc, 1, 1) is None
