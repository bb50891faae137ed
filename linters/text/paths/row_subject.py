"""A table row about another component: what its cells say that component uses (SF116;
issue 36, holdout31).

A table relating a skill to others ("| `tools:simplifier` | Spawned in round 4. Uses
`references/checklist.md`. |") says, in a cell, what the row's component does: a sentence
that opens on a verb in the third person with no subject of its own ("Uses `x`", "Reads `x`
and `y`", "Also loads `x`") is said of the row's first cell. When that cell names another
skill or agent (one name in code, not this skill's), the path is a file that component
reads, not one this skill opens. A row headed by this skill ("`it` (this skill)") or by no
name, a cell that tells the agent to read the file ("Read `x`", "See `x`"), and a cell that
only lists the path ("Details in `x`") are the skill's.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.paths.path_context import Paragraph

# The row's first cell: one name in code (`plugin:agent`, `other-skill`, `helper`), maybe
# followed by what it is ("skill", "agent") or a short note in brackets, not "(this skill)".
_HEAD = rx(r"^(?:\*\*|__)?`([a-z0-9]+(?:[-_:][a-z0-9]+)*)`(?:\*\*|__)?"
           r"(?:\s+(?:skill|agent|sub-?agent|command|plugin|hook))?"
           r"(?:\s*\((?![^()]*\bthis\b)[^()|]{0,40}\))?$", re.IGNORECASE)
# The cell's sentence up to the path: a verb of use in the third person opens it, with no
# subject before it and no end of a clause between it and the path (other paths in code
# may stand between: "Uses `a.md` and `b.md`").
_USES = rx(r"^\s*(?:(?:also|only|still|always|then|first)\s+)?"
           r"(?:uses|reads|loads|consults|follows|applies|relies\s+on|draws\s+on|runs|calls"
           r"|invokes|sources|imports|parses|requires|needs|owns|maintains|ships|bundles"
           r"|provides|keeps|checks\s+against|validates\s+against)\b"
           r"(?:`[^`\n|]*`|[^.;:!?|`]){0,160}?`?$",
           re.IGNORECASE)


def row_subject(para: Paragraph, offset: int, skill_name: str) -> str | None:
    """The name of the other component a table row is about, when the path at `offset` of
    `para` is in a later cell whose sentence says what that component uses; else None."""
    _line_idx, col, line = para.where(offset)
    if not line.lstrip().startswith("|"):
        return None
    cells = line.split("|")
    if len(cells) < 3:
        return None
    head_end = len(cells[0]) + 1 + len(cells[1])  # where the first cell's closing pipe is
    if col - 1 <= head_end:
        return None  # the path is in the row's first cell
    m = _HEAD.match(cells[1].strip())
    if m is None or m.group(1).rsplit(":", 1)[-1] == skill_name:
        return None
    start, _end = para.sentence(offset)
    row_start = offset - (col - 1)
    cell_start = para.text.rfind("|", row_start, offset) + 1
    if not _USES.match(para.text[max(start, cell_start):offset]):
        return None
    return m.group(1)
