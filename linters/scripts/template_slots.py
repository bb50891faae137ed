"""`{{NAME}}` slots in a Python script's code: a template the agent fills in (issue 36).

A skill may ship Python that it tells the agent to copy and complete: `from {{MODULE}} import
{{ENTRYPOINT_FN}}`, `PATHS: list[str] = {{PATH_LIST}}`, a line that is only
`{{EXTRA_CHECKS}}`. Python cannot run that file as it is, and is not meant to: SF601 would
call the first slot a syntax error and ruff (SF602) an undefined name, both wrongly.

What counts as a slot: `{{` opening in code, i.e. an operator token of Python's tokenizer,
not text inside a string or a comment (`"{{ name }}"` and `f"{{x}}"` are ordinary strings),
around a name, dotted or not, with an optional Jinja filter tail (`{{ items | tojson }}`).
In running Python such a `{{...}}` is a set holding a set, which raises TypeError
(unhashable) whenever it is evaluated, so no working script holds one: the shape itself says
"fill me in". `{% ... %}` blocks are not read here.

The script is then checked with each slot replaced by a name of the same length
(`{{MODULE}}` -> `__MODULE__`), so lines and columns stay the file's own and what remains
wrong (a typo in the code around the slots) is still found; findings about the stand-in
names are the slots', not the script's.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx

_SLOT = rx(r"\{\{(\s*[^\W\d][\w.]*(?:\s*\|[^{}\n]*)?\s*)\}\}")
_NOT_IDENT = rx(r"\W")
# A file name that says it is a template (`runner_template.py`, `setup.py.tmpl`).
_TEMPLATE_NAME = rx(r"templ|tmpl|skeleton|boilerplate", re.IGNORECASE)


@dataclass(frozen=True)
class Slot:
    line: int  # 1-based
    column: int  # 0-based offset of `{{` in its line
    text: str  # as written: `{{MODULE}}`
    name: str  # its stand-in, an identifier of the same length: `__MODULE__`


def code_slots(text: str) -> tuple[Slot, ...]:
    """The `{{NAME}}` slots of Python `text` that stand in code, in file order."""
    return _slots(text) if "{{" in text else ()


@functools.lru_cache(maxsize=64)
def _slots(text: str) -> tuple[Slot, ...]:
    lines = io.StringIO(text).readlines()
    openers: set[tuple[int, int]] = set()
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    try:
        for tok in tokens:
            if tok.type == tokenize.OP and tok.string == "{":
                openers.add(tok.start)
    except (tokenize.TokenError, SyntaxError):
        pass  # keep the braces read before the tokenizer gave up
    found = []
    for row, col in sorted(openers):
        m = _SLOT.match(lines[row - 1], col) if row <= len(lines) else None
        if m is not None:
            name = ("__" + _NOT_IDENT.sub("_", m.group(1).strip())).ljust(len(m.group()), "_")
            found.append(Slot(row, col, m.group(), name))
    return tuple(found)


def filled_text(text: str) -> str:
    """`text` with every code slot replaced by its stand-in name (same length), or `text`
    itself when it has none."""
    slots = code_slots(text)
    if not slots:
        return text
    lines = io.StringIO(text).readlines()
    for s in slots:
        line = lines[s.line - 1]
        lines[s.line - 1] = line[: s.column] + s.name + line[s.column + len(s.text):]
    return "".join(lines)


def about_a_slot(slots: tuple[Slot, ...], message: str, line: int | None,
                 column: int | None) -> bool:
    """A linter's finding on the filled text is the slots' own: it names a stand-in
    (`undefined name __PATH_LIST__`) or points inside one (`column` 1-based)."""
    for s in slots:
        if s.name in message:
            return True
        if line == s.line and column is not None and s.column < column <= s.column + len(s.text):
            return True
    return False


def declared_template(path: str, slots: tuple[Slot, ...], others: list[str]) -> bool:
    """The skill says the file is a template: its name does (`*_template.py`, `*.py.tmpl`),
    or another of its files names one of its slots ("substitute `{{PATH_LIST}}` with...")."""
    if _TEMPLATE_NAME.search(PurePosixPath(path).name):
        return True
    return any(s.text in other for s in slots for other in others)
