"""SKILL.md's YAML frontmatter as ruamel round-trip data, without paying ruamel every time.

ruamel's round-trip loader takes ~0.7 ms for a typical frontmatter, most of the time it
takes to load a skill (and ~30 ms of a 152-skill lint). Most frontmatters are `key: value`
lines (plain, "double" or 'single' quoted, `true`/`false`), nested mappings (`metadata:`),
lists of such scalars (`allowed-tools:` then `- Read` lines, or `mcp: [rube]`) and `|` or
`>` block scalars for a long description. `simple_mapping` reads exactly those shapes into
the types ruamel builds for them (CommentedMap and CommentedSeq with their line, column and
flow-style data, `str`, `bool`, LiteralScalarString, FoldedScalarString with its fold
positions), plain scalars over several lines included, and returns None for anything else:
comments, flow mappings, escapes, tabs, indentation indicators, blank-first or space-only
lines in a block scalar, duplicate keys, `key:` with nothing under it and any plain scalar
ruamel would resolve to another type (`1.0`, `null`, a date). Those go to ruamel.
`load_frontmatter` caches what ruamel reads by text, so a re-lint of an unchanged SKILL.md
parses nothing (each caller gets its own copy of the data).
"""

from __future__ import annotations

import copy
import re
import threading
from collections import OrderedDict
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString
from ruamel.yaml.resolver import VersionedResolver

CACHE_SIZE = 256
_STR_TAG = "tag:yaml.org,2002:str"

# Characters ruamel does not read as ordinary text everywhere: tabs, carriage returns, other
# control characters, the characters YAML 1.1 also takes for line breaks (U+0085, U+2028,
# U+2029), surrogates, a byte order mark and the non-characters U+FFFE and U+FFFF: all left
# to ruamel. Listed as they are, not as the complement of the safe ranges: that class takes
# `re` ~4 ms to compile at every start.
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_LINE = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$")
# A plain scalar cannot start with an indicator; "-", "?" and ":" can, before a non-space:
# `_scalar` takes a leading "-" so (`-21risk`) and leaves "?" and ":" to ruamel.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")

# ruamel's implicit resolvers (YAML 1.2, as its round-trip loader uses), by the first
# character they apply to: digits, signs, t/f/n/T/F/N, `~`, ... A scalar starting with any
# other character is a string.
_resolver = VersionedResolver()
_RESOLVERS: dict = _resolver.versioned_resolver
# Plain scalars ruamel's YAML 1.2 resolver reads as booleans (a plain `bool`, no anchor).
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
          "FALSE": False}
_cache: OrderedDict[str, Any] = OrderedDict()
_cache_lock = threading.Lock()


def load_frontmatter(raw: str, yaml: YAML) -> Any:
    """`raw` loaded as `yaml.load` would (same types, same errors raised)."""
    data = simple_mapping(raw)
    if data is not None:
        return data
    with _cache_lock:
        hit = _cache.get(raw)
        if hit is not None:
            _cache.move_to_end(raw)
    if hit is None:
        hit = yaml.load(raw)
        with _cache_lock:
            _cache[raw] = hit
            if len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    # The cached data is never handed out, so no caller can change it: a deep copy is ~10
    # times cheaper than a parse.
    return copy.deepcopy(hit)


class _NotSimple(Exception):
    """The text has a shape the direct reader leaves to ruamel."""


def simple_mapping(raw: str) -> CommentedMap | None:
    """The mapping `raw` holds when it has the simple shape described above, else None."""
    if _UNSAFE.search(raw):
        return None
    lines = raw.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text's last line break ends a line; it opens none
    reader = _Reader(lines, raw.endswith("\n"))
    try:
        top = reader.mapping(reader.next_entry(), 0)
    except _NotSimple:
        return None
    if top is None or reader.next_entry() < len(lines):
        return None
    return top


class _Reader:
    """Block mappings, block and flow sequences of scalars, and block scalars, by lines."""

    def __init__(self, lines: list[str], ends_with_break: bool) -> None:
        self.lines = lines
        self.ends_with_break = ends_with_break
        self.pos = 0

    def next_entry(self) -> int:
        """Index of the next line that is not blank (from `pos`, which it moves there)."""
        self.pos = _skip_blank(self.lines, self.pos)
        return self.pos

    def mapping(self, at: int, indent: int) -> CommentedMap | None:
        """The block mapping whose first key is on line `at`, at column `indent`."""
        lines = self.lines
        out = CommentedMap()
        out.fa.set_block_style()
        while at < len(lines):
            line = lines[at]
            m = _LINE.match(line)
            if m is None or len(m.group(1)) != indent:
                if len(line) - len(line.lstrip(" ")) < indent:
                    break  # the end of this mapping: the enclosing one goes on
                raise _NotSimple
            if "#" in line and (" #" in line or line.lstrip(" ").startswith("#")):
                raise _NotSimple
            key, text = m.group(2), m.group(3)
            if text:
                text = text.rstrip(" ")
            if len(key) > 200 or not _is_str(key) or key in out:
                raise _NotSimple
            self.pos = at + 1
            if not text:
                value, vline, vcol = self.nested(at, indent)
            elif text[0] in "|>":
                value, vline, vcol = self.block_scalar(at, indent, text), at, m.start(3)
            elif text[0] == "[":
                value, vline, vcol = _flow_sequence(line, m.start(3), at), at, m.start(3)
            else:
                value, vline, vcol = self.scalar(text, at, indent), at, m.start(3)
            out[key] = value
            out.lc.add_kv_line_col(key, [at, indent, vline, vcol])
            at = self.next_entry()
        if not out:
            return None
        out.lc.line, out.lc.col = out.lc.key(next(iter(out)))
        return out

    def nested(self, at: int, indent: int) -> tuple[CommentedMap | CommentedSeq, int, int]:
        """The value under `key:` on line `at`: a mapping or a block sequence below it."""
        below = self.next_entry()
        if below >= len(self.lines):
            raise _NotSimple  # `key:` with nothing under it is null: ruamel's business
        line = self.lines[below]
        col = len(line) - len(line.lstrip(" "))
        if line[col:col + 2] == "- " and col >= indent:
            return self.sequence(below, col), below, col
        if col > indent and _LINE.match(line):
            nested = self.mapping(below, col)
            if nested is not None:
                return nested, below, col
        elif col > indent and line[col] not in _INDICATORS and " #" not in line:
            # A plain scalar that starts on the next line (`description:` then text).
            return self.scalar(line[col:].rstrip(" "), below, indent), below, col
        raise _NotSimple

    def scalar(self, text: str, at: int, indent: int) -> str | bool:
        """The scalar starting with `text` on line `at`, with the lines that continue it
        (indented more than its key at `indent`): a plain scalar may span lines."""
        value = _scalar(text)
        if value is None:
            raise _NotSimple
        lines = self.lines
        parts = [text]
        k = at + 1
        while True:
            # A blank line, or one of spaces only, is a line break to ruamel.
            nxt = _skip_blank(lines, k)
            if nxt >= len(lines):
                break
            line = lines[nxt]
            col = len(line) - len(line.lstrip(" "))
            if col <= indent:
                break
            piece = line.strip(" ")
            if (not piece or not isinstance(value, str) or text[0] in "'\"" or "#" in piece
                    or piece[0] in _INDICATORS or ": " in piece or piece[-1] == ":"):
                raise _NotSimple
            # Folded as ruamel's scanner folds: one line break is a space, each blank line
            # a line break.
            parts.append("\n" * (nxt - k) if nxt > k else " ")
            parts.append(piece)
            k = nxt + 1
        self.pos = k
        if len(parts) == 1:
            return value
        value = "".join(parts)
        if not _is_str(value):
            raise _NotSimple
        return value

    def sequence(self, at: int, indent: int) -> CommentedSeq:
        """The block sequence of scalars whose first `- ` is on line `at`, column `indent`."""
        lines = self.lines
        out = CommentedSeq()
        out.fa.set_block_style()
        out.lc.line, out.lc.col = at, indent
        while at < len(lines):
            line = lines[at]
            col = len(line) - len(line.lstrip(" "))
            if col < indent or (col == indent and line[col:col + 2] != "- "):
                break
            if col != indent or "#" in line:
                raise _NotSimple
            text = line[col + 2:]
            start = col + 2 + len(text) - len(text.lstrip(" "))
            value = _scalar(text.strip(" "))
            if value is None:
                raise _NotSimple
            out.append(value)
            out.lc.add_kv_line_col(len(out) - 1, [at, start])
            self.pos = at + 1
            at = self.next_entry()
        return out

    def block_scalar(self, at: int, indent: int, header: str) -> str:
        """The `|` or `>` scalar whose header is on line `at`, as ruamel's scanner reads it."""
        style, chomp = header[0], header[1:]
        if chomp not in ("", "-", "+"):
            raise _NotSimple  # an indentation indicator, or text after the header
        lines = self.lines
        first = at + 1
        if first >= len(lines) or not lines[first].strip(" "):
            raise _NotSimple  # empty, or blank lines first: ruamel's business
        ci = len(lines[first]) - len(lines[first].lstrip(" "))
        if ci <= indent:
            raise _NotSimple
        end = first
        while end < len(lines) and (lines[end] == "" or lines[end][:ci].strip(" ") == ""):
            if lines[end] and not lines[end].strip(" "):
                raise _NotSimple  # a line of spaces only: its indentation rules are ruamel's
            end += 1
        while end > first and lines[end - 1] == "":
            end -= 1  # trailing blank lines are the chomping's business
        trailing = self.next_after(end) - end
        chunks: list[str] = []
        breaks = 0
        folded = style == ">"
        k = first
        while True:
            line = lines[k]
            chunks.append("\n" * breaks)
            chunks.append(line[ci:])
            k += 1
            breaks = 0
            while k < end and lines[k] == "":
                breaks += 1
                k += 1
            if k >= end:
                break
            # ruamel's folding: a line break between two lines that start with text becomes
            # a space (or nothing, before blank lines), marked by \a for the fold positions.
            if folded:
                chunks.append("\a")
            if folded and line[ci] != " " and lines[k][ci] != " ":
                if not breaks:
                    chunks.append(" ")
            else:
                chunks.append("\n")
        last_break = "\n" if end < len(lines) or self.ends_with_break else ""
        if chomp != "-":
            chunks.append(last_break)
        if chomp == "+":
            chunks.append("\n" * trailing)
        self.pos = end
        value = "".join(chunks)
        if not folded:
            return LiteralScalarString(value)
        out = FoldedScalarString(value.replace("\a", ""))
        fold_pos: list[int] = []
        idx = value.find("\a")
        while idx >= 0:
            fold_pos.append(idx - len(fold_pos))
            idx = value.find("\a", idx + 1)
        if fold_pos:
            out.fold_pos = fold_pos  # type: ignore[attr-defined]
        return out

    def next_after(self, end: int) -> int:
        """Index of the first line from `end` on that is not empty."""
        lines = self.lines
        while end < len(lines) and lines[end] == "":
            end += 1
        return end


def _skip_blank(lines: list[str], pos: int) -> int:
    """Index of the first line from `pos` on that holds more than spaces."""
    while pos < len(lines) and not lines[pos].strip(" "):
        pos += 1
    return pos


def _flow_sequence(line: str, at: int, no: int) -> CommentedSeq:
    """`[a, b]` of plain scalars, the whole rest of `line` from column `at`."""
    if not line.endswith("]") or line.count("[") != 1 or line.count("]") != 1:
        raise _NotSimple
    out = CommentedSeq()
    out.fa.set_flow_style()
    out.lc.line, out.lc.col = no, at
    pos = at + 1
    for item in line[at + 1:-1].split(","):
        text = item.strip(" ")
        value = None if not text or any(c in text for c in "{}'\":?#") else _scalar(text)
        if value is None:
            raise _NotSimple
        out.append(value)
        out.lc.add_kv_line_col(len(out) - 1, [no, pos + len(item) - len(item.lstrip(" "))])
        pos += len(item) + 1
    return out


def _scalar(text: str | None) -> str | bool | None:
    """A quoted or plain scalar that is surely a `str` (or a `true`/`false`) to ruamel, as
    ruamel reads it."""
    if not text:
        return None
    first = text[0]
    if first == '"':
        inner = text[1:-1]
        if len(text) >= 2 and text[-1] == '"' and '"' not in inner and "\\" not in inner:
            return inner
        return None
    if first == "'":
        inner = text[1:-1]
        if len(text) >= 2 and text[-1] == "'" and "'" not in inner.replace("''", ""):
            return inner.replace("''", "'")
        return None
    # "-" starts a plain scalar when text follows it at once (`-21risk`), not a list item.
    if (first in _INDICATORS and not (first == "-" and text[1:2] not in ("", " "))) \
            or ": " in text or text[-1] == ":":
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if not _is_str(text):
        return None
    return text


def _is_str(plain: str) -> bool:
    # What ruamel's resolver does for a plain scalar: the first of the patterns for its first
    # character (and those for any character) that matches gives the type; none: a string.
    # `1.0`, `true`, `null`, `2024-01-01` are not strings.
    for tag, rx in (*_RESOLVERS.get(plain[:1], ()), *_RESOLVERS.get(None, ())):
        if rx.match(plain):
            return str(tag) == _STR_TAG
    return True
