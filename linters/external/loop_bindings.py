"""Ruff's F821 on a name a loop binds later in its own body (issue 36).

Ruff resolves names in statement order, with no control flow: a name read in a loop above
the line that binds it in the same loop is "undefined" to it, though an earlier pass of the
loop may have bound it (astral-sh/ruff#6569, #12451, #21542; ruff's maintainers call it out
of reach without type inference). Whether such a read can come first is a question of the
loop's logic, which ruff does not answer, so it is a warning, not an error:

- a read under a condition inside the loop (`if not segments: return None`, then `index =
  start`), with `start` bound further down the same loop: possibly bound, a warning;
- a read on the loop body's own level, above the binding: the first pass always reads it
  unbound (UnboundLocalError), an error as ruff says;
- a name bound nowhere in the loop (a typo, a missing import): an error as ruff says.
"""

from __future__ import annotations

import ast
import functools

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


def loop_carried(text: str, line: int | None, column: int | None, name: str) -> bool:
    """The read of `name` at 1-based (`line`, `column`) of Python `text` is inside a
    conditional statement of a loop whose body binds `name` below the read, in the same
    scope: on a later pass it may well be bound."""
    if line is None or not name:
        return False
    parents = _parents(text)
    read = _read_at(text, line, column, name)
    if read is None:
        return False
    chain, node = [], read
    while node in parents:
        node = parents[node]
        if isinstance(node, _SCOPES):
            return False
        chain.append(node)
        if isinstance(node, _LOOPS):
            # The statement of the loop's body that holds the read: a conditional one
            # (if, try, with, match, an inner loop) may be skipped on the first pass.
            holder = chain[-2] if len(chain) >= 2 else None
            if holder is None or holder not in node.body:
                continue
            if isinstance(holder, (ast.If, ast.Try, ast.Match, *_LOOPS)) and _binds_below(
                    node, name, read):
                return True
    return False


def _binds_below(loop: ast.AST, name: str, read: ast.Name) -> bool:
    for n in ast.walk(loop):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) and (
                (n.lineno, n.col_offset) > (read.lineno, read.col_offset)):
            return True
    return False


def _read_at(text: str, line: int, column: int | None, name: str) -> ast.Name | None:
    tree = _tree(text)
    if tree is None:
        return None
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name
             and isinstance(n.ctx, ast.Load) and n.lineno == line]
    # ruff counts characters, `ast` UTF-8 bytes: the column decides only among several.
    exact = [n for n in reads if column is not None and n.col_offset == column - 1]
    return (exact or reads or [None])[0]


@functools.lru_cache(maxsize=8)
def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


@functools.lru_cache(maxsize=8)
def _parents(text: str) -> dict[ast.AST, ast.AST]:
    tree = _tree(text)
    if tree is None:
        return {}
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
