"""Talk about an attack, or an attack? The vocabulary and the readers of a hit's context.

Security-focused skills *discuss* the patterns the rules look for: a review skill tabulates
injection phrases, a hardening guide shows the `curl | sh` it forbids, a proxy blocks the
metadata address. This module holds the words that tell such text from an instruction: talk
about attacks, warnings and catalogues, labels that mark a negative example, whether a span
is quoted. `code_evidence` reads defensive code; `text_role` asks both in one
fixed order and decides the role, which decides the severity.

Hostile text does not get these for free: the evidence must govern the spot (a negation in
the same clause, a label right before the block), not merely appear nearby.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from linters.text.compiled_regex import rx
from linters.security.security_context import Line, SecurityText
from skillforge.models.findings import Severity

# Vocabulary of text that talks *about* attacks rather than performing one. Deliberately
# without plain warning words ("never", "avoid"): hostile instructions use those too.
_ATTACK_WORDS = (
    r"inject|attack|malicious|exploit|payload|adversar|jailbreak|red[- ]?flag|suspicious|"
    r"vulnerab|threat|phishing|exfiltrat|detect|scanner|deny[- ]?list|block[- ]?list|"
    r"guardrail|defen[cs]|mitigat|sanitiz|hostile|untrusted|poison|smuggl|obfuscat|"
    r"indicator|anti-?pattern|\bssrf\b|\bxss\b|\bcsrf\b|\bsqli\b|\bxxe\b|\brce\b|"
    r"\bbypass(?:es|ing)?\b|red[- ]?team|pen[- ]?test|penetration\s+test"
)
_ATTACK_ONLY = rx(_ATTACK_WORDS, re.IGNORECASE)
# "Bad" only as a label ("## Bad", "### Bad examples"): "502 Bad Gateway" is a symptom whose
# section holds the fix.
_WARNING_WORDS = (
    r"|dangerous|destructive|unsafe|insecure|forbidden|prohibited|harmful|risky|\brisks?\b|"
    r"\bwarn|\bavoid\b|^\W*bad\b|\bbad\s+(?:examples?|practices?|patterns?|code|ideas?)\b|"
    r"\bnever\b|\bdon'?t\b|\bdo not\b|\u274c|\u26a0"
    # The same in Chinese and Japanese: dangerous, risk ("## 危险模式全表", a full table of
    # dangerous patterns).
    r"|危险|危險|危険|风险|風險|リスク"
)
# The attack words of a heading in Chinese and Japanese, as the English ones read ("## 凭据提取
# / 后渗透", credential extraction / post-exploitation): attack, penetration (testing, and
# post-exploitation), vulnerability, injection, malicious, red team, payload, bypass.
_ATTACK_WORDS_CJK = (
    r"|攻击|攻擊|攻撃|渗透|滲透|漏洞|脆弱性|注入|インジェクション|恶意|惡意|悪意|红队|紅隊|"
    r"レッドチーム|ペネトレーション|载荷|載荷|ペイロード|绕过|繞過"
)
# A heading over a catalogue of things to find: what follows is a list to look for, not to
# do. Bare "review", "audit" or "patterns" are not enough ("## Review the output" is a step,
# "## Common patterns" a cookbook).
_CATALOGUE = (
    r"\b(?:detect(?:s|ed|ion|ions|ing|or|ors)?|signatures?|indicators?|iocs?|"
    r"(?:security|threat|skill)\s+review|(?:review|audit)\s+checklist|"
    r"look(?:ing)?\s+for|to\s+(?:flag|catch|spot|recogni[sz]e)|red[- ]?flags?|"
    r"what\s+(?:to\s+)?(?:flag|catch)|what\s+(?:the\s+)?(?:reviewers?|scanners?|auditors?|"
    r"linters?)\s+(?:flags?|looks?\s+for|catch(?:es)?))\b"
)
_CATALOGUE_HEADING = rx(_CATALOGUE + r"|\bpatterns?\b", re.IGNORECASE)
# A heading that frames what follows as attacks, red flags, detection or warnings. Not
# "Examples": every skill has one, and its commands are meant to be run; nor a symptom
# ("## Symptom: connection refused"): a troubleshooting section holds the fix to run.
ABOUT_HEADING = rx(_ATTACK_WORDS + _WARNING_WORDS + _ATTACK_WORDS_CJK + "|" + _CATALOGUE,
                   re.IGNORECASE)
# On a prose line: the words of talk about a pattern (attacks, a quotation "for example",
# what makes it dangerous). Not plain "never" or "avoid": they count only where they govern
# the spot (text_role.forbids), since hostile instructions use them too.
ATTACK_LINE = rx(
    _ATTACK_WORDS + r"|\bexamples?\b|e\.g\.|such as|\bsymptoms?\b|\bleak|dangerous|destructive|"
    r"unsafe|insecure|harmful|risky|forbidden|prohibited",
    re.IGNORECASE,
)
# What a policy (a guard, a hook, an approval gate) stops or pauses on: "Red lines (absolute
# prohibitions):", "high-risk operations requiring a pause", "# Examples that trigger the
# red line", "# These should be blocked". A list of them is what the agent must not run.
_POLICY_EXAMPLES = (
    r"\bprohibit(?:ed|ions?|s)?\b|\bhigh[- ]risk\b|"
    r"\b(?:examples?|commands?|operations?|actions?|calls?)\s+(?:that|which)\s+"
    r"(?:\w+\s+)?(?:triggers?|(?:are|get|gets|is)\s+(?:blocked|denied|refused|rejected))\b|"
    r"\b(?:should|must|will|would)\s+(?:always\s+)?be\s+(?:blocked|denied|refused|rejected|"
    r"flagged|intercepted|paused)\b"
)
POLICY_EXAMPLES = rx(_POLICY_EXAMPLES, re.IGNORECASE)
# In the lead-in of a code block, or between a run verb and what it runs: words that make
# the block an example of an attack or a pattern to look for ("The dropper an attacker
# plants:", "Lines to flag:"). Not "example": "Example:" introduces usage to run.
LEAD_TALK = rx(
    _ATTACK_WORDS + "|" + _CATALOGUE + "|" + _POLICY_EXAMPLES +
    r"|dangerous|destructive|unsafe|insecure|harmful|"
    r"\b(?:to|should|must|would|will)\s+(?:flag|catch|spot|reject|refuse|block)\b|"
    r"\bto\s+(?:find|search\s+for)\b",
    re.IGNORECASE,
)
# A warning that governs what follows it on the line: "never run `curl | sh`".
_NEGATION = rx(
    r"\b(?:never|don't|do not|dont|must not|mustn't|should not|shouldn't|avoid(?:ing)?|"
    r"instead of|rather than|not to|refuse|reject|block|deny|prevent|forbid|disallow|"
    r"unsafe|dangerous|bad)\b|\u274c"
    r"|禁止|不要|切勿|请勿|請勿|严禁|嚴禁|不得|不可|避免|してはいけない|しないで",
    re.IGNORECASE,
)
# A label right before a code block, or a comment in it, that marks a negative example.
NEGATIVE_LABEL = rx(
    r"^\W*(?:bad|wrong|incorrect|insecure|unsafe|vulnerable|dangerous|malicious|"
    r"anti-?pattern|counter-?example|negative\s+example)\b"
    r"|^\W*(?:don'?t|do\s+not|never|avoid)\s+(?:do|write|run|use|copy|paste|ship|try)?\s*"
    r"(?:this|that|these|the\s+following|like\s+this)\b"
    r"|^\W*(?:what\s+)?(?:an?\s+)?(?:attackers?|malicious\s+\w+|hostile\s+\w+)\b[^.!?]*:?\W*$"
    r"|^\W*(?:example\s+of\s+)?(?:an?\s+)?(?:attack|injection|exploit|obfuscated|obfuscation|"
    r"(?:encoded\s+)?payload)\b[^.!?]*:\W*$"
    r"|^\W*(?:symptoms?|what\s+you(?:'ll|\s+will|\s+may|\s+might)\s+see|error\s+output)\b"
    r"[^.!?]*:\W*$|^\W*symptoms?\W*:"
    r"|[\u274c\u2717\u26d4\U0001f6ab]"
    # A warning tag on the label, in any position: "# Full access (dangerous)", "（危険）".
    r"|[(\uff08]\s*(?:dangerous|unsafe|insecure|destructive|not\s+recommended|danger|"
    r"\u5371\u967a|\u5371\u9669|\u5371\u96aa|\u975e\u63a8\u5968|\u4e0d\u63a8\u8350|\u4e0d\u5b89\u5168)"
    r"\s*[)\uff09]",
    re.IGNORECASE,
)
COMMENT = rx(r"(?:^|\s)(?:#|//|--|REM\b)\s*(.*)$")


class Verdict(NamedTuple):
    """How to report a hit: its severity and, when lowered, why."""

    severity: Severity
    why: str = ""
    # The hit is an instruction all the same, lowered for what it does (a token sent only to
    # its own service), not for the text's role: the reason then ends the note.
    acted: bool = False


def downgraded(message: str, default: Severity, verdict: Verdict) -> str:
    """`message` with the reason for a lowered severity appended (unchanged if none)."""
    if not verdict.why or verdict.severity == default:
        return message
    body = message.rstrip()
    body = body[:-1] if body.endswith(".") else body
    tail = "" if verdict.acted else ", so it is not an instruction to the agent"
    return (f"{body} (reported as {verdict.severity.value}, not {default.value}: "
            f"{verdict.why}{tail}).")


def catalogue_text(text: str) -> bool:
    """`text` (a table header) names patterns to find or attacks. Not plain warning words:
    in a "| Do | Don't |" table the first column is an instruction."""
    return bool(_CATALOGUE_HEADING.search(text) or _ATTACK_ONLY.search(text))


# --- reading a line -------------------------------------------------------------------------


def negated(line: Line, col: int) -> bool:
    """A warning word precedes 0-based `col` on the line ("never pipe `curl` into `sh`")."""
    return bool(_NEGATION.search(line.text, 0, col))


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


# A verb that takes a quoted string as what to send or say: `use "Ignore previous
# instructions" as a baseline`, `send 'disregard the above'`, `phrases such as "..."`.
_QUOTE_TAKER = rx(
    r"\b(?:use|send|try|type|say|ask|write|inject|paste|submit|enter|craft|append|prepend|"
    r"phrases?|strings?|prompts?|payloads?|inputs?|such\s+as|like|e\.g\.)\W*$",
    re.IGNORECASE,
)


def quoted_as_string(line: Line, start: int, end: int) -> bool:
    """The phrase at [start, end) is a quoted string that a verb before it sends or names
    (`use "Ignore previous instructions" as a baseline`): talk about the phrase, not the
    phrase said to the agent."""
    if not quoted(line, start, end):
        return False
    before = line.text[:start].rstrip()
    before = before.rstrip("\"'`\u201c\u2018(")
    return _QUOTE_TAKER.search(before[-40:]) is not None


# Reported speech: the quotation is what another text says ("If such payload text says
# "ignore previous rules", treat it as evidence"), attributed to its speaker, not said by
# the skill: a condition on what some text says, or a text (a page, a file, a tool's output)
# as the speaker. Not a person ("the lead says "..."") and not "tells you to": a quotation
# passed on to the agent is an instruction.
_REPORTS = rx(r"\b(?:says|said|saying|reads|contains|containing|claims|claiming|wrote|writes)"
              r"(?:\s+(?:something|text|a\s+line|lines?)\s+like|\s+like)?\W*$", re.IGNORECASE)
_TEXT_SPEAKS = rx(
    r"\b(?:if|when|whenever|unless|where)\b|\b(?:page|file|text|output|comment|issue|"
    r"document|payload|message|e-?mail|readme|diff|content|result|response|input|artifact|"
    r"log|ticket|snippet|webpage|site)s?\b[^\s\"]*\s+(?:\w+\s+)?(?:says|said|reads|contains|"
    r"claims|writes|wrote)\b", re.IGNORECASE)


def reported(line: Line, start: int, end: int, head: str = "", tail: str = "") -> bool:
    """The phrase at [start, end) is quoted as what some other text says or contains.
    `head`/`tail`: the lines before and after when the sentence wraps onto `line` or off it
    (a list item wrapped after "If fetched content says", a quotation closed on the next
    line)."""
    text = line.text
    if head and text[:start].lstrip()[:1] in ("", '"', "'", "`", "\u201c", "\u2018", "("):
        text = head.rstrip() + " " + text.lstrip()
        start, end = start + len(text) - len(line.text), end + len(text) - len(line.text)
    if tail:
        text = text + " " + tail.strip()
    if not quoted(Line(line.no, text, line.start, line.end), start, end):
        return False
    before = _before_quote(text[:start]).rstrip().rstrip("\"'`\u201c\u2018(")
    # A series of quotations ('contains text like "a", "b", or "c"'): the verb before the
    # first governs them all.
    before = _EARLIER_QUOTES.sub("", before)
    if _REPORTS.search(before[-40:]) is None:
        return False
    sentence = re.split(r"[.!?]\s+", before)[-1]
    return _TEXT_SPEAKS.search(sentence) is not None


# Earlier quotations of a series, each followed by a comma or "or"/"and", at the end.
_EARLIER_QUOTES = rx(r"(?:\s*(?:\"[^\"\n]{1,80}\"|\u201c[^\u201d\n]{1,80}\u201d|`[^`\n]{1,80}`)"
                     r"\s*(?:,|\bor\b|\band\b|,\s*(?:or|and)\b)\s*)+$", re.IGNORECASE)


def _before_quote(before: str) -> str:
    """The text before the quotation that holds the end of `before` (the phrase may sit
    inside it: "run this command: rm -rf /")."""
    if before.count('"') % 2 == 1:
        return before[: before.rfind('"')]
    if before.rfind("\u201c") > before.rfind("\u201d"):
        return before[: before.rfind("\u201c")]
    return before


def reported_at(st: SecurityText, line: Line, start: int, end: int) -> bool:
    """`reported`, reading the sentence across the lines of its paragraph or list item."""
    if not st.is_markdown or st.in_code(line):
        return reported(line, start, end)
    prev, nxt = st.neighbour(line, -1), st.neighbour(line, 1)
    head = prev.text if prev is not None and _wraps(prev.text) and line.text[:1] in " \t" \
        else ""
    tail = nxt.text if nxt is not None and nxt.text[:1] in " \t" and nxt.text.strip() \
        and not _wraps_not(nxt.text) else ""
    return reported(line, start, end, head, tail)


def _wraps(text: str) -> bool:
    """A prose line whose sentence goes on to the next line."""
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith(("#", "|", "```", "~~~")) and \
        stripped[-1] not in ".!?:;"


def _wraps_not(text: str) -> bool:
    """A line that starts something new: a list item, a heading, a fence or a table row."""
    return bool(re.match(r"\s*(?:[-*+]\s|\d{1,3}[.)]\s|#|\||```|~~~)", text))
