"""Searching only where a match can start finds exactly what `re.search` finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters import subjects
from linters.reliability import completeness, wording
from linters.discoverability import scope
from linters.text.literal_search import (
    any_match,
    case_sensitive_twin,
    finditer_at_words,
    has_any,
    search_at_words,
    search_lowered,
    spans,
)
from tests.hypothesis_budget import examples

# (regex, the words each of its matches starts with) as the rules use them.
SEARCHES = [
    (completeness._EXAMPLE_PROSE, completeness._EXAMPLE_PROSE_STARTS),
    (completeness._IO_PAIR, completeness._IO_PAIR_STARTS),
    (scope._SKILL_POINTER, scope._POINTER_STARTS),
]

PIECES = [
    "As of 2024", "until next year", "coming soon", "MCP", "mcp__x__y", "Model Context Protocol",
    "**Limitations:**", "- **Known issues**", "VERIFY", "Make Sure", "ÉTÉ", "ẞ", "\u0130",
    "verify", "Validate", "CHECKING", "test", "confirm", "assert", "compare", "ensure", "make sure",
    "sanity", "inspect", "expected output", "should now see", "for example", "For instance", "e.g.",
    "e. g.", "examples:", "Example usage", "sample input", "Input:", "before:", "User:", "Output:",
    "after:", "result:", "use the `gget` skill for", "try", "prefer", "see", "switch to", "for x, use",
    "instead, use the y skill", "out of scope", "non-goal", "not covered", "wrong tool", "skip this skill",
    "not", "n't", "n’t", "never", "use this", "need to use it.", "retest", "contest", "xverify",
    "\u0130nput", "\u0131nput", "u\u017fer", "che\u212ak", "é", "word", " ", " ", "\n", "\n\n", ":", ".",
]


@given(st.lists(st.sampled_from(PIECES), max_size=30))
@settings(max_examples=examples(1500), deadline=None)
def test_search_at_words_agrees_with_re_search(pieces):
    text = "".join(pieces)
    for rx, starts in SEARCHES:
        expected = rx.search(text)
        got = search_at_words(rx, text, starts)
        assert (got and (got.span(), got.groups())) == (expected and (expected.span(), expected.groups()))
        low = text.lower()
        got = search_at_words(rx, low, starts)
        expected = rx.search(low)
        assert (got and got.span()) == (expected and expected.span())


def test_the_leftmost_match_is_returned_even_when_an_earlier_start_fails():
    rx = re.compile(r"\b(?:check|test)s?\b", re.IGNORECASE)
    m = search_at_words(rx, "contest, then Tests and checks", ("check", "test"))
    assert m is not None and m.group(0) == "Tests"


@pytest.mark.parametrize("text", ["U\u017fe it", "\u0130NPUT"])
def test_letters_that_fold_to_ascii_are_left_to_the_regex(text):
    rx = re.compile(r"use|input", re.IGNORECASE)
    assert search_at_words(rx, text, ("use", "input")) is not None
    assert has_any(text, ("use", "input"))


def test_has_any_is_false_only_when_no_word_is_there():
    assert not has_any("Nothing to see here", ("limitation", "caveat"))
    assert has_any("Known CAVEATS", ("limitation", "caveat"))


def test_menu_prefilter_never_hides_a_choice():
    lines = [
        "You can use pdfplumber or pypdf.", "Either run it or not.", "Choose between A and B.",
        "There are several ways to do it.", "Use `a`, `b` or `c`.", "Pick one of these.",
        "Write it in red or blue.", "Y\u0131ou can use x or y",
    ]
    for line in lines:
        if wording._CHOICE.search(line):
            assert wording._may_offer_choice(line), line
    assert not wording._may_offer_choice("Write it in red or blue.")


CHOICE_PIECES = [
    "you", "You ", "can ", "could ", "may ", "might ", "either ", "also ", "use ", "choose ", "pick ",
    "run ", "try ", "call ", "select ", "go with ", "install ", "the ", "`x`", "`-q`", ", ", " or ",
    "between ", "one of ", "there are ", "several ", "ways ", "options ", "tools ", "either", "or",
    "\u0131", "\u017f", "x ", ". ",
]


@given(st.lists(st.sampled_from(CHOICE_PIECES), max_size=20))
@settings(max_examples=examples(1500), deadline=None)
def test_menu_prefilter_passes_every_line_the_regex_matches(pieces):
    line = "".join(pieces)
    if wording._CHOICE.search(line):
        assert wording._may_offer_choice(line), line


CASELESS = [completeness._VERIFY, completeness._LIMITS_LABEL, completeness._IO_PAIR,
            completeness._EXAMPLE_PROSE, subjects._MCP, wording._TIME_SENSITIVE]


@given(st.lists(st.sampled_from(PIECES), max_size=30))
@settings(max_examples=examples(1500), deadline=None)
def test_searching_lower_cased_text_agrees_with_ignorecase(pieces):
    text = "".join(pieces)
    for rx in CASELESS:
        assert case_sensitive_twin(rx) is not None
        assert search_lowered(rx, text) == (rx.search(text) is not None)
        assert spans(rx, text) == [m.span() for m in rx.finditer(text)]


def test_a_pattern_with_capitals_of_its_own_keeps_ignorecase():
    assert case_sensitive_twin(re.compile(r"RFC\s*2119", re.IGNORECASE)) is None
    assert case_sensitive_twin(re.compile(r"\bfoo\S+", re.IGNORECASE)) is not None
    assert case_sensitive_twin(re.compile(r"foo")) is None  # not case-insensitive


HEADING_PATTERNS = [completeness._EXAMPLE_HEADING, completeness._STEPS_HEADING,
                    completeness._LIMITS_HEADING, subjects._WORKFLOW_HEADING,
                    *scope._SCOPE_HEADING]
HEADING_WORDS = ["Examples", "Quick Start", "Workflow", "STEPS", "Known Issues", "Limitations",
                 "Troubleshooting", "When not to use", "Scope", "Boundaries & limits", "Related",
                 "skills", "Overview", "\u0130nstall", "\u017fcope", " ", "!", "##"]


@given(st.lists(st.lists(st.sampled_from(HEADING_WORDS), max_size=4).map(" ".join), max_size=6))
@settings(max_examples=examples(1500), deadline=None)
def test_heading_matches_agree_with_ignorecase(headings):
    lows = tuple(h.lower() for h in headings)
    safe = all(len(h) == len(low) and not any(c in h for c in "\u0130\u0131\u017f\u212a")
               for h, low in zip(headings, lows))
    for rx in HEADING_PATTERNS:
        expected = any(rx.search(h) for h in headings)
        assert any_match(rx, headings, lows if safe else None) == expected


SHOUT_PIECES = ["ALWAYS", "NEVER", "MUST", "NOT", "SHALL", "DO", "DON'T", "TODO", "DOX", "MUSTNOT",
                "DO  NOT", "_", "x", "1", "é", " ", "\n", "\t"]


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.sampled_from(SHOUT_PIECES), max_size=12))
def test_finditer_at_words_agrees_with_finditer(pieces):
    text = "".join(pieces)
    rx = wording._SHOUT
    expected = [(m.start(), m.group(0)) for m in rx.finditer(text)]
    got = [(m.start(), m.group(0)) for m in finditer_at_words(rx, text, wording._SHOUT_STARTS)]
    assert got == expected
