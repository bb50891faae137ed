"""Skill Lift from trial records: S, D, pairing, efficiency, dimensions, version delta."""

from __future__ import annotations

import subprocess
import sys
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillforge.lift.compute import compute_lift, lift_for_run
from skillforge.lift.cases import trial_overall
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import ROOT
from tests.lift.builders import paired_cases, scores, trial

W, B = "with_skill", "baseline"


def test_overall_is_the_mean_of_the_outcome_metrics_grader_included_process_never():
    t = trial("a", W, metrics={"accuracy": 1.0, "security": 0.5, "goal_accuracy": None,
                               "skill_execution": 0.0, "skill_efficiency": 0.0}, grader=0.0)
    # (accuracy 1 + security 0.5 + grader 0) / 3: nulls skipped, the process metrics never
    assert trial_overall(t) == pytest.approx(0.5)
    assert trial_overall(trial("a", W, metrics={"skill_execution": 1.0})) is None
    assert trial_overall(trial("a", W, metrics={})) is None


def test_a_grader_that_failed_after_the_agent_ran_grades_zero():
    failed = trial("a", W, metrics={"security": 1.0}, error_stage="grader",
                   error="grader: exit 1; graded 0 (fail-closed)")
    assert trial_overall(failed) == pytest.approx(0.5)
    # a record stored before error_stage existed said so in its status and error only
    legacy = trial("a", W, metrics={"security": 1.0}, status="error",
                   error="grader: the grader wrote no reward")
    assert legacy.error_stage == "grader" and not legacy.excluded
    assert trial_overall(legacy) == pytest.approx(0.5)


def test_scores_average_attempts_with_values_and_deltas_need_both_sides():
    trials = [
        # case a: with-skill accuracy 0.9 and 0.7 (a third attempt unscored), baseline 0.5
        trial("a", W, 0, metrics={"accuracy": 0.9}),
        trial("a", W, 1, metrics={"accuracy": 0.7}),
        trial("a", W, 2, metrics={"accuracy": None}),
        trial("a", B, 0, metrics={"accuracy": 0.5}),
        # case b: no baseline accuracy at all -> unpaired, not imputed
        trial("b", W, 0, metrics={"accuracy": 0.1}),
        trial("b", B, 0, metrics={"security": 1.0}),
        # case c: no with-skill accuracy -> unpaired, and its baseline 0.0 is not averaged in;
        # its with-skill side has only a process metric, so no overall either
        trial("c", W, 0, metrics={"skill_execution": 1.0}),
        trial("c", B, 0, metrics={"accuracy": 0.0}),
    ]
    report = compute_lift(trials)
    acc = report.metrics["accuracy"]
    assert acc.n == 1
    assert acc.with_ == pytest.approx(0.8) and acc.base == pytest.approx(0.5)
    assert acc.lift == pytest.approx(0.3)
    # one case can come from any distribution with that value in its support: the whole range
    assert (acc.ci_low, acc.ci_high) == (-1.0, 1.0) and acc.verdict == "inconclusive"
    assert report.extra.unpaired["accuracy"] == 2
    assert report.extra.unpaired["security"] == 1
    # skill_execution is use against a baseline without the skill: no lift row at all
    assert "skill_execution" not in report.metrics and "skill_execution" not in \
        report.extra.unpaired
    assert report.extra.use.metrics["skill_execution"] == {"with": 1.0, "base": None}
    rows = {r.case_id: r for r in report.extra.cases}
    assert rows["b"].delta["accuracy"] is None
    # case b still pairs on overall (0.1 vs 1.0) since each side has an outcome metric
    assert rows["b"].delta["overall"] == pytest.approx(-0.9)
    assert "skill_execution" not in rows["c"].delta
    assert rows["c"].with_["skill_execution"] == 1.0 and rows["c"].delta["overall"] is None
    assert report.inventory.missing_pairs == 1


def test_lift_is_with_minus_base_over_paired_cases_and_verdicts():
    # Ten cases of about +-0.5 (the bounded interval decides +0.5 from 10 cases, not 8).
    big = [0.48, 0.5, 0.52, 0.49, 0.51, 0.5, 0.47, 0.53, 0.5, 0.5]
    up = compute_lift(paired_cases(big, base=0.25))
    down = compute_lift(paired_cases([-d for d in big], base=0.75))
    flat = compute_lift(paired_cases([0.2, -0.25, 0.3, -0.22, 0.0]))
    assert up.metrics["overall"].verdict == "helps"
    assert down.metrics["overall"].verdict == "hurts"
    assert flat.metrics["overall"].verdict == "inconclusive"
    assert flat.metrics["overall"].positive_share == 0.4
    # the same size of effect on 8 cases cannot be told from a distribution with a hidden
    # mass at -1: no verdict (the t interval called it)
    assert compute_lift(paired_cases(big[:8], base=0.25)).metrics["overall"].verdict == \
        "inconclusive"
    for m in up.metrics.values():
        assert m.lift == pytest.approx(m.with_ - m.base)


def test_metrics_never_measured_are_listed_not_invented():
    trials = [trial("a", c, metrics={"security": 1.0, "skill_execution": 0.5}) for c in (W, B)]
    report = compute_lift(trials)
    assert report.extra.missing_metrics == ["accuracy", "goal_accuracy", "behavior_check",
                                            "skill_efficiency"]
    assert report.metrics["accuracy"].n == 0 and report.metrics["accuracy"].lift is None
    assert "grader" not in report.metrics


def test_float_noise_is_not_a_negative_case():
    # (0.1 + 0.3 + 0.7)/3 and (0.1 + 0.4 + 0.6)/3 differ by 5.6e-17 in floating point
    w = {"accuracy": 0.1, "goal_accuracy": 0.3, "behavior_check": 0.7}
    b = {"accuracy": 0.1, "goal_accuracy": 0.4, "behavior_check": 0.6}
    report = compute_lift([trial("a", W, metrics=w, activated=True), trial("a", B, metrics=b)])
    assert report.extra.cases[0].delta["overall"] != 0.0  # the noise is really there
    assert report.negative_cases == []
    assert report.metrics["overall"].positive_share == 0.0


def test_other_conditions_are_ignored_and_duplicates_keep_the_last():
    trials = [
        trial("a", W, 0, overall=0.9),
        trial("a", B, 0, overall=0.5, status="error"),
        trial("a", B, 0, overall=0.6),  # the retry of the same attempt replaces it
        trial("a", "self_generated", 0, overall=0.1),
    ]
    report = compute_lift(trials)
    assert report.inventory.trials == 2 and report.inventory.error == 0
    assert report.metrics["overall"].lift == pytest.approx(0.3)
    self_gen = compute_lift(trials, conditions=("self_generated", "baseline"))
    assert self_gen.conditions == ["self_generated", "baseline"]
    assert self_gen.metrics["overall"].lift == pytest.approx(-0.5)


def test_efficiency_on_cases_both_conditions_passed():
    trials = [
        # case a: both pass. With: passing attempt 100+50 tokens, 4 turns; a failing attempt
        # that burned 5000 tokens is not part of the cost of solving the case.
        trial("a", W, 0, overall=0.9, tokens_in=100, tokens_out=50, turns=4, tool_calls=3,
              wall_s=20.0, cost_usd=0.02, script_runs=4, script_runs_ok=3),
        trial("a", W, 1, overall=0.1, tokens_in=5000, turns=30, script_runs=2, script_runs_ok=2),
        trial("a", B, 0, overall=0.9, tokens_in=250, tokens_out=50, turns=8, tool_calls=6,
              wall_s=40.0, cost_usd=None, script_runs=9),
        # case b: only the baseline passes -> excluded from efficiency
        trial("b", W, 0, overall=0.2, tokens_in=1, turns=1),
        trial("b", B, 0, overall=0.9, tokens_in=9999, turns=50),
    ]
    eff = compute_lift(trials).efficiency
    assert eff.n_cases == 1
    assert eff.tokens.diff == pytest.approx((150 - 300) / 300)  # -0.5: the skill saves half
    assert eff.turns.diff == pytest.approx(-0.5)
    assert eff.wall_s.with_ == 20.0 and eff.wall_s.base == 40.0
    assert eff.cost_usd.n == 0 and eff.cost_usd.diff is None  # baseline cost unknown
    # exec rate over with-skill trials only: (3 + 2) / (4 + 2)
    assert eff.script_exec_rate == pytest.approx(5 / 6) and eff.script_runs == 6


def test_dimensions_average_their_metrics_lifts():
    w = scores(0.5, accuracy=0.9, goal_accuracy=0.7, security=0.4)
    trials = [trial(c, W, metrics=w) for c in "ab"] + [trial(c, B, metrics=scores(0.5))
                                                      for c in "ab"]
    dims = compute_lift(trials).extra.dimensions
    assert dims["Correctness"] == pytest.approx((0.4 + 0.2) / 2)
    assert dims["Security"] == pytest.approx(-0.1)
    # the process metrics are use, not lift, against a baseline without the skill
    assert dims["Effectiveness"] == pytest.approx((0.2 + 0) / 2)
    assert dims["Efficiency"] is None and dims["Discoverability"] is None


def test_version_delta_label_from_the_run_spec():
    spec = RunSpec(skill_path="skills/csv", baseline_version="v1.2", agent="builtin",
                   model="m", case_ids=["case-0", "case-1", "case-9"], pass_threshold=0.5)
    run = RunRecord(run_id="r2", created_at="2026-01-01T00:00:00", skill_name="csv",
                    spec=spec)
    report = lift_for_run(run, paired_cases([0.1, 0.2], run_id="r2"))
    assert report.extra.label == "version delta"
    assert report.extra.baseline_version == "v1.2"
    # both sides held a version of the skill: how it was used is a lift row like the others
    assert {"skill_execution", "skill_efficiency"} <= set(report.metrics)
    assert report.extra.use is None
    assert report.conditions == ["with_skill", "baseline"]
    assert (report.run_id, report.skill, report.agent, report.model) == ("r2", "csv",
                                                                           "builtin", "m")
    assert report.n_cases == 3  # case-9 was planned and never ran: still in the denominator
    assert report.extra.pass_threshold == 0.5
    plain = lift_for_run(run.model_copy(update={"spec": spec.model_copy(
        update={"baseline_version": None})}), paired_cases([0.1]))
    assert plain.extra.label == "Skill Lift"
    assert "skill_execution" not in plain.metrics and plain.extra.use is not None


def test_importing_lift_does_not_load_numpy_scipy_or_textual():
    code = ("import sys, skillforge.lift.compute, skillforge.lift.planner, skillforge.lift.compare, "
            "skillforge.lift.agreement\n"
            "print([m for m in ('numpy', 'scipy', 'textual') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


outcome = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(outcome, min_size=1, max_size=3),
                          st.lists(outcome, min_size=1, max_size=3)), min_size=1, max_size=6))
def test_invariants_on_random_runs(cases):
    trials = []
    for i, (ws, bs) in enumerate(cases):
        trials += [trial(f"c{i}", W, k, overall=v) for k, v in enumerate(ws)]
        trials += [trial(f"c{i}", B, k, overall=v) for k, v in enumerate(bs)]
    report = compute_lift(trials)
    row = report.metrics["overall"]
    assert row.n == len(cases)
    assert row.lift == pytest.approx(row.with_ - row.base, abs=1e-12)
    if row.ci_low is not None:
        assert row.ci_low <= row.lift + 1e-12 <= row.ci_high + 2e-12
    assert report.pass_.pass_at_k["with"][1] == pytest.approx(report.pass_.with_)
    curve = list(report.pass_.pass_at_k["with"].values())
    assert all(a <= b + 1e-12 for a, b in pairwise(curve))  # pass@k grows with k
    assert 0.0 <= report.pass_.base <= 1.0
