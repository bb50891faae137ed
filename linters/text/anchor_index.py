"""Literal needles in a file's bytes, found for every rule at once: one pass per file.

A rule that looks for a few literal words in every file (the security scanners' anchors,
the link and fence markers) declares them with `declare()` when its module loads. The
first rule to ask about a file has all declared needles found together, in one
Aho-Corasick pass over the file's lower-cased UTF-8 bytes (ahocorasick_rs, ~2 ms for the
7 MB corpus); one `find` per needle per file, for the ~40 the scanners alone declared, cost
~140 ms. `LintContext.anchors` keeps each file's index for the rest of its lint. A needle
nobody declared is still found, by `bytes.find`.

Lower-casing is ASCII-only, so offsets are the file's byte offsets, and a needle holding
no ASCII letter (``` ](  <!--) is found exactly as written. A needle with letters is found
case-insensitively: its absence proves the text lacks it; its presence is to be confirmed.
"""

from __future__ import annotations

from ahocorasick_rs import BytesAhoCorasick, Implementation, MatchKind

_BOM = b"\xef\xbb\xbf"

# Every declared needle, in declaration order (the automaton's pattern order).
_DECLARED: dict[bytes, None] = {}
_finder: tuple[tuple[bytes, ...], frozenset[bytes], BytesAhoCorasick] | None = None


def declare(*needles: bytes) -> tuple[bytes, ...]:
    """Declare lower-case needles a rule searches (at import): each file's declared needles
    are found in one pass. Returns them, for the rule's constant."""
    global _finder
    for needle in needles:
        if needle not in _DECLARED:
            _DECLARED[needle] = None
            _finder = None
    return needles


def declared() -> tuple[bytes, ...]:
    return tuple(_DECLARED)


def _automaton() -> tuple[tuple[bytes, ...], frozenset[bytes], BytesAhoCorasick]:
    global _finder
    finder = _finder
    if finder is None:
        names = tuple(_DECLARED)
        # Standard semantics with overlapping matches: every occurrence of every needle,
        # as a `bytes.find` loop per needle would list them. Always a DFA: left to choose,
        # ahocorasick_rs switches to an NFA past ~100 needles, and the shared corpus's
        # search went from 13 ms to 48 ms at 124 needles (issue 36); the DFA builds in <1 ms.
        finder = _finder = (names, frozenset(names),
                            BytesAhoCorasick(names, matchkind=MatchKind.Standard,
                                             implementation=Implementation.DFA))
    return finder


def file_bytes(text: str, raw: bytes | None = None) -> bytes:
    """The UTF-8 bytes `text` was decoded from (`raw`, without a byte-order mark), or its
    encoding when those are unknown or were not valid UTF-8 (pass None then)."""
    if raw is None:
        return text.encode("utf-8", "surrogatepass")
    return raw[3:] if raw.startswith(_BOM) else raw


class AnchorIndex:
    """One file's bytes, lower-cased, and the places of the declared needles in them."""

    __slots__ = ("_indexed", "_places", "low", "raw")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.low = raw.lower()
        # Each needle's places, once the declared ones are indexed: those that occur, and
        # any other needle asked about. `_indexed`: the declared needles of the index.
        self._places: dict[bytes, list[int]] | None = None
        self._indexed: frozenset[bytes] = frozenset()

    def places(self, needle: bytes) -> list[int]:
        """Every offset of `needle` (lower-case) in the lower-cased bytes, overlaps included,
        in order."""
        places = self._places if self._places is not None else self._index()
        got = places.get(needle)
        if got is None:
            if needle in self._indexed:
                return []
            got = places[needle] = _find_all(self.low, needle)
        return got

    def held(self, needles: tuple[bytes, ...]) -> list[bytes]:
        """The needles the file may hold: every one but the declared ones it lacks
        (lower-cased). Empty: it holds none of them."""
        places = self._places if self._places is not None else self._index()
        indexed = self._indexed
        return [n for n in needles if n in places or n not in indexed]

    def _index(self) -> dict[bytes, list[int]]:
        names, self._indexed, finder = _automaton()
        places: dict[bytes, list[int]] = {}
        for idx, start, _end in finder.find_matches_as_indexes(self.low, overlapping=True):
            got = places.get(names[idx])
            if got is None:
                places[names[idx]] = [start]
            else:
                got.append(start)
        self._places = places
        return places


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out: list[int] = []
    pos = data.find(needle)
    while pos >= 0:
        out.append(pos)
        pos = data.find(needle, pos + 1)
    return out
