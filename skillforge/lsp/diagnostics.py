"""Findings as LSP diagnostics: ranges, severities, rule ids, related places, explain links.

A finding has a 1-based line and column (either may be unknown) and no end: its range runs
from the column (else the line's first non-blank character) to the end of that line, so a
hover anywhere on the flagged line finds it. A finding without a line sits on line 1. A
finding about the skill as a whole, a folder or a file an editor cannot show as text
(`__pycache__/`, a binary) is shown on SKILL.md's first line, its path leading the message.

Positions are worked out in code points and converted to the client's negotiated encoding
(UTF-16 unless the client asked otherwise) by pygls's `PositionCodec`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import PositionCodec

from linters.registry import CATALOGUE_DIR
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SKILL_MD, Skill, SkillFile

SOURCE = "skillforge"

SEVERITY = {
    Severity.critical: types.DiagnosticSeverity.Error,
    Severity.error: types.DiagnosticSeverity.Error,
    Severity.high: types.DiagnosticSeverity.Error,
    Severity.warning: types.DiagnosticSeverity.Warning,
    Severity.medium: types.DiagnosticSeverity.Warning,
    Severity.low: types.DiagnosticSeverity.Information,
    Severity.info: types.DiagnosticSeverity.Information,
}

_ALSO_ON = re.compile(r"\balso on lines? ((?:\d+(?:, | and |,)?)+)")
_LINE_OF = re.compile(r"\bline (\d+) of ([\w./-]+)")


def explain_command(rule_id: str) -> str:
    return f"skillforge lint --explain {rule_id}"


@cache
def _catalogue_files() -> dict[str, Path]:
    """Rule id -> the catalogue file holding its entry (`[SF104]` in correctness.toml)."""
    out: dict[str, Path] = {}
    for path in sorted(CATALOGUE_DIR.glob("*.toml")):
        for rid in re.findall(r"(?m)^\[(SF\d{3})\]", path.read_text("utf-8")):
            out[rid] = path
    return out


def explain_href(rule_id: str) -> str | None:
    """A `file://` URI of the catalogue file with the rule's entry: the text that
    `skillforge lint --explain RULE` prints, under the `[RULE]` header. LSP wants a URI here
    and skillforge has no web pages; the command itself travels in the diagnostic's data."""
    path = _catalogue_files().get(rule_id)
    return from_fs_path(str(path)) if path else None


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them for `\\n` files (a `\\r` stays at its line's end)."""
    return text.split("\n")


@dataclass(frozen=True)
class Place:
    """A file of the skill, as a diagnostic target: its URI and text lines."""

    uri: str
    lines: list[str]


def _span(lines: list[str], line: int | None, column: int | None) -> tuple[int, int, int]:
    """(line, start, end) in code points, 0-based, clamped to the text."""
    if not lines:
        return 0, 0, 0
    row = min(max((line or 1) - 1, 0), len(lines) - 1)
    text = lines[row].rstrip("\r")
    end = len(text)
    if column:
        start = min(column - 1, end)
    else:
        start = len(text) - len(text.lstrip())
    return row, start, max(end, start)


def _range(codec: PositionCodec, lines: list[str], line: int | None,
           column: int | None) -> types.Range:
    row, start, end = _span(lines, line, column)
    return codec.range_to_client_units(lines or [""], types.Range(
        start=types.Position(line=row, character=start),
        end=types.Position(line=row, character=end)))


class DiagnosticBuilder:
    """Turns one skill's findings into diagnostics, by file URI."""

    def __init__(self, root: Path, skill: Skill, codec: PositionCodec,
                 open_uris: Mapping[str, str] | None = None) -> None:
        self.root = root
        self.skill = skill
        self.codec = codec
        # relative path -> the URI the client opened it under (its spelling wins)
        self.open_uris = dict(open_uris or {})
        self._places: dict[str, Place | None] = {}
        self._paths = sorted((f.path for f in skill.files if _shown(f)), key=len, reverse=True)

    def uri(self, rel: str) -> str:
        return self.open_uris.get(rel) or from_fs_path(str(self.root / rel)) or ""

    def place(self, rel: str) -> Place | None:
        """The file at `rel` if an editor can show it as text, else None."""
        if rel not in self._places:
            f = self.skill.file(rel)
            self._places[rel] = (Place(self.uri(rel), split_lines(f.text or ""))
                                 if f is not None and _shown(f) else None)
        return self._places[rel]

    def build(self, findings: Iterable[Finding]) -> dict[str, list[types.Diagnostic]]:
        out: dict[str, list[types.Diagnostic]] = {}
        for f in findings:
            uri, diag = self.diagnostic(f)
            out.setdefault(uri, []).append(diag)
        return out

    def diagnostic(self, f: Finding) -> tuple[str, types.Diagnostic]:
        """(the URI it belongs to, the diagnostic) for one finding."""
        message, line, column = f.message, f.line, f.column
        place = self.place(f.path) if f.path else None
        if place is None:
            # The skill as a whole, a folder, a binary or missing file: on SKILL.md.
            place = self.place(SKILL_MD) or Place(self.uri(SKILL_MD), [""])
            if f.path and f.path not in message:
                message = f"{f.path}: {message}"
            line = column = None
        href = explain_href(f.rule)
        return place.uri, types.Diagnostic(
            range=_range(self.codec, place.lines, line, column),
            message=message,
            severity=SEVERITY[f.severity],
            code=f.rule,
            code_description=types.CodeDescription(href=href) if href else None,
            source=SOURCE,
            related_information=self.related(f, place) or None,
            data={"rule": f.rule, "explain": explain_command(f.rule), "tool": f.source,
                  "tool_code": f.code, "path": f.path, "line": f.line, "column": f.column},
        )

    def related(self, f: Finding, here: Place) -> list[types.DiagnosticRelatedInformation]:
        """Second places a finding's message names: `also on line 17` in the same file, or
        another file of the skill (`repeated word for word in references/tips.md`), at the
        line the message gives for it (`line 12 of scripts/run.py`) or its first line."""
        out: list[types.DiagnosticRelatedInformation] = []
        msg = f.message
        if (m := _ALSO_ON.search(msg)) is not None:
            for n in re.findall(r"\d+", m.group(1)):
                out.append(self._related(here, int(n), f"also on line {n}"))
        lines_of = {p: int(n) for n, p in _LINE_OF.findall(msg)}
        seen: set[str] = set()
        for rel in self._paths:
            if rel == f.path or rel not in msg or any(rel in s for s in seen):
                continue
            if not _names(msg, rel):
                continue
            seen.add(rel)
            target = self.place(rel)
            if target is not None:
                out.append(self._related(target, lines_of.get(rel), f"{rel}, named in {f.rule}"))
        return out

    def _related(self, place: Place, line: int | None,
                 message: str) -> types.DiagnosticRelatedInformation:
        return types.DiagnosticRelatedInformation(
            location=types.Location(uri=place.uri, range=_range(self.codec, place.lines, line, None)),
            message=message)


def _shown(f: SkillFile) -> bool:
    return f.present and not f.is_dir and not f.binary and f.text is not None


def _names(message: str, rel: str) -> bool:
    """True when `rel` stands in the message as a path, not as part of a longer one."""
    for m in re.finditer(re.escape(rel), message):
        before = message[m.start() - 1] if m.start() else " "
        after = message[m.end()] if m.end() < len(message) else " "
        if not (before.isalnum() or before in "/_-.") and not (after.isalnum() or after in "/_-"):
            return True
    return False
