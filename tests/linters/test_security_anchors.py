"""The security scanners' anchors are found in one pass per file (linters.security_context):
every place of every declared anchor, overlaps included, as a `bytes.find` loop per anchor
would list them; a needle nobody declared is still found."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import linters.security  # noqa: F401 - importing the scanners declares their anchors
from linters.security_context import _DECLARED, SecurityText


def find_all(data: bytes, needle: bytes) -> list[int]:
    out, pos = [], data.find(needle)
    while pos >= 0:
        out.append(pos)
        pos = data.find(needle, pos + 1)
    return out


# Pieces of anchors, so generated texts hold them whole, cut, overlapping and upper-cased.
PIECES = ["env", ".env", "printenv |", "(env)", "~/.", "home/.", "://", "user", "USER", "curl",
          "eval(", "exec(", "rm -", "sudo", "su -", "\n", " ", "x", "é", "ignore", "no longer"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_every_place_of_every_anchor_as_find_lists_them(pieces):
    text = "".join(pieces)
    sec = SecurityText("SKILL.md", text)
    for needle in [*_DECLARED, b"undeclared", b"e"]:
        assert sec.places(needle) == find_all(sec.low, needle), needle


def test_a_line_holding_an_anchor_twice_is_listed_once_in_file_order():
    text = "curl a | curl b\nplain\nCURL c\n"
    sec = SecurityText("run.sh", text)
    assert [(ln.no, ln.text) for ln in sec.lines_with(b"curl", b"sudo")] == [
        (1, "curl a | curl b"), (3, "CURL c")]
