"""A file name is found among a text's path words exactly when the full list has it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.reliability.reachability import PathWords, _all_path_words
from tests.hypothesis_budget import examples

PIECES = ["a", "b", "_", ".", "/", "-", " ", "x.py", "lib/", "scripts/", "é", "İ", "1", "~", "{",
          "}", "$", ":", "\n", "..", "//", "run.py", "forms.md", "`"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)


@given(TEXT, st.lists(TEXT, max_size=6))
@settings(max_examples=examples(2000), deadline=None)
def test_looking_up_a_name_agrees_with_listing_every_word(text, keys):
    words = PathWords(text)
    listed = _all_path_words(text.lower())
    for key in [*keys, *sorted(listed)[:8]]:
        key = key.lower()
        assert (key in words) == (key in listed), (text, key)


def test_path_words_of_a_sentence():
    words = PathWords("Run `{baseDir}/scripts/lib/run.py` then read FORMS.md.")
    assert "scripts/lib/run.py" in words and "lib/run.py" in words and "run.py" in words
    assert "forms.md" in words and "forms" not in words and "ms.md" not in words
