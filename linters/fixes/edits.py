"""Text edits: the smallest edit between two texts, and applying edits to a text."""

from __future__ import annotations

from collections.abc import Iterable

from skillforge.models.fixes import TextEdit


class EditConflict(ValueError):
    """Edits overlap, or point outside the text they are applied to."""


def minimal_edit(path: str, old: str, new: str) -> TextEdit | None:
    """One edit turning `old` into `new` that spans only the lines that differ (None when
    the texts are equal). Whole lines are replaced, so the edit reads well in a diff and in
    an editor's preview."""
    if old == new:
        return None
    a, b = old.split("\n"), new.split("\n")
    head = 0
    while head < min(len(a), len(b)) - 1 and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head - 1 and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    end = len(a) - tail  # exclusive, in old's lines
    if tail:
        # Replace lines head..end-1 with their new versions, each followed by its break.
        new_text = "".join(line + "\n" for line in b[head:len(b) - tail])
        return TextEdit(path=path, start_line=head, start_col=0, end_line=end, end_col=0,
                        new_text=new_text)
    return TextEdit(path=path, start_line=head, start_col=0, end_line=len(a) - 1,
                    end_col=len(a[-1]), new_text="\n".join(b[head:]))


def offset(text: str, line: int, col: int, starts: list[int] | None = None) -> int:
    """The index in `text` of a 0-based (line, col) position."""
    starts = starts if starts is not None else line_starts(text)
    if line >= len(starts):
        raise EditConflict(f"line {line + 1} is past the end of the file ({len(starts)} lines)")
    stop = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    if starts[line] + col > stop:
        raise EditConflict(f"column {col + 1} is past the end of line {line + 1}")
    return starts[line] + col


def line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with `edits` applied (their positions all refer to `text`); raises
    EditConflict when two overlap or one points outside the text."""
    starts = line_starts(text)
    spans = sorted(((offset(text, e.start_line, e.start_col, starts),
                     offset(text, e.end_line, e.end_col, starts), e.new_text) for e in edits),
                   key=lambda s: (s[0], s[1]))
    out: list[str] = []
    at = 0
    for start, end, new in spans:
        if end < start:
            raise EditConflict("an edit ends before it starts")
        if start < at:
            raise EditConflict("two edits overlap")
        out.append(text[at:start])
        out.append(new)
        at = end
    out.append(text[at:])
    return "".join(out)
