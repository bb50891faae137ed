"""SF515 and a cloud CLI's token minted to call the user's own service (issue 36).

`gcloud auth print-identity-token` and `print-access-token` (and `az account
get-access-token`) are the clouds' documented way to get a short-lived token for a REST call:
to the cloud's own API (`storage.googleapis.com`) or to a service the user deployed there
(a Cloud Run URL read from `gcloud run services describe`). When every use of the token is
the auth header (or `access_token=` parameter) of a request whose every host is the cloud's
own or the user's own endpoint (a host held in a variable, or this machine), the token goes
where it was made for: medium, the taste of keeping it out of a variable. A placeholder for
the URL (`<url>`, `<FUNCTION_URL>`, `$URL`, `https://<host>/run`) is the user's own endpoint
yet to be filled in, read like a concrete one, when the token is in the auth header (not a
query string), the placeholder names no outside receiver (`<webhook-url>`) and no line of
the block sets its variable to another host. A token in a request body, written to a file,
echoed, or sent to any other host stays high.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from linters.security.attack_talk import Verdict
from linters.security.credential_use import URL_HOST
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

# The hosts a cloud CLI's token is made for, by the CLI's group name in cli_credentials.
OWN_HOSTS = {
    "gcloud": rx(r"(?:^|\.)(?:googleapis\.com|run\.app|cloudfunctions\.net|appspot\.com)$"),
    "az": rx(r"(?:^|\.)(?:azure\.com|microsoft\.com|windows\.net|azurewebsites\.net|"
             r"azure-api\.net|visualstudio\.com)$"),
}
_LOCAL = rx(r"^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])$")
# A request URL whose host is a shell variable: `"${SERVICE_URL}/mcp"`, `$URL/v1/x`.
_VAR_URL = rx(r"(?:^|\s)[\"']?\$\{?[A-Za-z_]\w*\}?/")
# Where the token is made for: an auth header's value or a token query parameter.
AUTH_SLOT = rx(r"(?:(?:-H|--header)\s*[\"']?\s*(?:Authorization|X-[\w-]*(?:Token|Auth)[\w-]*)"
               r"\s*:\s*(?:Bearer\s+)?|[?&]access_token=)$", re.IGNORECASE)
# A placeholder standing for the request's URL, named as one: `<url>`, `<your-function-url>`,
# `$URL`, `"${SERVICE_URL}"`; or a URL whose host is a placeholder: `https://<host>/run`.
_PLACEHOLDER = rx(r"""(?:^|[\s`])["']?("""
                  r"<(?:[\w.]+[-_ ])*(?:url|uri|endpoint)(?:[-_ ][\w.]+)*>"
                  r"|\$\{?((?:[A-Za-z]\w*_)?(?:URL|URI|ENDPOINT)(?:_\w*)?)\}?"
                  r"|https?://(?:<[\w.-]+>|\$\{?([A-Za-z_]\w*)\}?)(?:[/:][^\s\"'`]*)?"
                  r""")["']?(?=[\s`.,;)]|$)""", re.IGNORECASE)
# A host held wholly by a placeholder, which URL_HOST reads as a host of its own.
_PLACEHOLDER_HOST = rx(r"^(?:<[\w.-]+>|\$\{?[A-Za-z_]\w*\}?)$")
# A placeholder naming a receiver that is not the user's service.
_OUTSIDE = rx(r"webhook|callback|collect|attacker|exfil|listener|remote|external|evil|ngrok|"
              r"requestbin|pipedream|paste|third", re.IGNORECASE)
_ASSIGN = rx(r"(?:^|[;&]\s*)(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=[\"']?$")
_SEPARATORS = (";", "&&", "||", "| ")


def own_service_call(st: SecurityText, line: Line, text: str, m: re.Match[str]) -> Verdict | None:
    """Medium when the token minted by match `m` of command `text` (on `line`) is used only
    in the auth slot of requests to the cloud's own or the user's own endpoint."""
    own = OWN_HOSTS.get(m.lastgroup or "")
    if own is None:
        return None
    opened = text.rfind("$(", 0, m.start())
    if opened < 0 or text[opened + 2 : m.start()].strip():
        return None
    closed = text.find(")", m.end())
    if closed < 0:
        return None
    if AUTH_SLOT.search(text[:opened]):
        host = request_host(text, opened, own, st, line)
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
            if not AUTH_SLOT.search(log.text[: u.start()].rstrip("\"'")):
                return None
            host = request_host(log.text, u.start(), own, st, cur)
            if not host:
                return None
    return _verdict(host) if host else None


def request_host(text: str, at: int, own: re.Pattern[str], st: SecurityText, line: Line,
                  ) -> str:
    """The host of the request the offset `at` is part of, when every host the command
    names is the cloud's own or local, or the URL's host is a variable; else ""."""
    begin = max([text.rfind(s, 0, at) for s in _SEPARATORS] + [-1]) + 1
    ends = [i for i in (text.find(s, at) for s in _SEPARATORS) if i >= 0]
    stage = text[begin : min(ends) if ends else len(text)]
    hosts = [h.lower() for h in URL_HOST.findall(stage) if not _PLACEHOLDER_HOST.match(h)]
    if any(not (own.search(h) or _LOCAL.match(h)) for h in hosts):
        return ""
    if hosts:
        return hosts[0]
    if _VAR_URL.search(stage):
        return "the service URL in a variable"
    if text[:at].rstrip("\"'").lower().endswith("access_token="):
        return ""  # a URL yet to be filled in, with the token in its query string
    return _placeholder(_code_span(text, at, begin, len(stage)), own, st, line)


def _code_span(text: str, at: int, begin: int, size: int) -> str:
    """The stage `text[begin:begin+size]` cut to the inline code span around `at` when the
    line is prose with the command in backticks."""
    opened = text.rfind("`", begin, at)
    if opened < 0 or text.count("`", 0, opened) % 2:
        return text[begin : begin + size]
    closed = text.find("`", at)
    return text[opened + 1 : closed if 0 <= closed < begin + size else begin + size]


def _placeholder(stage: str, own: re.Pattern[str], st: SecurityText, line: Line) -> str:
    """The request's URL as a placeholder the user fills in with their own endpoint: one,
    naming no outside receiver, whose variable no line of the block sets to another host."""
    found = list(_PLACEHOLDER.finditer(stage))
    if len(found) != 1 or _OUTSIDE.search(found[0].group(1)):
        return ""
    name = found[0].group(2) or found[0].group(3)
    if name and not _set_at_home(st, line, name, own):
        return ""
    return f"the placeholder {found[0].group(1)}"


def _set_at_home(st: SecurityText, line: Line, name: str, own: re.Pattern[str]) -> bool:
    """No assignment of `name` in the code block around `line` names a host but the
    cloud's own or this machine."""
    setter = rx(rf"(?:^|[\s;&])(?:export\s+)?{re.escape(name)}=(.*)")
    for step in (-1, 1):
        cur: Line | None = line
        for _ in range(60):
            cur = st.neighbour(cur, step) if cur is not None else None
            if cur is None or cur.text.lstrip().startswith(("```", "~~~")):
                break
            m = setter.search(cur.text)
            if m and any(not (own.search(h.lower()) or _LOCAL.match(h.lower()))
                         for h in URL_HOST.findall(m.group(1))):
                return False
    return True


def _verdict(host: str) -> Verdict:
    return Verdict(Severity.medium, "the token is only the credential of a request to the "
                                    f"cloud's own or the user's own endpoint ({host}), where "
                                    "it was made for", acted=True)


# What reaches a host: an HTTP client names it in a URL; a socket, a remote shell or a mailer
# sends where no URL says. A client is a command word (`nc -l`, `| ssh h`, `/usr/bin/nc`),
# not a part of a host name, a path or a query (`a0-nc.a.run.app`, `/mail/`, `?to=mail`).
_CLIENT = rx(r"(?<![\w.@:=?&%-])(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|mail|"
             r"sendmail|invoke-webrequest|invoke-restmethod|iwr|irm)(?![\w.@/=-])"
             r"|/dev/(?:tcp|udp)/", re.IGNORECASE)
_HTTP_CLIENTS = frozenset({"curl", "wget", "invoke-webrequest", "invoke-restmethod", "iwr", "irm"})


def stays_in_cloud(cli: str, text: str) -> bool:
    """Command line `text`, which mints a token of cloud CLI `cli`, reaches no host but the
    cloud's own or this machine: every URL on it is one of those, and any HTTP client on it
    names such a URL (a socket, a remote shell or a mailer sends where no URL says)."""
    own = OWN_HOSTS.get(cli)
    if own is None:
        return False
    hosts = [h.lower() for h in URL_HOST.findall(text)]
    if any(not (own.search(h) or _LOCAL.match(h)) for h in hosts):
        return False
    clients = {c.lower() for c in _CLIENT.findall(text)}
    if clients - _HTTP_CLIENTS:
        return False
    return not clients or bool(hosts)


# --- an identity token the metadata service mints for the user's own service ---------------

# GCP's identity endpoint after the metadata address: it mints a token signed for the one
# audience named in the query, which only that audience accepts. `/token` (an access token
# for every API the account may call) and the account's other paths are not this.
_IDENTITY = rx(r"(?::\d+)?/computeMetadata/v1/instance/service-accounts/[\w@.-]+/identity\?"
               r"(?:[^\s'\"`#]*&)?audience=([^\s&'\"`#]*)")
# A placeholder standing wholly for the audience: `<SERVICE_URL>`, `$AUDIENCE`, `${URL}`.
_PLACEHOLDER_VALUE = rx(r"^(?:<[\w.-]+>|\$\{?[A-Za-z_]\w*\}?)$")
# Where the token is kept rather than used: a file it is written to.
_WRITES = rx(r"(?:^|[\s\"'])>>?(?!&)|\btee\b")
_METADATA_HOST = rx(r"^(?:169\.254\.169\.254|metadata\.google\.internal|metadata)$")


def own_identity_audience(text: str, end: int) -> str | None:
    """The audience of the metadata request whose address ends at `end` of command `text`,
    when it asks for an identity token (`.../identity?audience=...`) for the user's own
    service: a Cloud Run, Cloud Functions or App Engine host, or a placeholder naming no
    outside receiver. None when the command also reaches another host, sends through a
    socket, remote shell or mailer, or writes the token to a file."""
    m = _IDENTITY.match(text, end)
    if m is None:
        return None
    audience = unquote(m.group(1))
    host = URL_HOST.match(audience)
    value = host.group(1) if host else audience
    if _PLACEHOLDER_VALUE.match(value):
        if _OUTSIDE.search(value):
            return None
    elif not (host and OWN_HOSTS["gcloud"].search(value.lower())):
        return None
    for h in URL_HOST.findall(text):
        h = h.split("&", 1)[0].lower()  # a URL in a query string ends at the next parameter
        if _PLACEHOLDER_HOST.match(h) and not _OUTSIDE.search(h):
            continue
        if not (_METADATA_HOST.match(h) or OWN_HOSTS["gcloud"].search(h) or _LOCAL.match(h)):
            return None
    if {c.lower() for c in _CLIENT.findall(text)} - _HTTP_CLIENTS or _WRITES.search(text):
        return None
    return f"`{audience}`"
