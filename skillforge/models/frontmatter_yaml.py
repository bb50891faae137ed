"""SKILL.md's YAML frontmatter as ruamel round-trip data, without paying ruamel every time.

ruamel's round-trip loader takes ~0.7 ms for a typical frontmatter, most of the time it
takes to load a skill. Most frontmatters are a few `key: value` lines (plain, "double" or
'single' quoted) with at most one nested mapping (`metadata:`). `simple_mapping` reads
exactly that shape into the types ruamel builds for it (a CommentedMap with line and column
data, `str` values) and returns None for anything else: block scalars, lists, comments,
flow collections, escapes, tabs, continuation lines, duplicate keys and any plain scalar
ruamel would resolve to another type (`1.0`, `true`, `null`, a date). Those go to ruamel.
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
from ruamel.yaml.comments import CommentedMap
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
# A plain scalar cannot start with an indicator; "-", "?" and ":" can, before a non-space,
# but are left to ruamel.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")

# ruamel's implicit resolvers (YAML 1.2, as its round-trip loader uses), by the first
# character they apply to: digits, signs, t/f/n/T/F/N, `~`, ... A scalar starting with any
# other character is a string.
_resolver = VersionedResolver()
_RESOLVERS: dict = _resolver.versioned_resolver
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


def simple_mapping(raw: str) -> CommentedMap | None:
    """The mapping `raw` holds when it has the simple shape described above, else None."""
    if _UNSAFE.search(raw):
        return None
    top = CommentedMap()
    top.fa.set_block_style()
    nested: CommentedMap | None = None  # the mapping whose children are being read
    child_indent = 0
    pending: tuple[str, int] | None = None  # a `key:` with no value yet: (key, line)
    for no, line in enumerate(raw.split("\n")):
        if not line.strip(" "):
            continue
        m = _LINE.match(line)
        if m is None or ("#" in line and (" #" in line or line.lstrip(" ").startswith("#"))):
            return None
        indent, key, text = len(m.group(1)), m.group(2), m.group(3)
        if text:
            text = text.rstrip(" ")
        if len(key) > 200 or not _is_str(key):
            return None
        if indent:
            if pending is not None:
                parent_key, parent_line = pending
                nested, child_indent, pending = CommentedMap(), indent, None
                nested.fa.set_block_style()
                nested.lc.line, nested.lc.col = no, indent
                top[parent_key] = nested
                top.lc.add_kv_line_col(parent_key, [parent_line, 0, no, indent])
            if nested is None or indent != child_indent or key in nested:
                return None
            target = nested
        else:
            if pending is not None or key in top:
                return None  # `key:` with nothing under it is null: ruamel's business
            nested = None
            if not text:
                pending = (key, no)
                continue
            target = top
        value = _scalar(text)
        if value is None:
            return None
        target[key] = value
        target.lc.add_kv_line_col(key, [no, indent, no, m.start(3)])
    if pending is not None or not top:
        return None
    first = next(iter(top))
    top.lc.line, top.lc.col = top.lc.key(first)
    return top


def _scalar(text: str | None) -> str | None:
    """A quoted or plain scalar that is surely a `str` to ruamel, as ruamel reads it."""
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
    if first in _INDICATORS or ": " in text or text[-1] == ":" or not _is_str(text):
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
