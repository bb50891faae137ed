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
# that turns into an instruction ("don't hesitate to", "don't wait").
_WITHOUT_TELLING = rx(r"without\s+(?:informing|telling|notifying)\b")
_FORBIDDING = rx(r"\b(?:never|don't|dont|do\s+not|must\s+not|mustn't|should\s+not|"
                 r"shouldn't|may\s+not|cannot|can't)\s+")
_CLAUSE_BREAK = rx(r"[,;:.!?()\u2014]|\s-\s|\b(?:but|then|and|just|instead|so)\b")
_TURNS_AROUND = rx(r"\b(?:hesitate|forget|fail|wait|worry|mind|ask|bother)\b")
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
    lo = max(0, start - 120)
    cut = max((m.end() for m in _CLAUSE_BREAK.finditer(low, lo, start)), default=lo)
    neg = None
    for neg in _FORBIDDING.finditer(low, cut, start):
        pass
    if neg is not None and len(low[neg.end():start].split()) <= 12 \
            and not _TURNS_AROUND.match(low, neg.end()):
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
