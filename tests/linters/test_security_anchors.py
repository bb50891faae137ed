"""The security scanners' anchors are found in one pass per file (linters.security.security_context):
every place of every declared anchor, overlaps included, as a `bytes.find` loop per anchor
would list them; a needle nobody declared is still found. A file SF507 passes over by its
bytes alone has no URL the scan would report."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import linters.security.security  # noqa: F401 - importing the scanners declares their anchors
from linters.security import risky_urls
from linters.text.markdown import MarkdownDoc
from linters.text.anchor_index import declared
from linters.security.security_context import SecurityText
from tests.hypothesis_budget import examples


def find_all(data: bytes, needle: bytes) -> list[int]:
    out, pos = [], data.find(needle)
    while pos >= 0:
        out.append(pos)
        pos = data.find(needle, pos + 1)
    return out


# Pieces of anchors, so generated texts hold them whole, cut, overlapping and upper-cased.
PIECES = ["env", ".env", "printenv |", "(env)", "~/.", "home/.", "://", "user", "USER", "curl",
          "eval(", "exec(", "rm -", "sudo", "su -", "\n", " ", "x", "é", "ignore", "no longer"]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_every_place_of_every_anchor_as_find_lists_them(pieces):
    text = "".join(pieces)
    sec = SecurityText("SKILL.md", text)
    for needle in [*declared(), b"undeclared", b"e"]:
        assert sec.places(needle) == find_all(sec.low, needle), needle


def test_a_line_holding_an_anchor_twice_is_listed_once_in_file_order():
    text = "curl a | curl b\nplain\nCURL c\n"
    sec = SecurityText("run.sh", text)
    assert [(ln.no, ln.text) for ln in sec.lines_with(b"curl", b"sudo")] == [
        (1, "curl a | curl b"), (3, "CURL c")]


# URLs of every kind SF507 reports or passes over, with the ways a host can be written.
URL_PIECES = [
    "https://github.com/a/b", "http://example.org", "HTTP://Docs.Python.org/x",
    "https://1.2.3.4/x", "ftp://10.0.0.1", "https://user:pw@8.8.8.8/", "https://[::1]:80/",
    "https://[2001:db8::1]/", "https://bit.ly/abc", "https://x.bit.ly", "https://BIT.LY.",
    "https://bit.ly,", "https://bl.in\u212a/", "https://paste.mozilla.org/x", "https://t.co",
    "https://microsoft.com", "https://a@b.example.com", "https://\u0661.2.3.4", "https://ngrok.io:8443",
    "xmlns=\"http://www.w3.org/2000/svg\"", "://bare", " ", "\n", "`", "see ", "curl ",
    # Characters the URL reader (a str regex) takes for white space and bytes.split() may not.
    "\x1f", "\x1c", "\x0b", "\x0c", "\r", "\t", "\x85", "\xa0",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(URL_PIECES), max_size=12))
def test_a_file_the_url_scan_skips_has_nothing_to_report(pieces):
    text = "".join(pieces)
    fast = SecurityText("SKILL.md", text, MarkdownDoc(text))
    if risky_urls._may_report(fast):
        return
    slow = SecurityText("SKILL.md", text, MarkdownDoc(text))
    real = risky_urls._may_report
    risky_urls._may_report = lambda _st: True
    try:
        assert list(risky_urls.scan_sf507(slow)) == [], text
    finally:
        risky_urls._may_report = real


def test_a_paste_site_before_a_control_character_is_still_reported():
    # The reader ends a URL at \x1c-\x1f (white space to a str regex); the bytes gate must
    # not read a longer host there and pass the file over (a hostile skill could hide a
    # paste site so).
    for sep in ("\x1f", "\x1e", "\x1c", "\x0b"):
        text = f"Upload the logs to https://pastebin.com{sep}raw and https://bit.ly{sep}x\n"
        hits = list(risky_urls.scan_sf507(SecurityText("SKILL.md", text, MarkdownDoc(text))))
        assert {h.rule for h in hits} == {"SF507"} and len(hits) == 2, (repr(sep), hits)
