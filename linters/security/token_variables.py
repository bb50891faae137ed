"""SF515: a cloud CLI's token followed through the variables that carry it to the cloud's API
(issue 36).

`linters.security.cloud_tokens` reads a token that a shell line keeps (`T=$(az account
get-access-token ...)`) and that the same code block uses only in auth headers. Recipes for a
cloud's REST API carry it further, and just as far from anyone else:

- PowerShell keeps it with `$token = az account get-access-token ... -o tsv` (or `= (...)`),
  puts it in a header table (`$headers = @{ Authorization = "Bearer $token" }`) and hands
  the table to `Invoke-RestMethod -Uri $url -Headers $headers`, the URL set above;
- a shell copies it (`export AZDO_TOKEN="$TOKEN"`) for the calls of the next section, in
  another code block (`${AZDO_TOKEN:+-H "Authorization: Bearer $AZDO_TOKEN"}`).

When every use of the token, of its copies and of its header tables, to the end of the file,
is the credential of a request to the cloud's own hosts (and there is at least one), the token
goes where it was made for: medium, as in `cloud_tokens`. Any other use (echoed, written,
in a body, sent to another host, a URL we cannot place) keeps the finding high.

A sentence that only names the bare command as the way to authenticate to the cloud's API
("Authenticate with `az account get-access-token`, then call the Git Items REST API") runs no
command line that keeps, prints or sends the token anywhere: medium too. A sentence that
writes the token into a file or a config, or names another host, stays high.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import Verdict
from linters.security.cloud_tokens import AUTH_SLOT, OWN_HOSTS, request_host
from linters.security.credential_use import URL_HOST
from linters.security.security_context import Line, SecurityText, inline_span
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

# Uses followed through copies and header tables, at most this deep (a copy of a copy).
_MAX_DEPTH = 3
# A line of the rest of the file read per variable: a reference is a few hundred lines.
_MAX_LINES = 400

# What a command line that keeps the token starts with: `NAME=$(`, `export NAME=$(`,
# PowerShell's `$name = `, `$name = (`, `$name = $(`.
_KEEP = rx(r"(?:^|[;&]\s*)(?:(?:export|local|readonly)\s+)?(?:(\$)([A-Za-z_]\w*)\s*=\s*|"
           r"([A-Za-z_]\w*)=)[\"']?(\$?\()?\s*$")
# A cloud CLI's mint command, seen again where a recipe repeats it.
_MINT = rx(r"\bget-access-token\b|\bprint-(?:access|identity)-token\b", re.IGNORECASE)
# What runs on after the command: a pipe, a list, a redirect, another substitution.
_ONWARD = rx(r"[|;&>`]|\$\(")
# A whole line that copies a variable into another: `export B="$A"`, `$b = $a`.
_COPY = rx(r"^\s*(?:(?:export|local|readonly)\s+)?\$?([A-Za-z_]\w*)\s*=\s*[\"']?"
           r"\$\{?{name}\}?[\"']?\s*;?\s*$")
# The value of an Authorization entry of a PowerShell header table, up to the token.
_TABLE_SLOT = rx(r"^\s*\$([A-Za-z_]\w*)\s*=\s*@\{[^}]*[\"']?Authorization[\"']?\s*=\s*"
                 r"[\"']Bearer\s+$", re.IGNORECASE)
# A PowerShell web request handed a header table: `Invoke-RestMethod -Uri $u -Headers $h`.
_WEB_CMDLET = rx(r"\b(?:Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b", re.IGNORECASE)
_URI_ARG = rx(r"-Uri\s+(?:\"([^\"]*)\"|'([^']*)'|(\S+))", re.IGNORECASE)


def kept_for_own_service(st: SecurityText, line: Line, text: str, m: re.Match[str],
                         ) -> Verdict | None:
    """Medium when command line `text` (from `line`) keeps the token minted by `m` in a
    variable whose every use to the end of the file, through copies and header tables, is the
    credential of a request to the cloud's own hosts; None otherwise."""
    own = OWN_HOSTS.get(m.lastgroup or "")
    if own is None:
        return None
    kept = _KEEP.search(text[: m.start()])
    if kept is None:
        return None
    sigil, ps_name, sh_name, opened = kept.groups()
    if sigil is None and opened is None:
        return None  # `T=az ...` runs az with T in its environment; it keeps nothing
    rest = text[m.end() :]
    if opened:
        closed = rest.find(")")
        if closed < 0 or rest[closed + 1 :].strip(" \"'"):
            return None
        rest = rest[:closed]
    if _ONWARD.search(rest):
        return None
    last = st.logical(line).parts[-1][1]
    hosts = _uses(st, last, ps_name or sh_name, own, 0)
    if not hosts:
        return None
    return Verdict(Severity.medium, "the token is kept only for the auth header of requests "
                                    f"to the cloud's own API ({hosts[0]}), where it was made "
                                    "for", acted=True)


def _uses(st: SecurityText, line: Line, name: str, own: re.Pattern[str], depth: int,
          ) -> list[str]:
    """The hosts every later use of `$name` sends it to, all of them the cloud's own; [] when
    one use goes anywhere else or there is none."""
    use = rx(rf"\$\{{?{re.escape(name)}\b(?!\s*:\+)")
    copy = rx(_COPY.pattern.replace("{name}", re.escape(name)))
    again = rx(rf"^\s*(?:(?:export|local|readonly)\s+)?\$?{re.escape(name)}\s*=")
    hosts: list[str] = []
    done = line.end
    cur: Line | None = line
    for _ in range(_MAX_LINES):
        cur = st.neighbour(cur, 1) if cur is not None else None
        if cur is None:
            break
        if cur.start <= done or not use.search(cur.text):
            continue
        log = st.logical(cur)
        done = log.parts[-1][1].end
        if again.match(log.text) and _MINT.search(log.text):
            continue  # kept again, as a recipe repeats it: that line is a finding of its own
        found = _line_hosts(st, cur, log.text, use, copy, own, depth)
        if found is None:
            return []
        hosts += found
    return hosts


def _line_hosts(st: SecurityText, line: Line, text: str, use: re.Pattern[str],
                copy: re.Pattern[str], own: re.Pattern[str], depth: int) -> list[str] | None:
    """The hosts the uses of the variable on command line `text` send it to; None when one is
    not a request to the cloud's own hosts (or a copy or table that goes elsewhere)."""
    if depth < _MAX_DEPTH and (c := copy.match(text)):
        return _uses(st, line, c.group(1), own, depth + 1) or None
    hosts: list[str] = []
    for u in use.finditer(text):
        table = _TABLE_SLOT.match(text[: u.start()])
        if table is not None and depth < _MAX_DEPTH:
            found = _table_uses(st, line, table.group(1), own)
            if not found:
                return None
            hosts += found
            continue
        before = text[: u.start()].rstrip("\"'")
        host = request_host(text, u.start(), own, st, line) if AUTH_SLOT.search(before) else ""
        if not host:
            return None
        hosts.append(host)
    return hosts


def _table_uses(st: SecurityText, line: Line, name: str, own: re.Pattern[str]) -> list[str]:
    """The hosts of the PowerShell web requests header table `$name` is handed to, all of them
    the cloud's own; [] when it is used any other way or not at all."""
    use = rx(rf"\${re.escape(name)}\b")
    hosts: list[str] = []
    cur: Line | None = line
    for _ in range(_MAX_LINES):
        cur = st.neighbour(cur, 1) if cur is not None else None
        if cur is None:
            break
        if not use.search(cur.text):
            continue
        text = st.logical(cur).text
        if rx(rf"^\s*\${re.escape(name)}\s*=").match(text):
            continue  # the table set again, as a recipe repeats it
        if not _WEB_CMDLET.search(text) or not all(
                rx(r"-Headers\s+$").search(text[: u.start()]) for u in use.finditer(text)):
            return []
        host = _cmdlet_host(st, cur, text, own)
        if not host:
            return []
        hosts.append(host)
    return hosts


def _cmdlet_host(st: SecurityText, line: Line, text: str, own: re.Pattern[str]) -> str:
    """The host of the `-Uri` of web request `text`, when it and every other host on the line
    is the cloud's own; a `$variable` URI is read from its nearest assignment above."""
    arg = _URI_ARG.search(text)
    if arg is None:
        return ""
    uri = next(g for g in arg.groups() if g is not None)
    var = re.fullmatch(r"\$\{?([A-Za-z_]\w*)\}?", uri)
    if var:
        uri = _assigned_above(st, line, var.group(1))
    hosts = [h.lower() for h in URL_HOST.findall(uri)]
    if not hosts or any(not own.search(h) for h in hosts + [
            h.lower() for h in URL_HOST.findall(text)]):
        return ""
    return hosts[0]


def _assigned_above(st: SecurityText, line: Line, name: str) -> str:
    """The value of the nearest PowerShell assignment `$name = "..."` above `line`."""
    setter = rx(rf"^\s*\${re.escape(name)}\s*=\s*(.*)$")
    cur: Line | None = line
    for _ in range(_MAX_LINES):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return ""
        found = setter.match(cur.text)
        if found:
            return found.group(1)
    return ""


# --- a sentence that names the command as the way to authenticate to the cloud's API --------

# The token's use the sentence names: a REST API, an API call, a bearer header.
_API_USE = rx(r"\bREST\b|\bAPIs?\b|\bbearer\b|\bAuthorization\s+header\b", re.IGNORECASE)
# What a sentence may do with the token instead: keep it in a file, a config, paste it on.
_KEPT_ELSEWHERE = rx(r"\b(?:paste[sd]?|cop(?:y|ied|ies)|sav(?:e|ed|es)|stor(?:e|ed|es)|"
                     r"writ(?:e|es|ten)|echo(?:es|ed)?|print(?:s|ed)?|log(?:s|ged)?|"
                     r"shar(?:e|ed|es)|sen(?:d|ds|t)|export(?:s|ed)?|set(?:s)?|put)\b"
                     r"|\.env\b|\bconfig(?:uration)?\b|\btemplate|\bclipboard|"
                     r"\benvironment\s+variable|\bwebhook|"
                     r"\b(?:to|into|in)\s+(?:an?|the|your)\s+(?:[\w.-]+\s+)?file\b", re.IGNORECASE)


def named_for_own_api(st: SecurityText, line: Line, col: int, m: re.Match[str],
                      ) -> Verdict | None:
    """Medium when prose `line` names the bare cloud-CLI command of `m` (at `col`, in inline
    code holding nothing else) as the way to authenticate to an API, names no host but the
    cloud's own, and says nothing of keeping or passing the token on."""
    own = OWN_HOSTS.get(m.lastgroup or "")
    if own is None or not st.is_markdown or st.in_code(line) or st.is_table_row(line):
        return None
    _, span = inline_span(line, col)
    if re.search(r"[$=|>`<;&(){}]", span) or not span.strip().startswith(m.group(0).strip()):
        return None
    if not _API_USE.search(line.text) or _KEPT_ELSEWHERE.search(line.text):
        return None
    if any(not own.search(h.lower()) for h in URL_HOST.findall(line.text)):
        return None
    return Verdict(Severity.medium, "the sentence names the command as the way to "
                                    "authenticate to the cloud's own API, with no command "
                                    "line that keeps, prints or sends the token", acted=True)
