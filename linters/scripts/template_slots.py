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

`<NAME>` angle slots (holdout25: `def <tool_name>(<param>: <type>) -> dict:`) are read
the same way, but only in a file that is a template: its name says so (`tool-template.py`),
it sits in a `templates/` folder, or its own text says to fill or replace a `<slot>`. In any
other script `x = <y>` stays the syntax error it is. A `<` opens a slot only where Python
expects an operand (after `def`, `(`, `:`, `=`, `->`, a comma, a keyword, or at a line's
start) and `<` and `>` hug one name (`<tool_name>`, `<api-key>`): `a < b > c` and `a<b>c`
are comparisons, their `<` follows an operand.
"""

from __future__ import annotations

import ast
import functools
import io
import keyword
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx

_SLOT = rx(r"\{\{(\s*[^\W\d][\w.]*(?:\s*\|[^{}\n]*)?\s*)\}\}")
_ANGLE = rx(r"<([^\W\d][\w-]*)>")
_NOT_IDENT = rx(r"\W")
# What ends an operand: a `<` after one is a comparison, not a slot.
_OPERAND_END = frozenset({")", "]", "}"})
_OPERAND_WORDS = frozenset({"True", "False", "None"})
_SKIP = frozenset({tokenize.NL, tokenize.COMMENT})
_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})
# The file's own words saying its `<slots>` are to be filled ("Replace <tool_name> with...").
_DOCSTRING = rx(r"\s*(?:#[^\n]*\n\s*)*[rRuU]?(?:\"\"\"|\'\'\')(.*?)(?:\"\"\"|\'\'\')", re.DOTALL)
_SAYS_FILL = rx(r"\b(?:fill(?:ed|ing)?(?:\s+in)?|replac(?:e|ed|ing)|substitut(?:e|ed|ing)"
                r"|placeholders?)\b[^\n]*<[^\W\d][\w-]*>"
                r"|<[^\W\d][\w-]*>[^\n]*\b(?:placeholders?|fill(?:ed)?\s+in)\b", re.IGNORECASE)
# A file name that says it is a template (`runner_template.py`, `setup.py.tmpl`).
_TEMPLATE_NAME = rx(r"templ|tmpl|skeleton|boilerplate", re.IGNORECASE)


@dataclass(frozen=True)
class Slot:
    line: int  # 1-based
    column: int  # 0-based offset of `{{` in its line
    text: str  # as written: `{{MODULE}}`
    name: str  # its stand-in, an identifier of the same length: `__MODULE__`

    @property
    def angle(self) -> bool:
        return self.text.startswith("<")


def angle_template(path: str, text: str) -> bool:
    """A file whose `<NAME>` slots are read: its name or folder says it is a template, or
    its own text says to fill or replace a `<slot>`."""
    p = PurePosixPath(path)
    if _TEMPLATE_NAME.search(p.name) or any(d.lower() in ("templates", "template")
                                            for d in p.parts[:-1]):
        return True
    return any(_SAYS_FILL.search(words) for words in _prose(text))


def _prose(text: str) -> Iterator[str]:
    """The file's words to its reader: its module docstring and its comment lines (not
    code, where `s.replace("<b>", "")` says nothing of the file)."""
    doc = _DOCSTRING.match(text)
    if doc is not None:
        yield doc.group(1)
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            yield line


def code_slots(text: str, path: str = "") -> tuple[Slot, ...]:
    """The `{{NAME}}` slots of Python `text` that stand in code, in file order; with the
    file's `path`, also its `<NAME>` slots when it is a template (`angle_template`)."""
    angle = bool(path) and "<" in text and angle_template(path, text)
    return _slots(text, angle) if "{{" in text or angle else ()


def _angle_opens(prev: tokenize.TokenInfo | None) -> bool:
    """A `<` after `prev` stands where Python expects an operand, so it cannot compare."""
    if prev is None or prev.type == tokenize.OP:
        return prev is None or prev.string not in _OPERAND_END
    if prev.type == tokenize.NAME:
        return keyword.iskeyword(prev.string) and prev.string not in _OPERAND_WORDS
    return False


@functools.lru_cache(maxsize=64)
def _slots(text: str, angle: bool = False) -> tuple[Slot, ...]:
    lines = io.StringIO(text).readlines()
    openers: set[tuple[int, int]] = set()
    angles: set[tuple[int, int]] = set()
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    prev = None
    try:
        for tok in tokens:
            if tok.type == tokenize.OP and tok.string == "{":
                openers.add(tok.start)
            elif angle and tok.type == tokenize.OP and tok.string == "<" and _angle_opens(prev):
                angles.add(tok.start)
            if tok.type in _STATEMENT_START:
                prev = None  # a statement begins: a `<` here is no comparison
            elif tok.type not in _SKIP:
                prev = tok
    except (tokenize.TokenError, SyntaxError):
        pass  # keep the braces read before the tokenizer gave up
    found = []
    for row, col in sorted(openers | angles):
        pattern = _ANGLE if (row, col) in angles else _SLOT
        m = pattern.match(lines[row - 1], col) if row <= len(lines) else None
        if m is not None:
            name = ("__" + _NOT_IDENT.sub("_", m.group(1).strip())).ljust(len(m.group()), "_")
            found.append(Slot(row, col, m.group(), name))
    return tuple(found)


def filled_text(text: str, path: str = "") -> str:
    """`text` with every code slot replaced by its stand-in name (same length), or `text`
    itself when it has none."""
    slots = code_slots(text, path)
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
    or another of its files names one of its slots ("substitute `{{PATH_LIST}}` with...").
    `<NAME>` slots are only read in a file that says it is a template."""
    if any(s.angle for s in slots) or _TEMPLATE_NAME.search(PurePosixPath(path).name):
        return True
    return any(s.text in other for s in slots for other in others)


@functools.lru_cache(maxsize=16)
def pasted_fragment(filled: str) -> bool:
    """A template (its slots filled) that imports nothing: a piece of code to paste into a
    file that defines what it uses (`@mcp.tool` over `def <tool_name>(...)`), so a name it
    does not define is the host file's, not a fault of its own. A template that imports
    is a script of its own: its misspelt names stay its own."""
    try:
        tree = ast.parse(filled)
    except (SyntaxError, ValueError):
        return False
    return not any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in ast.walk(tree))
