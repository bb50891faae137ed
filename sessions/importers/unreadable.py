"""Why a file is not a trace, in words that say what to do about it.

`skillforge import` used to answer "not a trace skillforge can read" for an empty file, a
gzip-compressed log, a binary file and a JSON document cut off mid-write alike (issue 37).
`file_problem` names what no importer can read whatever the format (empty, compressed,
an archive, UTF-16); `not_a_trace` explains a file whose format could not be detected
(binary, JSON cut off, text that is not JSON, or JSON of an unknown shape).
"""

from __future__ import annotations

import codecs
import json
import shlex
from pathlib import Path

EXPECTED = ("expected a Claude Code, Codex or Gemini CLI .jsonl session log, an ATIF or Gemini "
            "CLI .json file, or an OpenCode storage folder")
_HEAD = 64 * 1024
# (leading bytes, what the file is, the command that undoes it, the suffix that command
# strips). tar.gz and the like are caught by their compression first.
_COMPRESSED = (
    (b"\x1f\x8b", "gzip-compressed", "gunzip", ".gz"),
    (b"BZh", "bzip2-compressed", "bunzip2", ".bz2"),
    (b"\xfd7zXZ\x00", "xz-compressed", "unxz", ".xz"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "unzstd", ".zst"),
)
_ZIP = b"PK\x03\x04"
# POSIX tar says "ustar\0" at byte 257, GNU tar "ustar  \0": a NUL no JSON text holds.
_TAR_MAGICS = (b"ustar\x00", b"ustar ")
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def json_error(path: Path | str, exc: json.JSONDecodeError) -> str:
    """A JSON document that does not parse: where, and the likely cause (cut off mid-write)."""
    return (f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); is "
            "the file complete?")


def _head(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.read(_HEAD)


def file_problem(path: Path) -> str | None:
    """What makes `path` unreadable as any trace format (empty, compressed, an archive,
    UTF-16), with the fix; None when it may be one. Raises OSError when it cannot be read."""
    head = _head(path)
    q = shlex.quote(str(path))
    if not head.strip() and path.stat().st_size <= len(head):
        what = "empty (0 bytes)" if not head else "empty (only whitespace)"
        return (f"{path}: the file is {what}; nothing to import. Check the path, or that the "
                "agent has written its session yet")
    for magic, what, tool, suffix in _COMPRESSED:
        if head.startswith(magic):
            if path.name.endswith(suffix) and len(path.name) > len(suffix):
                plain = shlex.quote(str(path)[:-len(suffix)])
                fix = f"run `{tool} -k {q}` first and import {plain}"
            else:
                plain = shlex.quote(str(path.with_name(path.stem + "-plain" + path.suffix)))
                fix = f"run `{tool} -c {q} > {plain}` first and import that"
            return f"{path}: {what}; {fix}"
    if head.startswith(_ZIP):
        return (f"{path}: a zip archive; extract it first (`unzip {q}`) and import the files "
                "or folder it holds")
    if head[257:263] in _TAR_MAGICS:
        return (f"{path}: a tar archive; extract it first (`tar -xf {q}`) and import the files "
                "or folder it holds")
    if head.startswith(_UTF16_BOMS):
        return (f"{path}: UTF-16 text; traces are UTF-8: convert it first (`iconv -f UTF-16 -t "
                f"UTF-8 {q} > {shlex.quote(str(path.with_name(path.stem + '-utf8' + path.suffix)))}`)"
                " and import that")
    return None


def not_a_trace(path: Path) -> str:
    """Why a file whose format was not detected is not a trace: binary, JSON cut off (or
    otherwise broken), text that is not JSON, or JSON of a shape skillforge does not know."""
    head = _head(path)
    if b"\x00" in head:
        return (f"{path}: a binary file (it holds NUL bytes), not a trace; {EXPECTED}")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError as exc:
        return (f"{path}: not UTF-8 text (byte 0x{head[exc.start]:02x} at offset {exc.start}), "
                f"so not a trace; {EXPECTED}")
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return f"{path}: not a trace skillforge can read (not UTF-8 text); {EXPECTED}"
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] not in ("{", "["):
        opening = stripped.splitlines()[0][:30]
        return (f"{path}: not a trace skillforge can read: it is text, not JSON (it starts "
                f"with {opening!r}); {EXPECTED}")
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        if _is_object(first):
            # JSON Lines whose records no importer knows. (A log cut off mid-line still has
            # whole lines of a known kind before the cut: it is detected, and imports.)
            return (f"{path}: not a trace skillforge can read (JSON lines of an unknown "
                    f"kind); {EXPECTED}")
        return json_error(path, exc)
    except RecursionError:
        return f"{path}: not a trace skillforge can read (JSON nested too deeply); {EXPECTED}"
    return f"{path}: not a trace skillforge can read; {EXPECTED}"


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False
