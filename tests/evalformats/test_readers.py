"""Each format's fixture, written from its public documentation, read into skillforge's cases."""

from __future__ import annotations

from pathlib import Path

from skillforge.evalformats import registry

FIXTURES = Path(__file__).parents[1] / "fixtures" / "evalformats"


def read(sub: str):
    got = registry.read(FIXTURES / sub)
    assert got.issues == [] and got.evalset is not None
    return got.evalset


def test_formats_are_detected():
    found = {sub: registry.detect(FIXTURES / sub) for sub in (
        "cc-plugin-eval", "cc-plugin-eval/evals/no-trigger", "waza", "vally",
        "vally/model-comparison.experiment.yaml", "skill-creator", "nvidia", "harbor")}
    assert found == {
        "cc-plugin-eval": "cc-plugin-eval", "cc-plugin-eval/evals/no-trigger": "cc-plugin-eval",
        "waza": "waza", "vally": "vally", "vally/model-comparison.experiment.yaml": "vally",
        "skill-creator": "skill-creator", "nvidia": "nvidia", "harbor": "harbor"}


def test_plugin_eval_prompt_md_layout_with_fixture_script():
    case = read("cc-plugin-eval").case("monthly-revenue")
    assert case.kind == "explicit" and case.expected_skill == "csv-insights"
    assert case.prompt.startswith("Use the CSV insights skill") and case.prompt.endswith("summary.md.")
    assert case.expected_behavior == ["summary.md holds one table row per month, with the "
                                      "totals the script printed."]
    assert [c["type"] for c in case.checks] == ["tool_order", "file_exists", "regex"]
    assert case.checks[2]["weight"] == 2
    assert case.extra["setup_script"].startswith("#!/bin/sh")
    assert case.extra["max_turns"] == 20 and case.extra["tags"] == ["smoke"]


def test_plugin_eval_case_yaml_layout_negative():
    case = read("cc-plugin-eval").case("no-trigger")
    assert case.is_negative and case.expected_skill is None
    assert case.ground_truth == "sales.jsonl with one JSON object per order"
    assert case.expected_behavior == ["The reply says where the JSON Lines file was written."]
    targets = [c["target"] for c in case.checks]
    assert targets == ["trace", {"source": "file", "path": "sales.jsonl"}]


def test_waza_tasks_and_graders():
    evalset = read("waza")
    assert evalset.skill_name == "csv-insights" and evalset.extra["config"]["trials_per_task"] == 3
    case = evalset.case("monthly-revenue")
    assert case.files == ["sales.csv"] and case.expected_skill == "csv-insights"
    assert case.expected_behavior == ["The table has one row per month."]
    assert {c["type"] for c in case.checks} == {"regex", "file_exists", "tool_used", "tool_order"}
    assert case.extra["waza_graders"][0]["type"] == "code"  # kept, waza-only
    assert evalset.case("convert-jsonl").is_negative


def test_vally_stimuli_and_experiment():
    spec = read("vally")
    case = spec.case("monthly-revenue")
    assert case.files == ["fixtures/sales.csv"] and case.extra["setup_script"] == "mkdir -p out"
    assert case.expected_skill == "csv-insights" and case.extra["vally_graders"] == [
        {"type": "completed"}]
    neg = spec.case("convert-jsonl")
    assert neg.is_negative and neg.checks == [{"type": "regex", "pattern": r"summarize\.py",
                                               "match": "not_contains"}]
    exp = read("vally/model-comparison.experiment.yaml")
    assert [c.id for c in exp.cases] == ["monthly-revenue", "convert-jsonl"]
    assert exp.extra["vally_experiment"]["baseline"] == "without-skill"


def test_evals_json_dialects_and_harbor():
    assert read("skill-creator").cases[0].expected_behavior[0] == "The output has one row per month"
    nvidia = read("nvidia")
    assert [c.is_negative for c in nvidia.cases] == [False, True]
    [task] = read("harbor").cases
    assert task.id == "monthly-revenue" and task.grader == "monthly-revenue/tests/test.sh"
