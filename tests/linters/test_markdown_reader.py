"""The Markdown reader's shortcuts give what their regular-expression definitions give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.text.markdown import _HEADING, MarkdownDoc, _atx_heading
from tests.hypothesis_budget import examples

LINE = st.lists(st.sampled_from(["#", "#", " ", "\t", "x", "y z", "\u3000", "é"]), max_size=14).map("".join)


@given(LINE)
@settings(max_examples=examples(3000), deadline=None)
def test_atx_heading_matches_its_regex(line):
    m = _HEADING.match(line)
    expected = (len(m.group(1)), m.group(2).strip()) if m else None
    got = _atx_heading(line)
    assert (got and (got[0], got[1].strip())) == expected


def test_headings_fences_and_prose_of_a_small_document():
    doc = MarkdownDoc(
        "# Title #\n\nProse.\n\n```sh\n# not a heading\n```\n- item\n    indented\n## Next\n"
    )
    assert [(h.line, h.level, h.text) for h in doc.headings] == [(1, 1, "Title"), (10, 2, "Next")]
    assert [(f.start, f.end, f.lang, f.body) for f in doc.fences] == [(5, 7, "sh", ("# not a heading",))]
    assert [no for no, _ in doc.prose_lines()] == [1, 2, 3, 4, 8, 9, 10]
