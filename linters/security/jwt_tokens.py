"""SF504 and JSON Web Tokens: which JWT-shaped strings carry a usable token (issue 36).

A JWT is three base64url segments joined by dots: a header (`eyJhbGciOi...`, the same few
dozen characters on every token signed the same way), a payload and a signature. Only the
signature makes it a credential; a header anyone can write. So a JWT-shaped string is no
secret when:

- it is jwt.io's default sample ("John Doe", sub 1234567890), printed in countless docs;
- detect-secrets' JwtTokenDetector found "header.payload." with no signature after it, or
  an ellipsis ("eyJ...eyJ9..." in a sample report);
- it is the value of a key in a URL query (`?token=eyJ...`) and is cut short: only its
  header is literal and the payload or the signature is a slot the reader fills in
  (`?token=eyJhbGciOi...J9.<payload>.<sig>`, `.xxx.yyy`). A full token there, three segments
  with a real payload and signature, stays a leaked credential.

`linters.security.secret_scan` asks; GitHub's tokens have their own module,
`linters.security.github_tokens`.
"""

from __future__ import annotations

import base64
import json
import re

from linters.text.compiled_regex import rx

# The characters of a URL query value (the UrlQueryKeyDetector's own set), to find where
# the value a detector matched in a window ends on its line.
_QUERY_VALUE = rx(r"[A-Za-z0-9_\-.~]*")
# A signature is 43 characters for HS256 and longer for the others; a payload is at least
# `{"a":1}` (10). Shorter segments are words standing in for them (`sig`, `payload`).
_MIN_PAYLOAD = 8
_MIN_SIGNATURE = 16
_SEGMENT = rx(r"[A-Za-z0-9_-]+")


def is_sample_jwt(token: str) -> bool:
    """The token's payload is jwt.io's default one ("John Doe", sub 1234567890)."""
    try:
        part = token.split(".")[1]
        payload = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (IndexError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(payload, dict) and (
        payload.get("name") == "John Doe" or payload.get("sub") == "1234567890"
    )


def unsigned_jwt(token: str, text: str) -> bool:
    """The token at `token` (detect-secrets yields "header.payload.") has no signature in
    `text`: nothing follows its second dot, or an ellipsis does ("eyJ...eyJ9..." in a
    sample report)."""
    at = text.find(token)
    if at < 0:
        return False
    tail = text[at + len(token) :]
    if not token.endswith("."):
        if not tail.startswith("."):
            return True
        tail = tail[1:]
    if tail.startswith(("..", "\u2026")):
        return True
    signature = re.match(r"[A-Za-z0-9_-]*", tail)
    return signature is None or len(signature.group(0)) < _MIN_SIGNATURE


def _jose_header(segment: str) -> bool:
    """`segment` is base64url JSON naming a signing algorithm (`{"alg":"HS256",...}`)."""
    if not segment.startswith("eyJ"):
        return False
    try:
        header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and "alg" in header


def query_value(line: str, secret: str) -> str:
    """The whole query value on `line` that starts with `secret`: a detector sees a window
    of the line, which may cut a long token short."""
    at = line.find(secret)
    if at < 0:
        return secret
    return secret + _QUERY_VALUE.match(line, at + len(secret)).group(0)


def jwt_cut_short(value: str) -> bool:
    """`value` starts with a JWT's header but lacks a real payload or signature: its
    segments after the header are missing, empty, or words standing in for them
    (`<payload>` ends the value, `xxx`, `sig`). Other base64 JSON (`eyJrIjoi...`, a
    Grafana API key) is no header: it names no signing algorithm."""
    parts = value.split(".")
    if not _jose_header(parts[0]):
        return False
    if len(parts) < 3:
        return True
    payload, signature = parts[1], parts[2]
    return not (len(payload) >= _MIN_PAYLOAD and len(signature) >= _MIN_SIGNATURE
                and _SEGMENT.fullmatch(payload) and _SEGMENT.fullmatch(signature))
