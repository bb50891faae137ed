"""SF504 and GitHub's checksummed token formats: a sample token is not a leaked one (issue 36).

Since April 2021 every GitHub token of the forms `ghp_`, `gho_`, `ghu_`, `ghs_` and `ghr_`
followed by 36 base62 characters ends in a checksum: its last 6 characters are the CRC32 of
the 30 before them, written in base62 (digits, then upper case, then lower case) and padded
with `0` to six places (https://github.blog/2021-04-05-behind-githubs-new-authentication-
token-formats/; secret scanners such as CredSweeper's ValueGitHubCheck use it to tell real
tokens from made-up ones). A token of that form whose checksum fails was never issued by
GitHub: GitHub's own documentation prints such samples (`gho_16C7e42F...`), and a reader who
copies the docs into a skill publishes no credential. Such a finding is info, saying why.
A token whose checksum holds stays high wherever it is, response examples included: GitHub
issued it, so even a quoted string of a JSON or YAML response sample (which `text_role` reads
as data for the code) publishes it.

The long refresh token (`ghr_` and 76 characters) has no documented checksum, so its
own characters cannot tell. It is read as a sample only when it sits in the same response as
a checksummed token that fails (the same fenced block, or the same paragraph outside one) and
no token there passes: a response pasted from a real exchange would carry a real access
token beside the refresh token, so a response whose access token is made up is made up.
Alone, or beside a valid token, it stays high. Other lengths and other secret types are left
as they are.
"""

from __future__ import annotations

import zlib

from linters.security.attack_talk import Verdict
from linters.security.block_frame import fence_of
from linters.security.security_context import Line, SecurityText
from linters.security.text_role import sample_string
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")
_BODY = 36  # characters after the prefix: 30 random, then the 6 of the checksum
_CHECKED = 30
_LONG_REFRESH = 76  # the refresh token's longer form: `ghr_` and 76 characters
# A GitHub token as a whole word: the prefix, then its base62 run to the end.
_TOKEN = rx(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]+(?![A-Za-z0-9_])")


def base62(number: int, width: int = 6) -> str:
    """`number` in base62, left-padded with `0` to `width` characters."""
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = BASE62[rest] + digits
    return digits.rjust(width, "0")


def checksum(random_part: str) -> str:
    """The six characters GitHub appends to the 30 random characters of a token."""
    return base62(zlib.crc32(random_part.encode("ascii")))


def checksum_holds(token: str) -> bool | None:
    """Whether `token`'s checksum holds: None when it is not of the checksummed form (a
    known prefix and exactly 36 base62 characters), so the checksum cannot tell."""
    if not token.startswith(PREFIXES):
        return None
    body = token[4:]
    if len(body) != _BODY or not body.isascii() or not body.isalnum():
        return None
    return checksum(body[:_CHECKED]) == body[_CHECKED:]


def whole_token(text: str, secret: str) -> str:
    """The whole base62 run a detector's 40-character match starts (the detector stops at 36
    characters, so a 76-character refresh token is matched only in part)."""
    at = text.find(secret)
    if at < 0:
        return secret
    end = at + len(secret)
    while end < len(text) and text[end].isascii() and text[end].isalnum():
        end += 1
    return text[at:end]


def _response_lines(st: SecurityText, line: Line) -> list[str]:
    """The text of the response `line` belongs to: its fenced block's lines, or else its
    paragraph (the lines up to a blank line either side)."""
    fence = fence_of(st, line) if st.is_markdown else None
    if fence is not None:
        return list(fence.body)
    before = [x.text for x in st.run_from(line, -1, limit=30)]
    after = [x.text for x in st.run_from(line, 1, limit=30)]
    return before[::-1] + [line.text] + after


def github_verdict(st: SecurityText, line: Line, col: int, token: str,
                   weighed: Verdict) -> Verdict:
    """The verdict on the GitHub token `token` at 0-based `col` of `line`, `weighed` by its
    text role: info when it cannot be live, high when it was issued but read as a string of
    a data sample, else `weighed`."""
    if weighed.severity == Severity.info:
        if checksum_holds(token) and weighed.why == sample_string(st, line, col,
                                                                  col + len(token)):
            return Verdict(Severity.high)
        return weighed
    return sample_verdict(st, line, token) or weighed


def sample_verdict(st: SecurityText, line: Line, token: str) -> Verdict | None:
    """Info, and why, when the GitHub token `token` on `line` cannot be a live token; None
    when it may be one (or is no GitHub token of a known form)."""
    holds = checksum_holds(token)
    if holds is False:
        return Verdict(Severity.info, (
            f"its last six characters are not the CRC32 checksum of the 30 before them that "
            f"every GitHub `{token[:4]}` token ends with, so GitHub never issued it: it is a "
            "made-up or documentation sample, not a live token"), acted=True)
    if holds is None and token.startswith("ghr_") and len(token) == 4 + _LONG_REFRESH:
        failing = passing = False
        for text in _response_lines(st, line):
            for m in _TOKEN.finditer(text):
                ok = checksum_holds(m.group(0))
                failing |= ok is False
                passing |= ok is True
        if failing and not passing:
            return Verdict(Severity.info, (
                "this refresh token form has no documented checksum, but it sits in the same "
                "response as a GitHub token whose checksum fails, which GitHub never issued: "
                "the response is a documentation sample, not a real exchange"), acted=True)
    return None
