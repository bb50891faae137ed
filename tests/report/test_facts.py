"""The sentences and numbers both renderers share: formatting, planner advice, notes."""

from __future__ import annotations

from skillforge.models.lift import SamplePlan
from skillforge.report import facts as F
from skillforge.report import headline as H
from tests.report.handbuilt import hand_report


def test_number_formats():
    assert F.signed(0.1234) == "+0.123" and F.signed(-0.0004) == "0.000"
    assert F.signed(None) == "—" and F.pct(0.875) == "88%" and F.signed_pct(-0.4) == "-40.0%"
    assert F.signed_pct(0.0) == "0.0%"


def test_one_nice_scale_covers_every_value():
    assert F.nice_scale([0.03, -0.04]) == 0.05
    assert F.nice_scale([0.12, None, -0.3]) == 0.5
    assert F.nice_scale([1.7]) == 2.0 and F.nice_scale([]) == 0.05
    assert F.lift_scale(hand_report()) == 1.0  # skill_execution's interval reaches 0.98


def test_planner_advice_covers_cases_attempts_and_already_precise():
    cases = SamplePlan(metric="overall", n_cases=10, sd=0.2, half_width=0.14, cases_needed=64)
    assert F.plan_line("overall", cases) == (
        "overall is inconclusive: about 64 cases needed for ±0.05 on overall (now ±0.140 with "
        "10; sd of the deltas 0.200).")
    attempts = cases.model_copy(update={"attempts_needed": 5, "attempts_observed": 2.0})
    assert F.plan_line("overall", attempts).endswith(
        "Or 5 attempts per side on the current cases.")
    trade = cases.model_copy(update={"cases_by_attempts": {1: 90, 3: 64, 10: 50}})
    assert F.plan_line("overall", trade).endswith(
        "Attempts per side → cases needed: 1 → 90, 3 → 64, 10 → 50.")
    flat = cases.model_copy(update={"cases_by_attempts": {1: 64, 3: 64}})
    assert "Attempts per side" not in F.plan_line("overall", flat)
    precise = cases.model_copy(update={"half_width": 0.04, "cases_needed": 8})
    assert "already within ±0.05 (±0.040 with 10 cases)" in F.plan_line("overall", precise)
    unknown = SamplePlan(n_cases=1, note="1 paired case(s): at least 2 are needed.")
    assert F.plan_line("overall", unknown) == (
        "overall is inconclusive: 1 paired case(s): at least 2 are needed.")


def test_notes_about_unmeasured_metrics():
    report = hand_report(missing_metrics=["accuracy", "goal_accuracy", "behavior_check",
                                          "skill_efficiency"], unpaired={})
    judged, other = F.missing_metric_notes(report)
    assert judged.startswith("Not measured: accuracy, goal_accuracy, behavior_check "
                             "(LLM-judged) are null in every trial")
    assert other == "Not measured: skill_efficiency is null in every trial."
    assert F.missing_metric_notes(hand_report(missing_metrics=[], unpaired={})) == []


def test_gain_is_explained_when_undefined():
    report = hand_report()
    report.pass_.base, report.pass_.g = 1.0, None
    assert "g = undefined (baseline already passes everything)" in F.pass_line(report)


def test_headline_without_pairs():
    report = hand_report()
    report.metrics["overall"].lift = None
    assert H.headline(report).startswith("No overall lift: no case has an overall score on "
                                         "both sides. Paired: accuracy on 10 case(s), ")
    for row in report.metrics.values():
        row.n = 0
    assert H.headline(report) == "No paired case yet: the overall lift cannot be computed."


def test_a_run_paired_on_the_grader_only_has_the_grader_as_its_overall():
    # A Harbor `nop` run: both sides ran and were graded, but no other metric was scored.
    # The grader is an outcome metric, so overall is the grader, and the headline says so.
    from skillforge.lift.compute import compute_lift
    from tests.lift.builders import trial

    trials = [trial(c, cond, grader=0.0) for c in ("a", "b")
              for cond in ("with_skill", "baseline")]
    report = compute_lift(trials, case_ids=["a", "b"])
    assert report.metrics["grader"].n == 2 and report.metrics["overall"].n == 2
    assert H.headline(report) == ("Overall Skill Lift (mean of grader): 0.000 (95% CI "
                                  "[-1.000, +1.000]): inconclusive (too few cases), over 2 "
                                  "paired case(s).")
    assert F.inventory_text(report) == "4 trials: 4 ok, 0 error, 0 timeout."


def test_a_run_that_measured_only_how_the_skill_was_used_has_no_headline_number():
    from skillforge.lift.compute import compute_lift
    from tests.lift.builders import trial

    trials = [trial(c, cond, metrics={"skill_execution": 1.0 if cond == "with_skill" else 0.0},
                    activated=cond == "with_skill") for c in ("a", "b")
              for cond in ("with_skill", "baseline")]
    report = compute_lift(trials)
    assert report.metrics["overall"].n == 0
    assert H.headline(report).startswith("No task metric was measured")
    assert H.use_text(report).startswith("The agent used the skill in 2 of 2 cases")


def test_missing_sides_are_told_apart_from_unscored_ones():
    from skillforge.lift.compute import compute_lift
    from tests.lift.builders import trial

    trials = [trial("ok", "with_skill", overall=0.9), trial("ok", "baseline", overall=0.5),
              trial("half", "with_skill", overall=0.9), trial("half", "baseline"),
              trial("alone", "with_skill", overall=0.9)]
    text = F.inventory_text(compute_lift(trials, case_ids=["ok", "half", "alone"]))
    assert ("1 case(s) lack one side (no trial); 1 case(s) have an overall score on one side "
            "only and are left out of the overall lift (not imputed).") in text
    assert "Paired cases per metric" not in text  # nothing is paired on more than overall
    # Nothing paired at all: the old sentence still holds.
    assert H.headline(compute_lift([], case_ids=[])).startswith("No paired case yet")
