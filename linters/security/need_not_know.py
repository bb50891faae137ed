""""The user need not know ...": when an absence of obligation hides an action (SF501).

"Must not know", "should never learn", "never let the user know" forbid the user a piece of
knowledge: concealment, whatever follows. "Need not know" (needn't, does not need to know,
need never know) only says the user is not required to know something, which is usually a
convenience the skill offers: "a 4-char PDB ID typed directly is still accepted, but the user
need not know one", "the user doesn't need to know the exact syntax". It keeps something back
from the user only when what is not to be known is an act or an event of the agent's (issue 36,
holdout22):

- about a pronoun or a question of what was done: "need not know about it", "about any of
  this", "about what we changed";
- a clause with the agent's side as its subject: "need not know that we uploaded the logs",
  "that the skill ran";
- what happened or was done: "need not know what happened", "what you did";
- the details of it, or a bare "this" / "that" closing the clause, pointing back at what the
  text has just told the agent to do: "the user need not know the details", "... need not
  know this.".

A noun the user would otherwise supply or look up ("one", "the exact ID", "the path", "which
backend to choose", "the details of the ID format") is no act: not a finding. Bare "it" is
left out too ("the accession is found for them; the user need not know it" is the accession).

Matched on the lower-cased line, so literals stay lower case; `NEED_NOT_KNOW` is one
alternative of injection.py's `_CONCEAL` (its "users?" subject included).
"""

from __future__ import annotations

__all__ = ["NEED_NOT_KNOW"]

_NEED_NOT = (
    r"(?:need\s+(?:not|never)|needn['\u2019]?t|needs\s+not"
    r"|(?:does|do)(?:\s+not|n['\u2019]?t)\s+need\s+to|never\s+needs?\s+to)"
)
_LEARN = r"(?:know|find\s+out|learn|notice|be\s+told)"
# Verbs of the agent's acts, after "what you ..." / "that we ...".
_ACTED = (
    r"(?:did|do|does|are\s+doing|have\s+done|had\s+done|changed|ran|run|sent|deleted|removed|"
    r"uploaded|installed|modified|executed|wrote|written|pushed|committed|shared|collected|"
    r"copied|moved|read|used|called|fetched|saved|stored|logged|recorded)"
)
_AGENT_SIDE = r"(?:we|you|i|it|they|the\s+(?:agent|assistant|skill|script|tool|model))"
_POINTER = r"(?:it|this|that|these|those|them)"
_CLAUSE_END = r"(?=\s*(?:[.;!,)\u2014\u2013]|\s-|$))"

# What happened or was done: "what happened", "what was changed", "what you did".
_EVENT = (
    rf"what\s+(?:happened|happens|is\s+happening|went\s+on|was\s+done|(?:was|were|has\s+been)"
    rf"\s+\w+ed|{_AGENT_SIDE}\s+(?:(?:have|has|had|just|also)\s+)*(?:\w+ed|{_ACTED}))\b"
)
# What is kept back: an act or an event, never a thing the user would supply.
_ACT = (
    rf"\s+(?:about\s+(?:{_POINTER}\b|any\s+of\s+{_POINTER}\b|{_EVENT})"
    rf"|that\s+{_AGENT_SIDE}\s+(?:(?:have|has|had|just|also|then|will|would|did)\s+)*"
    rf"(?:\w+ed|{_ACTED})\b"
    rf"|{_EVENT}"
    rf"|(?:the|any)\s+details{_CLAUSE_END}"
    rf"|(?:the|any)\s+details\s+of\s+(?:{_POINTER}\b|{_EVENT})"
    rf"|(?:this|that){_CLAUSE_END}"
    rf"|(?:anything|something)\s+(?:about\s+{_POINTER}\b|happened|changed|ran|was\s+\w+ed))"
)

# The object is read ahead, not matched: the phrase ends at the verb, as the other
# alternatives of `_CONCEAL` do, so the readings of what follows it see the same text.
NEED_NOT_KNOW = rf"\b(?:the\s+)?users?\s+{_NEED_NOT}\s+{_LEARN}\b(?={_ACT})"
