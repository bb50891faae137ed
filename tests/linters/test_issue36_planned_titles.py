"""SF116 under a heading: a section of things not written yet ("## To do", "## Roadmap",
"## Future loaders") softens a broken link to a warning, but a heading that only contains
the words "to do" inside a question or an instruction ("## What to do", "## How to do a
release", "## What to do if the build fails") is a section of steps the agent follows, so a
broken link there stays an error.

Found in a held-out part's marketplace skill: its "## What to do" steps link a schema that was
missing, and the finding was softened as if it were a plan. Every skill text here is written
for this file.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.text.paths.path_owner import _PLANNED_TITLE
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Expense reports

{heading}

1. Validate the report against [the schema](schemas/report.schema.json).
2. File it.
"""


def _sf116(tmp_path, heading: str):
    skill = make_skill(tmp_path, _BODY.format(heading=heading))
    return found(skill, "SF116"), severe(skill, "SF116")


def test_a_broken_link_under_what_to_do_steps_stays_an_error(tmp_path):
    for n, heading in enumerate(("## What to do", "## How to do a month-end close",
                                 "## What to do if the export fails", "### When to do this",
                                 "## Things you need to do first")):
        every, errors = _sf116(tmp_path / str(n), heading)
        assert len(every) == 1 and len(errors) == 1, (heading, every)


def test_a_broken_link_in_a_to_do_list_is_softened(tmp_path):
    for n, heading in enumerate(("## To do", "## TODO", "## To do (next release)",
                                 "## Roadmap", "## Future work", "## Nice to have")):
        every, errors = _sf116(tmp_path / str(n), heading)
        assert len(every) == 1 and errors == [], (heading, every)


_ASKING = st.sampled_from(["What", "How", "When", "Where", "Why", "Which steps", "Things",
                           "What else", "Anything else"])
_TAIL = st.sampled_from(["", " next", " if the build fails", " before a release",
                         " with the export", " first"])


@settings(max_examples=examples(200))
@given(asking=_ASKING, tail=_TAIL, hashes=st.integers(1, 4), case=st.sampled_from(
    [str.lower, str.upper, str.title, lambda s: s]))
def test_to_do_inside_a_phrase_is_never_a_planned_section(asking, tail, hashes, case):
    title = case(f"{asking} to do{tail}")
    assert not _PLANNED_TITLE.search(title), title


@settings(max_examples=examples(200))
@given(lead=st.sampled_from(["", "1. ", "- ", "**", "✅ "]), tail=_TAIL,
       case=st.sampled_from([str.lower, str.upper, str.title, lambda s: s]))
def test_to_do_as_the_list_title_is_a_planned_section(lead, tail, case):
    title = case(f"{lead}To do{tail}")
    assert _PLANNED_TITLE.search(title), title
