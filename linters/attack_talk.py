"""Talk about an attack, or an attack? How the security scanners read the context of a hit.

Security-focused skills *discuss* the patterns the rules look for: a review skill tabulates
injection phrases, a hardening guide shows the `curl | sh` it forbids, a proxy blocks the
metadata address. Such text is not an instruction to the agent. The context decides:

- Skipped (no finding): prose that warns against the command or lists it in a table, a
  quoted phrase in a passage about attacks (`command_severity`, SF501's own rule).
- Reported as `low`: a command or phrase whose only context is a heading about attacks or
  red flags. A heading is cheap to write above anything, so it lowers but does not clear.
- Reported as `info`, the message saying why: evidence at the spot itself that it is not an
  instruction (`Verdict.why`): a sentence that forbids it ("never silently delete ..."), a
  negative example ("Bad:", "# don't do this"), a table or quoted phrase in a section about
  detection or review, a pattern list or defensive code (a blocklist, a detection regex).
- Anything else: the rule's full severity.

Hostile text does not get these for free: the evidence must govern the spot (a negation in
the same clause, a label right before the block), not merely appear nearby.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from linters.compiled_regex import rx
from linters.security_context import Line, SecurityText
from skillforge.models.findings import Severity

# Vocabulary of text that talks *about* attacks rather than performing one. Deliberately
# without plain warning words ("never", "avoid"): hostile instructions use those too.
_ATTACK_WORDS = (
    r"inject|attack|malicious|exploit|payload|adversar|jailbreak|red[- ]?flag|suspicious|"
    r"vulnerab|threat|phishing|exfiltrat|detect|scanner|deny[- ]?list|block[- ]?list|"
    r"guardrail|defen[cs]|mitigat|sanitiz|hostile|untrusted|poison|smuggl|obfuscat|"
    r"indicator|anti-?pattern"
)
_ATTACK_ONLY = rx(_ATTACK_WORDS, re.IGNORECASE)
# On the line itself, "for example" also marks a quotation; not in a heading, since every
# skill has an "Examples" section whose commands are meant to be run.
_ATTACK = rx(_ATTACK_WORDS + r"|\bexamples?\b|e\.g\.|such as", re.IGNORECASE)
_WARNING_WORDS = (
    r"|dangerous|destructive|unsafe|insecure|forbidden|prohibited|harmful|risky|\brisks?\b|"
    r"\bwarn|\bavoid\b|\bbad\b|\bnever\b|\bdon'?t\b|\bdo not\b|\u274c|\u26a0"
)
# Prose about risky commands: attack words, examples and warnings.
_TALK = rx(
    _ATTACK_WORDS + r"|\bexamples?\b|e\.g\.|such as|audit|\bflag(?:s|ged)?\b|"
    r"\bblock(?:s|ed)?\b" + _WARNING_WORDS,
    re.IGNORECASE,
)
# A heading that puts what follows in a "do not do this" or "attacks" frame.
_HEADING_TALK = rx(_ATTACK_WORDS + _WARNING_WORDS, re.IGNORECASE)
# A heading over a catalogue of things to find: what follows is a list to look for, not to
# do. Bare "review" or "audit" are not enough ("## Review the output" is a step).
_CATALOGUE_HEADING = rx(
    r"\b(?:detect(?:s|ed|ion|ions|ing|or|ors)?|patterns?|signatures?|indicators?|iocs?|"
    r"(?:security|code|threat|skill)\s+review|(?:review|audit)\s+checklist|triage|"
    r"look(?:ing)?\s+for|to\s+(?:flag|catch|spot|recogni[sz]e)|red[- ]?flags?|"
    r"what\s+(?:to\s+)?(?:flag|catch)|what\s+(?:the\s+)?(?:reviewers?|scanners?|auditors?|"
    r"linters?)\s+(?:flags?|looks?\s+for|catch(?:es)?))\b",
    re.IGNORECASE,
)
# A warning that governs what follows it on the line: "never run `curl | sh`".
_NEGATION = rx(
    r"\b(?:never|don't|do not|dont|must not|mustn't|should not|shouldn't|avoid(?:ing)?|"
    r"instead of|rather than|not to|refuse|reject|block|deny|prevent|forbid|disallow|"
    r"unsafe|dangerous|bad)\b|\u274c",
    re.IGNORECASE,
)
# "Never silently delete ...": a negation in the same clause, a few words before the phrase.
_FORBIDS = rx(
    r"\b(?:never|don't|do\s+not|dont|must\s+not|mustn't|should\s+not|shouldn't|cannot|"
    r"can't|may\s+not|not\s+allowed\s+to|forbidden\s+to|refuse\s+to|no\s+skill\s+may)"
    r"(?:\s+(?:ever|again|just|simply|quietly|be\s+allowed\s+to|try\s+to))?\s*$",
    re.IGNORECASE,
)
# Between a negation and the phrase: words that flip "don't" into an instruction to act
# ("don't forget to ignore ...", "don't hesitate to ...").
_NOT_A_PROHIBITION = rx(
    r"\b(?:hesitate|forget|fail|afraid|wait|stop|worry|mind)\b", re.IGNORECASE
)
_CLAUSE_END = rx(r"[,;:.!?()\u2014]|\s-\s|\bbut\b|\bthen\b|\band\b|\bjust\b",
                         re.IGNORECASE)
# A label right before a code block, or a comment in it, that marks a negative example.
_NEGATIVE_LABEL = rx(
    r"^\W*(?:bad|wrong|incorrect|insecure|unsafe|vulnerable|dangerous|malicious|"
    r"anti-?pattern|counter-?example|negative\s+example)\b"
    r"|^\W*(?:don'?t|do\s+not|never|avoid)\s+(?:do|write|run|use|copy|paste|ship|try)?\s*"
    r"(?:this|that|these|the\s+following|like\s+this)\b"
    r"|^\W*(?:what\s+)?(?:an?\s+)?(?:attackers?|malicious\s+\w+|hostile\s+\w+)\b[^.!?]*:?\W*$"
    r"|^\W*(?:example\s+of\s+)?(?:an?\s+)?(?:attack|injection|exploit|obfuscated|obfuscation|"
    r"encoded\s+payload)\b[^.!?]*:\W*$"
    r"|[\u274c\u2717\u26d4\U0001f6ab]",
    re.IGNORECASE,
)
_COMMENT = rx(r"(?:^|\s)(?:#|//|--|REM\b)\s*(.*)$")
# Defensive code: a name for what is looked for or refused, or a pattern being compiled.
_DEFENSIVE_NAME = rx(
    r"(?:block|deny|forbid|disallow|banned|blacklist|reject|suspicious|danger|malicious|"
    r"pattern|regex|regexp|signature|indicator|marker|detect|\bioc|bad_|unsafe|risky|"
    r"private_?(?:ip|net|range)|ssrf)",
    re.IGNORECASE,
)
_ASSIGNMENT = rx(r"^\s*(?:(?:const|let|var|final|static|export)\s+)*"
                         r"([A-Za-z_][\w.]*)\s*(?::[^=]{0,40})?(?:=|:)(?!=)")
_PATTERN_CALL = rx(
    r"\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub)\s*\(|\bRegExp\s*\(|"
    r"\bregex(?:p)?\s*[:=(]|\bgrep\s+-\w*[EPF]|=~|\.test\s*\(|\bpattern(?:s|-either|-regex)?\s*:",
    re.IGNORECASE,
)


class Verdict(NamedTuple):
    """How to report a hit: its severity (None: not at all) and, when lowered, why."""

    severity: Severity | None
    why: str = ""


def downgraded(message: str, default: Severity, verdict: Verdict) -> str:
    """`message` with the reason for a lowered severity appended (unchanged if none)."""
    if not verdict.why or verdict.severity is None or verdict.severity == default:
        return message
    body = message.rstrip()
    body = body[:-1] if body.endswith(".") else body
    return (f"{body} (reported as {verdict.severity.value}, not {default.value}: "
            f"{verdict.why}, so it is not an instruction to the agent).")


# --- reading a line -------------------------------------------------------------------------


def _outside_code(text: str) -> str:
    """The line without its inline code spans and URLs: the prose that frames them."""
    if "`" in text:
        text = re.sub(r"`[^`]*`?", " ", text)
    if "://" in text:
        text = re.sub(r"\S+://\S+", " ", text)
    return text


def talks(line: Line) -> bool:
    """The line's prose uses the vocabulary of discussing attacks or warning about commands.

    Inline code and URLs are left out: `curl https://get.example-tools.io/x | sh` is a
    command, and the "example" in its host says nothing about the sentence."""
    return bool(_TALK.search(_outside_code(line.text)))


def discusses_attacks(line: Line, start: int, end: int) -> bool:
    """Outside the span [start, end), the line talks about attacks, injection or examples."""
    return bool(_ATTACK.search(line.text[:start]) or _ATTACK.search(line.text[end:]))


def negated(line: Line, col: int) -> bool:
    """A warning word precedes 0-based `col` on the line ("never pipe `curl` into `sh`")."""
    return bool(_NEGATION.search(line.text, 0, col))


def forbids(line: Line, start: int) -> str | None:
    """The negation that governs the phrase at `start` ("Never silently delete ..."), if any.

    It must end the clause the phrase starts in, a few words before it; "don't forget to" or
    "don't hesitate:" do not count."""
    before = line.text[:start]
    cut = max((m.end() for m in _CLAUSE_END.finditer(before)), default=0)
    clause = before[cut:]
    if len(clause.split()) > 6 or _NOT_A_PROHIBITION.search(clause):
        return None
    m = _FORBIDS.search(clause)
    return m.group(0).strip() if m else None


def quoted(line: Line, start: int, end: int) -> bool:
    """The span [start, end) sits inside backticks or quotation marks on its line."""
    before, after = line.text[:start], line.text[end:]
    if before.count("`") % 2 == 1:
        return True
    if before.count('"') % 2 == 1 and '"' in after:
        return True
    if before.rfind("\u201c") > before.rfind("\u201d") and "\u201d" in after:
        return True
    # Single quotes double as apostrophes: only count one that hugs the span.
    return before.rstrip().endswith(("'", "\u2018")) and ("'" in after or "\u2019" in after)


# --- reading the document around a line -----------------------------------------------------


def heading(st: SecurityText, line: Line) -> str:
    """The nearest heading above the line ("" if none, or no Markdown)."""
    if st.doc is None:
        return ""
    title = ""
    for h in st.doc.headings:
        if h.line > line.no:
            break
        title = h.text
    return title


def heading_talks(st: SecurityText, line: Line) -> bool:
    """The nearest heading above the line is about attacks, red flags or warnings."""
    title = heading(st, line)
    return bool(title and _HEADING_TALK.search(title))


def catalogue_heading(st: SecurityText, line: Line) -> str | None:
    """The nearest heading, when it is over a catalogue of things to detect or review."""
    title = heading(st, line)
    return title if title and _CATALOGUE_HEADING.search(title) else None


def catalogue_text(text: str) -> bool:
    """`text` (a table header) names patterns to find or attacks. Not plain warning words:
    in a "| Do | Don't |" table the first column is an instruction."""
    return bool(_CATALOGUE_HEADING.search(text) or _ATTACK_ONLY.search(text))


def prose_talk(st: SecurityText, line: Line, col: int) -> bool:
    """The line discusses a pattern: a table row, a warning, or attack vocabulary."""
    return st.is_table_row(line) or negated(line, col) or talks(line)


def negative_example(st: SecurityText, line: Line) -> str | None:
    """Why a line of a fenced code block is a negative example: the label just before the
    block ("Bad:", "Don't do this:", "What an attacker writes:") or a comment on the line or
    the one before it ("# BAD", "# \u274c never do this")."""
    own = _COMMENT.search(line.text)
    if own and _NEGATIVE_LABEL.search(own.group(1)):
        return f'its comment says "{own.group(1).strip()[:40]}"'
    doc = st.doc
    if doc is None:
        return None
    starts = [f.start for f in doc.fences]
    i = bisect_right(starts, line.no) - 1
    if i < 0:
        return None
    fence = doc.fences[i]
    if fence.end is not None and line.no > fence.end:
        return None
    prev = line.no - 1
    if prev > fence.start:
        comment = _COMMENT.search(doc.lines[prev - doc.first_line])
        if comment and _NEGATIVE_LABEL.search(comment.group(1)):
            return f'the comment above it says "{comment.group(1).strip()[:40]}"'
    for no in range(fence.start - 1, max(doc.first_line - 1, fence.start - 4), -1):
        text = doc.lines[no - doc.first_line].strip()
        if not text:
            continue
        if text.startswith("#") or doc.is_code(no):
            return None  # a heading or another block: no label
        if len(text.split()) <= 14 and _NEGATIVE_LABEL.search(text.strip("*_> ")):
            return f'it is a negative example, after "{text.strip("*_ ")[:40]}"'
        return None
    return None


def defensive_code(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the hit at 0-based `col` is data in defensive code: a string in a block or deny
    list, a detection pattern or a regex (`BLOCKED = ['169.254.169.254']`).

    The string must be an argument of the pattern call, or an item of a collection whose name
    says what it holds: `BLOCKED = "curl ... | sh"` followed by `os.system(BLOCKED)` is a
    command with a misleading name, not a list."""
    text = line.text
    before = text[:col]
    in_string = (before.count('"') % 2 == 1 or before.count("'") % 2 == 1
                 or (before.count("`") % 2 == 1 and not st.is_markdown))
    if not in_string:
        return None
    call = None
    for m in _PATTERN_CALL.finditer(text, 0, col):
        call = m
    if call is not None and ")" not in text[call.end():col]:
        return "it is a pattern in defensive code (a detection regex or rule)"
    name, item = _assigned_name(st, line)
    if not name or not _DEFENSIVE_NAME.search(name):
        return None
    if item or _COLLECTION_OPEN.search(text, 0, col):
        return f"it is data in defensive code (the list `{name[:40]}`)"
    return None


_COLLECTION_OPEN = rx(r"(?:=|:)\s*(?:new\s+Set\s*\(|(?:frozen)?set\s*\(|tuple\s*\()?"
                              r"\s*[\[({]")


def _assigned_name(st: SecurityText, line: Line) -> tuple[str | None, bool]:
    """(name assigned on this line, or on the line opening the list it is an item of;
    whether the line is such an item rather than the assignment itself)."""
    cur: Line | None = line
    for _ in range(40):
        if cur is None:
            return None, False
        m = _ASSIGNMENT.match(cur.text)
        if m:
            return m.group(1), cur is not line
        stripped = cur.text.strip()
        if cur is not line and not stripped.startswith(("'", '"', "r'", 'r"', "#", "//", "-")):
            if not stripped.endswith(("[", "(", "{", ",")):
                return None, False
        cur = st.neighbour(cur, -1)
    return None, False


# --- the verdict for a command --------------------------------------------------------------


def command_severity(st: SecurityText, line: Line, col: int, default: Severity) -> Verdict:
    """How to report a risky command at (line, 0-based col), given how the file presents it.

    Code blocks and scripts are what agents run: reported at `default`, `info` when the spot
    itself shows it is defensive code or a negative example, or when the heading above is
    both about attacks and over a catalogue ("Patterns the scanner flags"), `low` when the
    heading is one of those only. Prose (inline code included) that warns against the
    command, lists it in a table or discusses attacks is talk and is skipped; other prose is
    judged by its heading like code.
    """
    if not st.is_markdown:
        why = defensive_code(st, line, col)
        return Verdict(Severity.info, why) if why else Verdict(default)
    if not st.in_code(line):
        if prose_talk(st, line, col):
            return Verdict(None)
        why = None
    else:
        why = negative_example(st, line) or defensive_code(st, line, col)
    talk, catalogue = heading_talks(st, line), catalogue_heading(st, line)
    if why is None and talk and catalogue:
        why = f'it is listed under the heading "{catalogue[:50]}"'
    if why:
        return Verdict(Severity.info, why)
    # A heading alone is cheap to write above anything: it lowers, it does not clear.
    return Verdict(Severity.low) if talk or catalogue else Verdict(default)
