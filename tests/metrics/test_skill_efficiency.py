"""skill_efficiency's three parts on hand-built trajectories, and `overall`."""

from __future__ import annotations

import pytest

from skillforge.lift.cases import trial_overall
from skillforge.metrics.deterministic import deterministic_metrics
from skillforge.models.trial import TrialRecord
from tests.metrics.builders import (
    Call,
    activate,
    bash,
    case,
    failing,
    read,
    trajectory,
)


def efficiency(traj, kase=None, condition="with_skill"):
    r = deterministic_metrics(traj, kase or case(), target_skill="csv-insights",
                              condition=condition)
    return r.skill_efficiency, r.details["skill_efficiency"]


# --- (a) routing precision ------------------------------------------------------------------

def test_routing_only_the_expected_skill():
    _, d = efficiency(trajectory(activate("csv-insights")))
    assert d["routing_precision"]["value"] == 1.0


def test_routing_with_decoys():
    t = trajectory(activate("pdf-tools"), activate("csv-insights"), activate("xlsx-helper"))
    _, d = efficiency(t)
    assert d["routing_precision"]["value"] == pytest.approx(1 / 3)
    assert d["routing_precision"]["activated_skills"] == ["pdf-tools", "csv-insights",
                                                           "xlsx-helper"]


def test_rereading_the_expected_skill_does_not_change_routing():
    t = trajectory(activate("csv-insights"), activate("pdf-tools"), activate("csv-insights"))
    assert efficiency(t)[1]["routing_precision"]["value"] == 0.5


def test_routing_only_decoys():
    assert efficiency(trajectory(activate("pdf-tools")))[1]["routing_precision"]["value"] == 0


def test_routing_nothing_activated_nothing_expected_is_one():
    _, d = efficiency(trajectory(bash("wc -l sales.csv")), case("negative"))
    assert d["routing_precision"]["value"] == 1.0


def test_routing_nothing_activated_but_a_skill_expected_is_zero():
    _, d = efficiency(trajectory(bash("wc -l sales.csv")))
    assert d["routing_precision"]["value"] == 0.0


def test_routing_negative_case_that_activates_a_skill_is_zero():
    _, d = efficiency(trajectory(activate("csv-insights")), case("negative"))
    assert d["routing_precision"]["value"] == 0.0


# --- (b) productive calls -------------------------------------------------------------------

def test_productive_calls_with_errored_results():
    t = trajectory(bash("ls"), bash("python3 x.py", "Traceback ...", code=1),
                   failing("read_file", {"path": "missing.csv"}), read("sales.csv"))
    _, d = efficiency(t)
    assert d["productive_calls"]["value"] == 0.5
    assert [e["step_id"] for e in d["productive_calls"]["errors"]] == [3, 4]


def test_a_call_without_a_result_counts_as_without_error():
    t = trajectory(bash("ls"), Call("bash", {"command": "sleep 999"}, output=None))
    assert efficiency(t)[1]["productive_calls"]["value"] == 1.0


def test_no_tool_calls_leaves_productive_calls_out_of_the_mean():
    value, d = efficiency(trajectory(final="The answer is 42."), case("negative"))
    assert d["productive_calls"]["value"] is None and d["parts_averaged"] == 2
    assert value == 1.0  # routing 1 (nothing expected, nothing activated), budget 1


# --- (c) budget -----------------------------------------------------------------------------

def test_budget_default_reference_is_ten_turns():
    t = trajectory(*[bash(f"echo {i}") for i in range(19)])  # 19 tool turns + final = 20
    _, d = efficiency(t)
    assert d["budget"] == {"value": 0.5, "turns": 20, "reference_turns": 10,
                           "reference_from": "default"}


def test_budget_under_the_reference_is_capped_at_one():
    _, d = efficiency(trajectory(bash("ls")))
    assert d["budget"]["value"] == 1.0 and d["budget"]["turns"] == 2


def test_budget_with_reference_turns_set():
    t = trajectory(*[bash(f"echo {i}") for i in range(7)])  # 8 turns
    _, d = efficiency(t, case(reference_turns=4))
    assert d["budget"]["value"] == 0.5 and d["budget"]["reference_from"] == "case"


def test_budget_without_agent_steps_is_one():
    t = trajectory(final=None)
    assert efficiency(t, case("negative"))[1]["budget"]["value"] == 1.0


# --- the mean -------------------------------------------------------------------------------

def test_skill_efficiency_is_the_mean_of_the_three_parts():
    t = trajectory(activate("csv-insights"), activate("pdf-tools"),
                   bash("python3 x.py", code=1), bash("ls"))  # 5 turns
    value, _ = efficiency(t, case(reference_turns=10))
    # routing 1/2, productive 3/4, budget 1
    assert value == pytest.approx((0.5 + 0.75 + 1.0) / 3)


def test_baseline_routing_is_zero_when_a_skill_was_expected():
    value, d = efficiency(trajectory(bash("ls")), condition="baseline")
    assert d["routing_precision"]["value"] == 0.0 and value == pytest.approx(2 / 3)


# --- overall --------------------------------------------------------------------------------

def _rec(metrics):
    return TrialRecord(run_id="r", case_id="c", condition="with_skill", attempt=1,
                       metrics=metrics)


def test_overall_is_the_mean_of_the_available_outcome_metrics():
    metrics = {"security": 1.0, "skill_execution": 0.5, "skill_efficiency": 0.75,
               "accuracy": None, "goal_accuracy": None, "behavior_check": None,
               "grader": 0.0}
    # security and the grader: the process metrics never count, nulls are skipped
    assert trial_overall(_rec(metrics)) == pytest.approx(0.5)


def test_overall_with_every_outcome_metric():
    metrics = dict.fromkeys(("security", "skill_execution", "skill_efficiency", "accuracy",
                             "goal_accuracy", "behavior_check", "grader"), 0.5) | {"accuracy": 1.0}
    assert trial_overall(_rec(metrics)) == pytest.approx(3.0 / 5)


def test_overall_of_nothing_or_process_metrics_only_is_null():
    assert trial_overall(_rec({"accuracy": None, "skill_execution": 1.0})) is None
