"""lift.json has exactly the keys of CONTRACTS.md section 8 (plus one `extra` key)."""

from __future__ import annotations

import json
import re

import pytest

from skillforge.lift.compute import compute_lift
from skillforge.models.lift import (
    LiftFileError,
    dump_lift_report,
    load_lift_report,
    parse_lift_report,
    save_lift_report,
)
from tests.conftest import SHARED
from tests.lift.builders import scores, trial

W, B = "with_skill", "baseline"

TOP = {"run_id", "skill", "agent", "model", "conditions", "n_cases", "metrics", "pass",
       "efficiency", "negative_cases", "inventory"}
METRIC = {"with", "base", "lift", "ci_low", "ci_high", "n", "positive_share", "verdict"}
PASS = {"with", "base", "g", "pass_at_k"}
NEGATIVE = {"case_id", "delta", "class"}
INVENTORY = {"trials", "ok", "error", "timeout", "missing_pairs"}


def _run(with_grader: bool):
    trials = []
    for i, (w, b) in enumerate([(0.9, 0.5), (0.4, 0.8), (0.7, 0.6)]):
        g = {"grader": 1.0 if w > b else 0.0} if with_grader else {}
        trials.append(trial(f"c{i}", W, 0, metrics=scores(w), activated=True, **g))
        trials.append(trial(f"c{i}", B, 0, metrics=scores(b), **g))
    trials.append(trial("c3", W, 0, status="error", error="boom"))
    trials.append(trial("c3", B, 0, status="timeout", metrics=scores(0.2)))
    return compute_lift(trials, run_id="run-7", skill="csv-insights", agent="builtin",
                        model="gpt-x")


def test_contract_text_lists_the_keys_this_test_checks():
    # Guard against drift: the key sets above are read off section 8's `lift.json` line.
    text = (SHARED / "CONTRACTS.md").read_text("utf-8")
    spec = re.search(r"`lift\.json`: `(\{.*?\})`", text, re.DOTALL)
    assert spec, "section 8 no longer shows the lift.json shape"
    words = set(re.findall(r"[a-z_]+", spec.group(1))) - {"m"}
    assert words == TOP | METRIC | PASS | NEGATIVE | INVENTORY


@pytest.mark.parametrize("with_grader", [False, True])
def test_lift_json_keys_exactly_as_section_8(with_grader):
    data = json.loads(dump_lift_report(_run(with_grader)))
    # one extra top-level key holds everything outside section 8
    assert set(data) == TOP | {"extra"}
    # the outcome metrics (the grader first when there is one) and overall; the process
    # metrics are use against a baseline without the skill, under extra.use
    expected_metrics = (["grader"] if with_grader else []) + [
        "accuracy", "goal_accuracy", "behavior_check", "security", "overall"]
    assert list(data["metrics"]) == expected_metrics
    assert set(data["extra"]["use"]["metrics"]) == {"skill_execution", "skill_efficiency"}
    for row in data["metrics"].values():
        assert set(row) == METRIC
    assert set(data["pass"]) == PASS
    assert set(data["pass"]["pass_at_k"]) == {"with", "base"}
    assert data["negative_cases"] and all(set(n) == NEGATIVE for n in data["negative_cases"])
    assert set(data["inventory"]) == INVENTORY
    assert data["conditions"] == ["with_skill", "baseline"]
    assert data["n_cases"] == 4
    assert data["inventory"] == {"trials": 8, "ok": 6, "error": 1, "timeout": 1,
                                 "missing_pairs": 1}
    # c1 lost 0.4 on every outcome metric with the skill activated (graded 0 on both sides,
    # which overall averages in when graded); c3 has no pair
    lost = (0.4 * 4 + 0.0) / 5 - (0.8 * 4 + 0.0) / 5 if with_grader else -0.4
    assert data["negative_cases"] == [
        {"case_id": "c1", "delta": pytest.approx(lost), "class": "misused"}
    ]
    assert isinstance(data["efficiency"], dict)


def test_round_trip_and_atomic_save(tmp_path):
    report = _run(True)
    path = tmp_path / ".skillforge" / "runs" / "run-7" / "lift.json"
    save_lift_report(report, path)
    again = load_lift_report(path)
    assert again == report
    assert dump_lift_report(again) == path.read_text("utf-8")
    assert not list(path.parent.glob(".*.tmp"))


def test_broken_lift_json_names_the_file_line_and_fix(tmp_path):
    path = tmp_path / "lift.json"
    path.write_text('{\n  "run_id": "r",\n  "metrics": {,}\n}\n')
    with pytest.raises(LiftFileError, match=r"lift\.json:3: not valid JSON.*skillforge report"):
        load_lift_report(path)
    with pytest.raises(LiftFileError, match=r"field 'n_cases'"):
        parse_lift_report('{"run_id": "r", "n_cases": "many"}', "x/lift.json")
    with pytest.raises(LiftFileError, match="cannot read"):
        load_lift_report(tmp_path / "missing.json")
