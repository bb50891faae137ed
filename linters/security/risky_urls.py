"""SF507: URLs an agent should not fetch on a skill's say-so: raw public IPs, link
shorteners, paste and request-capture sites, and plain `http://` to a real host."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.security.attack_talk import downgraded
from linters.security.security_context import Hit, Line, SecurityText, short
from linters.security.text_role import weigh
from skillforge.models.findings import Severity

_SCHEME_SEP, _PLAIN_HTTP = declare(b"://", b"http:")
# A URL's host and what may precede it (user info, port), read in the lower-cased bytes as
# far as any reading of the URL could take it: it ends where `_URL_REST`, a str pattern,
# ends it, so at \x1c-\x1f too (white space to `\s` in str, not in bytes); else a host
# written `pastebin.com\x1f` would be read as another and the file passed over.
_NETLOC = rx(rb"[^/?#\s\x1c-\x1f<>\"'`)\]}|\\]*")
_URL = rx(r"\b(?:https?|ftp)://[^\s<>\"'`)\]}|\\]+", re.IGNORECASE)
# From a "://" found by `str.find`: the scheme before it and the rest of the URL after it
# (anchored matches, so a 5,000-character JSON line is not scanned character by character).
_SCHEME_BEFORE = rx(r"(?:https?|ftp)$", re.IGNORECASE)
_URL_REST = rx(r"[^\s<>\"'`)\]}|\\]+")

# Hosts that hide where a link goes, or that serve or collect arbitrary text.
_SHORTENERS = {
    "bit.ly", "bitly.com", "tinyurl.com", "t.co", "goo.gl", "ow.ly", "is.gd", "buff.ly",
    "rebrand.ly", "cutt.ly", "shorturl.at", "tiny.cc", "rb.gy", "bl.ink", "s.id", "v.gd",
    "t.ly", "tiny.one", "shorte.st", "adf.ly", "lnkd.in", "clck.ru", "qr.ae",
}
_PASTE_AND_CAPTURE = {
    "pastebin.com", "paste.ee", "hastebin.com", "hastebin.skyra.pw", "ghostbin.co",
    "rentry.co", "rentry.org", "dpaste.org", "dpaste.com", "paste.rs", "termbin.com",
    "0x0.st", "transfer.sh", "controlc.com", "justpaste.it", "privatebin.net", "ix.io",
    "sprunge.us", "pastes.dev", "paste.mozilla.org", "bpa.st", "pastie.io",
    "webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "ngrok.io",
    "ngrok-free.app", "ngrok.app", "trycloudflare.com", "serveo.net", "localtunnel.me",
    "loca.lt", "interact.sh", "oast.fun", "oast.live", "oast.me", "oast.pro", "oast.site",
    "oastify.com", "burpcollaborator.net", "canarytokens.com", "beeceptor.com",
}
# Hosts whose http:// URLs are identifiers (XML namespaces, licence texts), never fetched.
_IDENTIFIER_HOSTS = {
    "www.w3.org", "w3.org", "purl.org", "purl.obolibrary.org", "schemas.openxmlformats.org",
    "schemas.microsoft.com", "ns.adobe.com", "json-schema.org", "xmlns.com",
    "schemas.xmlsoap.org", "schemas.android.com", "java.sun.com", "xml.org", "www.apache.org",
    "apache.org", "opensource.org", "www.opensource.org", "www.gnu.org", "gnu.org",
    "creativecommons.org", "relaxng.org", "docbook.org", "www.topografix.com",
    "openoffice.org", "www.openoffice.org", "iptc.org", "ns.useplus.org", "www.xbrl.org",
    "schema.org", "rdfs.org", "xmlns.oracle.com", "www.opengis.net", "maven.apache.org",
}
_LOCAL_SUFFIXES = (
    ".local", ".localhost", ".internal", ".lan", ".test", ".example", ".invalid",
    ".home.arpa", ".corp", ".intranet",
)
_EXAMPLE_DOMAINS = frozenset({"example.com", "example.org", "example.net", "example.edu"})
_TEMPLATE = rx(r"[{}$<>%*]|\.\.\.|^x+\.|\bx\.x\b")
_XMLNS = rx(
    r"\b(?:xmlns(?::\w+)?|schemaLocation|namespace|@context|\$schema)\b", re.IGNORECASE
)


def url_host(text: str) -> str | None:
    """Host of the first URL in `text`, lower-cased (None without one)."""
    m = _URL.search(text)
    return _host(m.group()) if m else None


def _host(url: str) -> str | None:
    """Lower-cased host of a URL (no user info, no port); string slicing, no urlsplit."""
    start = url.find("://")
    if start < 0:
        return None
    netloc = url[start + 3 :]
    for sep in "/?#":
        cut = netloc.find(sep)
        if cut >= 0:
            netloc = netloc[:cut]
    netloc = netloc.rpartition("@")[2]
    if netloc.startswith("["):
        host = netloc[1 : netloc.find("]")] if "]" in netloc else ""
    else:
        host = netloc.partition(":")[0]
    return host.lower().rstrip(".") or None


def is_placeholder_host(host: str) -> bool:
    """localhost, private networks, single-label names, example domains and templates."""
    host = host.lower().rstrip(".")
    if not host or "." not in host or _TEMPLATE.search(host):
        return True
    if host.endswith(_LOCAL_SUFFIXES) or _on_list(host, _EXAMPLE_DOMAINS):
        return True
    ip = _ip(host)
    return ip is not None and not ip.is_global


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not (host[:1].isdigit() or ":" in host):
        return None  # skip the exception path for ordinary names
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _on_list(host: str, hosts: set[str] | frozenset[str]) -> bool:
    """`host` or its parent domain (the last two or three labels) is in `hosts`."""
    if host in hosts:
        return True
    labels = host.rsplit(".", 3)
    return ".".join(labels[-2:]) in hosts or ".".join(labels[-3:]) in hosts


def _may_report(st: SecurityText) -> bool:
    """False when no URL of the file can be reported, told from the bytes without decoding a
    line: no plain http anywhere, and no host (read by `_host`, as `_url_hit` reads it) that
    is an IP address, holds a non-ASCII byte, or is (under) a listed shortener or paste site.
    Most files that hold URLs hold only ordinary https ones."""
    if st.places(_PLAIN_HTTP):
        return True
    low = st.low
    for at in st.places(_SCHEME_SEP):
        netloc = _NETLOC.match(low, at + 3).group()  # type: ignore[union-attr]
        if not netloc.isascii():
            return True
        host = _host("://" + netloc.rstrip(b".,;:!?").decode())
        if host and (_ip(host) is not None or _on_list(host, _SHORTENERS)
                     or _on_list(host, _PASTE_AND_CAPTURE)):
            return True
    return False


def scan_sf507(st: SecurityText) -> Iterator[Hit]:
    if st.is_license or not _may_report(st):
        return
    plain: dict[str, list[tuple[int, int, str]]] = {}
    for line in st.lines_with(_SCHEME_SEP):
        text = line.text
        xmlns = bool(_XMLNS.search(text)) if ("xmlns" in line.low or "schema" in line.low
                                              or "context" in line.low) else False
        pos = text.find("://")
        while pos >= 0:
            nxt = pos + 3
            scheme = _SCHEME_BEFORE.search(text, max(0, pos - 5), pos)
            if scheme and (scheme.start() == 0 or not text[scheme.start() - 1].isalnum()):
                rest = _URL_REST.match(text, nxt)
                if rest:
                    nxt = rest.end()  # continue after the URL: each character read once
                    hit = _url_hit(st, line, scheme.start(), text[scheme.start() : nxt],
                                   plain, xmlns)
                    if hit is not None:
                        yield hit
            pos = text.find("://", nxt)
    # Plain http: one finding per host and file, the other lines named in the message.
    for host, spots in plain.items():
        no, col, url = spots[0]
        others = sorted({s[0] for s in spots[1:]} - {no})
        more = f" (also on lines {', '.join(map(str, others[:6]))})" if others else ""
        yield Hit(
            "SF507", no, col, Severity.low,
            f"`{short(url)}` uses plain http{more}, so anything on the path can alter what "
            f"the agent downloads or reads; use https://{host}/ if the site supports it.",
        )


def _url_hit(
    st: SecurityText,
    line: Line,
    col: int,
    url: str,
    plain: dict[str, list[tuple[int, int, str]]],
    xmlns: bool,
) -> Hit | None:
    url = url.rstrip(".,;:!?")
    host = _host(url)
    if not host:
        return None
    ip = _ip(host)
    plain_http = url[:5].lower() == "http:"
    if ip is None and not plain_http and not (
        _on_list(host, _SHORTENERS) or _on_list(host, _PASTE_AND_CAPTURE)
    ):
        return None  # an ordinary https link: the common case, decided cheaply
    if is_placeholder_host(host):
        return None
    if ip is not None or _on_list(host, _SHORTENERS) or _on_list(host, _PASTE_AND_CAPTURE):
        if ip is not None:
            why = "points at a raw public IP address, which says nothing about who runs it"
        elif _on_list(host, _SHORTENERS):
            why = "is a link shortener that hides where it leads"
        else:
            why = "is a paste, tunnel or request-capture site often used to stage or collect data"
        # A table of indicators, a "never fetch" warning: text about the URL, not a link.
        verdict = weigh(st, line, col, Severity.medium, col + len(url))
        return Hit(
            "SF507", line.no, col + 1, verdict.severity, downgraded(
                f"`{short(url)}` {why}; link to the named, official source instead.",
                Severity.medium, verdict),
        )
    if plain_http and not xmlns and not _on_list(host, _IDENTIFIER_HOSTS):
        plain.setdefault(host, []).append((line.no, col + 1, url))
    return None
