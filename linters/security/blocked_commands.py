"""A dangerous command named in prose as what a rule blocks (issue 36, SF505 and kin).

A page about a permission policy, a hook or a tool's exclude list shows what the rule does
with a command: "- `rm -rf /`: Blocked" in a list of verdicts after a config, or a step that
triggers the policy ("ask the CLI to `rm -rf /`") followed by "The tool will now be blocked
automatically". The command is the rule's example; nothing there tells the agent to run it
for its effect. It reads so only in prose, and only when it holds:

- a verdict label: the inline command opens the line (after a list marker or a table pipe)
  and what follows it is a block word alone (`: Blocked`, `→ denied`, `| Rejected |`,
  `(blocked)`), not a question (`blocked?`) and not more prose;
- or a statement: a rule is named in the paragraph up to the command (a policy, a deny rule,
  a hook, an exclude list) and the rest of the command's sentence or the next one says,
  without a question or an "if", that the command or the tool will be blocked.

A bare step ("Run `rm -rf /`"), a code block, and "`rm -rf /` # blocked? try it" stay severe.
"""

from __future__ import annotations

import re

from linters.security.security_context import Line, SecurityText, in_inline_code, inline_span
from linters.text.compiled_regex import rx

_BLOCK_WORD = r"(?:blocked|denied|rejected|refused|disallowed|forbidden|not\s+allowed|prevented)"
_LINE_HEAD = rx(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,3}[.)])?\s*(?:\|\s*)?$")
# After the command's closing backtick: a label that is only the verdict.
_VERDICT = rx(
    rf"^\s*(?:[:=\u2192\u21d2\u2014\u2013-]+>?\s*|\|\s*|\(\s*)(?:\*\*|__)?\s*"
    rf"(?:\u274c|\u26d4|\U0001f6ab)?\s*{_BLOCK_WORD}\b(?:\*\*|__)?\s*\)?\s*(?:\||$|\(|[,;]\s)",
    re.IGNORECASE,
)
# A rule that decides on commands, named in the paragraph before the command.
_RULE = rx(r"\b(?:polic(?:y|ies)|deny\s+(?:rule|list)|denylist|blocklist|block\s+list|"
           r"allowlist|hooks?|guard(?:rail)?s?|exclude\s+list|tools\.exclude|rule\s+that\s+"
           r"(?:blocks|denies)|decision\s*=\s*\"?deny)\b", re.IGNORECASE)
# "The tool will now be blocked automatically", "it is denied", "the call gets rejected".
_WILL_BE_BLOCKED = rx(
    rf"^(?:the\s+(?:tool|command|call|request|action|operation)|it|this|that)\s+"
    rf"(?:will|should|would|is|gets?|are)\s+(?:now\s+|then\s+|immediately\s+|automatically\s+)?"
    rf"(?:be\s+)?(?:now\s+|automatically\s+)?{_BLOCK_WORD}\b",
    re.IGNORECASE,
)
_SENTENCE = rx(r"(?<=[.!?])\s+|(?<=[.!?][)\"'])\s+")
_DOUBT = rx(r"\?|\b(?:if|unless|whether|maybe|perhaps|try|might)\b", re.IGNORECASE)


def named_as_blocked(st: SecurityText, line: Line, start: int) -> str | None:
    """Why the inline command at 0-based `start` of a prose line is a rule's example of what
    it blocks, or None."""
    if not in_inline_code(line, start):
        return None
    span_start, span = inline_span(line, start)
    after = line.text[span_start + len(span) + 1 :]
    if _LINE_HEAD.match(line.text[: span_start - 1]) and _VERDICT.match(after):
        return "it is labelled with what a rule does to it (blocked), an example of the rule"
    return _stated_blocked(st, line, span_start, after)


def _stated_blocked(st: SecurityText, line: Line, span_start: int, after: str) -> str | None:
    paragraph = [cur.text for cur in reversed(list(st.run_from(line, -1, 4)))]
    if not _RULE.search(" ".join([*paragraph, line.text[:span_start]])):
        return None
    following = [after, *(cur.text for cur in st.run_from(line, 1, 2))]
    parts = _SENTENCE.split(" ".join(following).strip())
    # The rest of the command's own sentence, then the sentence after it.
    for part in parts[:2]:
        said = re.sub(r"^[\s`).,;:\u2014-]+", "", part)
        if _DOUBT.search(part):
            return None
        if _WILL_BE_BLOCKED.match(said):
            return f'the text says the rule stops it ("{said.rstrip(". ")[:50]}")'
    return None
