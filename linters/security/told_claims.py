"""When "never tell the user ..." forbids a false claim, not a hidden act (SF501).

SF501's concealment phrase "do not tell the user" is there for rules that keep the agent's
doings from the user: "never tell the user you uploaded the file", "that the receipts were
sent", "what you ran", "about this step". The same words also forbid *saying something
wrong*: the told thing is then a claim the skill calls false or forbids making, and nothing
the agent does is kept back. Three shapes of such a claim are read here (issue 36, holdout2
and holdout26):

- an elided claim pointing back at a statement the text has just made and denied: "AI
  generation is never plan-gated; never tell the user it is." (not "you did": the agent's own
  act stays concealment);
- an effect the text has just said cannot happen: "language cannot be set here ... never
  tell the user this call changed them" (not when nothing before denies it);
- a forecast, an estimate or a promise about how long, how much or whether something will
  work: "never tell the user a 10-candidate screen will take 30 minutes or hours", "that the
  import takes hours", "the trial is free", "the fix will work". The predicate decides, not
  the subject: "will take" needs a duration after it, "cost" an amount, "finish" a time;
  "the export will take their keys", "the data will be sent", "the receipts were uploaded",
  "the backup is done" (a state without a time is a finished act) stay concealment. Only a
  claim in the affirmative: a negated forecast ("it won't finish in time", "the script is not
  safe") would keep bad news back, and stays. A subject of the agent's side ("you", "we",
  "I") or a question word ("whether", "what", "about") is never read as a forecast: "never
  tell the user we will take a copy", "whether they are on a list" keep their finding.

A forecast is read only after a prohibition on telling ("never / do not / must not tell the
user"): "without telling the user", "the user must not know", "don't mention this" keep
something back whatever follows. Matched on the lower-cased line, so literals stay lower case.
"""

from __future__ import annotations

from linters.text.compiled_regex import rx

__all__ = ["told_claim"]

_FORBIDS_TELLING = rx(r"(?:do\s+not|don't|dont|never|must\s+not|mustn't)\s+tell\b")

_ELIDED_CLAIM = rx(
    r"\s+(?:that\s+)?(?:it|they|this|that|these|those)\s+(?:is|are|was|were|does|do|did|can|"
    r"has|have|will|would)(?:n't|\s+not)?\s*(?:[.;!,)]|$)"
)

_EFFECT_CLAIM = rx(r"\s+(?:that\s+)?(?:this|the|it|your)\b[\w\s-]{0,20}?\b(?:changed|set|"
                   r"updated|applied|saved|worked|succeeded|modified)\b")
_DENIAL = rx(r"\b(?:cannot|can't|can\s+not|read-only|not\s+(?:supported|possible|settable)|"
             r"isn't\s+possible)\b")

# The subject of a forecast: one to five words, none of them the agent's side or a word that
# opens a question or a topic rather than a claim.
_SUBJECT_WORD = (r"(?!(?:you|we|i|us|our|your|me|my|about|whether|if|what|how|which|where|"
                 r"when|why|who|to|not)\b)[\w'-]+")
_DURATION = (r"(?:about|around|roughly|approximately|only|just|up\s+to|at\s+least|at\s+most|"
             r"more\s+than|less\s+than|over|under|a\s+few|a\s+couple|several|many|an?\s+"
             r"(?:hour|minute|second|day|week|month|while|moment)|\d+|one|two|three|four|five|"
             r"ten|fifteen|twenty|thirty|sixty|seconds|minutes|hours|days|weeks|months|long|"
             r"longer|forever|ages|no\s+time)\b")
_AMOUNT = (r"(?:[$\u20ac\u00a3]|\d|nothing|money|extra|more|less|anything|a\s+(?:fee|lot)|"
           r"credits?|tokens?)")
# "Finish in the background" or "done by the script" is no time.
_WHEN = (rf"(?:(?:in|within|under)\s+{_DURATION}|soon|quickly|instantly|immediately|today|"
         r"tonight|tomorrow|overnight|on\s+time\b)")
_STATE = (r"(?:free|instant|quick|fast|slow|cheap|expensive|"
          r"possible|guaranteed|accurate|exact|supported)\b")
# No negation: "it won't finish in time", "the script is not safe" keep back bad news.
_HEDGE = r"(?:(?:only|probably|likely|definitely|certainly|surely|always|just)\s+)?"
_MODAL = (r"(?:will|would|should|can|could|might|may|is\s+going\s+to|"
          r"are\s+going\s+to)\s+")
# What the claim says: a modal with an estimate's verb, or the present tense of one.
_FORECAST = rx(
    rf"\s+(?:that\s+)?(?:{_SUBJECT_WORD}\s+){{1,5}}?(?:"
    rf"{_MODAL}{_HEDGE}(?:(?:take|last|need|run\s+for)\s+{_DURATION}|cost\s+{_AMOUNT}"
    rf"|(?:finish|complete|be\s+(?:done|ready|finished))\s+{_WHEN}|be\s+{_STATE}"
    r"|(?:work|succeed)\s*(?:[.;!,)]|$|\s+(?:the\s+first\s+time|every\s+time|for\s+sure|"
    r"perfectly|instantly|immediately)\b))"
    rf"|(?:takes|lasts|needs)\s+{_DURATION}|costs\s+{_AMOUNT}|(?:is|are)\s+{_HEDGE}{_STATE})"
)


def told_claim(low: str, start: int, end: int) -> str:
    """Why the SF501 phrase `low[start:end]` forbids a false claim, or "" if it may hide an act."""
    if _ELIDED_CLAIM.match(low, end) or (_EFFECT_CLAIM.match(low, end)
                                         and _DENIAL.search(low, 0, start)):
        return "it keeps back a claim the text has just denied"
    if _FORBIDS_TELLING.match(low, start) and _FORECAST.match(low, end):
        return "it forbids a wrong estimate or promise, not an act of the agent's"
    return ""
