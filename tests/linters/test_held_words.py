"""The wording rules skip the keywords SKILL.md's anchor index rules out (linters.reliability.wording
`held_words`): the prose lines they then find are the lines every keyword finds, whatever
the case, the code blocks, or the characters that lower-case to ASCII letters."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.reliability.wording import _CHOICE_KEYWORDS, _TIME_KEYWORDS, held_words, prose_view
from skillforge.models.skill import load_skill
from tests.hypothesis_budget import examples

PIECES = ["as of", "AS OF", "As\nof", "writing", "19", "20", "week", "WEE\u212a", "month",
          "year", "quarter", "release", "launched", "introduced", "announced", "deprecated",
          "shipped", "soon", "Soon", "either", "between", "one of", "There are", " or ",
          "\u0130", "é", "—", "\n", " ", "x", "```\n", "    ", "`", "#"]
ROOT = Path(tempfile.mkdtemp(prefix="held-words-")) / "skill"
ROOT.mkdir()


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_keywords_held_find_the_lines_all_keywords_find(pieces):
    md = f"---\nname: skill\ndescription: A skill.\n---\n{''.join(pieces)}\n"
    ctx = LintContext(load_skill(ROOT, overrides={"SKILL.md": md.encode()}))
    view = prose_view(ctx)
    for words in (_TIME_KEYWORDS, _CHOICE_KEYWORDS):
        assert view.lines_with(held_words(ctx, words)) == view.lines_with(words)


def test_a_keyword_the_file_lacks_is_not_searched():
    md = "---\nname: skill\ndescription: A skill.\n---\nShipped last week, as of today.\n"
    ctx = LintContext(load_skill(ROOT, overrides={"SKILL.md": md.encode()}))
    held = held_words(ctx, _TIME_KEYWORDS)
    assert {"shipped", "week", "as of"} <= set(held)
    assert not {"launched", "quarter", "soon"} & set(held)
