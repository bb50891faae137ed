"""SF515 and a cloud CLI's token minted to call the user's own service (issue 36).

`gcloud auth print-identity-token` and `print-access-token` (and `az account
get-access-token`) are the clouds' documented way to get a short-lived token for a REST call:
to the cloud's own API (`storage.googleapis.com`) or to a service the user deployed there
(a Cloud Run URL read from `gcloud run services describe`). When every use of the token is
the auth header (or `access_token=` parameter) of a request whose every host is the cloud's
own or the user's own endpoint (a host held in a variable, or this machine), the token goes
where it was made for: medium, the taste of keeping it out of a variable. A token in a
request body, written to a file, echoed, or sent to any other host stays high.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import Verdict
from linters.security.credential_use import URL_HOST
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

# The hosts a cloud CLI's token is made for, by the CLI's group name in cli_credentials.
_OWN_HOSTS = {
    "gcloud": rx(r"(?:^|\.)(?:googleapis\.com|run\.app|cloudfunctions\.net|appspot\.com)$"),
    "az": rx(r"(?:^|\.)(?:azure\.com|microsoft\.com|windows\.net|azurewebsites\.net|"
             r"azure-api\.net)$"),
}
_LOCAL = rx(r"^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])$")
# A request URL whose host is a shell variable: `"${SERVICE_URL}/mcp"`, `$URL/v1/x`.
_VAR_URL = rx(r"(?:^|\s)[\"']?\$\{?[A-Za-z_]\w*\}?/")
# Where the token is made for: an auth header's value or a token query parameter.
_AUTH_SLOT = rx(r"(?:(?:-H|--header)\s*[\"']?\s*(?:Authorization|X-[\w-]*(?:Token|Auth)[\w-]*)"
                r"\s*:\s*(?:Bearer\s+)?|[?&]access_token=)$", re.IGNORECASE)
_ASSIGN = rx(r"(?:^|[;&]\s*)(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=[\"']?$")
_SEPARATORS = (";", "&&", "||", "| ")


def own_service_call(st: SecurityText, line: Line, text: str, m: re.Match[str]) -> Verdict | None:
    """Medium when the token minted by match `m` of command `text` (on `line`) is used only
    in the auth slot of requests to the cloud's own or the user's own endpoint."""
    own = _OWN_HOSTS.get(m.lastgroup or "")
    if own is None:
        return None
    opened = text.rfind("$(", 0, m.start())
    if opened < 0 or text[opened + 2 : m.start()].strip():
        return None
    closed = text.find(")", m.end())
    if closed < 0:
        return None
    if _AUTH_SLOT.search(text[:opened]):
        host = _request_host(text, opened, own)
        return _verdict(host) if host else None
    assigned = _ASSIGN.search(text[:opened])
    if assigned is None or text[closed + 1 :].strip(" \"'"):
        return None
    return _variable_goes_home(st, line, assigned.group(1), own)


def _variable_goes_home(st: SecurityText, line: Line, name: str, own: re.Pattern[str],
                        ) -> Verdict | None:
    """Every later use of `$name` in the code block is in the auth slot of a request to the
    cloud's own or the user's own endpoint; there is at least one."""
    use = rx(rf"\$\{{?{re.escape(name)}\b")
    host = ""
    cur: Line | None = line
    for _ in range(60):
        cur = st.neighbour(cur, 1) if cur is not None else None
        if cur is None or cur.text.lstrip().startswith(("```", "~~~")):
            break
        if not use.search(cur.text):
            continue
        log = st.logical(cur)
        for u in use.finditer(log.text):
            if not _AUTH_SLOT.search(log.text[: u.start()].rstrip("\"'")):
                return None
            host = _request_host(log.text, u.start(), own)
            if not host:
                return None
    return _verdict(host) if host else None


def _request_host(text: str, at: int, own: re.Pattern[str]) -> str:
    """The host of the request the offset `at` is part of, when every host the command
    names is the cloud's own or local, or the URL's host is a variable; else ""."""
    begin = max([text.rfind(s, 0, at) for s in _SEPARATORS] + [-1]) + 1
    ends = [i for i in (text.find(s, at) for s in _SEPARATORS) if i >= 0]
    stage = text[begin : min(ends) if ends else len(text)]
    hosts = [h.lower() for h in URL_HOST.findall(stage)]
    if any(not (own.search(h) or _LOCAL.match(h)) for h in hosts):
        return ""
    if hosts:
        return hosts[0]
    return "the service URL in a variable" if _VAR_URL.search(stage) else ""


def _verdict(host: str) -> Verdict:
    return Verdict(Severity.medium, "the token is only the credential of a request to the "
                                    f"cloud's own or the user's own endpoint ({host}), where "
                                    "it was made for", acted=True)


# What reaches a host: an HTTP client names it in a URL; a socket, a remote shell or a mailer
# sends where no URL says.
_CLIENT = rx(r"\b(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|mail|sendmail|"
             r"invoke-webrequest|invoke-restmethod|iwr|irm)\b|/dev/(?:tcp|udp)/", re.IGNORECASE)
_HTTP_CLIENTS = frozenset({"curl", "wget", "invoke-webrequest", "invoke-restmethod", "iwr", "irm"})


def stays_in_cloud(cli: str, text: str) -> bool:
    """Command line `text`, which mints a token of cloud CLI `cli`, reaches no host but the
    cloud's own or this machine: every URL on it is one of those, and any HTTP client on it
    names such a URL (a socket, a remote shell or a mailer sends where no URL says)."""
    own = _OWN_HOSTS.get(cli)
    if own is None:
        return False
    hosts = [h.lower() for h in URL_HOST.findall(text)]
    if any(not (own.search(h) or _LOCAL.match(h)) for h in hosts):
        return False
    clients = {c.lower() for c in _CLIENT.findall(text)}
    if clients - _HTTP_CLIENTS:
        return False
    return not clients or bool(hosts)
