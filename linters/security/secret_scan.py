"""SF504: secret-like strings, found by detect-secrets' regex-based plugins.

The patterns are the maintained ones from `detect_secrets.plugins.*` (AWS, GitHub, GitLab,
Slack, Stripe, OpenAI, JWT, private keys, basic-auth URLs, ...), discovered through
detect-secrets' own plugin registry, so a new detect-secrets release brings its new
detectors; key formats it does not know yet (`sk-proj-`, `sk-ant-api03-`, `github_pat_`,
keys in URL query strings, ...) are detect-secrets plugins of ours, `secret_plugins`.
Two more things are ours. Speed: a skill is mostly prose, so the plugins never see a
whole file, only short windows around what could be a secret (see `_candidates`), and each
plugin runs (its own `analyze_string`) only on windows holding one of its literals, through
exact copies of its regexes kept in the cache dir (`linters.security.secret_detectors`), so
detect-secrets itself is imported only when a plugin's own code is needed. And precision:
obvious placeholders and documentation examples are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from linters.text.anchor_index import declare
from linters.security.attack_talk import Verdict, downgraded
from linters.security.github_tokens import PREFIXES as GITHUB_PREFIXES
from linters.security.github_tokens import github_verdict, whole_token
from linters.security.jwt_tokens import is_sample_jwt, jwt_cut_short, query_value, unsigned_jwt
from linters.text.compiled_regex import rx
from linters.security.secret_detectors import Detector, detectors
from linters.security.security_context import Hit, Line, SecurityText
from linters.security.text_role import weigh
from skillforge.models.findings import Severity

# Where to look. A token-shaped secret is random: it holds an alphanumeric run of 16+
# characters with both letters and digits (identifiers such as `RUBE_MANAGE_CONNECTIONS` or
# `react-native-reanimated` do not); found through one `bytes.translate` and a search for 16
# identical bytes, which skips ahead fast. The other detectors have anchors of their own.
_ALNUM = bytes(0x61 if chr(i).isascii() and chr(i).isalnum() else 0x20 for i in range(256))
_LONG_RUN = b"a" * 16
_DIGITS = b"0123456789"
_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
_LINE_ANCHORS = declare(b"://", b"private key", b"_authtoken")

# Values that are obviously not real: documentation keys, fill-in markers, templates.
_PLACEHOLDER = rx(
    r"example|sample|dummy|fake|placeholder|change[-_]?me|your[-_]|redacted|"
    r"x{4,}|X{4,}|\*{3,}|\.\.\.|<[^>]*>|\$\{?[A-Za-z_]|\{\{|%\(|replace[-_]?me|"
    # An interpolation where the value goes: `{password}` (f-string, str.format),
    # `#{pw}` (Ruby), `{cfg.db['pw']}`, `$(cat pw)` (a command substitution).
    r"\{[A-Za-z_][\w.\[\]'\"]*(?:![rsa])?(?::[^{}]*)?\}|\$\(|"
    r"not[-_]?a[-_]?real|0{6,}|1234567|abcdef|insert[-_]|token[-_]?here|key[-_]?here|"
    # A value that tells the reader to change it: `changeit` (the stock default of Java's
    # keystores and of KurrentDB's admin user, which its docs print in every connection
    # string), `change_this`; not `changeItem`, a word that goes on.
    r"change[-_]?(?:it|this)(?![a-z])|"
    # A value that names what it stands for: `password-value-123456`, `secret_value_1`.
    r"(?:password|passwd|secret|token|key)[-_]value\b",
    re.IGNORECASE,
)
# `ghp_TOKEN`, `YOUR_API_KEY`, `sk-proj-KEY`: a capitalised name standing where the value
# goes (a real key mixes cases and digits).
_NAME_NOT_VALUE = rx(r"^(?:[a-z]{2,4}[_-]|github_pat_|sk-(?:proj-|ant-)?)?[A-Z][A-Z_]{2,40}$")
_WEAK_PASSWORDS = {
    "password", "pass", "passwd", "pwd", "secret", "changeme", "admin", "root", "user",
    "username", "test", "guest", "postgres", "mysql", "pw", "token", "key", "apikey",
    "mypassword", "mysecretpassword", "secretpassword", "hunter2", "letmein", "foo", "bar",
}
# The name ends there: `pg.internal-corp.net` and `localhost.evil.io` are real hosts.
_LOCAL_HOST = rx(
    r"@(?:(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|host\.docker\.internal|"
    r"(?:[\w-]+\.)+(?:local|internal|test|example|invalid|localhost)|"
    r"(?:[\w-]+\.)*example\.(?:com|org|net))"
    r"(?![\w-]|\.\w)|[\w-]+(?=[:/]|$))",
    re.IGNORECASE,
)
# The anonymous login of a public server (`ftp://anonymous:anonymous@host/`): by convention
# anyone may use it, with a stock password, so the pair is no credential.
_ANONYMOUS_LOGIN = rx(r"(?:^|[/\s'\"])(?:anonymous|ftp):$", re.IGNORECASE)
_ANONYMOUS_PASSWORDS = {"anonymous", "ftp", "guest", "anon"}
# A slot the reader fills in, right where a value goes on: `<rest>`, `{sig}`, `${TAIL}`.
_SLOT = rx(r"<[A-Za-z][\w -]*>|\{[A-Za-z_][\w.]*\}|\$\{?[A-Za-z_]")
_KEY_BODY = rx(r"[A-Za-z0-9+/=]{40,}")
# detect-secrets' own inline mark (`# pragma: allowlist secret`, in any comment syntax, or
# `pragma: allowlist nextline secret` alone on the line before): the author reviewed the value
# as no secret. detect-secrets skips such lines; here they are info, except for a key in an
# issuer's format, whose form is evidence that outweighs the mark.
_PRAGMA = rx(r"(?:#|//|/\*|<!--|--|;|%|\bREM\b)[ \t]*pragma: ?(?:allow|white)list[ -]secret",
             re.IGNORECASE)
_PRAGMA_NEXTLINE = rx(r"^[ \t]*(?:#|//|/\*|<!--|--|;|%)[ \t]*pragma: ?allowlist[ -]nextline[ -]"
                      r"secret", re.IGNORECASE)
# Detectors whose match has no issuer's form: any word can be a password in a URL or a value
# in a query string, so the author's mark decides.
_SHAPELESS = {"BasicAuthDetector", "UrlQueryKeyDetector"}
_MARKED = Verdict(Severity.info, "the author marked the line `pragma: allowlist secret`, "
                  "detect-secrets' own mark for a value reviewed as no secret", acted=True)


# Detectors that can match without a random-looking token (found by their anchors instead).
_SHORT_DETECTORS = {"BasicAuthDetector", "PrivateKeyDetector", "NpmDetector", "SlackDetector"}


@dataclass(frozen=True)
class _Window:
    """A stretch of one line handed to the plugins: long JSON lines stay cheap."""

    line: Line
    text: str
    col: int  # 0-based column of `text` in the line
    long_run: bool

    @cached_property
    def low(self) -> str:
        return self.text.lower()


_WINDOW_BEFORE = 80  # keyword-assignment detectors look back ~40 characters
_WINDOW_TOKEN_AFTER = 40  # "@host.cloudant.com", "-us7"
_WINDOW_AFTER = 200  # around an anchor: a URL with credentials, a private-key header


def _window(st: SecurityText, line: Line, start: int, end: int, long_run: bool) -> _Window:
    raw = st.raw
    start = max(line.start, start)
    end = min(line.end, end)
    while start < end and 0x80 <= raw[start] < 0xC0:  # not inside a UTF-8 sequence
        start += 1
    while end < line.end and 0x80 <= raw[end] < 0xC0:
        end += 1
    text = raw[start:end].decode("utf-8", "replace")
    col = len(raw[line.start : start].decode("utf-8", "replace"))
    return _Window(line, text, col, long_run)


def _candidates(st: SecurityText) -> Iterator[_Window]:
    """Windows around random-looking tokens and around the other detectors' anchors."""
    low = st.low
    for needle in _LINE_ANCHORS:
        # The places are listed once per file: SF507 reads the same "://" lines.
        nxt = 0
        for pos in st.places(needle):
            if pos < nxt:
                continue
            # A URL carries credentials only as `user:pass@host`: skip the rest unread.
            if needle != b"://" or low.find(b"@", pos, pos + 160) >= 0:
                line = st.line_at(pos)
                yield _window(st, line, pos - _WINDOW_AFTER, pos + _WINDOW_AFTER, False)
                nxt = pos + _WINDOW_AFTER
            else:
                nxt = pos + len(needle)
    raw = st.raw
    runs = raw.translate(_ALNUM)
    pos = runs.find(_LONG_RUN)
    while pos >= 0:
        end = runs.find(b" ", pos)
        end = len(runs) if end < 0 else end
        if _plausible(raw[pos:end], low[max(0, pos - _KEYWORD_REACH) : pos]):
            line = st.line_at(pos)
            yield _window(
                st, line, pos - _WINDOW_BEFORE, min(end, pos + 400) + _WINDOW_TOKEN_AFTER, True
            )
        pos = runs.find(_LONG_RUN, end)


# Which random-looking tokens reach the plugins. Each plugin's secret is either mixed-case
# base62 (upper, lower and digits), starts with a known upper-case prefix, or follows a
# keyword or prefix within a few characters (`aws_secret = "..."`, `ghp_...`, `xoxb-...`).
# Lower-case hashes without such a keyword, and digests labelled `sha512-`, are data.
_UPPER = bytes(range(65, 91))
_LOWER = bytes(range(97, 123))
_KEYWORD_REACH = 60
_TOKEN_PREFIXES = (b"AKIA", b"ASIA", b"ABIA", b"ACCA", b"A3T", b"AKC", b"AP", b"AC", b"SK")
_NEARBY_KEYWORDS = (
    b"key", b"token", b"secret", b"pass", b"pwd", b"auth", b"cred", b"aws", b"bearer",
    b"-us", b"_live_", b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"glpat-", b"gldt-",
    b"glft-", b"glsoat-", b"glrt-", b"glcbt-", b"glimt-", b"glptt-", b"glagent-", b"gloas-",
    b"gr1348941", b"xox", b"sk-", b"sg.", b"pypi-", b"sq0csp-", b"eyj", b"cloudant",
    b"softlayer", b"hooks.slack",
)
_DIGEST_LABEL = rx(rb"(?:sha\d{1,3}|md5|integrity)[-:=\"' ]{1,3}$")


def _plausible(token: bytes, before: bytes) -> bool:
    n = len(token)
    has_digit = len(token.translate(None, _DIGITS)) < n
    has_upper = len(token.translate(None, _UPPER)) < n
    has_lower = len(token.translate(None, _LOWER)) < n
    if not has_digit or not (has_upper or has_lower):
        return False
    if _DIGEST_LABEL.search(before[-12:]):
        return False
    if has_upper and has_lower:
        return True
    return token.startswith(_TOKEN_PREFIXES) or any(k in before for k in _NEARBY_KEYWORDS)


def _gate_open(det: Detector, win: _Window) -> bool:
    if not det.gates:
        return True
    for g in det.gates:
        if g in (win.low if g.islower() else win.text):
            return True
    return False


def scan_sf504(st: SecurityText) -> Iterator[Hit]:
    reported: set[tuple[int, str]] = set()
    dets = None
    for win in _candidates(st):
        if dets is None:
            dets = detectors()
        for det in dets:
            if not win.long_run and det.name not in _SHORT_DETECTORS:
                continue
            if not _gate_open(det, win):
                continue
            for secret in _secrets(det, win.text):
                key = (win.line.no, secret)
                if key in reported or _not_a_secret(det.name, secret, win, st):
                    continue
                reported.add(key)
                col = win.col + max(win.text.find(secret), 0) + 1
                # A key in a detector's pattern list or a "Bad:" example is text about keys.
                verdict = weigh(st, win.line, col - 1, Severity.high, col - 1 + len(secret),
                               secret=True)
                if verdict.severity != Severity.info and det.name in _SHAPELESS and \
                        _marked(st, win.line):
                    verdict = _MARKED
                if secret.startswith(GITHUB_PREFIXES):
                    # GitHub's tokens carry a checksum: one that fails was never issued.
                    verdict = github_verdict(st, win.line, col - 1,
                                             whole_token(win.line.text, secret), verdict)
                yield Hit(
                    "SF504", win.line.no, col, verdict.severity, downgraded(
                        f"This looks like a real {det.label} (`{_mask(secret)}`, found by "
                        f"the detect-secrets plugin {det.name}); revoke it, remove it from "
                        "every file, and have the skill read the secret from an environment "
                        "variable.",
                        Severity.high, verdict),
                )
                break


def _marked(st: SecurityText, line: Line) -> bool:
    """`line` carries detect-secrets' allowlist pragma, or the line before says so for it."""
    if "pragma" in line.low and _PRAGMA.search(line.text):
        return True
    if line.start == 0:
        return False
    before = st.line_at(line.start - 1)
    return "pragma" in before.low and bool(_PRAGMA_NEXTLINE.search(before.text))


# Plugins whose capture group is only the token's prefix (`(ghp|gho|...)_...`, `glcbt-(..)?`):
# detect-secrets' `analyze_string` yields that group, so the whole match is the secret here.
_WHOLE_MATCH = {"GitHubTokenDetector", "GitLabTokenDetector"}


def _secrets(det: Detector, text: str) -> Iterator[str]:
    """The secrets one plugin finds in `text`, as whole strings.

    `analyze_string` yields `re.findall` results (after the plugin's own checks, such as the
    JWT's): the first group for most plugins (the secret inside its context, as for AWS keys
    or basic-auth passwords), only the prefix group for GitHub and GitLab tokens, and tuples
    for patterns with several groups (npm).
    """
    if det.name in _WHOLE_MATCH:
        for regex in det.denylist:
            yield from (m.group(0) for m in regex.finditer(text))
        return
    for found in det.analyze_string(text):
        if isinstance(found, tuple):
            found = next((part for part in found if part), "")
        if found:
            yield found


def _not_a_secret(plugin: str, secret: str, win: _Window, st: SecurityText) -> str | None:
    """Why a detector's match is a placeholder or a documentation example (None if real)."""
    if plugin == "PrivateKeyDetector":
        # A header alone is a mention ("files starting with -----BEGIN RSA PRIVATE KEY");
        # a key has a base64 body right after it.
        after = win.text[win.text.find(secret) + len(secret) :]
        body = after + st.raw[win.line.end : win.line.end + 400].decode("utf-8", "replace")
        if not _KEY_BODY.search(body) or _PLACEHOLDER.search(body[:120]):
            return "header without a key body"
        return None
    if _NAME_NOT_VALUE.match(secret.strip("'\"")):
        return "a name in capitals where the value goes"
    if plugin == "BasicAuthDetector":
        if secret.lower().strip("'\"") in _WEAK_PASSWORDS or _PLACEHOLDER.search(secret):
            return "placeholder password"
        at = win.text.find(secret + "@")
        if at >= 0 and _LOCAL_HOST.match(win.text, at + len(secret)):
            return "local or example host"
        if at >= 0 and _ANONYMOUS_LOGIN.search(win.text, max(0, at - 14), at) and \
                secret.lower() in _ANONYMOUS_PASSWORDS:
            return "the public anonymous login (anonymous FTP), no secret"
        if len(secret) < 6:
            return "too short to be a password"
        return None
    from detect_secrets.filters.heuristic import is_sequential_string

    if _PLACEHOLDER.search(secret) or is_sequential_string(secret):
        return "placeholder"
    if len(set(secret)) <= 3:
        return "repeated characters"
    if plugin == "JwtTokenDetector" and is_sample_jwt(secret):
        return "the jwt.io sample token"
    if plugin == "JwtTokenDetector" and unsigned_jwt(secret, win.text):
        # A token's power is its signature: "eyJ...eyJ..." cut short, or with an empty
        # third part, is a shape on a page that anyone could have written.
        return "a token without its signature"
    if plugin == "UrlQueryKeyDetector":
        if not _random_looking(secret):
            return "a word, not a key"
        # The whole value on the line: a window may have cut a long token short.
        text = win.line.text
        value = query_value(text, secret)
        if jwt_cut_short(value):
            return "a JWT's header with its payload or signature left as a slot"
        if value.endswith((".", "-", "_", "~")) and _SLOT.match(text, text.find(value) + len(value)):
            return "the fixed start of a value whose rest is a slot to fill in"
    return None


def _random_looking(value: str) -> bool:
    """A query value that could be a key: digits and letters, and not a plain word list
    (`search_text=consumer-price-index` is a query, not a credential)."""
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    mixed = has_upper + has_lower + has_digit >= 3
    return has_digit and (has_upper or has_lower) and (
        mixed or sum(c.isdigit() for c in value) >= 4)


def _mask(secret: str) -> str:
    secret = secret.replace("`", "'")
    if len(secret) <= 8:
        return secret[:2] + "..."
    return secret[:6] + "..." + secret[-2:]
