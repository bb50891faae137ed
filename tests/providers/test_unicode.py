"""Whatever a model writes can be saved: no lone UTF-16 surrogate survives into a
Completion, a tool call or a parsed structured answer (tests/authoring/test_draft_cli.py
has the crash this came from, through the real SDK)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from skillforge.models.llm import Completion, ToolCall, parse_json_text, valid_unicode
from tests.hypothesis_budget import examples

# any code point, with halves of surrogate pairs drawn often (st.text leaves them out)
ANY_CHAR = st.one_of(st.characters(categories=["Cs"]),
                     st.characters(min_codepoint=0, max_codepoint=0x10FFFF, codec=None))
TEXTS = st.text(alphabet=ANY_CHAR, max_size=40)
# ... and one at least, anywhere
WITH_LONE = st.builds(lambda a, c, b: a + c + b, TEXTS, st.characters(categories=["Cs"]),
                      TEXTS)


@settings(max_examples=examples(500))
@given(WITH_LONE, TEXTS)
def test_no_lone_surrogate_reaches_what_is_saved(text, key):
    done = Completion(text=text, model="m", provider="p", reasoning=text,
                      tool_calls=[ToolCall(id="1", name="t", arguments={key: [text]},
                                           raw_arguments=text)])
    parsed = parse_json_text(json.dumps({key: text}))  # the \\udXXX spelling
    for value in (done.text, done.reasoning, json.dumps(done.tool_calls[0].arguments,
                                                       ensure_ascii=False),
                  done.tool_calls[0].raw_arguments,
                  json.dumps(parsed, ensure_ascii=False)):
        value.encode("utf-8")  # raises on a lone surrogate


@settings(max_examples=examples(500))
@given(st.text(max_size=60))
def test_valid_text_is_left_as_it_is(text):
    # st.text() draws no surrogates: every such string is valid, and must not change
    assert valid_unicode(text) == text
    assert parse_json_text(json.dumps({"k": text})) == {"k": text}


def test_a_pair_spelled_as_two_escapes_is_kept_as_its_character():
    assert parse_json_text('{"k": "\\ud83d\\ude00 \\udc89"}') == {"k": "\U0001F600 \ufffd"}
