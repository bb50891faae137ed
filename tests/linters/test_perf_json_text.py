"""The lint document's JSON text is exactly `json.dumps(doc, indent=2, ensure_ascii=False)`."""

from __future__ import annotations

import json
from enum import Enum

from hypothesis import given, settings
from hypothesis import strategies as st

from skillforge.formats.json_text import dumps_indented
from tests.hypothesis_budget import examples

LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
          | st.text(st.characters(), max_size=12))
DOCS = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                    | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


@given(DOCS, st.sampled_from([0, 1, 2, 4]))
@settings(max_examples=examples(1500), deadline=None)
def test_the_text_is_what_json_dumps_gives(doc, indent):
    assert dumps_indented(doc, indent) == json.dumps(doc, indent=indent, ensure_ascii=False)


class Colour(str, Enum):
    red = "red"


def test_other_types_are_left_to_json_dumps():
    for doc in ({"a": Colour.red}, {1: "x"}, {"t": True, 2.5: None}, [1, {"k": (1, 2)}]):
        assert dumps_indented(doc) == json.dumps(doc, indent=2, ensure_ascii=False)
    assert dumps_indented({"é": "naïve ✓ \u2028 \x00"}) == '{\n  "é": "naïve ✓ \u2028 \\u0000"\n}'
