"""SF501's "without telling the user" read in its sentence (for `linters.security.injection`):
a rule that forbids an unannounced act, or a sentence that the next one corrects ("Instead,
..."), asks the agent to tell the user, it hides nothing. And what "never tell the user
whether ..." keeps back: the user's standing in a list, tier or plan of the service is a fact
the service decides, not an act of the agent."""

from __future__ import annotations

from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# "Do not create a second paid job without telling the user": "without telling" qualifies an
# act the clause forbids, so the rule asks the agent to tell, not to hide. The negation must
# open the same clause (no comma, "and", "then" between) a few words back, and not be one
# that turns into an instruction ("don't hesitate to", "don't wait"). The clause may be
# wrapped: "Do not shrink the\n order just enough to pass a limit without telling the user"
# is read over the lines it continues (same paragraph, no new list item or heading between).
# "Just" opens a new order ("don't ask, just do it") but not as a degree word ("just enough",
# "just past", "just a little").
_WITHOUT_TELLING = rx(r"without\s+(?:informing|telling|notifying)\b")
_FORBIDDING = rx(r"\b(?:never|don't|dont|do\s+not|must\s+not|mustn't|should\s+not|"
                 r"shouldn't|may\s+not|cannot|can't)\s+")
_CLAUSE_BREAK = rx(r"[,;:.!?()\u2014]|\s-\s|\b(?:but|then|and|instead|so)\b"
                   r"|\bjust\b(?!\s+(?:enough|as|about|a|an|the|barely|below|above|under|over|"
                   r"past|short|slightly|far|once|to|for|in|at|because|like|before|after|"
                   r"beyond|within|outside|inside|around|this|that|these|those|one|some)\b)")
_TURNS_AROUND = rx(r"\b(?:hesitate|forget|fail|wait|worry|mind|ask|bother)\b")
# A line that opens a block of its own: the text above it is not the same clause.
_OPENS_BLOCK = rx(r"\s*(?:[-*+>|#]|\d+[.)]\s|```|~~~)")
_WRAP_LINES = 2


def _clause_before(st: SecurityText, line: Line, start: int) -> str:
    """The lower-cased text before `start`, with up to two wrapped lines above it joined on
    while the text so far holds no clause break and opens no block or sentence."""
    back = line.low[:start]
    cur = line
    for _ in range(_WRAP_LINES):
        # A capital opens a sentence of its own ("Never stop\nShrink the order ...").
        if _CLAUSE_BREAK.search(back) or _OPENS_BLOCK.match(cur.low) \
                or cur.text.lstrip()[:1].isupper():
            break
        prev = st.neighbour(cur, -1)
        if prev is None or not prev.text.strip() or prev.low.lstrip().startswith(("#", "|")) \
                or st.is_markdown and st.in_code(prev) != st.in_code(cur):
            break
        back = prev.low.rstrip() + " " + back.lstrip()
        cur = prev
    return back
# "... severs the link without telling the user. Instead, show the user ...": the next
# sentence opens with "Instead," so this one describes the way not to do it.
_INSTEAD_NEXT = rx(r"\s*[.!]\s*(?:\*\*)?instead\s*[,:]")
_INSTEAD_OPENS = rx(r"\s*(?:[-*>]\s*)?(?:\*\*)?instead\s*[,:]")


def forbidden_unannounced(st: SecurityText, line: Line, start: int, end: int) -> str | None:
    """Why "without telling the user" at `start` keeps nothing back: a negation in its
    clause forbids the act it qualifies, or the next sentence opens with "Instead,"."""
    low = line.low
    if not _WITHOUT_TELLING.match(low, start):
        return None
    back = _clause_before(st, line, start)
    lo = max(0, len(back) - 120)
    cut = max((m.end() for m in _CLAUSE_BREAK.finditer(back, lo)), default=lo)
    neg = None
    for neg in _FORBIDDING.finditer(back, cut):
        pass
    if neg is not None and len(back[neg.end():].split()) <= 12 \
            and not _TURNS_AROUND.match(back, neg.end()):
        return f'the clause forbids the act it qualifies ("{neg.group(0).strip()} ...")'
    rest = low[end:]
    if _INSTEAD_NEXT.match(rest):
        return 'the next sentence, "Instead, ...", says how to do it'
    if rest.strip(" .!*_") == "" and rest.strip(" *_").endswith((".", "!")):
        nxt = st.neighbour(line, 1)
        if nxt is not None and _INSTEAD_OPENS.match(nxt.low):
            return 'the next sentence, "Instead, ...", says how to do it'
    return None


# "Never tell the user whether they are on a whitelist": the told thing is the user's
# standing, a copula with "on"/"in"/"part of" a list, tier, plan or group the service keeps.
# Not an act: "whether they are being recorded", "if you saved it", "whether they are in the
# logs"; and not a standing an act makes ("in the recorded group", "on a tracking list": a
# participle names what is done to them).
_STANDING = rx(
    r"\s+(?:whether|if)\s+(?:they|he|she|the\s+user|their\s+account|the\s+account)\s+"
    r"(?:are|is|were|was)(?:\s+not)?\s+((?:on|in|part\s+of)\s+"
    r"(?:a|an|the|any|their|your|this|that)\s+((?:[a-z-]+\s+){0,2})"
    r"(?:[a-z-]*list|tier|plan|program(?:me)?|beta|cohort|segment|trial|subscription|level|"
    r"group)s?)\b"
)
_ACT_WORD = rx(r"(?:ing|ed)$")


def kept_standing(low: str, end: int) -> str | None:
    """Why a "never tell the user" ending at `end` keeps back no act: what follows asks
    whether the user is on or in a list, tier or plan of the service."""
    m = _STANDING.match(low, end)
    if m is None or any(_ACT_WORD.search(w) for w in m.group(2).split()):
        return None
    return (f'what it keeps back is whether the user is "{m.group(1)[:50]}", a standing the '
            "service decides, not an act of the agent")
