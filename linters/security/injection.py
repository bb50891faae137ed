"""Text aimed at the agent rather than the user: injection phrasing (SF501), invisible or
direction-changing Unicode (SF502) and instructions hidden in HTML comments (SF503)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.security.attack_talk import Verdict, downgraded, quoted_as_string, reported_at
from linters.text.markdown import MarkdownDoc
from linters.security.code_samples import injection_data
from linters.security.explained_chars import explained_example
from linters.security.inert_code import invisible_charset
from linters.security.injection_defence import ignored_in_data
from linters.security.need_not_know import NEED_NOT_KNOW
from linters.security.security_context import Hit, Line, SecurityText, short
from linters.security.shown_comment import shown_comment
from linters.security.text_role import weigh
from linters.security.told_claims import told_claim
from linters.security.unannounced import forbidden_unannounced, kept_standing
from skillforge.models.findings import Severity

# --- SF501 ------------------------------------------------------------------------------

_PRIOR = r"(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial)"
_RULES = (
    r"(?:instructions?|prompts?|directions|directives|rules|guidelines|guidance|constraints|"
    r"programming|training|context)"
)
_GUARDS = (
    r"(?:system\s+prompt|system\s+message|safety\s+(?:rules|guidelines|policies|guardrails|"
    r"filters|instructions)|content\s+polic(?:y|ies)|guardrails|instructions\s+above)"
)
# Matched against the lower-cased line, so literals stay lower case. "Override" alone is a
# CSS and config word: only "override your ..." counts.
_OVERRIDE = rx(
    rf"\b(?:ignore|disregard|forget)\s+"
    rf"(?:(?:all|any|every|each|of|the|your|these|those|my)\s+){{0,3}}"
    rf"{_PRIOR}\s+(?:(?:system|safety|developer|user)\s+)?{_RULES}\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all|any)\s+(?:other\s+)?(?:instructions|directives)\b"
    rf"|\b(?:ignore|disregard|forget|bypass)\s+(?:(?:all|any|of|the|your)\s+){{1,3}}{_GUARDS}\b"
    rf"|\boverride\s+your\s+(?:{_GUARDS}|instructions|programming|rules|guidelines)\b"
    r"|\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)\b"
    r"|\byou\s+are\s+no\s+longer\s+(?:bound|restricted|constrained|limited|governed|"
    r"required\s+to\s+follow)\b"
    r"|\byou\s+are\s+now\s+(?:in\s+)?(?:developer|god|jailbreak|unrestricted|dan)\s+mode\b"
    r"|\b(?:new|updated|real)\s+system\s+(?:prompt|instructions)\s*:"
    r"|\bdo\s+not\s+follow\s+(?:the|your|any)\s+(?:system\s+prompt|previous\s+instructions)\b"
)
# Hiding things *from the user*. Advice about secrets ("never reveal the API key", "hide the
# token from users") is not concealment, so objects are limited to the agent's own actions.
_CONCEAL = rx(
    r"\b(?:do\s+not|don't|dont|never|must\s+not|mustn't)\s+(?:tell|inform|notify)"
    r"\s+(?:the|your|any)?\s*users?\b(?!\s+(?:to|how|which|where|when)\b"
    # "what to type" governs wording; "what you changed" keeps back the agent's own act.
    r"|\s+what\b(?!\s+(?:you|we)\s+(?:have\s+|had\s+|just\s+)?(?:did|done|changed|ran|"
    r"run|deleted|removed|sent|uploaded|installed|modified|executed|wrote|written|pushed|"
    r"committed|shared|collected|copied)\b))"
    # ... unless what follows is a quotation: advice on wording ("never tell the user
    # \"you can check the log next time\"").
    r"(?!\s*[:,]?\s*[\"\u201c\u2018'])"
    r"|\b(?:do\s+not|don't|never)\s+let\s+(?:the\s+)?users?\s+(?:know|see|find\s+out|notice)\b"
    r"|\b(?:do\s+not|don't|dont|never|must\s+not)\s+mention\s+to\s+(?:the\s+|your\s+)?users?\b"
    r"|\bwithout\s+(?:informing|telling|notifying)\s+(?:the\s+|your\s+)?users?\b"
    r"|\b(?:hide|conceal|keep)\s+(?:this|it|that|these|them|these\s+steps|this\s+step|"
    r"what\s+you\s+(?:did|do|are\s+doing)|your\s+actions?)(?:\s+(?:secret|hidden))?"
    r"\s+from\s+(?:the\s+|your\s+)?users?\b"
    r"|\b(?:do\s+not|don't|dont|never)\s+mention\s+(?:this|that)\b"
    r"(?!\s+(?:section|step|file|skill|command|option|flag|limitation|again|"
    # The skill's own bookkeeping ("do not mention this routing to the SME"): a rule about
    # the conversation's wording, no action or risk kept back.
    r"routing|classification|categori[sz]ation|track|framework|methodology|rubric|"
    r"terminology|jargon|taxonomy|scoring)\b)"
    r"|\b(?:the\s+)?users?\s+(?:must|should)\s+(?:not|never)\s+(?:know|find\s+out|learn|"
    r"notice|be\s+told)\b"
    # "need not know": only an act or event kept back, not "need not know the exact ID".
    rf"|{NEED_NOT_KNOW}"
    r"|\b(?:silently|secretly|covertly|quietly)\s+(?:send|upload|post|copy|exfiltrate|transmit|"
    r"forward|email|install|delete|execute|run\s+(?:curl|wget|the\s+following))\b"
)
# Anchors: an SF501 phrase always contains one of these (matched on lower-cased bytes).
# Each line holding one is decoded and run through the regex, so the list is kept to
# selective words: rarer phrasings ("you are now in developer mode") are found on lines
# that also hold one.
_OVERRIDE_ANCHORS = declare(b"ignore", b"disregard", b"forget", b"override", b"no longer")
_CONCEAL_ANCHORS = declare(b"mention th")  # "don't mention this" needs no "user"
_USER = declare(b"user")[0]
# Most mentions of "user" conceal nothing: look for a refusal or hiding word just before it
# (in the bytes, without decoding the line, one search for all the words) before running
# the regex.
_CONCEAL_NEAR = rx(rb"not|n't|never|without|from|tly ")


def injection_phrases(st: SecurityText) -> Iterator[tuple[Line, int, int, bool]]:
    """(line, start, end, is_override) of every SF501 phrase, columns 0-based."""
    for line in st.lines_with(*_OVERRIDE_ANCHORS):
        for m in _OVERRIDE.finditer(line.low):
            yield line, m.start(), m.end(), True
    low = st.low
    lines = {ln.start: ln for ln in st.lines_with(*_CONCEAL_ANCHORS)}
    near = _CONCEAL_NEAR.search
    for pos in st.places(_USER):
        if near(low, max(0, pos - 40), pos + 30):
            line = st.line_at(pos)
            lines[line.start] = line
    for start in sorted(lines):
        line = lines[start]
        for m in _CONCEAL.finditer(line.low):
            yield line, m.start(), m.end(), False


# What an option does: "| `--fresh` | Ignore previous context, start fresh |", "Use
# `/ci-monitor --fresh` to ignore previous context".
_OPTION_ROW = rx(r"^\s*\|\s*`?--?[A-Za-z][\w-]*`?\s*\|")
_OPTION_DOES = rx(r"`[^`]*\s--?[A-Za-z][\w-]*[^`]*`\s+(?:to|will|which|that)\s+$")


def _describes_option(text: str, start: int) -> bool:
    return bool(_OPTION_ROW.match(text) or _OPTION_DOES.search(text[max(0, start - 80):start]))


# What a concealment keeps back, read up to the end of its clause: a failed attempt that
# is retried ("retry once; do not mention that anything failed", "the user should never learn
# a first attempt happened") is a rule about narration, not an action hidden from the user.
# An object that moves or changes something ("that the upload failed over to x") is not.
_FAILED_ATTEMPT = rx(
    r"(?:\s+(?:that|about|the|a|an|any|anything|something|it|first|earlier|previous|"
    r"initial|call|request|step))*\s+(?:fail(?:ed|s|ure)?|errored|(?:was\s+)?retried|"
    r"attempt(?:s)?\s+(?:failed|happened|was\s+made))\b"
)


# "Running `sync` against a shared bucket can silently delete someone else's data": a modal
# of possibility whose subject is a thing, not the agent, warns of a risk. "You can silently
# delete", "we could quietly send" still hand the act to the reader.
_RISK_OF = rx(r"(?<!\byou\s)(?<!\bwe\s)(?<!\bi\s)\b(?:can|could|may|might|would)"
              r"\s+(?:also\s+)?$")


def _hides_failed_attempt(st: SecurityText, line: Line, end: int) -> bool:
    rest = line.low[end:]
    nxt = st.neighbour(line, 1)
    if nxt is not None and nxt.text.strip():
        rest += " " + nxt.low.strip()  # a sentence wrapped onto the next line
    return _FAILED_ATTEMPT.match(rest) is not None


def scan_sf501(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for line, start, end, override in injection_phrases(st):
        if line.no in seen:
            continue
        default = Severity.critical if override else Severity.high
        if st.is_markdown and not st.in_code(line) and quoted_as_string(line, start, end):
            verdict = Verdict(Severity.info, "it is quoted as a string to send or name")
        elif reported_at(st, line, start, end):
            verdict = Verdict(Severity.info, "it quotes what another text says")
        elif st.is_markdown and not st.in_code(line) and _describes_option(line.text, start):
            verdict = Verdict(Severity.info, "it says what a command-line option does")
        elif data := injection_data(st, line, start) or shown_comment(st, line, start):
            verdict = Verdict(Severity.info, data)
        elif override and (why := ignored_in_data(st, line, start, end)):
            verdict = Verdict(Severity.info, why)
        elif not override and _RISK_OF.search(line.low, 0, start):
            verdict = Verdict(Severity.info, "it warns what something else can do unseen")
        elif not override and (why := told_claim(line.low, start, end)):
            verdict = Verdict(Severity.info, why)
        elif not override and _hides_failed_attempt(st, line, end):
            verdict = Verdict(Severity.info, "what it keeps back is a failed attempt, retried")
        elif not override and (why := forbidden_unannounced(st, line, start, end)):
            verdict = Verdict(Severity.info, why)
        elif not override and (why := kept_standing(line.low, end)):
            verdict = Verdict(Severity.medium, why, acted=True)
        else:
            verdict = weigh(st, line, start, default, end)
        seen.add(line.no)
        phrase = line.text[start:end]
        kind = "overrides the agent's instructions" if override else "hides actions from the user"
        yield Hit(
            "SF501", line.no, start + 1, verdict.severity, downgraded(
                f"`{short(phrase, 60)}` {kind}; remove it, and if the skill quotes it as an "
                "example of an attack, put it in quotes inside a passage that says so.",
                default, verdict),
        )


# --- SF502 ------------------------------------------------------------------------------

_INVISIBLE = rx(
    "[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]"
    "|[\U000e0100-\U000e01ef]{4,}"
)
_ZW_JOINERS = ("\u200c", "\u200d")
# Zero-width spaces and joiners alone, a few on a line, are what copying from a web page
# leaves (Shopify's docs break `abandonment\u200bEmail\u200bState` for wrapping): worth
# deleting, no hidden text. A run of them can encode a message bit by bit; bidi controls and
# tag characters change or hide what is read. Those stay high.
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
_ZERO_WIDTH_RUN = rx("[\u200b-\u200d\u2060\ufeff]{4,}")


def _emoji_like(ch: str) -> bool:
    cp = ord(ch)
    return (
        cp >= 0x1F000
        or 0x2600 <= cp <= 0x27BF
        or 0x2190 <= cp <= 0x21FF
        or 0x2300 <= cp <= 0x23FF
        or 0x2B00 <= cp <= 0x2BFF
        or cp in (0xFE0F, 0x20E3, 0x00A9, 0x00AE)
    )


def _script_letter(ch: str) -> bool:
    # ZWJ/ZWNJ shape letters in Arabic, Persian and Indic scripts; that use is legitimate.
    return ord(ch) > 0x2FF and unicodedata.category(ch)[0] in "LM"


def _allowed(text: str, i: int, line: Line) -> bool:
    ch = text[i]
    prev = text[i - 1] if i > 0 else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if ch == "\ufeff" and i == 0 and line.start == 0:
        return True  # a byte-order mark (SF118 reports it)
    if ch in _ZW_JOINERS and prev and nxt:
        if ch == "\u200d" and _emoji_like(prev) and _emoji_like(nxt):
            return True
        if _script_letter(prev) and _script_letter(nxt):
            return True
    if "\U000e0020" <= ch <= "\U000e007f":
        # Subdivision flags (England, Scotland, Wales) are U+1F3F4 followed by tag letters.
        j = i
        while j > 0 and "\U000e0020" <= text[j - 1] <= "\U000e007f":
            j -= 1
        if j > 0 and text[j - 1] == "\U0001f3f4" and i - j < 8:
            return True
    return False


def _describe(chars: list[str]) -> str:
    counts: dict[str, int] = {}
    for ch in chars:
        counts[ch] = counts.get(ch, 0) + 1
    parts = []
    for ch, n in list(counts.items())[:4]:
        name = unicodedata.name(ch, "TAG CHARACTER" if ord(ch) >= 0xE0000 else "UNNAMED")
        parts.append(f"U+{ord(ch):04X} {name}" + (f" x{n}" if n > 1 else ""))
    if len(counts) > 4:
        parts.append("...")
    return ", ".join(parts)


# UTF-8 of the reported characters: U+200B-U+200D, U+2060, U+FEFF, U+202A-U+202E,
# U+2066-U+2069, and the F3 A0 plane-14 prefix of tag characters and variation selectors.
# (The rest of the E2 80 / E2 81 block is ordinary punctuation: dashes, quotes, bullets.)
# UTF-8 is self-synchronising, so each is found only where such a character is.
_INVISIBLE_UTF8 = declare(
    b"\xe2\x80\x8b", b"\xe2\x80\x8c", b"\xe2\x80\x8d", b"\xe2\x81\xa0", b"\xef\xbb\xbf",
    b"\xe2\x80\xaa", b"\xe2\x80\xab", b"\xe2\x80\xac", b"\xe2\x80\xad", b"\xe2\x80\xae",
    b"\xe2\x81\xa6", b"\xe2\x81\xa7", b"\xe2\x81\xa8", b"\xe2\x81\xa9", b"\xf3\xa0",
)


def scan_sf502(st: SecurityText) -> Iterator[Hit]:
    if st.text.isascii():
        return
    by_line: dict[int, tuple[int, list[str], Line]] = {}
    for line in st.lines_with(*_INVISIBLE_UTF8):
        text = line.text
        for m in _INVISIBLE.finditer(text):
            chars = [c for k, c in enumerate(m.group(), m.start()) if not _allowed(text, k, line)]
            if chars:
                by_line.setdefault(line.no, (m.start() + 1, [], line))[1].extend(chars)
    for no, (col, chars, line) in by_line.items():
        text = line.text
        hidden = "".join(chr(ord(c) - 0xE0000) for c in chars if 0xE0020 <= ord(c) <= 0xE007E)
        extra = f" spelling out hidden text `{short(hidden, 60)}`" if hidden else ""
        n = f"{len(chars)} invisible or direction-changing character{'s' if len(chars) != 1 else ''}"
        charset = invisible_charset(st, line, col - 1, "".join(chars)) or (
            "the skill's own text names the file as a test sample, not to be followed"
            if st.sample else None)
        if charset:
            yield Hit("SF502", no, col, Severity.info,
                      f"Line has {n} ({_describe(chars)}); reported as info, not high: "
                      f"{charset}, so they hide no text from the user.")
            continue
        trick = explained_example(st, line, col - 1)
        if trick:
            yield Hit("SF502", no, col, Severity.warning,
                      f"Line has {n} ({_describe(chars)}) in an example whose text names the "
                      f"trick (\"{short(trick, 40)}\"); reported as warning, not high: the "
                      "reader is told they are there. Write them as escapes (`\\u202e`) so "
                      "the example shows what it holds.")
            continue
        if all(c in _ZERO_WIDTH for c in chars) and not _ZERO_WIDTH_RUN.search(text):
            yield Hit("SF502", no, col, Severity.warning,
                      f"Line has {n} ({_describe(chars)}), as copying from a web page leaves; "
                      "delete them, since a name with one inside is not the name the user "
                      "sees or types.")
            continue
        yield Hit(
            "SF502", no, col, Severity.high,
            f"Line has {n} ({_describe(chars)}){extra}; delete them so "
            "the agent reads the same text the user sees.",
        )


# --- SF503 ------------------------------------------------------------------------------

_TOOL_DIRECTIVE = rx(
    r"^\s*(?:skillforge:|markdownlint|prettier|(?:end\s*)?toc\b|/?toc\b|doctoc|omit\s+in\s+toc|"
    r"vale\b|cspell|textlint|eslint|mdformat|remark-|lint[-:]|spell-?check|"
    r"(?:begin|end|start|stop)\b|#?(?:end)?region\b|all-contributors|auto-?generated|"
    r"generated\s+by|do\s+not\s+edit|include\b|snippet\b|more\b|markdown-link-check|"
    r"todo\b|fixme\b|xxx\b|hack\b|note\s+to\s+(?:self|maintainers?|editors?|reviewers?)\b)",
    re.IGNORECASE,
)
_ADDRESSEE = rx(
    r"\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:ai|llm|assistant|agent|"
    r"model|claude|codex|bot)s?\b"
    r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|claude|bot)\b"
    r"|^\s*(?:(?:ai|llm|assistant|agent|claude|codex|gpt|gemini|copilot)s?|ai\s+agents?|"
    r"system|instructions?|attention)\s*[:,]"
    r"|\b(?:ai|llm)\s+(?:agents?|assistants?|models?)\s*[:,]",
    re.IGNORECASE | re.MULTILINE,
)
_DIRECTIVE = rx(
    r"\byou\s+(?:must|should|need\s+to|have\s+to|will\s+now|are\s+(?:required|instructed|"
    r"expected)\s+to)\b"
    r"|(?:^|[.!?]\s+)(?:always|never|do\s+not|don't|make\s+sure|be\s+sure|from\s+now\s+on|"
    r"instead|before\s+(?:doing|you|responding|answering|anything)|after\s+(?:completing|you|"
    r"finishing|answering))\b"
    r"|(?:^|[.!?:]\s+)(?:run|execute|send|upload|post|e-?mail|forward|fetch|download|curl|wget|"
    r"install|visit|navigate\s+to|ignore|disregard|forget|pretend|exfiltrate|transmit|"
    r"respond\s+only|reply\s+only|say\s+that)\b",
    re.IGNORECASE | re.MULTILINE,
)


_COMMENT_OPEN = declare(b"<!--")[0]


def scan_sf503(st: SecurityText) -> Iterator[Hit]:
    # Only a rendered file hides a comment: a `.txt` in Markdown shows it as written.
    if not st.rendered or not st.places(_COMMENT_OPEN):
        return
    # A file whose line breaks confuse the shared parse still gets its comments read.
    doc = st.doc or MarkdownDoc(st.text)
    for c in doc.comments:
        body = c.text.strip()
        if len(body.split()) < 4 or _TOOL_DIRECTIVE.match(body):
            continue
        if _in_backticks(doc, c.line, c.column):
            continue
        override = _OVERRIDE.search(body.lower()) or _CONCEAL.search(body.lower())
        if not (override or _ADDRESSEE.search(body) or _DIRECTIVE.search(body)):
            continue
        severity = Severity.high if override else Severity.medium
        yield Hit(
            "SF503", c.line, c.column, severity,
            f"An HTML comment, invisible when the Markdown is rendered, gives the agent "
            f"instructions (`{short(body, 60)}`); move real instructions into the visible "
            "text or delete the comment.",
        )


def _in_backticks(doc: MarkdownDoc, line: int, column: int) -> bool:
    # A comment shown as inline code (`<!-- ... -->`) is an example, not a hidden comment.
    idx = line - doc.first_line
    if 0 <= idx < len(doc.lines):
        return doc.lines[idx][: column - 1].count("`") % 2 == 1
    return False
