"""Names a Python file says it takes from elsewhere (SF602's F821; issue 36).

A documented fragment states what it runs after: "Assumes data model from `other-skill`:
gnn_graph, pt, Train" in its module docstring, or a comment "# Requires `df` already loaded".
Ruff reads the file alone and calls those names undefined; the file itself says they are
not its own, so a name such a statement lists is a warning, not an error (the fragment
fails if run by itself, which is worth knowing, not a crash of the skill).

What counts as such a statement: a line of a docstring or comment opening with an
assumption word (assumes, expects, requires, prerequisites, depends on, continues from)
whose statement (that line and the list lines under it, up to a blank line) also says the
names come from somewhere else: "from", "defined", "in scope", "already", "available",
"loaded", "created", "previous", "earlier", "above". "Requires: requests" names a package,
not a provenance: a `requests` the script forgets to import stays an error. Only names the
statement lists are spared, and only below it: any other undefined name in the same file
(a typo) stays an error.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize

from linters.text.compiled_regex import rx

_ASSUMPTION = rx(
    r"^\W*(?:assum(?:es|ing|ed)|expects?|expecting|requires?|prerequisites?|pre-requisites?"
    r"|depends\s+on|continu(?:es|ing)\s+from|needs?)\b",
    re.IGNORECASE,
)
_PROVENANCE = rx(
    r"\b(?:from|defined|in\s+scope|already|available|loaded|created|built|previous(?:ly)?"
    r"|earlier|above|prior|set\s+up|data\s+model)\b",
    re.IGNORECASE,
)
_LIST_LINE = rx(r"^\s*(?:[-*+]\s|\d{1,3}[.)]\s|\s{2,}\S)")
_IDENT = rx(r"[A-Za-z_][A-Za-z0-9_]*")


def declared_elsewhere(text: str, line: int | None, name: str) -> str | None:
    """The statement (its first line, trimmed) by which Python `text` says it takes `name`
    from elsewhere, written above 1-based `line`; None when it says no such thing."""
    if line is None or not name:
        return None
    for start, names, said in _statements(text):
        if start <= line and name in names:
            return said
    return None


@functools.lru_cache(maxsize=16)
def _statements(text: str) -> tuple[tuple[int, frozenset[str], str], ...]:
    out = []
    for start, lines in _prose_blocks(text):
        for i, first in enumerate(lines):
            if not _ASSUMPTION.match(first):
                continue
            block = [first]
            for nxt in lines[i + 1:]:
                if not nxt.strip() or (not _LIST_LINE.match(nxt) and _ASSUMPTION.match(nxt)):
                    break
                block.append(nxt)
            said = " ".join(b.strip() for b in block)
            if _PROVENANCE.search(said):
                names = frozenset(_IDENT.findall(said))
                out.append((start + i, names, first.strip().rstrip(":")[:100]))
    return tuple(out)


def _prose_blocks(text: str) -> list[tuple[int, list[str]]]:
    """(first line, lines) of each string-statement (docstring) and each run of comment
    lines of `text`."""
    blocks: list[tuple[int, list[str]]] = []
    run: list[str] = []
    run_start = run_end = 0
    prev_significant = tokenize.NEWLINE
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return blocks
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            row = tok.start[0]
            if run and row != run_end + 1:
                blocks.append((run_start, run))
                run = []
            if not run:
                run_start = row
            run.append(tok.string.lstrip("#"))
            run_end = row
            continue
        if tok.type == tokenize.STRING and prev_significant in (
                tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            body = re.sub(r"^[rRuU]?(?:'''|\"\"\"|'|\")|(?:'''|\"\"\"|'|\")$", "", tok.string)
            blocks.append((tok.start[0], body.splitlines() or [""]))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            prev_significant = tok.type
    if run:
        blocks.append((run_start, run))
    return blocks
