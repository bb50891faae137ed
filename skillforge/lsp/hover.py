"""Hover text: a rule's catalogue entry, or what a frontmatter key means.

A rule id under the cursor (`SF309` in `<!-- skillforge: disable SF309 -->`, or anywhere
else) shows its entry; so does any place inside a skillforge diagnostic's range. The entry
is the text `skillforge lint --explain RULE` prints. On a top-level key of SKILL.md's
frontmatter the hover says what the key means (`keys.py`). Pure functions over the
document's lines: the server passes positions already converted to code points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from linters.registry import catalogue
from skillforge.lsp.diagnostics import explain_command
from skillforge.lsp.keys import key_markdown
from skillforge.models.findings import Rule

_RULE = re.compile(r"SF\d{3}")
_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*:")

Span = tuple[int, int, int]  # line, start, end (code points, 0-based)


def rule_markdown(rule: Rule) -> str:
    """A catalogue entry as Markdown: the same parts, in the same order, as `--explain`."""
    parts = [f"**{rule.id}** {rule.title}", f"{rule.category.value} · {rule.severity.value}"
             + (f" · runs at {rule.phase} time" if rule.phase != "fast" else ""),
             rule.explanation.strip()]
    if rule.example.strip():
        parts.append("Fixed example:\n\n```\n" + rule.example.strip("\n") + "\n```")
    if rule.fix:
        how = "--fix" if rule.fix == "safe" else "--fix --unsafe"
        parts.append(f"**Fix** ({rule.fix}, `skillforge lint {how}`, or this editor's quick "
                     f"fix): {rule.fix_summary.strip()}")
    parts.append(f"`{explain_command(rule.id)}`")
    return "\n\n".join(parts)


def rule_at(lines: list[str], row: int, col: int) -> tuple[str, Span] | None:
    """The rule id the cursor is on, with its span."""
    if row >= len(lines):
        return None
    for m in _RULE.finditer(lines[row]):
        if m.start() <= col <= m.end():
            return m.group(), (row, m.start(), m.end())
    return None


def frontmatter_close(lines: list[str]) -> int | None:
    """Index of the line closing SKILL.md's frontmatter, when it opens on the first line."""
    if not lines or lines[0].rstrip() != "---":
        return None
    return next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)


def key_at(lines: list[str], row: int, col: int) -> tuple[str, Span] | None:
    """The top-level frontmatter key the cursor is on (the key itself, not its value)."""
    close = frontmatter_close(lines)
    if close is None or not 0 < row < close:
        return None
    m = _KEY.match(lines[row])
    if m is None or col > m.end(1):
        return None
    return m.group(1), (row, 0, m.end(1))


def hover_markdown(lines: list[str], row: int, col: int, *, skill_md: bool,
                   diagnostic_rules: Iterable[str] = ()) -> tuple[str, Span | None] | None:
    """(Markdown, the span it is about) for the cursor at (row, col), or None.

    `diagnostic_rules`: the rule ids of the skillforge diagnostics whose range holds the
    cursor; each adds its entry after what the cursor is on."""
    rules = catalogue()
    parts: list[str] = []
    span: Span | None = None
    shown: set[str] = set()
    if (hit := rule_at(lines, row, col)) is not None and hit[0] in rules:
        parts.append(rule_markdown(rules[hit[0]]))
        shown.add(hit[0])
        span = hit[1]
    elif skill_md and (key := key_at(lines, row, col)) is not None:
        parts.append(key_markdown(key[0]))
        span = key[1]
    for rid in diagnostic_rules:
        if rid not in shown and rid in rules:
            parts.append(rule_markdown(rules[rid]))
            shown.add(rid)
    return ("\n\n---\n\n".join(parts), span) if parts else None
