"""The trial judge's answer schema states what the validation checks: each assertion
answered exactly once (an object keyed by number), cited steps that exist (an enum of the
trajectory's step ids), evidence present, scores 0-10. An answer a grammar-constrained
decoder writes under it is therefore always accepted."""

from __future__ import annotations

import json

import jsonschema
import pytest

from skillforge.metrics.judged import parse_answer
from skillforge.metrics.judged_prompts import STEP_ENUM_LIMIT, response_schema, step_id_schema
from skillforge.providers.base import schema_is_strict
from tests.metrics.builders import activate, bash, case, trajectory

ASSERTIONS = ["Reads SKILL.md first", "Runs scripts/summarize.py", "Writes report.md"]


def trial():
    return trajectory(activate("csv-insights"), bash("python3 summarize.py sales.csv", "Jan 1"),
                      final="Jan 1.", task="Report revenue by month.")


def smallest_answer(steps: list[int], assertions: int, goal: bool) -> dict:
    """The least a constrained decoder can write: empty texts, one evidence item, 'no'."""
    evidence = [{"step_id": steps[0], "quote": ""}]
    data = {"accuracy": {"score": 0, "rationale": "", "evidence": evidence}}
    if goal:
        data["goal"] = {"verdict": "not_met", "rationale": "", "evidence": evidence}
    if assertions:
        data["behaviors"] = {str(i): {"answer": "yes", "step_id": steps[-1], "quote": "",
                                      "rationale": ""} for i in range(1, assertions + 1)}
    return data


@pytest.mark.parametrize(("goal", "assertions"), [(True, 3), (False, 1), (True, 0)])
def test_what_the_schema_allows_the_validation_accepts(goal, assertions):
    traj = trial()
    steps = [s.step_id for s in traj.steps]
    the_case = case(ground_truth="Jan 1" if goal else None,
                    expected_behavior=ASSERTIONS[:assertions])
    schema = response_schema(goal, assertions, steps)
    answer = smallest_answer(steps, assertions, goal)

    jsonschema.validate(answer, schema)
    parsed = parse_answer(json.dumps(answer), traj, the_case)

    assert [b.index for b in parsed.behaviors] == list(range(1, assertions + 1))
    assert schema_is_strict(schema)


def test_what_the_validation_refuses_the_schema_refuses():
    traj = trial()
    steps = [s.step_id for s in traj.steps]
    schema = response_schema(True, 2, steps)
    for wrong in (
        {"accuracy": {"evidence": []}},  # evidence is required
        {"accuracy": {"score": 11}},
        {"accuracy": {"evidence": [{"step_id": max(steps) + 1, "quote": ""}]}},  # no such step
        {"behaviors": {"1": None}},  # an assertion left out
    ):
        answer = smallest_answer(steps, 2, True)
        for key, value in wrong.items():
            if key == "behaviors":
                del answer["behaviors"]["1"]
            else:
                answer[key] = {**answer[key], **value}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(answer, schema)


def test_a_list_of_behaviors_is_still_read():
    traj = trial()
    answer = smallest_answer([s.step_id for s in traj.steps], 2, False)
    answer["behaviors"] = [{"index": int(k), **v} for k, v in answer["behaviors"].items()]
    parsed = parse_answer(json.dumps(answer), traj,
                          case(expected_behavior=ASSERTIONS[:2]))
    assert [b.index for b in parsed.behaviors] == [1, 2]


def test_long_trajectories_cite_a_range_instead_of_an_enum():
    many = list(range(1, STEP_ENUM_LIMIT + 2))
    assert step_id_schema(many, "x") == {"type": "integer", "description": "x", "minimum": 1,
                                         "maximum": STEP_ENUM_LIMIT + 1}
    assert step_id_schema([1, 2, 3], "x")["enum"] == [1, 2, 3]
