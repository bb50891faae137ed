"""Where a match inside a command line points (SF508): a path or query value of a URL on
another machine, or text in the body of a request an HTTP client sends to another server.
Either way nothing of this machine is read (a probe of a target's `/.env`, an SSRF test that
passes the metadata address as data)."""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# The URL a match sits in, from its scheme: `https://target/.env`,
# `https://target/fetch?url=http://169.254.169.254/`.
_URL_START = rx(r"[a-z][a-z0-9+.-]*://([^/\s'\"`?#]+)", re.IGNORECASE)


def on_a_remote_server(text: str, start: int) -> bool:
    """The match at `start` is the path or a query value of a URL whose host is another
    machine: a request to that server (a probe of a target's `/.env`, an SSRF test passing
    the metadata address as a parameter), which reads nothing of this machine. A host the
    reader fills in (`https://<target>/.env`) is such a host too."""
    token_start = _token_start(text, start)
    m = _URL_START.match(text, token_start) or _URL_START.search(text, token_start, start)
    return m is not None and m.end() <= start and text.find(" ", m.end(), start) < 0


# A placeholder the reader replaces (`<target>`, `<your-host>`, `<ip>:<port>`): its `<` is no
# input redirection, so it does not end the URL it is part of. `$(<.env)` still reads a file.
_PLACEHOLDER = rx(r"<[A-Za-z][\w.-]{0,40}>")


def _token_start(text: str, start: int) -> int:
    """Where the word holding 0-based `start` begins: after a space, a quote, a bracket, or a
    `<` that opens no placeholder."""
    begin = max(text.rfind(c, 0, start) for c in " \t\n'\"`(") + 1
    lt = text.rfind("<", begin, start)
    while lt >= 0 and _PLACEHOLDER.match(text, lt):
        lt = text.rfind("<", begin, lt)
    return lt + 1 if lt >= 0 else begin


# A request whose body carries the match: `curl -X POST https://target/api/fetch -d '{"url":
# "http://169.254.169.254/"}'` sends the address to that server as text (an SSRF probe).
_CLIENT = rx(r"^\s*(?:sudo\s+)?(?:curl|wget|http|https|xh)\b")
_BODY_OPEN = rx(r"(?:\s-d|--data(?:-raw|-binary|-urlencode)?|--json|\s-F|--form|--post-data)"
                r"[\s=]+(?:'[^']*|\"[^\"]*)$")
_OTHER_HOST = rx(r"[a-z][a-z0-9+.-]*://(?!169\.254\.169\.254|metadata\.google\.internal|"
                 r"metadata(?::\d+)?/computeMetadata/)"
                 r"[^/\s'\"`]+", re.IGNORECASE)


def in_request_body(text: str, start: int) -> bool:
    """The match at `start` is inside the quoted body of a request that an HTTP client sends
    to another server: the address or path is data for that server, nothing of this machine
    is read. Not when a command substitution (`"$(curl ...)"`) fetches it first."""
    begin = 0
    for sep in ("|", ";", "&&", "$(", "`"):
        at = text.rfind(sep, 0, start)
        if at >= 0:
            begin = max(begin, at + len(sep))
    stage, cut = text[begin:], start - begin
    if not _CLIENT.match(stage) or not _BODY_OPEN.search(stage[:cut]):
        return False
    ends = [i for i in (stage.find(s, cut) for s in ("|", ";", "&&")) if i >= 0]
    return _OTHER_HOST.search(stage[: min(ends) if ends else len(stage)]) is not None
