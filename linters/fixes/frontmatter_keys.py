"""SF112: move an unknown frontmatter key under `metadata` as a string (safe).

Only for keys the spec does not know at all (the error form of SF112) whose value is a
scalar: `category: seo` becomes `metadata: {category: seo}` with the value's text kept as
written (`version: 1.0` becomes the string '1.0'). Keys Claude Code reads (`model`,
`disable-model-invocation`, ...) stay where they are: moving them would switch off what they
do there. A nested value has no string form to move, so it gets no fix.

The move is made on the text, not by dumping the YAML again: the key's lines (its value's
continuation lines and its end-of-line comment included) are indented under `metadata:`,
which takes the key's place, or go after the last entry of an existing `metadata:` block.
Every other line stays as the author wrote it: a long description folded over several
lines, blank lines, comment lines, quoting. The result must parse (ruamel.yaml) to the same
mapping with the key under `metadata`; otherwise there is no fix.
"""

from __future__ import annotations

import re

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.fixes.frontmatter_text import locate
from linters.fixes.registry import fixer
from skillforge.models.findings import Finding, Severity
from skillforge.models.fixes import Fix
from skillforge.models.skill import Skill

_COMMENT = re.compile(r"\s+#.*$")
# `key:` alone on its line (a nested block follows), and a nested mapping's first entry.
_OPENS_MAPPING = re.compile(r"^[^\s#-][^:]*:[ \t]*(?:#.*)?\r?$")
_NESTED_KEY = re.compile(r"^ +[^\s#-][^:]*:(?:[ \t]|\r?$)")
# `key: value  # comment` on one line: the value's text and what follows it.
_KEY_LINE = re.compile(r"^(?P<head>[^\s#][^:]*:[ \t]+)(?P<value>.*?)(?P<tail>[ \t]+#.*)?$")


@fixer("SF112")
def move_under_metadata(skill: Skill, finding: Finding) -> list[Fix]:
    if finding.severity != Severity.error or skill.frontmatter_status != "ok":
        return []
    fm = skill.frontmatter
    where = locate(skill)
    if fm is None or where is None or fm.start_line != 1:
        return []
    key = next((k for k, line in fm.key_lines.items() if line == finding.line), None)
    data = _load(where.raw) if key is not None else None
    if not isinstance(data, dict):
        return []
    value = data.get(key) if key in data else None
    if value is None or isinstance(value, (dict, list)):
        return []
    meta = data.get("metadata")
    if "metadata" in data and not isinstance(meta, dict) or isinstance(meta, dict) and key in meta:
        return []
    lines = where.raw.split("\n")
    first = finding.line - 2  # the key's line, as an index into the frontmatter's lines
    if not 0 <= first < len(lines) or not lines[first].startswith(str(key)):
        return []
    moved, stop = _entry(lines, first)
    if not isinstance(value, str):
        moved = _quoted(moved)
        if moved is None:
            return []
    indent = _map_indent(lines)
    block = [indent + ln if ln.strip() else ln for ln in moved]
    if meta is None:
        cr = "\r" if where.newline == "\r\n" else ""
        new_lines = lines[:first] + ["metadata:" + cr] + block + lines[stop:]
    else:
        at = _metadata_end(lines)
        if at is None:
            return []
        child = _child_indent(lines, at)
        block = [child + ln if ln.strip() else ln for ln in moved]
        if at <= first:
            new_lines = lines[:at] + block + lines[at:first] + lines[stop:]
        else:
            new_lines = lines[:first] + lines[stop:at] + block + lines[at:]
    new_raw = "\n".join(new_lines)
    if not _same_but_moved(where.raw, new_raw, key):
        return []
    edit = where.edit(new_raw)
    if edit is None:
        return []
    return [Fix(rule="SF112", title=f"Move `{key}` under `metadata:`", safety="safe",
                edits=(edit,))]


def _load(raw: str) -> object:
    try:
        return YAML(typ="safe", pure=True).load(raw)
    except YAMLError:
        return None


def _map_indent(lines: list[str]) -> str:
    """The indentation the author gives a nested mapping's entries (two spaces if none)."""
    for above, line in zip(lines, lines[1:], strict=False):
        if _OPENS_MAPPING.match(above) and _NESTED_KEY.match(line):
            return line[:len(line) - len(line.lstrip(" "))]
    return "  "


def _entry(lines: list[str], first: int) -> tuple[list[str], int]:
    """The lines of the top-level entry starting at `first` (continuation lines indented
    under it; blank lines after it stay where they are), and the index past them."""
    stop = first + 1
    while stop < len(lines) and (not lines[stop].strip() or lines[stop][:1] in " \t"):
        stop += 1
    while stop > first + 1 and not lines[stop - 1].strip():
        stop -= 1
    return lines[first:stop], stop


def _quoted(entry: list[str]) -> list[str] | None:
    """A one-line entry whose value is not a string (a number, a date, a boolean) with the
    value's text single-quoted, so it stays that text as a string; None for anything else."""
    m = _KEY_LINE.match(entry[0].rstrip("\r")) if len(entry) == 1 else None
    if m is None or not m["value"] or m["value"][0] in "\"'&*!|>[{":
        return None
    cr = "\r" if entry[0].endswith("\r") else ""
    text = m["value"].replace("'", "''")
    return [f"{m['head']}'{text}'{m['tail'] or ''}{cr}"]


def _metadata_end(lines: list[str]) -> int | None:
    """Index just past the last entry of the block mapping under a top-level `metadata:`;
    None when `metadata` is written another way (`metadata: {a: b}`)."""
    at = next((i for i, ln in enumerate(lines) if re.match(r"metadata[ \t]*:", ln)), None)
    if at is None or _COMMENT.sub("", lines[at].split(":", 1)[1]).strip():
        return None
    end = at + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t"):
        end += 1
    while end > at + 1 and not lines[end - 1].strip():
        end -= 1
    return end if end > at + 1 else None


def _child_indent(lines: list[str], end: int) -> str:
    """The indentation of the entries of the block ending before `end`."""
    for ln in reversed(lines[:end]):
        if ln.strip() and not ln.lstrip().startswith("#"):
            return ln[:len(ln) - len(ln.lstrip(" \t"))]
    return "  "


def _same_but_moved(old_raw: str, new_raw: str, key: str) -> bool:
    """The new frontmatter reads as the old one with `key` under `metadata` as a string."""
    old, new = _load(old_raw), _load(new_raw)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return False
    meta = new.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get(key), str):
        return False
    if isinstance(old[key], str) and meta[key] != old[key]:
        return False
    want = {k: v for k, v in old.items() if k != key}
    want["metadata"] = {**(old.get("metadata") or {}), key: meta[key]}
    return new == want
