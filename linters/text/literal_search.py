"""Regex searches over long texts, tried only where a match can start, and without
IGNORECASE where lower-cased text will do.

Python's `re` is fast when a pattern starts with a literal, and slow (tens of nanoseconds a
character) when it starts with a word boundary and an alternation (`\\b(?:verify|check|...)`),
as many wording rules do: it attempts a match at nearly every position. When every match
must begin with one of a few words, `str.find` (about a nanosecond a character) can list
those places instead, and the regex is tried there only, leftmost first. IGNORECASE costs
as much again; a pattern with lower-case literals finds the same matches in lower-cased
text without it. The results are the very Match (or truth) `rx.search(text)` gives.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from functools import cache, lru_cache

from linters.text import compiled_regex
from linters.text.compiled_regex import rx

# Characters outside ASCII that a case-insensitive pattern matches to ASCII letters ("İ"
# and "ı" to i, "ſ" to s, the Kelvin sign to k): `str.lower` does not turn them into the
# ASCII letter, so a text holding one is searched the slow way.
ASCII_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")


@lru_cache(maxsize=64)
def lowered(text: str) -> str:
    """`text.lower()`, kept for the few rules that each lower the same reference file (a
    large non-ASCII text lowers at ~5 ns a character)."""
    return text.lower()


def folds_safely(text: str, low: str) -> bool:
    """`low` (text.lower()) has text's offsets and finds every case-insensitive ASCII word."""
    return len(low) == len(text) and (text.isascii() or not any(c in text for c in ASCII_FOLDS))


_ESCAPE = rx(r"\\.")
_UPPER = rx(r"[A-Z]")


@cache
def case_sensitive_twin(rx: re.Pattern[str]) -> re.Pattern[str] | None:
    """`rx` without IGNORECASE, to run on lower-cased text; None unless `rx` is
    case-insensitive with only lower-case letters of its own (escapes such as `\\S` aside)."""
    if not rx.flags & re.IGNORECASE or _UPPER.search(_ESCAPE.sub("", rx.pattern)):
        return None
    # The twin of a pattern fixed in the source is one too: kept compiled like it.
    return compiled_regex.rx(rx.pattern, rx.flags & ~re.IGNORECASE)


def search_lowered(rx: re.Pattern[str], text: str, low: str | None = None) -> bool:
    """`bool(rx.search(text))`, run as a case-sensitive search of `low` (text.lower())
    when that finds the same (see `folds_safely`)."""
    twin = case_sensitive_twin(rx)
    if twin is None:
        return rx.search(text) is not None
    low = text.lower() if low is None else low
    if not folds_safely(text, low):
        return rx.search(text) is not None
    return twin.search(low) is not None


def spans(rx: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """The spans of `rx.finditer(text)`, found in lower-cased text when that finds the same."""
    twin = case_sensitive_twin(rx)
    if twin is not None:
        low = text.lower()
        if folds_safely(text, low):
            return [m.span() for m in twin.finditer(low)]
    return [m.span() for m in rx.finditer(text)]


def search_at_words(
    rx: re.Pattern[str], text: str, starts: tuple[str, ...], low: str | None = None
) -> re.Match[str] | None:
    """`rx.search(text)`, given that every match of `rx` begins with one of `starts`.

    `starts` are lower-case literals, matched case-insensitively when `rx` has IGNORECASE
    (pass `low`, text.lower(), if it is at hand) and exactly otherwise.
    """
    probe = rx
    if rx.flags & re.IGNORECASE:
        hay = text.lower() if low is None else low
        if not folds_safely(text, hay):
            return rx.search(text)
        twin = case_sensitive_twin(rx)
        if twin is not None:
            probe = twin  # tried on the lower-cased text, confirmed on the text
    else:
        hay = text
    heap: list[tuple[int, int]] = []
    for k, word in enumerate(starts):
        pos = hay.find(word)
        if pos >= 0:
            heap.append((pos, k))
    heapq.heapify(heap)
    tried = -1
    while heap:
        pos, k = heap[0]
        if pos != tried:
            if probe is rx or probe.match(hay, pos) is not None:
                m = rx.match(text, pos)
                if m is not None:
                    return m
            tried = pos
        nxt = hay.find(starts[k], pos + 1)
        if nxt >= 0:
            heapq.heapreplace(heap, (nxt, k))
        else:
            heapq.heappop(heap)
    return None


def finditer_at_words(rx: re.Pattern[str], text: str, starts: tuple[str, ...]) -> list[re.Match[str]]:
    """`list(rx.finditer(text))`, given that every match of `rx` begins with one of the
    literals `starts` and none is empty: `str.find` lists where a match can begin, and the
    regex is tried there only (a case-insensitive `rx` runs over the whole text)."""
    if rx.flags & re.IGNORECASE:
        return list(rx.finditer(text))
    places: set[int] = set()
    for word in starts:
        pos = text.find(word)
        while pos >= 0:
            places.add(pos)
            pos = text.find(word, pos + 1)
    out: list[re.Match[str]] = []
    end = 0
    for pos in sorted(places):
        if pos >= end and (m := rx.match(text, pos)) is not None:
            out.append(m)
            end = m.end()
    return out


def any_match(rx: re.Pattern[str], texts: Sequence[str], lows: Sequence[str] | None) -> bool:
    """`any(rx.search(t) for t in texts)`, run on `lows` (the texts lower-cased, None when
    that would not find the same) when `rx` allows it: for the many short headings."""
    twin = case_sensitive_twin(rx)
    if twin is None or lows is None:
        return any(rx.search(t) for t in texts)
    return any(twin.search(t) for t in lows)


def has_any(text: str, words: tuple[str, ...], low: str | None = None) -> bool:
    """Whether `text` may hold one of the lower-case `words` case-insensitively: False only
    when it surely does not (a prefilter before a case-insensitive regex that needs one)."""
    low = text.lower() if low is None else low
    if not folds_safely(text, low):
        return True
    return any(w in low for w in words)
