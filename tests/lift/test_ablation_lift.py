"""The lift of each part of a skill: compute_lift per part, judged into author verdicts."""

from __future__ import annotations

import pytest

from skillforge.lift.ablation import TASK_METRICS, compute_ablation, part_effect
from skillforge.lift.compute import compute_lift
from skillforge.models.lift import LiftReport, dump_lift_report, parse_lift_report
from skillforge.models.parts import SkillPart
from tests.lift.builders import scores, trial

PARTS = [SkillPart(id="section:workflow", kind="section", title="Workflow", tokens=300),
         SkillPart(id="script:scripts/run.py", kind="script", title="scripts/run.py",
                   tokens=900, loaded="when read", files=["scripts/run.py"]),
         SkillPart(id="section:limitations", kind="section", title="Limitations", tokens=120),
         SkillPart(id="examples", kind="examples", title="examples", tokens=40)]


def run_trials(n: int = 80) -> list:
    """with_skill at grader 1 / efficiency .8; without the script the grader fails on all but
    one case; without the workflow efficiency falls; without limitations it rises; without
    examples nothing changes. 80 cases: the bounded interval settles "no effect" to within
    +-0.05 only past ~76 equal deltas (a 5% mass at +-1 could hide in fewer)."""
    out = []
    for i in range(n):
        case = f"c{i}"
        base = scores(0.8)
        out.append(trial(case, "with_skill", metrics=base, grader=1.0, activated=True))
        out.append(trial(case, "without:script:scripts/run.py", metrics=base,
                         grader=1.0 if i == 0 else 0.0, activated=True))
        out.append(trial(case, "without:section:workflow", activated=True,
                         metrics=scores(0.8, skill_efficiency=0.5 - 0.003 * i), grader=1.0))
        out.append(trial(case, "without:section:limitations", activated=True,
                         metrics=scores(0.8, skill_efficiency=0.95 + 0.0005 * i),
                         grader=1.0))
        out.append(trial(case, "without:examples", metrics=base, grader=1.0, activated=i > 0))
        out.append(trial(case, "baseline", metrics=scores(0.3), grader=0.0, activated=False))
    return out


def test_each_part_gets_the_verdict_its_effect_supports():
    ab = compute_ablation(run_trials(), PARTS)
    got = {p.part: p.verdict for p in ab.parts}
    assert got == {"section:workflow": "earns its keep",
                   "script:scripts/run.py": "earns its keep",
                   "section:limitations": "harmful", "examples": "dead weight"}
    by = {p.part: p for p in ab.parts}
    assert by["script:scripts/run.py"].deciding == ["grader"]
    assert by["section:workflow"].deciding == ["skill_efficiency"]
    assert "40 tokens" in by["examples"].reason and "±0.05" in by["examples"].reason
    # routing apart: activation 100% with, 79 of 80 without examples
    assert by["examples"].routing.activation_without == pytest.approx(79 / 80)
    assert by["examples"].routing.activation_with == 1.0
    assert "skill_execution" not in TASK_METRICS


def test_effects_are_compute_lift_rows_of_with_skill_over_the_ablation():
    trials = run_trials()
    effect = part_effect(trials, PARTS[1])
    ref = compute_lift(trials, conditions=("with_skill", "without:script:scripts/run.py"))
    for m, row in ref.metrics.items():
        got = effect.metrics[m]
        assert (got.effect, got.ci_low, got.ci_high, got.n, got.verdict) == \
            (row.lift, row.ci_low, row.ci_high, row.n, row.verdict)
    assert effect.metrics["grader"].effect == pytest.approx(79 / 80)


def test_too_few_cases_is_inconclusive_with_the_cases_needed():
    ab = compute_ablation(run_trials(3), PARTS)
    assert {p.verdict for p in ab.parts} == {"inconclusive"}
    assert all(p.cases_needed and p.cases_needed >= 6 for p in ab.parts)
    assert all("cases needed" in p.reason for p in ab.parts)


def test_no_ablated_trial_means_no_section_and_missing_parts_are_named():
    plain = [t for t in run_trials() if not t.condition.startswith("without:")]
    assert compute_ablation(plain, PARTS) is None
    some = [t for t in run_trials() if t.condition != "without:examples"]
    ab = compute_ablation(some, PARTS)
    assert ab.missing == ["examples"]
    unknown = compute_ablation(run_trials(), [])
    assert {p.part for p in unknown.parts} == {p.id for p in PARTS}
    assert all(p.tokens is None for p in unknown.parts)


def test_ablation_survives_lift_json_round_trip():
    report = LiftReport(run_id="r")
    assert "ablation" not in dump_lift_report(report)
    report.extra.ablation = compute_ablation(run_trials(), PARTS)
    back = parse_lift_report(dump_lift_report(report))
    assert back.extra.ablation == report.extra.ablation
    assert '"earns its keep"' in dump_lift_report(report)
