"""What `--fix` must leave as it was, checked on one changed file before and after.

The Markdown is read by markdown-it-py (a CommonMark parser, not skillforge's own reader), so
a fix is checked against how a renderer sees the file:

(a) no byte inside a fenced or indented code block, or an inline code span, of the original
    changed (nor text inserted into one);
(b) every Markdown link that resolved before resolves to the same file after;
(c) every line the fix changed carries a finding of a fixable rule in the report from
    before the fix, lines mapped through difflib's alignment of the two texts; inserted
    lines need a finding that owns the place (SF403 the file, a frontmatter rule the
    frontmatter, SF116 the line above or below);
(d) SKILL.md's frontmatter parses to the same mapping except the keys a fix moved under
    `metadata:` (each named by an SF112 finding), and every YAML comment is still there.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from markdown_it import MarkdownIt
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.text.code_spans import code_spans
from skillforge.models.findings import Finding

MARKDOWN = (".md", ".markdown", ".mdx")
FRONTMATTER_RULES = {"SF104", "SF110", "SF111", "SF112"}
_PARSER = MarkdownIt("commonmark").enable("table")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


@dataclass(frozen=True)
class Violation:
    path: str
    invariant: str  # "code", "link", "finding", "frontmatter"
    line: int  # 1-based, in the file before the fix
    detail: str


def check_change(skill_dir: Path, path: str, before: str, after: str,
                 findings: Iterable[Finding], fixable: set[str]) -> list[Violation]:
    """Every invariant broken by turning `before` into `after` (the text of `path`, a file
    of the skill at `skill_dir`); `findings`: the skill's report before the fix."""
    old, new = before.split("\n"), after.split("\n")
    ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    out: list[Violation] = []
    mine = [f for f in findings if (f.path or "SKILL.md") == path and f.rule in fixable]
    out += _unnamed_lines(path, old, ops, mine)
    if path.lower().endswith(MARKDOWN):
        tokens = _tokens(before)
        out += _code_touched(path, old, new, ops, tokens)
        out += _links_moved(skill_dir, path, tokens, _tokens(after))
    if path == "SKILL.md":
        out += _frontmatter_changed(before, after, mine)
    return out


# --- (a) code ------------------------------------------------------------------------------


def _tokens(text: str) -> list:
    return _PARSER.parse(_without_yaml_header(text))


def code_regions(text: str, tokens: list | None = None
                 ) -> tuple[set[int], list[tuple[int, int, int, int]]]:
    """(0-based lines of fenced and indented code blocks, inline code spans as
    (first line, first column, last line, end column) with the backticks)."""
    lines = text.split("\n")
    blocks: set[int] = set()
    spans: list[tuple[int, int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    for tok in tokens if tokens is not None else _tokens(text):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type in ("fence", "code_block"):
            blocks.update(range(a, b))
        elif tok.type == "inline" and (a, b) not in seen:
            seen.add((a, b))
            starts = [0]
            for ln in lines[a:b]:
                starts.append(starts[-1] + len(ln) + 1)
            for s, e in code_spans("\n".join(lines[a:b])):
                li = max(i for i, st in enumerate(starts) if st <= s)
                le = max(i for i, st in enumerate(starts) if st <= e - 1)
                spans.append((a + li, s - starts[li], a + le, e - starts[le]))
    return blocks, spans


def _code_touched(path: str, old: list[str], new: list[str], ops, tokens: list) -> list[Violation]:
    blocks, spans = code_regions("\n".join(old), tokens)
    out: list[Violation] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if tag == "insert":
            if i1 - 1 in blocks and i1 in blocks:
                out.append(Violation(path, "code", i1, "lines inserted into a code block"))
            continue
        hit = [k for k in range(i1, i2) if k in blocks]
        if hit:
            out.append(Violation(path, "code", hit[0] + 1, f"code block line changed: {old[hit[0]]!r}"))
            continue
        # Character by character: which old positions changed, and are they in a span?
        a, b = "\n".join(old[i1:i2]), "\n".join(new[j1:j2])
        starts = [0]
        for ln in old[i1:i2]:
            starts.append(starts[-1] + len(ln) + 1)

        def where(offset: int) -> tuple[int, int]:
            li = max(i for i, st in enumerate(starts) if st <= offset)
            return i1 + li, offset - starts[li]

        for ctag, c1, c2, _d1, _d2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if ctag == "equal":
                continue
            first, last = where(c1), where(max(c1, c2 - 1))
            for s in spans:
                inside = ((s[0], s[1]) < first < (s[2], s[3])) if ctag == "insert" else (
                    first < (s[2], s[3]) and (s[0], s[1]) <= last)
                if inside:
                    out.append(Violation(path, "code", first[0] + 1,
                                         f"inside a code span: {old[first[0]]!r} -> {b!r}"))
                    break
    return out


# --- (b) links -----------------------------------------------------------------------------


def file_links(skill_dir: Path, path: str, tokens: list) -> list[tuple[str, str | None]]:
    """(target as written, the file it resolves to or None) of every link and image to a
    file (not a URL or an anchor), in order, in markdown-it's tokens of a file's text."""
    out: list[tuple[str, str | None]] = []
    base = posixpath.dirname(path)
    for tok in tokens:
        for child in tok.children or []:
            href = child.attrGet("href") if child.type == "link_open" else (
                child.attrGet("src") if child.type == "image" else None)
            if not isinstance(href, str):
                continue
            target = unquote(href.split("#", 1)[0].split("?", 1)[0])
            if not target or target.startswith("/") or _SCHEME.match(target):
                continue
            rel = posixpath.normpath(posixpath.join(base, target))
            out.append((href, rel if (skill_dir / rel).exists() else None))
    return out


def _links_moved(skill_dir: Path, path: str, before: list, after: list) -> list[Violation]:
    old, new = file_links(skill_dir, path, before), file_links(skill_dir, path, after)
    if len(old) != len(new):
        return [Violation(path, "link", 0, f"{len(old)} file links before, {len(new)} after")]
    return [Violation(path, "link", 0, f"{a} resolved to {ra}; now {b} resolves to {rb}")
            for (a, ra), (b, rb) in zip(old, new, strict=True) if ra is not None and ra != rb]


# --- (c) every changed line named by a finding ------------------------------------------------


def _unnamed_lines(path: str, old: list[str], ops, findings: list[Finding]) -> list[Violation]:
    named = {f.line for f in findings if f.line}
    whole_file = any(f.rule == "SF403" for f in findings)
    close = _yaml_header_close(old) if path == "SKILL.md" else None
    in_frontmatter = close is not None and any(f.rule in FRONTMATTER_RULES for f in findings)
    quoted = close is not None and any(f.rule == "SF104" for f in findings)
    if close is not None:
        # A frontmatter key's finding names its value's lines too: a block scalar
        # (`stale_data: |` and the indented lines under it) moves as one.
        for line in sorted(n for n in named if 1 < n <= close):
            k = line  # 0-based index of the line after the key's
            while k < close and old[k][:1] in (" ", "\t"):
                named.add(k + 1)
                k += 1
    out: list[Violation] = []
    for tag, i1, i2, _j1, _j2 in ops:
        if tag == "equal":
            continue
        if tag == "insert":
            if not (whole_file or (in_frontmatter and 1 <= i1 <= close)
                    or i1 in named or i1 + 1 in named):
                out.append(Violation(path, "finding", i1 + 1, "lines inserted where no finding is"))
            continue
        for k in range(i1, i2):
            # SF104 reports where YAML failed, which may be a continuation of the value it quotes.
            if k + 1 not in named and not (quoted and 1 <= k < close):
                out.append(Violation(path, "finding", k + 1, f"changed without a finding: {old[k]!r}"))
    return out


# --- (d) frontmatter -----------------------------------------------------------------------------


def _frontmatter_changed(before: str, after: str, findings: list[Finding]) -> list[Violation]:
    out: list[Violation] = []
    old_raw, new_raw = _yaml_header(before), _yaml_header(after)
    if old_raw is None:
        return out
    if new_raw is None:
        return [Violation("SKILL.md", "frontmatter", 1, "the frontmatter is gone")]
    lost = Counter(yaml_comments(old_raw)) - Counter(yaml_comments(new_raw))
    out += [Violation("SKILL.md", "frontmatter", 1, f"comment lost: {c!r}") for c in lost]
    old, new = _load(old_raw), _load(new_raw)
    if not isinstance(old, dict):
        return out  # did not parse before (SF104 makes it parse): nothing to compare
    if not isinstance(new, dict):
        return out + [Violation("SKILL.md", "frontmatter", 1, "no longer parses to a mapping")]
    moved = set(old) - set(new)
    allowed = {_key_at(before, f.line) for f in findings if f.rule == "SF112" and f.line}
    for key in sorted(moved - allowed, key=str):
        out.append(Violation("SKILL.md", "frontmatter", 1, f"{key!r} removed with no SF112 finding"))
    new_meta = new.get("metadata") if isinstance(new.get("metadata"), dict) else {}
    for key in moved:
        if key not in new_meta or not isinstance(new_meta[key], str) or (
                isinstance(old[key], str) and new_meta[key] != old[key]):
            out.append(Violation("SKILL.md", "frontmatter", 1,
                                 f"{key!r} is not under metadata as {old[key]!r}"))
    want = {k: v for k, v in old.items() if k not in moved}
    if moved:
        want["metadata"] = {**(old.get("metadata") or {}), **{k: new_meta.get(k) for k in moved}}
    for key in set(want) | set(new):
        if new.get(key) != want.get(key):
            out.append(Violation("SKILL.md", "frontmatter", 1,
                                 f"{key!r}: {want.get(key)!r} became {new.get(key)!r}"))
    return out


def yaml_comments(raw: str) -> list[str]:
    """The comments of a YAML text (outside quotes and block scalars), stripped."""
    out: list[str] = []
    block_indent: int | None = None
    for line in raw.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not line.strip() or indent > block_indent:
                continue
            block_indent = None
        quote = ""
        for i, c in enumerate(line):
            if quote:
                if c == quote:
                    quote = ""
            elif c in "\"'" and (i == 0 or line[i - 1] in " :[{,-"):
                quote = c
            elif c == "#" and (i == 0 or line[i - 1] in " \t"):
                out.append(line[i:].strip())
                line = line[:i]
                break
        if re.search(r":\s*[|>][-+0-9]*\s*$", line):
            block_indent = indent
    return out


def _load(raw: str):
    try:
        return YAML(typ="safe", pure=True).load(raw)
    except YAMLError:
        return None


def _key_at(text: str, line: int) -> str | None:
    lines = text.split("\n")
    m = re.match(r"([^\s:#][^:]*):", lines[line - 1]) if 0 < line <= len(lines) else None
    return m.group(1).strip().strip("'\"") if m else None


def _yaml_header_close(lines: list[str]) -> int | None:
    """0-based index of the line closing a YAML header at the top."""
    if not lines or lines[0].rstrip("\r") != "---":
        return None
    return next((i for i in range(1, len(lines)) if lines[i].rstrip("\r").rstrip() in ("---", "...")),
                None)


def _yaml_header(text: str) -> str | None:
    lines = text.split("\n")
    close = _yaml_header_close(lines)
    return None if close is None else "\n".join(lines[1:close])


def _without_yaml_header(text: str) -> str:
    """`text` with a YAML header's lines blanked (line numbers kept): it is not Markdown."""
    lines = text.split("\n")
    close = _yaml_header_close(lines)
    if close is None:
        return text
    return "\n" * (close + 1) + "\n".join(lines[close + 1:])
