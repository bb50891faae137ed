"""Run-level judge agreement from the evidence the judged metrics store per trial."""

from __future__ import annotations

from datetime import UTC, datetime

from sessions.store import MetricRecord
from skillforge.lift.agreement import run_agreement, scores_from_evidence


def _rec(case: str, metric: str, per_judge: dict | None, attempt: int = 1) -> MetricRecord:
    evidence = {"per_judge": per_judge} if per_judge is not None else {"null_because": "x"}
    return MetricRecord(run_id="r", case_id=case, condition="with_skill", attempt=attempt,
                        metric=metric, value=None, evidence=evidence,
                        updated_at=datetime.now(UTC))


def test_scores_are_regrouped_by_judge_and_trial():
    recs = [_rec("a", "goal_accuracy", {"j1": 1.0, "j2": 0.5}),
            _rec("b", "goal_accuracy", {"j1": 0.0, "j2": 0.0}),
            _rec("a", "behavior_check", None)]
    scores = scores_from_evidence(recs)
    assert scores == {"j1": {("a", "with_skill", 1): {"goal_accuracy": 1.0},
                             ("b", "with_skill", 1): {"goal_accuracy": 0.0}},
                      "j2": {("a", "with_skill", 1): {"goal_accuracy": 0.5},
                             ("b", "with_skill", 1): {"goal_accuracy": 0.0}}}


def test_agreement_needs_two_judges_and_measures_disagreement():
    one = [_rec("a", "accuracy", {"j1": 0.8})]
    assert run_agreement(one) is None
    two = [_rec("a", "goal_accuracy", {"j1": 1.0, "j2": 0.5}),
           _rec("b", "goal_accuracy", {"j1": 0.0, "j2": 0.0})]
    report = run_agreement(two)
    ga = report.metrics["goal_accuracy"]
    # Item a differs by 0.5, item b agrees: mean |diff| 0.25, pairs agree on one item of two.
    assert ga.mean_abs_diff == 0.25 and ga.percent_agreement == 0.5
