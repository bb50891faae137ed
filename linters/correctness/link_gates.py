"""SF116's text gates: what a Markdown file may refer to, told without parsing it.

Parsing a reference costs more than reading its text, and most references either name no
file of the skill at all (`may_refer`: only web links and anchors) or name only files that
are there (`all_resolve`). Each gate answers from a superset of what the Markdown reader
(`linters.correctness.links.references`) would find, so a file it passes over has nothing to report;
tests/linters/test_perf_parse_gates.py checks that against the reader on random texts.
"""

from __future__ import annotations

from collections.abc import Iterator

from linters.text.anchor_index import AnchorIndex, declare
from linters.text.compiled_regex import rx
from linters.text.paths.link_resolver import Resolver
from linters.text.paths.path_refs import (
    ANCHORS,
    DRIVE,
    PROSE_PATH,
    SCHEME,
    PathRef,
    anchor_offsets,
    clean_link,
    mention,
)

_ANCHOR_BYTES = declare(*(a.encode() for a in ANCHORS))
# The target after a link's "](" or a reference definition's "]:", as `_LINK` and `_REF_DEF`
# (linters.text.markdown) read it. A definition's target is never empty, so a "<" with nothing
# after it is the target itself, not its opening bracket (`[a]:<` defines "<").
_TARGET_AFTER = (("](", rx(r"\s*<?([^)\s>]*)")), ("]:", rx(r"\s*(?:<(?=\S))?(\S*)")))
_MARKER_BYTES = declare(*(marker.encode() for marker, _target in _TARGET_AFTER))
# What `_REF_DEF` (linters.text.markdown) needs before a definition's "]:" on its line.
_DEFINITION_HEAD = rx(r" {0,3}\[[^\]]+")
# Line breaks str.splitlines() honours besides "\n" (and "\r\n"): with them, the reader's
# lines start elsewhere than after each "\n". As UTF-8, found in the anchor index.
_OTHER_BREAKS = declare(b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85",
                        b"\xe2\x80\xa8", b"\xe2\x80\xa9")

# Targets starting so are never checked (`clean_link`); nor are these URLs.
_SKIPPED_FIRST_TUPLE = ("#", "~", "/")
_SKIPPED_FIRST = frozenset(_SKIPPED_FIRST_TUPLE)
_WEB = ("https://", "http://")

# A code span's text around a path anchor: no whitespace (its token) and no backtick (a
# span's text holds none). How far back a token is followed before giving up.
_TOKEN_PART = rx(r"[^\s`]*")
_TOKEN_REACH = 256


def may_refer(text: str, index: AnchorIndex | None = None) -> bool:
    """False when `text` surely holds no reference: every path mention holds one of the
    anchors `anchor_offsets` looks for, and every link a target `clean_link` may keep (most
    links in reference docs are URLs). `index`: the file's AnchorIndex, whose absences
    spare the searches (a text that lacks an anchor lower-cased lacks it as written)."""
    if index is None or index.held(_ANCHOR_BYTES):
        if any(a in text for a in ANCHORS):
            return True
    if index is not None and not index.held(_MARKER_BYTES):
        return False
    for marker, target in _TARGET_AFTER:
        pos = text.find(marker)
        while pos >= 0:
            pos += len(marker)
            # The usual targets, told by their first characters: a web link, an anchor.
            if text[pos : pos + 1] not in _SKIPPED_FIRST and not text.startswith(_WEB, pos):
                t = target.match(text, pos).group(1)
                if not t or not (t.startswith(_SKIPPED_FIRST_TUPLE) or DRIVE.match(t)
                                 or SCHEME.match(t)):
                    return True
            pos = text.find(marker, pos)
    return False


def link_target_starts(text: str, definitions_only: bool = False) -> Iterator[str]:
    """For every place a link or reference definition may be in `text`, the text its target
    starts with; a link the Markdown reader finds has a target starting there (it may be
    shorter: inline code is blanked out before links are read). Rules gate on these to skip
    parsing documents whose links cannot concern them. `definitions_only`: a "]:" counts
    only where a reference definition can be, after a `[label` that opens its line (for a
    text whose lines break at "\\n" only)."""
    for marker, target in _TARGET_AFTER:
        pos = text.find(marker)
        while pos >= 0:
            if (definitions_only and marker == "]:"
                    and not _DEFINITION_HEAD.fullmatch(text, text.rfind("\n", 0, pos) + 1, pos)):
                pos = text.find(marker, pos + 2)
                continue
            pos += len(marker)
            yield target.match(text, pos).group(1)
            pos = text.find(marker, pos)


def all_resolve(text: str, path: str, resolver: Resolver, index: AnchorIndex) -> bool:
    """True when every reference the reader could find in the file `path` resolves: then it
    has nothing to report. The paths tried are a superset of those the reader finds: each
    link or definition target as its text starts (with and without a closing ">"), and at
    each path anchor the path `PROSE_PATH` reads there and the code span token holding it.
    A target holding a backtick, which the reader would have blanked out, a token too long
    to follow and a path only the disk can tell leave it to the reader (False)."""

    def resolves(raw: str, link: bool, from_root: bool) -> bool:
        # Inside the skill only: what only the disk can tell is left to the reader.
        p = raw.replace("\\", "/")
        return resolver.in_skill(PathRef(path, 0, None, raw, p, link, from_root))

    plain_lines = not index.held(_OTHER_BREAKS) and text.count("\r") == text.count("\r\n")
    for start in link_target_starts(text, definitions_only=plain_lines):
        if "`" in start:
            return False
        for target in (start, start[:-1]) if start.endswith(">") else (start,):
            cleaned = clean_link(target)
            if cleaned is not None and not resolves(cleaned[0], True, cleaned[1]):
                return False
    for at in anchor_offsets(text):
        m = PROSE_PATH.match(text, at)
        if m is not None and not resolves(m.group(1), False, False):
            return False
        lo = max(0, at - _TOKEN_REACH)
        before = _TOKEN_PART.match(text[lo:at][::-1]).end()  # type: ignore[union-attr]
        if before == at - lo and lo > 0:
            return False
        token = text[at - before:_TOKEN_PART.match(text, at).end()]  # type: ignore[union-attr]
        cleaned = mention(token)
        if cleaned is not None and not resolves(cleaned[0], False, cleaned[1]):
            return False
    return True
