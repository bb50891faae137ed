"""Is an inline command part of a message the agent says to the user? (SF301)

`Confirm:` followed by `> "Setup done! Teams can now be added with `npx tsx scripts/add.ts`"`
gives the agent words to say, not a step to take: the agent runs nothing, and the user who
reads the message runs the command from their own working folder, where the skill folder's
layout means nothing. A missing script there is worth a look (the user's run may still
fail), but it is no broken run of the skill's own script, so SF301 warns instead of failing
the gate.

The reading needs all three signs, so a quoted command alone (`Run: "`scripts/x.sh`"`) or a
blockquoted note ("> Run `scripts/x.sh` first") stays a run:
- the inline code sits inside a quotation that opens before it and closes after it on its line;
- the quotation is a sentence, not just the command: it holds words of prose besides the code;
- what leads to the quotation is a verb of saying ending in a colon ("Tell the user:",
  "Confirm:", "Reply with:"), on the quotation's line or as the last prose line before it.
"""

from __future__ import annotations

import re

from linters.reliability.commands import Command
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

# The last clause before the colon says the agent speaks to the user.
_SAY = rx(
    r"\b(?:(?:confirm|tell|say|reply|respond|inform|notify|announce)(?:s|ed|ing)?"
    r"|confirmation|says|replies|report\s+back|let\s+(?:the\s+)?user\s+know"
    r"|show\s+(?:the\s+)?user|message\s+(?:the\s+)?user)\b"
    r"[^.;!?:]{0,60}:\s*$",
    re.IGNORECASE,
)
# What may stand before a quotation that opens a line: blockquote markers, a list marker,
# emphasis.
_LINE_LEAD = rx(r"^\s*(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?[*_]*\s*$")
_WORD = rx(r"[A-Za-z\u00C0-\uFFFF]{2,}")
_MIN_WORDS = 3  # words of prose in the quotation besides the code: a sentence, not a label
_OPEN = {'"': '"', "“": "”"}


def said_to_user(doc: MarkdownDoc, cmd: Command) -> bool:
    """`cmd` is inline code inside a quoted message that the text gives the agent to say."""
    idx = cmd.line - doc.first_line
    if not cmd.inline or not 0 <= idx < len(doc.lines):
        return False
    line = doc.lines[idx]
    start = cmd.column - 1
    end = line.find("`", start + 1 + len(cmd.text))
    if not line.startswith("`", start) or end < 0:
        return False
    opened = _opening_quote(line[:start])
    if opened is None:
        return False
    at, close = opened
    shut = line.find(close, end + 1)
    if shut < 0:
        return False
    prose = line[at + 1:start] + " " + line[end + 1:shut]
    if len(_WORD.findall(re.sub(r"`[^`]*`", " ", prose))) < _MIN_WORDS:
        return False
    before = line[:at]
    if _SAY.search(before):
        return True
    return bool(_LINE_LEAD.match(before)) and bool(_SAY.search(_previous_prose(doc, idx)))


def _opening_quote(text: str) -> tuple[int, str] | None:
    """Where the quotation still open at the end of `text` opens, and its closing mark."""
    straight = [i for i, ch in enumerate(text) if ch == '"']
    curly = text.rfind("“")
    if curly >= 0 and "”" not in text[curly:]:
        return curly, _OPEN["“"]
    if len(straight) % 2 == 1:
        return straight[-1], _OPEN['"']
    return None


def _previous_prose(doc: MarkdownDoc, idx: int) -> str:
    """The nearest non-blank line before line `idx` when it is prose ("Confirm:"), else ""."""
    i = idx - 1
    while i >= 0 and not doc.lines[i].strip():
        i -= 1
    if i < 0 or doc.is_code(i + doc.first_line) or doc.lines[i].lstrip().startswith("#"):
        return ""
    return doc.lines[i].strip()
