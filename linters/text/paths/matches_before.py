"""Whether a pattern is found before each of many offsets of one sentence, in time linear in
the sentence (the memo behind `path_context.Paragraph`'s sentence readings: a paragraph may
hold thousands of paths, and each asks what the words before it say)."""

from __future__ import annotations

import bisect
import re

from linters.text.compiled_regex import rx

__all__ = ["MatchesBefore"]


class MatchesBefore:
    """Whether `rx.search(text, start, offset)` finds a match, for many offsets in one
    sentence [start, end), in time linear in the sentence rather than in each prefix.

    The sentence is searched once. A match of that search ending two characters or more
    before `offset` is a match of the search up to `offset` too: the regexes these rules
    use look at most one character past a match (a word boundary) and `$` holds only at
    the end. Any other match up to `offset` ends near it, so it starts within a few words
    of it, unless it runs through whitespace or other non-word characters (`\\s+`,
    `\\W*$`): those are searched for directly, from the start of such a run before
    `offset - WINDOW` (and a head of up to HEAD characters before it, such as "path" in
    "path   format")."""

    # Conditions, for the patterns searched so (checked in
    # tests/linters/test_perf_long_paragraphs.py with the smallest sizes that meet them):
    # WINDOW + HEAD is more than the longest match without such a run (12 characters: "for
    # instance"), WINDOW more than the longest word after a run ("slashes" in "forward
    # slashes") and HEAD at least the longest before one ("formatted" in "formatted as").
    WINDOW = 48
    HEAD = 16
    __slots__ = ("_end", "_ends", "_rx", "_runs", "_start", "_text")

    def __init__(self, rx: re.Pattern[str], text: str, start: int, end: int) -> None:
        self._rx, self._text, self._start, self._end = rx, text, start, end
        # finditer's matches do not overlap: their ends increase.
        self._ends = [m.end() for m in rx.finditer(text, start, end)]
        self._runs: list[tuple[int, int]] | None = None

    def found(self, offset: int) -> bool:
        if self._ends and self._ends[0] < offset - 1:
            return True
        if offset - self._start <= self.WINDOW + self.HEAD:
            return self._rx.search(self._text, self._start, offset) is not None
        return self._rx.search(self._text, self._window(offset), offset) is not None

    def _window(self, offset: int) -> int:
        """Where a match ending near `offset` may start, at the earliest."""
        if self._runs is None:
            self._runs = [m.span() for m in _NON_WORD_RUN.finditer(self._text, self._start,
                                                                      self._end)]
        pos = offset - self.WINDOW
        i = bisect.bisect_left(self._runs, (pos, 0)) - 1
        if i >= 0 and self._runs[i][0] < pos <= self._runs[i][1]:
            pos = self._runs[i][0]  # a non-word run ends at or after pos: go to its start
        return max(self._start, pos - self.HEAD)


_NON_WORD_RUN = rx(r"\W+")
