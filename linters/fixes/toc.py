"""SF403: add a table of contents to a long reference, from its own `##` headings (safe).

Only for the references SKILL.md links to (a Markdown link in its body that resolves to the
file): those are the files an agent opens from the skill, where the list saves it a read; a
file SKILL.md only names in passing, or no one links to, is the author's to judge (SF403
still reports it). The headings are the document's real ones: a YAML header at the top is
not Markdown (its closing `---` would read as a setext underline), and fenced code and HTML
comments hold none. An entry is the heading's text without HTML comments (links shown as
their text), linked to the anchor GitHub gives the heading (`anchor`).

The list goes under a `## Contents` heading right after the title and its opening
paragraph (or right after the title when that paragraph is long), so it starts within the
lines SF403 looks at; never inside a code block or an HTML comment.
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata

from linters.text.code_spans import code_spans, plain_line_breaks
from linters.fixes.registry import fixer
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_refs import clean_link
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import Skill

# SF403 accepts a contents heading starting within this many lines (efficiency.TOC_WINDOW),
# less a margin for the blank line before the heading.
_WINDOW = 38
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_IMAGE_OR_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
_AUTOLINK = re.compile(r"<((?:[A-Za-z][A-Za-z0-9+.-]{1,31}:|mailto:)[^<>\s]*)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
# `_x_` and `__x__` emphasis (not the underscores inside snake_case words).
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![^\W_])(_+)(?=\S)(.+?)(?<=\S)\1(?![^\W_])")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# Unicode categories GitHub keeps in an anchor (Ruby's \p{Word}: letters, marks, decimal and
# letter numbers, connector punctuation); everything else but spaces and hyphens goes.
_KEPT = ("L", "M", "Nd", "Nl", "Pc")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*\r?$")
_YAML_HEADER_END = re.compile(r"(?:---|\.\.\.)[ \t]*\r?$")


def anchor(heading: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading (as written in Markdown): its rendered text lowercased,
    everything but letters, marks, digits, `_`, `-` and spaces dropped, each space a hyphen;
    repeats get -1, -2, ..."""
    text = rendered_text(heading).lower()
    slug = "".join(c for c in text if c in " -" or unicodedata.category(c).startswith(_KEPT))
    slug = slug.replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else f"{slug}-{n}"


def rendered_text(heading: str) -> str:
    """The text a heading shows: no comments, tags, link targets, emphasis or backticks
    (a code span's text is kept as written)."""
    out: list[str] = []
    at = 0
    for a, b in code_spans(heading):
        out.append(_inline_text(heading[at:a]))
        ticks = len(heading[a:b]) - len(heading[a:b].lstrip("`"))
        code = heading[a + ticks:b - ticks]
        out.append(code[1:-1] if len(code) > 2 and code[0] == code[-1] == " " else code)
        at = b
    out.append(_inline_text(heading[at:]))
    return "".join(out)


def _inline_text(text: str) -> str:
    # Escaped punctuation is set aside first, so `\_` is never taken for emphasis.
    held: list[str] = []

    def hold(m: re.Match) -> str:
        held.append(m.group(1))
        return f"\0{len(held) - 1}\0"

    text = _ESCAPE.sub(hold, _COMMENT.sub("", text))
    text = _AUTOLINK.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    while True:
        plain = _IMAGE_OR_LINK.sub(r"\1", text)
        plain = _UNDERSCORE_EMPHASIS.sub(r"\2", plain)
        if plain == text:
            break
        text = plain
    text = re.sub(r"\0(\d+)\0", lambda m: held[int(m.group(1))], text)
    return html.unescape(text)


def entry_text(heading: str) -> str:
    """A heading as a contents entry's link text: no HTML comments, links as their text."""
    text = _COMMENT.sub("", heading)
    while True:
        plain = _IMAGE_OR_LINK.sub(r"\1", text)
        if plain == text:
            break
        text = plain
    return " ".join(text.split())


@fixer("SF403")
def add_contents(skill: Skill, finding: Finding) -> list[Fix]:
    f = skill.file(finding.path or "")
    if f is None or f.text is None or not plain_line_breaks(f.text):
        return []
    if f.path not in linked_from_skill_md(skill):
        return []
    text = f.text
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split("\n")
    start = _after_yaml_header(lines)
    doc = MarkdownDoc("\n".join(lines[start:]), first_line=start + 1)
    seen: dict[str, int] = {}
    entries = []
    for h in doc.headings:
        target = anchor(h.text, seen)
        shown = entry_text(h.text)
        if h.level == 2 and shown:
            entries.append(f"- [{shown}](#{target})")
    if len(entries) < 3:
        return []
    at = _insert_at(lines, doc, start)
    if at is None:
        return []
    block = nl.join(["## Contents", "", *entries]) + nl
    # Blank lines around the block, unless it opens the file or one is already there.
    if at > 0 and lines[at - 1].strip():
        block = nl + block
    if at < len(lines) and lines[at].strip():
        block += nl
    edit = TextEdit(path=f.path, start_line=at, start_col=0, end_line=at, end_col=0, new_text=block)
    return [Fix(rule="SF403", title=f"Add a table of contents to {f.path} ({len(entries)} sections)",
                safety="safe", edits=(edit,))]


def linked_from_skill_md(skill: Skill) -> set[str]:
    """The files SKILL.md's body links to (Markdown links and reference definitions outside
    code) that exist, as paths from the skill root."""
    if skill.skill_md is None or skill.skill_md.text is None:
        return set()
    out = set()
    for link in MarkdownDoc(skill.body, first_line=skill.body_start_line).links:
        cleaned = clean_link(link.target)
        path = posixpath.normpath(cleaned[0]) if cleaned is not None else ".."
        if not path.startswith("..") and skill.exists(path):
            out.add(path)
    return out


def _after_yaml_header(lines: list[str]) -> int:
    """0-based index of the first line after a YAML header (`---` ... `---`) at the top of
    the file; 0 when there is none."""
    if not lines or lines[0].rstrip("\r") != "---":
        return 0
    close = next((i for i in range(1, len(lines)) if _YAML_HEADER_END.match(lines[i])), None)
    return close + 1 if close is not None else 0


def _insert_at(lines: list[str], doc: MarkdownDoc, start: int) -> int | None:
    """0-based line the contents block goes before; None when no place within reach is
    outside code and comments."""
    title = next((h for h in doc.headings if h.level == 1 and h.line <= _WINDOW), None)
    if title is None:
        return start if start < _WINDOW and _free(doc, start) else None
    after = title.line  # 0-based index of the line after the title
    if after < len(lines) and _SETEXT_UNDERLINE.match(lines[after]) and lines[after].strip():
        after += 1  # a setext title: its underline belongs to it
    at = after
    while at < len(lines) and not lines[at].strip():
        at += 1
    # The opening paragraph: up to the next blank line, heading or fence.
    end = at
    while end < len(lines) and lines[end].strip() and not lines[end].lstrip().startswith(("#", "```", "~~~")):
        end += 1
    choice = after
    if end > at and end + 2 <= _WINDOW:
        choice = end + 1 if end < len(lines) and not lines[end].strip() else end
    for candidate in (choice, after):
        if _free(doc, candidate):
            return candidate
    return None


def _free(doc: MarkdownDoc, at: int) -> bool:
    """Whether a block inserted before 0-based line `at` lands outside code and comments."""
    before, after = at, at + 1  # the 1-based numbers of the lines around the insertion
    if doc.is_code(before) and doc.is_code(after):
        return False
    return not any(c.line <= before and after <= c.line + c.text.count("\n")
                   for c in doc.comments)
