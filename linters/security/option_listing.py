"""A bypass value shown in a listing of its option's values (SF512, issue 36).

A code block that lists an option once per value, each line the bare option with no program
before it (`--sandbox read-only`, `--sandbox workspace-write`, `--sandbox danger-full-access`,
each with a comment), is a reference of the modes, not a command: nothing on those lines starts
an agent. A line that starts the agent (`codex --sandbox danger-full-access`), or a bare flag
with no sibling value beside it, is not such a listing and keeps its severity.
"""

from __future__ import annotations

from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# The bare option and its value at the start of a line: `--sandbox danger-full-access`.
_BARE_OPTION = rx(r"^\s*(--(?:sandbox|approval-mode|permission-mode)|-s)[= ]+[\"']?([\w-]+)")


def listed_value(st: SecurityText, line: Line) -> str | None:
    """The option whose values the lines around `line` list (`--sandbox`), when `line` is one
    bare option line of such a listing in a code block; None otherwise."""
    if not (st.is_markdown and st.in_code(line)):
        return None
    m = _BARE_OPTION.match(line.text)
    prev = st.neighbour(line, -1)
    if m is None or line.text.rstrip().endswith("\\") or (
            prev is not None and prev.text.rstrip().endswith("\\")):
        return None  # a continued line: part of a command that starts the agent
    option, value = m.group(1), m.group(2).lower()
    others: set[str] = set()
    for step in (-1, 1):
        for cur in st.run_from(line, step):
            n = _BARE_OPTION.match(cur.text)
            if n is not None and n.group(1) == option and st.in_code(cur):
                others.add(n.group(2).lower())
    others.discard(value)
    return option if others else None
