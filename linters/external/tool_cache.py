"""The external linters' result cache: per-file records by content hash, and tool versions.

Records live in memory (bounded) and on disk under the user cache dir, so an unchanged
script is never handed to a tool twice, not even by a fresh `skillforge lint` process.
Versions are remembered by the binary's (real path, size, mtime).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from linters.caches import cache_dir
from skillforge.models.fileio import atomic_write_text

MEMORY_ITEMS = 4096
# Bump when the shape of cached records changes: old entries then simply miss.
RECORD_SCHEMA = 1

Record = dict[str, object]


def cache_root() -> Path:
    """The external linters' records: `cache_dir("scriptlint")`."""
    return cache_dir("scriptlint")


_lock = threading.Lock()
_memory: OrderedDict[tuple[str, ...], list[Record]] = OrderedDict()
_versions: dict[tuple[str, int, int], str] = {}


def clear_memory_cache() -> None:
    """Forget in-memory results and versions (as a fresh process would); disk stays."""
    with _lock:
        _memory.clear()
        _versions.clear()


def _digest(parts: Sequence[object]) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file."""
    atomic_write_text(path, text)


def cache_get(key: tuple[str, ...], root: Path | None = None) -> list[Record] | None:
    """Cached records for `key` (tool, version, sha256, suffix), from memory or disk."""
    with _lock:
        hit = _memory.get(key)
        if hit is not None:
            _memory.move_to_end(key)
            return hit
    root = root or cache_root()
    path = root / "results" / f"{_digest((RECORD_SCHEMA, *key))}.json"
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    # The key is stored too: a corrupt or foreign file is a miss, never a wrong answer.
    if not isinstance(data, dict) or data.get("key") != list(key):
        return None
    records = data.get("records")
    if not isinstance(records, list):
        return None
    _remember(key, records)
    return records


def cache_put(key: tuple[str, ...], records: list[Record], root: Path | None = None) -> None:
    """Store records in memory and on disk; an unwritable cache dir is silently skipped."""
    _remember(key, records)
    root = root or cache_root()
    path = root / "results" / f"{_digest((RECORD_SCHEMA, *key))}.json"
    try:
        write_atomic(path, json.dumps({"key": list(key), "records": records}))
    except OSError:
        pass


def _remember(key: tuple[str, ...], records: list[Record]) -> None:
    with _lock:
        _memory[key] = records
        _memory.move_to_end(key)
        while len(_memory) > MEMORY_ITEMS:
            _memory.popitem(last=False)


def known_version(key: tuple[str, int, int], root: Path) -> str | None:
    """The version remembered for a binary's (real path, size, mtime), from memory or disk."""
    with _lock:
        known = _versions.get(key)
    if known is None:
        try:
            known = (root / "versions" / f"{_digest(key)}.txt").read_text("utf-8").strip()
        except OSError:
            return None
    if not known:
        return None
    with _lock:
        _versions[key] = known
    return known


def remember_version(key: tuple[str, int, int], version: str, root: Path) -> None:
    """Remember a binary's version in memory and on disk (an unwritable disk is skipped)."""
    with _lock:
        _versions[key] = version
    try:
        write_atomic(root / "versions" / f"{_digest(key)}.txt", version)
    except OSError:
        pass
