"""Importers: agent session logs of several harnesses normalised into ATIF trajectories.

`detect_format(path)` names the format of a file or folder, `import_trajectory(path)` imports
one trace, `import_path(path)` every trace a file or folder holds. Formats: `claude_code`
(.jsonl), `codex` (.jsonl rollouts), `atif` (.json, any v1.x), `gemini_cli` (.json chat
recordings and the .jsonl session logs that replaced them) and `opencode` (a storage folder,
or one of its session files).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sessions.importers.atif import import_atif
from sessions.importers.base import ImportResult, Skipped, SkippedLine, TraceImportError
from sessions.importers.claude_code import import_claude_code
from sessions.importers.codex import import_codex
from sessions.importers.gemini_cli import import_gemini_cli
from sessions.importers.gemini_jsonl import is_log_record
from sessions.importers.opencode import import_opencode, storage_root
from sessions.importers.unreadable import EXPECTED, file_problem, not_a_trace

__all__ = [
    "FORMATS", "ImportResult", "Skipped", "SkippedLine", "TraceImportError", "detect_format",
    "import_path", "import_trajectory", "trace_files",
]

FORMATS = ("claude_code", "codex", "atif", "gemini_cli", "opencode")
_CODEX_TYPES = {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
_CLAUDE_TYPES = {"user", "assistant", "summary", "system", "file-history-snapshot",
                 "queue-operation"}
# `codex exec --json` prints an event stream rather than a rollout file.
_CODEX_STREAM_TYPES = {"thread.started", "turn.started", "turn.completed", "turn.failed",
                       "item.started", "item.updated", "item.completed"}
_SNIFF_LINES = 50
_SINGLE: dict[str, Callable[[Path], ImportResult]] = {
    "claude_code": import_claude_code, "codex": import_codex, "atif": import_atif,
    "gemini_cli": import_gemini_cli,
}


def _sniff_lines(path: Path) -> str | None:
    seen = 0
    with path.open("rb") as fh:
        for raw in fh:
            if seen >= _SNIFF_LINES:
                break
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if not isinstance(obj, dict):
                continue
            seen += 1
            if is_log_record(obj):  # before Claude Code: both write `type: "user"` lines
                return "gemini_cli"
            kind = obj.get("type")
            if kind in _CODEX_TYPES and "payload" in obj or kind in _CODEX_STREAM_TYPES:
                return "codex"
            if kind in _CLAUDE_TYPES:
                return "claude_code"
            msg = obj.get("message")
            if kind is None and isinstance(msg, dict) and msg.get("role") in ("user", "assistant") \
                    and ("sessionId" in obj or "uuid" in obj):
                return "claude_code"
    return None


def _sniff_document(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    version = data.get("schema_version")
    if isinstance(data.get("steps"), list) and (
            isinstance(version, str) and version.startswith("ATIF") or "agent" in data):
        return "atif"
    messages = data.get("messages")
    if isinstance(messages, list) and ("sessionId" in data or "projectHash" in data) and all(
            isinstance(m, dict) and "type" in m for m in messages[:20]):
        return "gemini_cli"
    return None


def detect_format(path: Path | str) -> str | None:
    """The trace format of a file or folder, or None when it is not one skillforge reads."""
    path = Path(path)
    if storage_root(path) is not None and (path.is_dir() or path.parent.parent.name == "session"
                                           or path.parent.name == "session"):
        return "opencode"
    if not path.is_file():
        return None
    try:
        if path.suffix == ".jsonl":
            return _sniff_lines(path)
        if path.stat().st_size > 512 * 1024 * 1024:
            return None
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return _sniff_document(json.loads(text))
    except (ValueError, RecursionError):
        return _sniff_lines(path)  # a .json file holding JSON lines


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def import_path(path: Path | str, fmt: str | None = None) -> list[ImportResult]:
    """Every trajectory in one trace file (one) or OpenCode storage (one per session).

    Raises TraceImportError naming the file and the reason when nothing can be imported.
    """
    path = Path(path)
    if not path.exists():
        raise TraceImportError(f"{path}: no such file or folder")
    if path.is_file():
        # Empty, compressed or UTF-16: no format reads it, so say that (and the fix) whatever
        # format was asked for.
        problem = file_problem(path)
        if problem:
            raise TraceImportError(problem)
    fmt = fmt or detect_format(path)
    if fmt is None:
        raise TraceImportError(not_a_trace(path) if path.is_file() else
                               f"{path}: not a trace skillforge can read; {EXPECTED}")
    if fmt == "opencode":
        return import_opencode(path)
    if fmt not in _SINGLE:
        raise TraceImportError(f"{path}: unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if not path.is_file():
        raise TraceImportError(f"{path}: a {fmt} trace is a file, not a folder")
    result = _SINGLE[fmt](path)
    result.source_sha256 = _sha256(path)
    return [result]


def import_trajectory(path: Path | str, fmt: str | None = None) -> ImportResult:
    """Import the one trajectory a file holds (an OpenCode storage must hold one session)."""
    results = import_path(path, fmt)
    if len(results) != 1:
        raise TraceImportError(f"{path}: holds {len(results)} sessions; import them with "
                               "import_path (or `skillforge import`)")
    return results[0]


def trace_files(folder: Path) -> list[Path]:
    """Trace candidates under a folder: OpenCode storages whole, other .json/.jsonl files."""
    folder = Path(folder)
    if storage_root(folder) == folder:
        return [folder]
    out: list[Path] = []
    storages: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if any(path.is_relative_to(s) for s in storages):
            continue
        if path.is_dir() and (path / "session").is_dir() and (path / "message").is_dir():
            storages.append(path)
            out.append(path)
        elif path.is_file() and path.suffix in (".json", ".jsonl") \
                and not path.name.startswith("."):
            out.append(path)
    return out
