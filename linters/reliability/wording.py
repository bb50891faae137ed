"""Wording of SKILL.md's body (SF308, SF311, SF312): dated facts, menus without a default,
and shouting.

The rules read the body's prose (code blocks left out) through one shared `ProseView`: a
`str.find` pass picks the lines holding a rule's keywords, and its regex runs there only.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import cached_property
from itertools import accumulate

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.text.literal_search import finditer_at_words, folds_safely, spans
from linters.registry import check
from skillforge.models.findings import Finding

_INLINE_CODE = rx(r"(`+).+?\1")


class ProseView:
    """SKILL.md's body without code blocks, as one string for single-pass regex searches.

    `raw` joins the prose lines with newlines; `blank` is the same with inline code turned
    into spaces (same offsets), for rules that must not read code as prose.
    """

    def __init__(
        self, lines: list[tuple[int, str]], raw: str | None = None, low: str | None = None
    ) -> None:
        self.numbers = [no for no, _ in lines]
        # `raw` and `low` may be given when already at hand (MarkdownDoc.prose, prose_low).
        self.raw = "\n".join([line for _, line in lines]) if raw is None else raw
        self.low = self.raw.lower() if low is None else low
        # Offset of each prose line in `raw` (the lines are joined by one "\n" each).
        self.starts: list[int] = list(accumulate([len(line) + 1 for _, line in lines], initial=0))
        self.starts.pop()

    @cached_property
    def blank(self) -> str:
        """`raw` with inline code turned into spaces (worked out on first use)."""
        return _blank_code(self.raw)

    def blank_line(self, i: int) -> str:
        """Prose line `i` of `blank`, without blanking the whole body (no code span crosses
        a line, so blanking a line alone gives the same text)."""
        return _blank_code(self.line_text(i))

    def where(self, offset: int) -> tuple[int, int, int]:
        """(index of the prose line, its SKILL.md line number, 1-based column) of an offset."""
        i = bisect_right(self.starts, offset) - 1
        return i, self.numbers[i], offset - self.starts[i] + 1

    def line_text(self, i: int, text: str | None = None) -> str:
        """Prose line `i` from `raw` (or from `blank`/`low` when given)."""
        end = self.starts[i + 1] - 1 if i + 1 < len(self.starts) else len(self.raw)
        return (text if text is not None else self.raw)[self.starts[i]:end]

    def lines_with(self, keywords: tuple[str, ...]) -> list[int]:
        """Indexes of the prose lines holding any of the lower-case keywords. A `str.find`
        pass is ten times cheaper than a case-insensitive regex over the whole body, so
        rules run their regexes only on these lines."""
        found: set[int] = set()
        low, starts = self.low, self.starts
        # Once a line holds the word, go on from the next line (when lower-casing kept the
        # offsets, as it does unless the text has a character like "İ").
        skip = len(low) == len(self.raw)
        last = len(starts) - 1
        for word in keywords:
            pos = low.find(word)
            while pos >= 0:
                i = bisect_right(starts, pos) - 1
                found.add(i)
                if skip:
                    if i >= last:
                        break
                    pos = low.find(word, starts[i + 1])
                else:
                    pos = low.find(word, pos + 1)
        return sorted(found)


def _blank_code(text: str) -> str:
    if "`" not in text:
        return text
    return _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), text)


_VIEWS: dict[tuple[str, int], ProseView] = {}


def prose_view(ctx: LintContext) -> ProseView:
    """The cached ProseView of SKILL.md's body (shared by every wording rule)."""
    key = (ctx.skill.body, ctx.skill.body_start_line)
    view = _VIEWS.get(key)
    if view is None:
        if len(_VIEWS) > 64:
            _VIEWS.clear()
        doc = ctx.body
        view = _VIEWS[key] = ProseView(doc.prose_lines(), doc.prose, doc.prose_low)
    return view


def held_words(ctx: LintContext, words: tuple[str, ...]) -> tuple[str, ...]:
    """The lower-case `words` the prose may hold: SKILL.md's anchor index rules out those
    declared words the whole file lacks (one search each spared), unless lower-casing could
    turn another character into an ASCII letter."""
    md = ctx.skill.skill_md
    view = prose_view(ctx)
    if md is None or md.text is None or not folds_safely(view.raw, view.low):
        return words
    held = ctx.anchors(md).held(tuple(w.encode() for w in words))
    return tuple(w for w in words if w.encode() in held)


def _quoted(line: str, col: int) -> bool:
    """Column `col` of `line` sits inside a "quoted" example request."""
    before = line[:col - 1]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_YEAR = r"(?:19|20)\d\d\b"
_DATE = (rf"(?:(?:early|mid|late|the\s+end\s+of|end\s+of)[\s-]+)?"
         rf"(?:{_MONTH}\s+(?:\d{{1,2}},?\s+)?)?{_YEAR}")
_PERIOD = r"(?:week|month|year|quarter)"
_TIME_SENSITIVE = rx(
    rf"\bas\s+of\s+(?:{_DATE}|{_MONTH}\s+\d{{1,2}}\b|today|now|(?:this|the\s+time\s+of)\s+writing"
    rf"|writing|(?:this|last)\s+{_PERIOD})"
    r"|\bat\s+the\s+time\s+of\s+(?:this\s+)?writing\b"
    rf"|\b(?:until|till|through)\s+(?:{_DATE}|(?:next|this)\s+(?:{_PERIOD}|release))"
    rf"|\b(?:before|after|by|from)\s+(?:{_MONTH}\s+(?:\d{{1,2}},?\s+)?{_YEAR}|next\s+{_PERIOD})"
    r"|\bwill\s+be\s+(?:deprecated|removed|retired|sunset|discontinued|shut\s+down|replaced)\s+"
    rf"(?:in|on|by|after|at\s+the\s+end\s+of)\s+{_DATE}"
    r"|\b(?:recently|newly|just)\s+(?:been\s+)?(?:released|launched|introduced|announced|deprecated|shipped)\b"
    r"|\bcoming\s+soon\b"
    rf"|\b(?:latest|newest|current)\s+(?:stable\s+)?(?:version|release|model)s?,?\s*\(?(?:as\s+of|in)\s+{_DATE}"
    r"|\b(?:this|next)\s+(?:year|month|quarter)\b",
    re.IGNORECASE,
)


_TIME_KEYWORDS = ("as of", "writing", "19", "20", "week", "month", "year", "quarter", "release",
                  "launched", "introduced", "announced", "deprecated", "shipped", "soon")
# All but the commonest found with every other rule's needles (see `held_words`).
declare(*(w.encode() for w in _TIME_KEYWORDS if w != "20"))


@check("SF308")
def time_sensitive(ctx: LintContext) -> Iterator[Finding]:
    """Facts pinned to "now" go stale without anyone noticing."""
    view = prose_view(ctx)
    for i in view.lines_with(held_words(ctx, _TIME_KEYWORDS)):
        line = view.blank_line(i)
        for start, end in spans(_TIME_SENSITIVE, line):
            if _quoted(line, start + 1):
                continue  # an example request ("sales this year") is not a claim
            yield ctx.finding(
                "SF308",
                f"\"{' '.join(line[start:end].split())}\" will be wrong some day and nothing "
                "will flag it; state the fact without a date, or move dated history to an \"Old "
                "patterns\" note.",
                line=view.numbers[i],
                column=start + 1,
            )


_CHOICE = rx(
    r"\byou\s+(?:can|could|may|might)\s+(?:either\s+|also\s+)?(?:use|choose|pick|run|try|call|select|go\s+with)\b[^.;:!?\n]*?\bor\b"
    r"|\b(?:use|run|call|choose|pick|try|install)\s+either\b|\beither\s+(?:use|run|call|install|choose|pick)\b"
    r"|\b(?:choose|pick|select)\s+(?:between|one\s+of)\b"
    r"|\bthere\s+are\s+(?:several|multiple|many|various|two|three|four)\s+(?:ways|options|approaches|methods|tools|libraries)\b"
    # "use `pdfplumber` or `pypdf`" (not "use `-q` or `--quality`": one flag, two spellings)
    r"|\b(?:use|try|install|run|call)\s+(?:the\s+)?`(?!-)[^`]+`(?:\s*,\s*`[^`]+`)*,?\s+or\s+`(?!-)[^`]+`",
    re.IGNORECASE,
)
_DEFAULT = rx(
    r"\b(?:default\w*|prefer\w*|recommend\w*|unless|otherwise|if|when|whenever|for\s+most|in\s+most\s+cases|"
    r"typically|usually|best|start\s+with|first|fall\s*back|better|ideal\w*|suggested|simplest|"
    r"easiest|depending|based\s+on|go-to|primary|faster|slower|only)\b",
    re.IGNORECASE,
)
_SENTENCE_END = rx(r"(?<=[.;!?])\s")
_NEGATED = rx(r"\b(?:not|never|n't|avoid|without)\W*$", re.IGNORECASE)


# Letters outside ASCII that a case-insensitive regex matches to ASCII ones ("ı" to "i",
# "ſ" to "s", "K" to "k"): a line holding one is left to the regex whatever its words are.
_ASCII_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")
_CHOICE_VERBS = ("use", "try", "install", "run", "call")
_CHOICE_KEYWORDS = (" or ", "either", "between", "one of", "there are")
declare(*(w.encode() for w in _CHOICE_KEYWORDS if w != " or "))


def _may_offer_choice(line: str) -> bool:
    """False only when `_CHOICE` surely finds nothing: each of its forms needs some words
    ("either"; "you" + "can/could/may/might" + "or"; "there" + "are"; ...), and testing for
    them is ten times cheaper than the regex on the long lines " or " picks out."""
    if not line.isascii() and any(c in line for c in _ASCII_FOLDS):
        return True
    low = line.lower()
    return (
        "either" in low
        or ("you" in low and "or" in low and any(w in low for w in ("can", "could", "may", "might")))
        or (("between" in low or "one" in low) and any(w in low for w in ("choose", "pick", "select")))
        or ("there" in low and "are" in low)
        or ("`" in low and "or" in low and any(w in low for w in _CHOICE_VERBS))
    )


@check("SF311")
def menu_without_default(ctx: LintContext) -> Iterator[Finding]:
    """A menu of equal options makes the agent pick at random; name the default."""
    view = prose_view(ctx)
    for i in view.lines_with(held_words(ctx, _CHOICE_KEYWORDS)):
        line = view.line_text(i)
        if not _may_offer_choice(line):
            continue
        m = _CHOICE.search(line)
        if m is None or _NEGATED.search(line[:m.start()]) or _DEFAULT.search(line):
            continue
        # The guidance may follow on the next line ("... or Y.\nPrefer X for ...").
        no = view.numbers[i]
        nxt = i + 1 < len(view.numbers) and view.numbers[i + 1] == no + 1
        if nxt and _DEFAULT.search(view.line_text(i + 1)):
            continue
        clause = _SENTENCE_END.split(line[m.start():], maxsplit=1)[0]
        clause = clause if len(clause) <= 80 else clause[:77].rstrip() + "..."
        yield ctx.finding(
            "SF311",
            f"\"{clause.strip()}\" offers alternatives without saying which to use; name the "
            "default and when to switch (\"Use X; use Y only if ...\").",
            line=no,
            column=m.start() + 1,
        )


_SHOUT = rx(r"\b(?:ALWAYS|NEVER|MUST(?:\s+NOT)?|SHALL(?:\s+NOT)?|DO\s+NOT|DON'T)\b")
# Where a shout can begin (a `\b` and an alternation would make `re` try every position).
_SHOUT_STARTS = ("ALWAYS", "NEVER", "MUST", "SHALL", "DO")
_RFC2119 = rx(r"RFC\s*(?:2119|8174)")
# A skill may shout SHOUT_MIN times, plus once more per SHOUT_WORDS_PER_HIT words of prose:
# the corpus's most emphatic well-kept skills stay under it (6 in 1,100 words).
SHOUT_MIN = 5
SHOUT_WORDS_PER_HIT = 250


@check("SF312")
def shouting(ctx: LintContext) -> Iterator[Finding]:
    """Capitals everywhere dilute the few rules that really are absolute."""
    body = ctx.skill.body
    if not any(w in body for w in ("ALWAYS", "NEVER", "MUST", "SHALL", "DO NOT", "DON'T")):
        return
    view = prose_view(ctx)
    rfc = "RFC" in view.raw and bool(_RFC2119.search(view.raw))
    hits = [m.start() for m in finditer_at_words(_SHOUT, view.blank, _SHOUT_STARTS)
            if not (rfc and m.group(0)[0] in "MS")]
    if len(hits) <= SHOUT_MIN:
        return
    words = len(view.blank.split())
    limit = SHOUT_MIN + words // SHOUT_WORDS_PER_HIT
    if len(hits) > limit:
        yield ctx.finding(
            "SF312",
            f"SKILL.md shouts ALWAYS/NEVER/MUST/DO NOT {len(hits)} times in {words} words of "
            f"prose (at most {limit} for this length); keep capitals for the one or two truly "
            "absolute rules and give the reason behind the others.",
            line=view.where(hits[0])[1],
        )

