"""SF122's and SF123's shortcuts find what the full searches find (issue 14)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.correctness.portable_paths import _HOME_PATH, _head_before_backslash, _home_paths
from tests.hypothesis_budget import examples

PIECES = ["/Users/", "/home/", "/mnt/c/Users/", "C:\\Users\\", "C:\\\\Users\\\\", "D:/Users/",
          "Users", "alice", "bob.x", "user", "~", ".", "-", " ", "\n", "/", "\\", ":", "`",
          "c", "x:", "home", "/mnt/", "$", "%", "ada", "2819c223"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)


@given(TEXT)
@settings(max_examples=examples(2000), deadline=None)
def test_home_paths_are_the_matches_finditer_finds(text):
    assert [m.span() for m in _home_paths(text)] == [m.span() for m in _HOME_PATH.finditer(text)]


HEADS = (".\\", "assets\\", "references\\", "scripts\\", "templates\\")


@given(st.lists(st.sampled_from(["scripts", "\\", ".", "assets", "x", "\\n", " ", "refs"]),
                max_size=90).map("".join))
@settings(max_examples=examples(1000), deadline=None)
def test_a_head_is_found_at_the_backslashes_as_by_searching(text):
    assert _head_before_backslash(text, HEADS) == any(h in text for h in HEADS)
