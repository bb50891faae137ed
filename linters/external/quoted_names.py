"""Ruff's F821 on a name inside a quoted annotation (SF602; issue 36).

`def render() -> "Image.Image":` with `from PIL import Image` inside the function: ruff reads
the string as an annotation and finds no `Image` at module level. Python never evaluates a
quoted annotation when the script runs (only a type checker or `typing.get_type_hints`
does), so the script works; the name is worth an import under `TYPE_CHECKING`, not a failed
gate. Ruff looks inside strings only where they are type expressions (annotations, `cast`,
a `TypeVar` bound), so a name it reports inside a string literal is such a name. Any
undefined name outside a string (`Image.new(...)` with no import), or in an f-string's field,
stays an error.
"""

from __future__ import annotations

import functools
import io
import tokenize


def in_quoted_annotation(text: str, line: int | None, column: int | None) -> bool:
    """Ruff's 1-based (`line`, `column`) lies inside a string literal of Python `text`."""
    if line is None or column is None:
        return False
    at = (line, column - 1)
    return any(start <= at < end for start, end in _strings(text))


@functools.lru_cache(maxsize=16)
def _strings(text: str) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """(start, end) of every string token of `text`, tokenized once per script."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            # An f-string's fields are evaluated (Python 3.11 gives the whole f-string as one
            # STRING token): `f'{get_versions()}'` names code that runs.
            if tok.type == tokenize.STRING and "f" not in _prefix(tok.string):
                out.append((tok.start, tok.end))
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass
    return tuple(out)


def _prefix(literal: str) -> str:
    """A string literal's prefix letters, lower-cased (`rb`, `f`, `""`)."""
    return literal[:min((i for i in (literal.find("'"), literal.find('"')) if i >= 0),
                        default=0)].lower()
