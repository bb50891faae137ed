"""A command the skill encodes itself to carry it through quoting (SF510's softer reading).

Sending a command through several SSH hops, a `sudo sh -c` or a PowerShell launcher breaks its
quotes and dollars; a common cure is to base64-encode the command where it is written and
decode it where it runs: `ENC=$(printf %s "$CMD" | base64 -w0)`, then `ssh host "echo $ENC |
base64 -d | bash"`. Nothing is hidden: the plain command is in the text, and the encoded form
is made from it at run time. SF510's concern is a payload the reader cannot read.

The reading needs all of:
- the encoding step is shown beside the decode (the same line, or the lines before it in the
  same block): `| base64`, `base64 <<<`, `[Convert]::ToBase64String(`, `b64encode(`, `btoa(`;
- the decoder reads no file and no download: its input is nothing shown (a fragment in prose),
  or an `echo`/`printf` of a variable or of a `<placeholder>`;
- no literal encoded blob anywhere in that stretch of text.
A blob piped to a shell (`echo aGVsbG8gd29y... | base64 -d | sh`), `curl ... | base64 -d |
sh`, `base64 -d payload.b64 | sh` and `echo "$PAYLOAD" | base64 -d | sh` with no encoding in
sight stay findings.
"""

from __future__ import annotations

import re

from linters.security.security_context import Line, Logical, SecurityText
from linters.text.compiled_regex import rx

_DECODE_FLAG = r"(?:-d|--decode|-D)\b"
# An encoder: `base64` fed by a pipe or a here-string (or told not to wrap), never decoding.
_ENCODE = rx(
    rf"(?:\|\s*base64\b|\bbase64\s+(?:-w\s*0\s*)?<<<|\bbase64\s+-w\s*0\b)"
    rf"(?![^|;&\n`]*\s{_DECODE_FLAG})"
    r"|\bToBase64String\s*\(|\bb64encode\s*\(|\bbtoa\s*\(",
    re.IGNORECASE,
)
# A literal encoded payload (paths and words rarely run this long without a break).
_BLOB = rx(r"[A-Za-z0-9+/]{24,}={0,2}")
# The decoder itself: its flags, then nothing before the pipe (no file operand).
_BARE_DECODER = rx(rf"(?:base64|openssl\s+(?:base64|enc\s+-base64))(?:\s+-\S+)*?\s+{_DECODE_FLAG}"
                   r"(?:\s+-\S+)*\s*\|")
# What may feed the decoder through a pipe: an echo of a variable or a placeholder.
_FED_BY = rx(
    r"(?:echo|printf)(?:\s+-[neE]+)*(?:\s+['\"]?%s(?:\\n)?['\"]?)?\s+"
    r"(?:\"\$\{?\w+\}?\"|\$\{?\w+\}?|<[^<>\n]{1,60}>)\s*\|\s*$"
)
# Where the input is not shown at all: the start of a line, an inline code span, a quoted or
# substituted command.
_UNFED = rx(r"(?:^|[`\"'(;]|&&)\s*$")
_LOOKBACK = 12
_FENCE = rx(r"^\s{0,3}(?:```|~~~)")


def encodes_own_command(st: SecurityText, log: Logical, start: int, end: int) -> bool:
    """Whether the decode-and-run matched at `start:end` of `log` runs a command the same
    text encodes in sight, with no encoded literal (see the module docstring)."""
    if not _BARE_DECODER.match(log.text, start):
        return False
    before = log.text[:start]
    if not (_FED_BY.search(before) or _UNFED.search(before)):
        return False
    stretch = [log.text, *(line.text for line in _lines_before(st, log.parts[0][1]))]
    if any(_BLOB.search(text) for text in stretch):
        return False
    return any(_ENCODE.search(text) for text in stretch)


def _lines_before(st: SecurityText, line: Line) -> list[Line]:
    """Up to `_LOOKBACK` lines before `line` in its block: not past a fence or a heading."""
    out: list[Line] = []
    cur: Line | None = line
    for _ in range(_LOOKBACK):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None or _FENCE.match(cur.text):
            break
        if st.is_markdown and cur.text.startswith("#") and not st.in_code(cur):
            break
        out.append(cur)
    return out
