"""The rules' regexes, compiled once per Python build instead of once per process.

Compiling a pattern is pure Python in CPython's `re` (its parser and code generator): the
~270 patterns of the rule modules cost ~40 ms at every `skillforge lint` start, a twentieth
of a whole-corpus run (issue 14). What `re` hands to its C engine at the end of a compile is
plain data: the pattern, flags, a list of opcodes and the group tables. `rx` keeps that data
for each module-level pattern in the cache dir (`compiled-regex/`, one file per Python build
and engine version, as `__pycache__` keeps bytecode) and builds the pattern object from it,
which takes microseconds.

Safety: an entry is written only when the object built from it equals what `re.compile`
gives (a `re.Pattern` compares its pattern, flags and opcodes), and the file is named after
the interpreter's exact version and the engine's MAGIC number, so another build never reads
it. A missing, damaged or unreadable file, or any surprise from the engine, means
`re.compile` as usual. Only patterns fixed in the source belong here, never ones built from
a skill's text (the file would grow with every skill linted).
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import re
import sys
import tempfile
import threading
from array import array
from typing import Any

try:  # CPython's regex engine and compiler, whose output is kept
    import _sre
    from re import _compiler, _parser
except ImportError:  # another Python: compile as usual
    _sre = None

from linters.caches import cache_dir

# Bump when the shape of an entry changes.
SCHEMA = 2
# The opcodes are kept as the bytes of an array of this type code (the engine's code unit).
_CODE = "I"

# (flags, opcodes, groups, group index, index group): `_sre.compile`'s arguments after the
# pattern, with the opcodes as bytes (a list of 70,000 ints reads ten times slower).
Entry = tuple[int, bytes, int, dict[str, int], tuple[Any, ...]]

_USABLE = _sre is not None and array(_CODE).itemsize == _sre.CODESIZE
_lock = threading.Lock()
_table: dict[tuple[str, int], Entry] | None = None
_added: dict[tuple[str, int], Entry] = {}


def rx(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the kept compile when there is one."""
    flags = int(flags)
    if not _USABLE or not isinstance(pattern, str):
        return re.compile(pattern, flags)
    key = (pattern, flags)
    entry = _load().get(key)
    if entry is not None:
        try:
            return _build(pattern, entry)
        except Exception:  # noqa: BLE001 - an engine that reads it otherwise: compile anew
            pass
    compiled = re.compile(pattern, flags)
    entry = _entry(pattern, flags, compiled)
    if entry is not None:
        with _lock:
            if not _added:
                atexit.register(_save)
            _added[key] = entry
    return compiled


def _entry(pattern: str, flags: int, compiled: re.Pattern[str]) -> Entry | None:
    """What `re._compiler.compile` hands to `_sre.compile`, if it rebuilds `compiled`."""
    try:
        p = _parser.parse(pattern, flags)
        code = _compiler._code(p, flags)
        groupindex = dict(p.state.groupdict)
        indexgroup: list[str | None] = [None] * p.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        entry: Entry = (int(flags | p.state.flags), array(_CODE, code).tobytes(),
                        p.state.groups - 1, {str(k): int(v) for k, v in groupindex.items()},
                        tuple(indexgroup))
        # As it will be read back: it must rebuild exactly the pattern `re` built.
        entry = marshal.loads(marshal.dumps(entry))
        if _build(pattern, entry) != compiled:
            return None
    except Exception:  # noqa: BLE001 - internals that changed: keep nothing
        return None
    return entry


def _build(pattern: str, entry: Entry) -> re.Pattern[str]:
    flags, code, groups, groupindex, indexgroup = entry
    return _sre.compile(pattern, flags, array(_CODE, code).tolist(), groups, groupindex,
                        indexgroup)


def _path() -> str:
    build = repr((SCHEMA, sys.version, sys.implementation.cache_tag, _sre.MAGIC,
                  _sre.CODESIZE, _sre.MAXREPEAT, _sre.MAXGROUPS, sys.maxunicode))
    name = hashlib.sha256(build.encode()).hexdigest()[:16]
    return os.path.join(cache_dir("compiled-regex"), f"re-{name}.marshal")


def _load() -> dict[tuple[str, int], Entry]:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                _table = _read(_path())
    return _table


def _read(path: str) -> dict[tuple[str, int], Entry]:
    try:
        with open(path, "rb") as fh:
            table = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return table if isinstance(table, dict) else {}


def _save() -> None:
    """Write the kept table with this process's new entries (atomically; errors ignored)."""
    with _lock:
        if not _added:
            return
        table = {**(_table or {}), **_added}
        _added.clear()
    path = _path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            marshal.dump(table, out)
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def forget() -> None:
    """Forget the table this process read (as a new process would); the file stays."""
    global _table
    with _lock:
        _table = None
