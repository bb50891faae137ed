"""A lead-in that forbids what it introduces: a deny-list of commands (issue 36, SF505 and kin).

A safety section lists what the agent must never run under a line that says so:
"Forbidden command patterns (non-exhaustive):", "Banned commands:", "Never run any of these:",
"Commands you must never run:". Every item of that list, or every line of the block it
introduces, is what the rule forbids, as much as "Never run `rm -rf /`" on one line is
(`text_role.forbids`). The reading holds only for a lead-in, the last sentence of the
paragraph just before the list or block, ending in a colon (or an emphasised label alone),
and only when its own clauses say so (an aside in parentheses does not) without a turn:

- a clause opens with a deny word that labels what follows ("Forbidden command patterns",
  "Banned", "Not allowed"; also prohibited, disallowed, blocked, denied, off-limits) or says
  it of what follows ("These are forbidden", "Commands that must never be run");
- or a clause opens with a negation over a verb of doing, after at most a subject ("Never
  run", "Commands you must never run", "Do not ever execute", "Never delete, remove, or
  destroy"); "never hesitate to", "don't forget to", "never skip" are not prohibitions of
  what follows, and a deny word inside a longer sentence ("... even when pods are normally
  blocked", "Issue: permission denied") forbids nothing.

A lead-in that tells the agent to run the list in any clause ("Run these, even though they
are normally forbidden:"), lifts the ban ("no longer forbidden", "now allowed") or makes it
conditional ("Never run these without a backup:", "... until the user confirms") is not a
deny-list: the commands are still the agent's to run.
"""

from __future__ import annotations

import re

from linters.security.imperative import tells_to_run
from linters.text.compiled_regex import rx

# The lead-in as a label: a trailing colon, or emphasis around the whole line.
_COLON_END = rx(r":\s*(?:\*\*|__|\*|_)?\s*$")
_EMPHASISED = rx(r"^(?:\*\*|__)[^*_]{2,80}(?:\*\*|__):?$")
# A clause of the lead-in that forbids what follows, read from the clause's start: a deny word
# as its label ("Forbidden command patterns", "Banned", "Not allowed"), a predicate of what
# follows ("These are forbidden", "Commands that are always blocked", "Commands that must
# never be run"), or a negation over a verb of doing ("Never delete, remove, or destroy",
# "Commands you must never run", "Do not ever execute"). A deny word elsewhere in a sentence
# ("... even when pods are normally blocked", "Issue: permission denied") forbids nothing.
_DENY = (r"(?:forbidden|prohibited|banned|disallowed|blocked|denied|blacklisted|"
         r"not\s+(?:allowed|permitted)|never\s+(?:allowed|permitted|acceptable)|off[- ]limits)")
_THINGS = (r"(?:[\w/.-]+\s+){0,3}?(?:commands?|command\s+patterns?|patterns?|operations?|"
           r"actions?|calls?|things|targets?|paths?|tools?|steps?|lines?|deletions?)")
_WHO = r"(?:(?:you|we|agents?|the\s+agent|claude|the\s+assistant)\s+)"
_NEG = (r"(?:never|do\s+not|don't|dont|must\s+not|must\s+never|mustn't|should\s+not|"
        r"should\s+never|shouldn't|may\s+not|may\s+never|cannot|can\s+never)")
_DO_VERB = (r"(?:run|execute|exec|use|call|invoke|issue|type|enter|paste|try|attempt|perform|"
            r"do|delete|remove|destroy|wipe|erase|format|overwrite|modify|touch|kill|suggest|"
            r"propose|approve|allow|permit|accept)")
_FORBIDDING_CLAUSE = rx(
    rf"^(?:(?:strictly|absolutely|always)\s+)?{_DENY}\b(?:\s+[\w/.-]+){{0,6}}$"
    rf"|^(?:these|the\s+following|{_THINGS})\s+(?:that\s+|which\s+)?(?:are|is|remain|stay|get)"
    rf"\s+(?:\w+\s+)?{_DENY}\b(?:\s+[\w/.-]+){{0,4}}$"
    rf"|^(?:{_THINGS}\s+(?:that\s+|which\s+)?)?{_WHO}?{_NEG}\s+(?:ever\s+)?{_DO_VERB}\b"
    rf"|^{_THINGS}\s+(?:that\s+|which\s+)?(?:must|should|may)\s+(?:never|not)\s+(?:ever\s+)?"
    rf"be\s+(?:run|executed|used|issued|invoked|typed)\b"
    rf"|^{_THINGS}\s+(?:to\s+never|never\s+to)\s+(?:be\s+)?{_DO_VERB}\w*\b",
    re.IGNORECASE,
)
# A turn that lifts the ban or makes it conditional: the list stays the agent's to run.
_TURN = rx(
    r"\b(?:no\s+longer|not\s+(?:forbidden|prohibited|banned|blocked|denied|disallowed)|"
    r"un(?:blocked|banned)|(?:now|are|is|be|become)\s+(?:allowed|permitted|fine|ok|okay|safe)|"
    r"even\s+(?:though|if)|although|though|despite|except|unless|until|without|before|"
    r"outside|first|yet|anymore|any\s+more|but)\b",
    re.IGNORECASE,
)
_CLAUSES = rx(r"[,;:()\u2014\u2013]|\s-\s")
# Lines that end a paragraph above the lead-in: a heading, a list item, a fence, a table row.
_STRUCTURE = rx(r"^\s*(?:#|\||```|~~~|(?:[-*+]|\d{1,3}[.)])\s)")
_SENTENCE_END = rx(r"(?<=[.!?])\s+(?=\S)")
# An aside in parentheses is not the lead-in's own clause: "ask the user to run it (do not run
# `curl | sh` yourself):" hands the list to the user; it does not forbid it.
_ASIDE = rx(r"\([^()]*\)")


def forbidding_lead(paragraph: list[str]) -> str | None:
    """The words by which a lead-in forbids what it introduces, or None. `paragraph`: the
    lines up to and including the prose line just before a list or a block, nearest last;
    the lead-in is the last sentence of the paragraph they end."""
    lines: list[str] = []
    for text in reversed(paragraph):
        if not text.strip() or _STRUCTURE.match(text):
            break
        lines.insert(0, text.strip().lstrip(">").strip())
    if not lines:
        return None
    text = " ".join(lines)
    if not (_COLON_END.search(lines[-1]) or (len(lines) == 1 and _EMPHASISED.match(text))):
        return None
    text = _SENTENCE_END.split(text)[-1]
    said = re.sub(r"`[^`]*`", " ", text.strip("*_ :"))
    if _TURN.search(said) or any(tells_to_run(c.strip()) for c in _CLAUSES.split(said)):
        return None
    for clause in _CLAUSES.split(_ASIDE.sub(" ", said)):
        m = _FORBIDDING_CLAUSE.match(" ".join(clause.split()))
        if m:
            return m.group(0)
    return None
