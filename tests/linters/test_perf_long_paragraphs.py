"""SF116 on a paragraph holding thousands of paths: linear, and the same answers.

A generated index can put tens of thousands of paths in one paragraph (issue 14: such a
SKILL.md took tens of seconds, each path searching its whole sentence again). The judgement
now searches each sentence once (`linters.text.paths.matches_before.MatchesBefore`) and finds
lines, link spans and headings by bisection; these tests check each shortcut against the
search it replaces, on random texts, and time a generated worst case.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.engine import lint_skill
from linters.correctness.links import _link_spans, _Spans
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import (
    _COUNTER_EXAMPLE,
    _HEDGE_BEFORE,
    _LINK_EXAMPLE,
    _READ_VERB,
    CLAUSE_CUT,
    Paragraph,
    line_col,
)
from linters.text.paths.matches_before import MatchesBefore
from linters.text.paths.project_paths import _ALREADY_HAS
from linters.text.sections import in_changelog, section_title
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from tests.hypothesis_budget import examples

# Words the four patterns look for (and near misses), runs of spaces and punctuation that
# their `\s+` and `\W*$` parts cross, and sentence and clause ends.
PIECES = ["e.g.", "eg", "for example", "like", "like this", "avoid", "bad", "badge", "new",
          "your", "Bob's", "'s", "’s", "forward", "slash", "slashes", "path", "format",
          "formatted", "style", "syntax", "instead of", "rather than", "see", "refer", "to",
          "read", "never", "don't", "do not", "✓", "✗", " ", "   ", "\t", " - ", ".", ". ",
          ",", ";", ":", "(", ")", "...", "!!", "\n", "`x`", "scripts/a.py", "word", "a", "-",
          " " * 24, "-- ** -- ** -- ** --", "\t" * 9,
          # matches that run through a long non-word run, whose start is far before the end
          "Bob's" + " " * 24, "it's -- ** -- ** --", "path" + " " * 24 + "style",
          "forward" + "\t" * 9 + "slash", "refer" + " " * 24 + "to", "format" + " " * 24 + "as"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map(" ".join)
PATTERNS = st.sampled_from([_HEDGE_BEFORE, _LINK_EXAMPLE, _READ_VERB, _COUNTER_EXAMPLE])


@given(TEXT, PATTERNS, st.sampled_from([(8, 9), (9, 12), (12, 16), (48, 16)]), st.data())
@settings(max_examples=examples(1200), deadline=None)
def test_one_search_per_sentence_answers_as_each_prefix_search(text, rx, sizes, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    window, head = sizes
    # The smallest sizes that meet `MatchesBefore`'s conditions, so that the shortcut is taken
    # on short texts too.
    small = type("Small", (MatchesBefore,), {"WINDOW": window, "HEAD": head})
    before = small(rx, text, start, end)
    for offset in range(start, end + 1):
        assert before.found(offset) == (rx.search(text, start, offset) is not None), (
            text, rx.pattern[:30], start, offset)


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=12))
@settings(max_examples=examples(300), deadline=None)
def test_spans_hold_an_offset_exactly_when_one_of_them_does(raw):
    spans = [(a, a + n) for a, n in raw]
    held = _Spans(list(spans))
    for offset in range(-1, 85):
        assert (offset in held) == any(a <= offset < b for a, b in spans)


@given(TEXT)
@settings(max_examples=examples(300), deadline=None)
def test_a_paragraph_places_offsets_as_line_col_does(text):
    doc = MarkdownDoc(text.replace("\n", " ") + "\n" + text)
    for idx in range(len(doc.lines)):
        if not doc.lines[idx].strip() or doc.is_code(idx + 1):
            continue
        para = Paragraph(doc, idx)
        for offset in range(len(para.text)):
            i, col = line_col(para.text, offset)
            assert para.where(offset) == (para.first + i, col, para.lines[i])


@given(TEXT)
@settings(max_examples=examples(300), deadline=None)
def test_the_clause_before_a_command_is_cut_where_it_was(text):
    para = Paragraph(MarkdownDoc(text.replace("\n", " ")), 0)
    for offset in range(len(para.text)):
        start, _end = para.sentence(offset)
        cut = max((m.end() for m in CLAUSE_CUT.finditer(para.text, start, offset)),
                  default=start)
        expected = bool(_COUNTER_EXAMPLE.search(para.text, cut, offset))
        assert para.counter_example(offset) == expected, (text, offset)


@given(st.lists(st.sampled_from(["# Changelog", "## v1.2", "## Usage", "### Notes", "text",
                                 "", "Title", "=====", "-----", "# History", "### Fixed",
                                 "## Database migrations"]), max_size=25))
@settings(max_examples=examples(300), deadline=None)
def test_headings_above_a_line_are_found_as_before(lines):
    doc = MarkdownDoc("\n".join(lines))
    for no in range(0, len(lines) + 2):
        title = ""
        for h in doc.headings:
            if h.line > no:
                break
            title = h.text
        assert section_title(doc, no) == title
        assert in_changelog(doc, no) == _in_changelog_by_scan(doc, no)


def _in_changelog_by_scan(doc: MarkdownDoc, line_no: int) -> bool:
    changelog = re.compile(r"^(?:change\s*log|history|v?\d+\.\d+(?:\.\d+)?)$", re.I)
    above = [h for h in doc.headings if h.line <= line_no]
    if not above:
        return False
    own = above[-1]
    text = own.text.strip(" #*_`")
    if changelog.match(text):
        return True
    if text.lower() != "fixed":
        return False
    parents = [h for h in above[:-1] if h.level < own.level]
    return bool(parents) and bool(changelog.match(parents[-1].text.strip(" #*_`")))


def test_link_spans_of_a_line_match_the_scan():
    line = "see [a](x.md) and <https://e.org/x> then https://e.org/y `scripts/a.py` [b](y)"
    spans = _Spans(_link_spans(line))
    for i in range(len(line)):
        by_scan = any(a <= i < b for a, b in _link_spans(line))
        assert (i in spans) == by_scan


def _generated_index(n: int) -> str:
    parts = []
    for i in range(n):
        parts.append([f"See `scripts/missing_{i}.py` now", f"then read references/m_{i}.md and",
                      f"[doc {i}](references/gone_{i}.md) or", f"run ./tools/x_{i}.sh then",
                      f"removed `scripts/old_{i}.py`;"][i % 5])
    # One paragraph on one line, then the same as one paragraph of n lines; then a
    # changelog section, whose entries are reported as warnings.
    return ("---\nname: index\ndescription: A generated index. Use when testing.\n---\n\n"
            "# Index\n\n" + " ".join(parts) + "\n\n" + "\n".join(parts) + "\n\n"
            "## Changelog\n\n" + "\n".join("- " + p for p in parts[:100]) + "\n")


@pytest.mark.parametrize("n", [1000])
def test_thousands_of_broken_paths_in_one_paragraph_lint_in_linear_time(tmp_path: Path, n):
    (tmp_path / "SKILL.md").write_text(_generated_index(n), encoding="utf-8")
    report = lint_skill(tmp_path, LintConfig(scripts=False))
    broken = [f for f in report.findings if f.rule == "SF116"]
    # Twice each of the three kinds the text presents as files of the skill (not the
    # removed file, nor ./tools outside it); the changelog's entries as warnings.
    kept = len([i for i in range(n) if i % 5 in (0, 1, 2)])
    entries = {13 + n + i for i in range(100) if i % 5 in (0, 1, 2)}
    assert len(broken) == 2 * kept + len(entries)
    assert {f.line for f in broken} == {8, *range(10, 10 + n), *entries} - {
        10 + i for i in range(n) if i % 5 in (3, 4)}
    assert {f.line for f in broken if f.severity == Severity.warning} == entries
    # Each path searched its whole sentence before: 1,000 paths took ~13 s of CPU, 16 times
    # what 250 took; now ~1.3 s, about 5 times. A ratio of two CPU times in one process, not
    # a time limit: a loaded machine (CI's parallel workers) slows both alike.
    small = tmp_path / "small"
    small.mkdir()
    (small / "SKILL.md").write_text(_generated_index(n // 4), encoding="utf-8")
    ratio = _cpu(tmp_path) / _cpu(small)
    assert ratio < 10, f"{n} paths cost {ratio:.1f} times what {n // 4} cost (linear: ~4-5)"


def _cpu(skill: Path) -> float:
    """The least CPU time of two lints of `skill`."""
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        lint_skill(skill, LintConfig(scripts=False))
        best = min(best, time.process_time() - t0)
    return best


# `Paragraph.said_before` puts any pattern through the one-search memo; the project-path
# reading asks it "does the repository already have ...?" before each path. Its words, near
# misses and long runs between them, so the memo's window has to reach back.
_ALREADY_PIECES = ["repo", "repository", "project", "monorepo", "repos", "already", "has",
                   "have", "includes", "provides", "has-", "the", "Repo already has",
                   "repo" + " " * 24 + "already", "already" + "\t" * 9 + "contains", "."]


@given(st.lists(st.sampled_from(PIECES + _ALREADY_PIECES), max_size=40).map(" ".join))
@settings(max_examples=examples(600), deadline=None)
def test_said_before_answers_as_a_search_of_the_sentence_up_to_the_path(text):
    para = Paragraph(MarkdownDoc(text.replace("\n", " ")), 0)
    for offset in range(len(para.text) + 1):
        start, _end = para.sentence(offset)
        expected = _ALREADY_HAS.search(para.text, start, offset) is not None
        assert para.said_before(_ALREADY_HAS, offset) == expected, (text, offset)
