"""Efficiency rules (SF4xx): does the skill spend the agent's context window well?

SKILL.md's body is loaded whole every time the skill triggers; references are read on
demand. These rules keep the body within the spec's guidance (500 lines, ~5000 tokens), make
long references navigable, and keep junk and oversized files out of the folder.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import PurePosixPath

from linters.text import tokens
from linters.text.compiled_regex import rx
from linters.context import MARKDOWN_SUFFIXES, LintContext
from linters.text.literal_search import ASCII_FOLDS, lowered
from linters.text.markdown import MarkdownDoc
from linters.registry import check
from skillforge.models.findings import Finding
from skillforge.models.skill import SkillFile

MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
TOC_MIN_LINES = 100
# A table of contents counts when it starts within this many lines of the top.
TOC_WINDOW = 40
TOC_MIN_SECTIONS = 3
MAX_FILE_BYTES = 1024 * 1024
MIN_DUPLICATE_WORDS = 25
# From this many paragraphs on, listing a reference's words beats searching it per paragraph.
WORD_SET_PARAGRAPHS = 40
MAX_INLINE_CODE_LINES = 80
SQUASH_CACHE_SIZE = 512
# SF405 reports at most this many junk paths one by one, then one line for the rest.
JUNK_SHOWN = 10

_TOC_HEADING = rx(
    r"\b(?:contents|toc|index|on\s+this\s+page|in\s+this\s+(?:document|file|guide|reference)"
    r"|sections|navigation|outline|quick\s+(?:links|navigation))\b",
    re.IGNORECASE,
)
_LIST_ITEM = rx(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_ANCHOR_LINK = rx(r"\]\(#[^)\s]*\)")
_LINK_TARGET = rx(r"\]\([^)]*\)")

_squash_lock = threading.Lock()
_squash_cache: OrderedDict[str, tuple[frozenset[str], str]] = OrderedDict()

_JUNK_NAMES = frozenset({".DS_Store", "Thumbs.db", "ehthumbs.db", "desktop.ini", ".directory"})
_JUNK_DIRS = frozenset(
    {
        "__pycache__",
        "node_modules",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
        ".venv",
        "venv",
    }
)
# Compiled Python, vim swap files (.swp, .swo, ...), backups (`x~`, .orig, .bak, .rej) and
# emacs lock/autosave files (`.#x`, `#x#`).
_JUNK_FILE = rx(r"(?:\.py[co]|\.sw[m-p]|~|\.orig|\.bak|\.rej)$|^\.#|^#.+#$")


@check("SF401", "SF402")
def body_size(ctx: LintContext) -> Iterator[Finding]:
    """SF401/SF402: SKILL.md's body against the spec's 500 lines and ~5000 tokens."""
    body = ctx.skill.body
    if not body.strip():
        return
    n_lines = len(ctx.body.lines)
    if n_lines > MAX_BODY_LINES:
        yield ctx.finding(
            "SF401",
            f"SKILL.md's body is {n_lines} lines (guidance: at most {MAX_BODY_LINES}); move "
            "detailed sections into references/ files and link them from a short overview.",
            line=ctx.skill.body_start_line + MAX_BODY_LINES,
        )
    if not tokens.could_exceed(body, MAX_BODY_TOKENS):
        return
    md = ctx.skill.skill_md
    key = f"body:{md.sha256}" if md is not None and md.sha256 else None
    n_tokens = tokens.count_tokens(body, key)
    if n_tokens > MAX_BODY_TOKENS:
        yield ctx.finding(
            "SF402",
            f"SKILL.md's body is {n_tokens:,} tokens by {tokens.tokenizer_name()} (guidance: "
            f"about {MAX_BODY_TOKENS:,}); it is loaded whole on every use, so move detail the "
            "agent needs only sometimes into references/.",
            line=ctx.skill.body_start_line,
        )


@check("SF403")
def reference_toc(ctx: LintContext) -> Iterator[Finding]:
    """SF403: a long Markdown reference with no table of contents near its top."""
    for f in ctx.skill.references:
        text = f.text
        if text is None or f.suffix not in MARKDOWN_SUFFIXES:
            continue
        # Lines as str.splitlines() would count them, without building the list.
        n_lines = text.count("\n") + (not text.endswith("\n"))
        if n_lines <= TOC_MIN_LINES:
            continue
        # A contents list needs sections to list: a prompt template that is one big code
        # block, or a long single-topic page, has nothing to navigate. (Counted before the
        # contents are looked for: a count is cheaper than a parse.)
        if text.startswith("##") + text.count("\n##") < TOC_MIN_SECTIONS or _has_toc(text):
            continue
        yield ctx.finding(
            "SF403",
            f"{f.path} is {n_lines} lines with no table of contents near the top; add a short "
            "list of its sections (with anchor links) so the agent can jump to the part it "
            "needs instead of reading it all.",
            path=f.path,
            line=1,
        )


def _has_toc(text: str) -> bool:
    """A contents heading, or a list of 3+ anchor links or section names, near the top."""
    head = MarkdownDoc(_first_lines(text, TOC_WINDOW))
    if any(_TOC_HEADING.search(h.text) for h in head.headings):
        return True
    anchors = named = 0
    for _no, line in head.prose_lines():
        m = _LIST_ITEM.match(line)
        if m is None:
            continue
        item = m.group(1)
        if _ANCHOR_LINK.search(item):
            anchors += 1
            continue
        # A plain list of section names counts when each is a heading further down.
        name = _LINK_TARGET.sub("", item).strip(" *_`[]")
        if name and f"# {name}" in text:
            named += 1
    return anchors >= 3 or named >= 3


def _first_lines(text: str, n: int) -> str:
    """The first `n` lines of `text` ("\\n"-separated), without splitting the rest of it."""
    if n <= 0:
        return ""
    end = -1
    for _ in range(n):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end]


@check("SF404")
def large_files(ctx: LintContext) -> Iterator[Finding]:
    """SF404: a file over 1 MiB anywhere in the skill (evals/ aside: it is never shipped)."""
    for f in ctx.skill.files:
        if f.is_dir or f.kind == "eval" or f.size <= MAX_FILE_BYTES:
            continue
        yield ctx.finding(
            "SF404",
            f"{f.path} is {f.size / MAX_FILE_BYTES:.1f} MiB (limit 1 MiB); keep large data out "
            "of the skill (download it in a script, or ship a small sample) so installs stay "
            "small and the agent never reads it whole.",
            path=f.path,
        )


def is_junk(path: str, is_dir: bool = False) -> bool:
    """True for OS, editor and build litter (`.DS_Store`, `*.pyc`, `__pycache__/`, `*~`)."""
    # A plain split gives PurePosixPath's parts for a clean relative path, much cheaper.
    odd = "//" in path or "/." in path or path.startswith(".") or path.endswith("/")
    parts = PurePosixPath(path).parts if odd else tuple(path.split("/"))
    if any(p in _JUNK_DIRS for p in (parts if is_dir else parts[:-1])):
        return True
    name = parts[-1] if parts else path
    return not is_dir and (name in _JUNK_NAMES or bool(_JUNK_FILE.search(name)))


@check("SF405")
def junk_files(ctx: LintContext) -> Iterator[Finding]:
    """SF405: OS, editor or build litter shipped with the skill."""
    junk = [f for f in ctx.skill.files if is_junk(f.path, f.is_dir)]
    for f in junk[:JUNK_SHOWN]:
        what = "folder" if f.is_dir else "file"
        yield ctx.finding(
            "SF405",
            f"{f.path} is a junk {what} (editor, OS or build litter); delete it and add the "
            "pattern to .gitignore.",
            path=f.path,
        )
    if len(junk) > JUNK_SHOWN:
        yield ctx.finding(
            "SF405",
            f"{len(junk) - JUNK_SHOWN} more junk files or folders (first: "
            f"{junk[JUNK_SHOWN].path}); delete them and add their patterns to .gitignore.",
            path=junk[JUNK_SHOWN].path,
        )


@check("SF406")
def duplicated_paragraphs(ctx: LintContext) -> Iterator[Finding]:
    """SF406: substantial SKILL.md paragraphs repeated word for word in a reference."""
    refs = [f for f in ctx.skill.references if f.text is not None and f.suffix in MARKDOWN_SUFFIXES]
    if not refs:
        return
    paragraphs = _long_paragraphs(ctx.body)
    if not paragraphs:
        return
    # A paragraph can only be repeated in a reference that has every one of its words, which
    # rules out nearly every pair. Few paragraphs: look for their words in the reference's
    # text (longest first); many: list the reference's words once and look them up.
    many = len(paragraphs) >= WORD_SET_PARAGRAPHS
    if many:
        word_sets = [(key, line, frozenset(words)) for key, line, words in paragraphs]
    else:
        # Distinct words longest first: the rarest, so a missing one is found soonest.
        probes = [(key, line, sorted(set(words), key=len, reverse=True))
                  for key, line, words in paragraphs]
    for f in refs:
        if many:
            ref_words, haystack = _squashed_file(f)
            repeated = [line for key, line, words in word_sets
                        if ref_words.issuperset(words) and f" {key} " in haystack]
        else:
            low_bytes = _lowered_bytes(ctx, f)
            if low_bytes is not None:
                candidates = [(key, line) for key, line, longest_first in probes
                              if all(w.encode() in low_bytes for w in longest_first
                                     if w.isascii())]
            else:
                low = lowered(f.text)
                candidates = [(key, line) for key, line, longest_first in probes
                              if all(w in low for w in longest_first)]
            if not candidates:
                continue
            # One pass of normalisation, then plain substring search: no parsing.
            haystack = _squashed_file(f)[1]
            repeated = [line for key, line in candidates if f" {key} " in haystack]
        if not repeated:
            continue
        if len(repeated) == 1:
            what = "This paragraph is"
        else:
            what = f"This paragraph and {len(repeated) - 1} more (lines {_lines(repeated[1:])}) are"
        yield ctx.finding(
            "SF406",
            f"{what} repeated word for word in {f.path}; keep one copy, usually in the "
            "reference, and leave a one-line pointer in SKILL.md.",
            line=repeated[0],
        )


def _long_paragraphs(doc: MarkdownDoc) -> list[tuple[str, int, list[str]]]:
    """(normalised text, first line, its words) of each prose paragraph of
    MIN_DUPLICATE_WORDS or more, each text once."""
    heading_lines = {h.line for h in doc.headings}
    spans: list[tuple[int, list[str]]] = []
    buf: list[str] = []
    start = 0
    for no, line in doc.prose_lines():
        if not line.strip() or no in heading_lines:
            if buf:
                spans.append((start, buf))
                buf = []
            continue
        if not buf:
            start = no
        buf.append(line)
    if buf:
        spans.append((start, buf))
    out: list[tuple[str, int, list[str]]] = []
    seen: set[str] = set()
    for start, lines in spans:
        words = " ".join(lines).lower().split()
        if len(words) >= MIN_DUPLICATE_WORDS:
            # Case and whitespace normalised: re-wrapping or re-indenting keeps it equal.
            key = " ".join(words)
            if key not in seen:
                seen.add(key)
                out.append((key, start, words))
    return out


def _lowered_bytes(ctx: LintContext, f: SkillFile) -> bytes | None:
    """The file's UTF-8 bytes with ASCII lower-cased (its anchor index's, made once per pass,
    of the text's own UTF-8 when the file did not decode cleanly), when every ASCII word of
    its `str.lower()` is in them too (so a word missing there is missing from the text); else
    None. Lowering bytes costs ~0.3 ns a byte where `str.lower()` of a non-ASCII text costs
    several ns a character. Non-ASCII words are not looked for in them."""
    text = f.text or ""
    if not text.isascii() and any(c in text for c in ASCII_FOLDS):
        return None
    return ctx.anchors(f).low


def _squashed_file(f: SkillFile) -> tuple[frozenset[str], str]:
    """A reference's words and its text squashed and padded with spaces, cached by content
    hash: the TUI re-lints on every save and references rarely change."""
    key = f.sha256
    if key is not None:
        with _squash_lock:
            hit = _squash_cache.get(key)
            if hit is not None:
                _squash_cache.move_to_end(key)
                return hit
    words = lowered(f.text or "").split()
    value = frozenset(words), f" {' '.join(words)} "
    if key is not None:
        with _squash_lock:
            _squash_cache[key] = value
            while len(_squash_cache) > SQUASH_CACHE_SIZE:
                _squash_cache.popitem(last=False)
    return value


def _lines(numbers: list[int], shown: int = 5) -> str:
    text = ", ".join(str(n) for n in numbers[:shown])
    return text + (", ..." if len(numbers) > shown else "")


@check("SF407")
def long_code_blocks(ctx: LintContext) -> Iterator[Finding]:
    """SF407: a fenced code block over 80 lines inline in SKILL.md."""
    for fence in ctx.body.fences:
        if fence.end is None or fence.length <= MAX_INLINE_CODE_LINES:
            continue  # an unclosed fence is SF120's business
        lang = f"{fence.lang} " if fence.lang else ""
        yield ctx.finding(
            "SF407",
            f"This {lang}code block is {fence.length} lines (limit {MAX_INLINE_CODE_LINES}); move "
            "it into scripts/ (code to run) or assets/ (a template) and tell the agent to run or "
            "copy the file.",
            line=fence.start,
        )
