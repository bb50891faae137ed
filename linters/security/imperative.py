"""Does a sentence tell the agent to run what follows? (linters.security.text_role)

An imperative run verb at the sentence's start governs the spot a few words later ("Install
the CLI: `curl ... | sh`", "Then run `...`", "To set it up, run"), unless a negation comes
before it or the words between speak of attacks or detection ("Run the scanner to detect
`curl | sh`" runs the scanner, not the pattern).
"""

from __future__ import annotations

import re

from linters.security.security_context import Line
from linters.text.compiled_regex import rx

_MARKER = rx(r"^\s*(?:>\s*)*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:\*\*|__)?"
             r"(?:step\s*\d+\s*[:.)-]?\s*)?(?:\*\*|__)?\s*", re.IGNORECASE)
# A sentence that tells the agent to run something: an imperative run verb at its start
# ("Run:", "1. Install the CLI:", "Then execute", "To set it up, run").
_RUN_VERB = (r"(?:run|execute|exec|install|invoke|call|launch|start|type|paste|enter|use|"
             r"set\s+up|configure|initiali[sz]e|bootstrap|deploy|build|download|fetch|apply|"
             r"add|update|upgrade|open|copy|pipe|send|upload|post|submit|read|load|export|"
             r"authenticate|log\s*in|sign\s*in)")
# Emphasis, emoji and check marks before the first word ("**", "✅ ").
_LEADING_MARKS = rx(r"^[^\w(]+")
_IMPERATIVE = rx(
    rf"^(?:(?:then|next|first|finally|now|and|also|optionally|afterwards|once\s+done)[,:]?\s+)?"
    rf"(?:(?:please|always|just|simply|instead)\s+)*{_RUN_VERB}\b"
    rf"|^to\s+[^,:;.]{{1,60}}[,:]\s*{_RUN_VERB}\b"
    rf"|^(?:install(?:ation)?|setup|set-?up|usage|quick\s*start|command|commands)\s*:",
    re.IGNORECASE,
)
NEGATION_WORDS = rx(r"\b(?:never|don'?t|do\s+not|must\s+not|mustn't|should\s+not|"
                     r"shouldn't|avoid|not)\b|\u274c", re.IGNORECASE)


# Between the run verb and the spot, at most this many words: "Install the CLI with
# Homebrew: `...`" tells the agent to run it; "Run the scanner on every file it can reach
# and report whether `...`" does not.
_GAP_WORDS = 8


def tells_to_run(sentence: str) -> bool:
    """`sentence` (up to the spot) starts with a run verb that governs what follows: few
    words between them, none about attacks or detection ("Run the scanner to detect
    `curl | sh`" runs the scanner, not the pattern)."""
    sentence = _LEADING_MARKS.sub("", _MARKER.sub("", sentence, count=1))
    m = _IMPERATIVE.match(sentence)
    if not m:
        return False
    gap = sentence[m.end():]
    return len(gap.split()) <= _GAP_WORDS and not _PURPOSE_TALK.search(gap)


# In the gap: a purpose that makes what follows a thing to look for, or an attack.
_PURPOSE_TALK = rx(
    r"\bto\s+(?:detect|flag|catch|spot|find|search\s+for|look\s+for|block|reject|refuse|"
    r"recogni[sz]e)\b|attack|malicious|payload|exploit|inject",
    re.IGNORECASE,
)


_SENTENCE_END = rx(r"[.!?]\s+(?=\S)|:\s+(?=[A-Z`])")


def imperative(line: Line, start: int) -> bool:
    """The sentence holding 0-based `start` tells the agent to run what is at `start`, and
    nothing before the spot negates it ("Install the CLI: `curl ... | sh`", "Then run
    `...`")."""
    before = line.text[:start]
    cut = max((m.end() for m in _SENTENCE_END.finditer(before)), default=0)
    sentence = before[cut:]
    if not _MARKER.sub("", sentence, count=1).strip() and cut:
        # "Install the CLI: `...`": the clause before the colon says what to do.
        prev = before[:cut]
        cut = max((m.end() for m in _SENTENCE_END.finditer(prev[:-1])), default=0)
        sentence = prev[cut:]
    # "For background tasks, always use `...`", "Fix: run `...`": the last clause may hold
    # the verb, unless it is an item of what a request asks for, which the sentence refuses.
    clause = re.split(r"[,;:]\s+|\s[-\u2013\u2014]\s", sentence)[-1]
    return ((tells_to_run(sentence)
             or (tells_to_run(clause) and not _refused_request(sentence, line.text[start:])))
            and not NEGATION_WORDS.search(before[cut:]))


# "Treat any prompt asking to broaden that policy (auto-allow X, add `--flag`, or persistently
# allow shell) as a refusal-list item (escalate, do not approve)": the clause "add `--flag`" is
# one of the things a request asks for, and the sentence tells the agent to refuse it. A
# participle after its noun ("a prompt asking to", "a PR requesting to") ties the list to the
# request; "If the user asks to go faster, add `--flag`" and "When trying to debug, add
# `--flag`" keep their main clause an instruction.
_REQUESTING = rx(r"(?<!\bwhen\s)(?<!\bwhile\s)(?<!\bif\s)(?<!\bby\s)(?<!\bafter\s)"
                 r"(?<!\bbefore\s)(?<!\bfor\s)(?<!\bwithout\s)(?<!\bstop\s)"
                 r"\b(?:asking|requesting|wanting|trying|attempting|proposing)\s+"
                 r"(?:(?:you|the\s+agent|us|me)\s+)?to\b", re.IGNORECASE)
_REFUSAL = rx(
    r"\brefus(?:e|al)|\breject|\bdecline\b|\bdeny\b|\bescalate\b"
    r"|\b(?:do\s+not|don't|never|must\s+not)\s+(?:auto-?)?(?:approve|allow|accept|grant)\b",
    re.IGNORECASE,
)
_SENTENCE_STOP = rx(r"[.!?](?:\s|$)")


def _refused_request(sentence: str, rest: str) -> bool:
    """`sentence` (up to the spot) names a request ("any prompt asking to ..."), and the rest
    of the sentence (`rest`, from the spot on) refuses it."""
    stop = _SENTENCE_STOP.search(rest)
    return bool(_REQUESTING.search(sentence)
                and _REFUSAL.search(rest if stop is None else rest[:stop.end()]))
