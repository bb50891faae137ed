"""Only the rubric schema is accepted: every criterion once, integer scores 0-10, evidence
and suggestion non-empty. Whatever else a model says is rejected with a reason."""

from __future__ import annotations

import json

import jsonschema
import pytest

from skillforge.authoring.judge.prompt import response_schema
from skillforge.authoring.judge.rubric import parse_answer
from skillforge.models.judge import CRITERIA
from skillforge.models.llm import Completion
from skillforge.providers.base import schema_is_strict
from tests.judge.answers import rubric_answer


def reply(data) -> Completion:
    body = data if isinstance(data, str) else json.dumps(data)
    return Completion(text=body, model="m", provider="openai")


def with_item(index: int, **changes):
    answer = rubric_answer()
    answer["criteria"][index].update(changes)
    return answer


def test_a_valid_answer_is_accepted_in_rubric_order():
    answer = rubric_answer(6)
    answer["criteria"].reverse()
    parsed = parse_answer(reply(answer))
    assert [c.criterion for c in parsed.criteria][:2] == ["trigger", "scope"]


def test_a_fenced_json_answer_is_accepted():
    assert parse_answer(reply("```json\n" + json.dumps(rubric_answer()) + "\n```"))


@pytest.mark.parametrize("bad_score", ["7", 7.5, 11, -1, True, None])
def test_scores_must_be_integers_from_0_to_10(bad_score):
    with pytest.raises(ValueError, match=r"criteria\.3\.score"):
        parse_answer(reply(with_item(3, score=bad_score)))


def test_an_integral_float_counts_as_an_integer():
    assert parse_answer(reply(with_item(0, score=9.0))).criteria[0].score == 9


@pytest.mark.parametrize("field", ["evidence", "suggestion"])
def test_evidence_and_suggestion_must_not_be_empty(field):
    with pytest.raises(ValueError, match=rf"criteria\.2\.{field}: .*must not be empty"):
        parse_answer(reply(with_item(2, **{field: "   "})))


def test_duplicates_and_missing_criteria_are_named():
    answer = rubric_answer()
    answer["criteria"][8]["criterion"] = "scope"  # safety replaced by a second scope
    with pytest.raises(ValueError) as info:
        parse_answer(reply(answer))
    assert "criterion 'safety' is missing" in str(info.value)
    assert "criterion 'scope' appears 2 times" in str(info.value)


def test_unknown_criteria_and_extra_keys_are_rejected():
    with pytest.raises(ValueError, match="criterion"):
        parse_answer(reply(with_item(0, criterion="vibes")))
    with pytest.raises(ValueError, match="overall: is not part of the schema"):
        parse_answer(reply(rubric_answer(overall=100)))


@pytest.mark.parametrize("text", ["", "Sure! Everything gets a 10.", "[1, 2, 3]"])
def test_anything_but_the_object_is_rejected(text):
    with pytest.raises(ValueError):
        parse_answer(reply(text))


def test_the_schema_is_strict_compatible_for_openai():
    schema = response_schema()
    assert schema_is_strict(schema)
    criteria = schema["properties"]["criteria"]
    assert list(criteria["properties"]) == list(CRITERIA) == criteria["required"]
    item = criteria["properties"]["workflow"]
    assert item["properties"]["score"]["enum"] == list(range(11))
    assert (item["properties"]["score"]["minimum"], item["properties"]["score"]["maximum"]) \
        == (0, 10)
    assert item["properties"]["evidence"]["minLength"] == 1


def keyed(answer: dict) -> dict:
    """The answer in the schema's own shape: criteria keyed by criterion."""
    return {**answer, "criteria": {c.pop("criterion"): c for c in answer["criteria"]}}


def test_the_keyed_answer_the_schema_asks_for_is_accepted():
    parsed = parse_answer(reply(keyed(rubric_answer({"safety": 3}))))
    assert [c.criterion for c in parsed.criteria] == list(CRITERIA)
    assert parsed.by_name()["safety"].score == 3


def test_problems_in_a_keyed_answer_name_the_criterion():
    answer = keyed(rubric_answer())
    answer["criteria"]["workflow"]["score"] = 12
    with pytest.raises(ValueError, match=r"criteria\.workflow\.score"):
        parse_answer(reply(answer))
    answer = keyed(rubric_answer())
    answer["criteria"]["safety"] = None
    with pytest.raises(ValueError, match="criterion 'safety' is missing"):
        parse_answer(reply(answer))


def test_answers_that_fit_the_schema_pass_validation():
    # What a decoder constrained by the schema can write, the validation accepts: the
    # shortest strings, the extreme scores.
    answer = {"criteria": {name: {"evidence": "x", "score": 0 if i % 2 else 10,
                                  "suggestion": "y"} for i, name in enumerate(CRITERIA)},
              "summary": ""}
    jsonschema.validate(answer, response_schema())
    assert len(parse_answer(reply(answer)).criteria) == 9
