"""The drafting and refining schemas state what the validation checks (2 to 4 assertions,
the asked-for number of cases of each kind, one edit per field, values of the field's
type, scripts and input files of the skill), so an answer decoded under the schema is
accepted; hosted APIs get the strict-compatible shape."""

from __future__ import annotations

import jsonschema
import pytest

from skillforge.authoring.drafting import draft_schema, parse_draft
from skillforge.authoring.refining import _parse_refine, _session_case_schema, refine_schema
from skillforge.models.skill_loader import load_skill
from skillforge.providers.base import schema_is_strict
from tests.conftest import SAMPLE_SKILLS

SCRIPTS = ["scripts/summarize.py"]
INPUTS = ["evals/files/sales.csv"]


def drafted(kind: str, assertions: int = 2, script: str | None = None) -> dict:
    return {"id": "x", "kind": kind, "prompt": "p", "ground_truth": "g",
            "expected_behavior": ["a"] * assertions, "expected_script": script, "files": [],
            "rationale": ""}


def test_draft_schema_asks_for_each_kind_by_name_and_count():
    schema = draft_schema(["explicit", "negative"], 2, scripts=SCRIPTS, inputs=INPUTS)
    cases = schema["properties"]["cases"]
    assert cases["required"] == ["explicit", "negative"]
    explicit = cases["properties"]["explicit"]
    assert (explicit["minItems"], explicit["maxItems"]) == (2, 2)
    item = explicit["items"]["properties"]
    assert item["kind"]["enum"] == ["explicit"]
    assert (item["expected_behavior"]["minItems"], item["expected_behavior"]["maxItems"]) == (2, 4)
    assert item["expected_script"]["enum"] == [*SCRIPTS, None]
    assert item["files"]["items"]["enum"] == INPUTS
    negative = cases["properties"]["negative"]["items"]["properties"]
    assert negative["expected_script"]["type"] == "null"
    assert schema_is_strict(schema)


def test_a_keyed_draft_within_the_schema_is_accepted():
    kinds = ["explicit", "negative"]
    answer = {"cases": {"explicit": [drafted("explicit", 4, SCRIPTS[0])],
                        "negative": [drafted("negative", 2)]}}
    jsonschema.validate(answer, draft_schema(kinds, 1, scripts=SCRIPTS, inputs=INPUTS))
    parsed = parse_draft(answer, kinds, 1, strict_counts=True)
    assert [c.kind for c in parsed.cases] == kinds


@pytest.mark.parametrize("assertions", [1, 5])
def test_assertion_counts_the_validation_refuses_the_schema_refuses(assertions):
    answer = {"cases": {"explicit": [drafted("explicit", assertions)]}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(answer, draft_schema(["explicit"], 1))
    with pytest.raises(ValueError, match="2 to 4"):
        parse_draft(answer, ["explicit"], 1, strict_counts=True)


def test_refine_schema_has_one_nullable_edit_per_field():
    schema = refine_schema()
    edits = schema["properties"]["edits"]
    assert edits["required"] == ["prompt", "ground_truth", "expected_behavior",
                                 "expected_script"]
    assert schema_is_strict(schema)
    answer = {"observations": "", "edits": {
        "prompt": None, "ground_truth": None, "expected_script": None,
        "expected_behavior": {"value": ["Runs the script"], "rationale": "",
                              "source": "model", "evidence_steps": []}}}
    jsonschema.validate(answer, schema)
    parsed = _parse_refine(answer, 1)
    assert [(e.field, e.value) for e in parsed.edits] == [("expected_behavior",
                                                           ["Runs the script"])]
    answer["edits"]["prompt"] = {"value": ["not", "text"], "rationale": "", "source": "model",
                                 "evidence_steps": []}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(answer, schema)
    with pytest.raises(ValueError, match="prompt"):
        _parse_refine(answer, 1)


def test_a_case_from_a_session_offers_only_the_skills_scripts_and_inputs():
    skill = load_skill(SAMPLE_SKILLS / "csv-insights")
    item = _session_case_schema(skill)["properties"]
    assert "scripts/summarize.py" in item["expected_script"]["enum"]
    assert all(p.startswith("evals/files/") for p in item["files"]["items"]["enum"])
    assert item["ground_truth_source"]["enum"] == ["model", "trajectory"]
