"""Reading a line of code for the security rules: what language holds it, and whether a
spot is code, a string literal or a comment (`linters.security.inert_code` asks).

A line is read on its own, left to right, with the quotes and comment markers of its
language; a statement spanning lines is found by counting brackets outside string literals.
No parser: a skill's code may be a fragment in a Markdown block, in any language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.security.block_frame import fence_of
from linters.security.code_flow import CODE_EXT, DATA_EXT, SHELL_EXT
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

_SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "ksh", "console", "shell-session"})
_CODE_LANGS = frozenset(
    {
        "python",
        "py",
        "python3",
        "javascript",
        "js",
        "typescript",
        "ts",
        "jsx",
        "tsx",
        "ruby",
        "rb",
        "go",
        "rust",
        "rs",
        "java",
        "kotlin",
        "swift",
        "php",
        "csharp",
        "cs",
        "lua",
        "perl",
    }
)
_DATA_LANGS = frozenset({"json", "jsonl", "yaml", "yml", "toml"})


def code_kind(st: SecurityText, line: Line) -> tuple[str | None, list[str], int]:
    """("shell" | "code" | "data" | None, the lines of the file or code block, the index of
    `line` among them)."""
    if not st.is_markdown:
        path = st.path.lower()
        lines = st.text.split("\n")
        if path.endswith(SHELL_EXT) or st.text.startswith(
            ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash")
        ):
            return "shell", lines, line.no - 1
        if path.endswith(CODE_EXT) or st.text.startswith("#!/usr/bin/env python"):
            return "code", lines, line.no - 1
        return ("data", lines, line.no - 1) if path.endswith(DATA_EXT) else (None, [], 0)
    doc = st.doc
    fence = fence_of(st, line) if doc is not None and doc.is_code(line.no) else None
    if fence is None:
        return None, [], 0
    lang = fence.lang.lower()
    lines, idx = list(fence[3]), line.no - fence.start - 1
    if not 0 <= idx < len(lines):
        return None, [], 0
    if lang in _SHELL_LANGS:
        return "shell", lines, idx
    if lang in _CODE_LANGS:
        return "code", lines, idx
    return ("data", lines, idx) if lang in _DATA_LANGS else (None, [], 0)


def spot_state(text: str, col: int, kind: str) -> tuple[str, int]:
    """("code" | "string" | "comment", where the string or comment opens) at `col`."""
    quote, opened, i = "", 0, 0
    while i < col:
        ch = text[i]
        if quote:
            if ch == "\\" and not (kind == "shell" and quote == "'"):
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'" or (ch == "`" and kind == "code"):
            quote, opened = ch, i
        elif kind != "data" and (
            (ch == "#" and (i == 0 or text[i - 1] in " \t;") and not text.startswith("#!", i))
            or (kind == "code" and text.startswith("//", i))
        ):
            return "comment", i
        i += 1
    return ("string", opened) if quote else ("code", 0)


def in_docstring(raw: bytes, start: int) -> bool:
    """The line at byte `start` is inside a triple-quoted string that opens a statement of
    its own (a docstring), not one assigned or passed to a call."""
    opens = [m.start() for m in re.finditer(rb'"""|\'\'\'', raw[:start])]
    if len(opens) % 2 == 0:
        return False
    opener = raw[raw.rfind(b"\n", 0, opens[-1]) + 1 : opens[-1]]
    return opener.strip() in (b"", b"r", b"u", b"f", b"b")


def closing_quote(text: str, opened: int) -> int | None:
    quote, i = text[opened], opened + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return None


_LITERAL = rx(r"\"(?:\\.|[^\"\\])*\"?|'(?:\\.|[^'\\])*'?|`[^`]*`?")


def bare(text: str) -> str:
    """`text` without its string literals and its `#` comment: the code that acts."""
    return _LITERAL.sub('""', text).split(" #")[0]


def open_brackets(code: str) -> Iterator[int]:
    """Where the brackets of any kind still open at the end of `code` open, innermost first."""
    depth = 0
    for i in range(len(code) - 1, -1, -1):
        ch = code[i]
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth:
                depth -= 1
            else:
                yield i


def open_parens(code: str) -> Iterator[int]:
    """Where the parentheses still open at the end of `code` open, the innermost first."""
    return (i for i in open_brackets(code) if code[i] == "(")


def open_call(head: str) -> bool:
    """The end of `head` is inside the parentheses of a call (`name(`), not of a tuple."""
    return any(re.search(r"[\w)\]]\s*$", head[:i]) for i in open_parens(head))


def statement_start(lines: list[str], idx: int) -> int:
    """The line where the statement holding line `idx` starts: where the outermost bracket
    still open at `idx` was opened."""
    depth, start = 0, idx
    for i in range(max(0, idx - 400), idx):
        if depth <= 0:
            start = i
            depth = 0
        code = bare(lines[i])
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
    return start if depth > 0 else idx


def indented_body(lines: list[str], at: int) -> list[str]:
    """The lines of the block opened on line `at` (a function, a loop): those indented
    deeper, up to 200."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    body = []
    for text in lines[at + 1 : at + 201]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        body.append(text)
    return body


# The words of a code name, camelCase or snake_case (`runInShell`, `do_call`, `healthCheck`).
_NAME_WORD = rx(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def name_words(name: str) -> list[str]:
    """The words of `name`, lowercased (`safe_exec` -> safe, exec; `runInShell` -> run, in,
    shell)."""
    return [w.lower() for w in _NAME_WORD.findall(name)]
