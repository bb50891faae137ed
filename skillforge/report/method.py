"""How a lift report reached its verdicts, in words: what overall averages, the interval, the
verdict rule, the minimum of cases, the paired pass/fail test, the errors, and what the
coverage simulation measured (CONTRACTS.md sections 7-8).

Shared by the Markdown and HTML reports (a "Method" section and the verdict cells of their
lift tables), so a verdict withheld by rule reads the same in both. Pure functions over a
`LiftReport`; the numbers come from the report's `extra.verdict_rule`, so an older
lift.json is described by its own settings, and the simulation's figures from
skillforge.lift.coverage_record, which the suite checks against the simulation itself.
"""

from __future__ import annotations

from skillforge.lift.coverage_record import coverage_sentence, pass_sentence
from skillforge.models.lift import LiftReport
from skillforge.report.facts import VERDICT_MARK, ci_method


def verdict_cell(report: LiftReport, metric: str) -> str:
    """A lift-table verdict: `▲ helps`, `◆ inconclusive`, or `◆ inconclusive: too few cases`
    when the rule withheld it; `not measured` without a paired case."""
    row = report.metrics[metric]
    if not row.n:
        return "not measured"
    text = f"{VERDICT_MARK[row.verdict]} {row.verdict}"
    withheld = report.extra.withheld.get(metric)
    return f"{text}: {withheld.reason}" if withheld is not None else text


def rule_text(report: LiftReport) -> str:
    """The verdict rule in one sentence, with this report's numbers."""
    rule = report.extra.verdict_rule
    return (f"A metric helps when its interval's lower bound is above {rule.tie_eps:g} and hurts "
            f"when its upper bound is below -{rule.tie_eps:g}, else it is inconclusive; a "
            f"verdict also needs at least {rule.min_cases} paired cases.")


def method_notes(report: LiftReport) -> list[str]:
    """The Method section: one paragraph per choice behind the verdicts."""
    rule = report.extra.verdict_rule
    notes = [
        "overall is the mean of the outcome metrics a trial has (the grader, accuracy, "
        "goal_accuracy, behavior_check, security): what the task came to. skill_execution "
        "and skill_efficiency measure how the skill was used; the baseline withholds the "
        "skill, so there they are fixed by construction and reported as use (\"the agent "
        "used the skill in 7 of 8 cases\"), never as lift and never in overall. When both "
        "compared conditions hold the skill (a part's ablation, a version delta) they are "
        "lift rows like the others.",
        f"Interval: {ci_method(report)}. The lift of a metric is the mean paired delta "
        "D = with - base over the cases that have both sides, and n is that number of "
        "cases (attempts are averaged within a case first).",
        rule_text(report) + f" The tolerance {rule.tie_eps:g} (TIE_EPS) absorbs float noise: "
        "the same score reached two ways (the mean of 0.1 and 0.2, or 0.15) differs by about "
        "3e-17, which is not an effect.",
    ]
    if report.extra.ci_method == "bounded":
        notes += [
            "Why this interval: a paired delta is a difference of two scores in [0, 1], so it "
            "lies in [-1, 1], and nothing else is known about its shape: a grader gives 0 or "
            "1, a judge steps of 0.5, a skill may move one case in ten. The interval is the "
            "set of candidate means against which a bettor, staking on the deltas one case at "
            "a time, could not have grown their stake forty-fold (2 / alpha) on either side "
            "(the hedged-capital interval of Waudby-Smith and Ramdas, averaged over 8 fixed "
            "orders of the cases); by Markov's inequality it holds its level for every "
            "distribution on [-1, 1]. Equal deltas are evidence like any others: eight cases "
            "all at -1 give [-1, -0.26], hurts.",
            f"Why at least {rule.min_cases} cases: below that no sample can give a verdict "
            "at 95% whatever its values (five deltas of +1 leave room for a 52% mass at -1; "
            "five cases that pass only with the skill give McNemar p = 0.0625), so such "
            "metrics read \"inconclusive: too few cases\" with the number of cases the "
            "sample-size planner asks for (never fewer than the run has).",
            f"Coverage. {coverage_sentence()}",
        ]
    else:
        notes.append(
            f"This report was computed with the {report.extra.ci_method} interval, which "
            "skillforge no longer offers: on bounded deltas of shapes its tests had not used "
            "(rare gains, skewed and pass/fail deltas) it covered far less than 95%. "
            "`skillforge report RUN` recomputes a stored run with the bounded interval.")
    notes += [
        "Pass/fail: a case passes or fails on each side, so the pass rates are analysed as "
        "pairs: per side the pass rate with its Wilson interval (continuity-corrected), the "
        "paired difference with Tango's score interval and the exact McNemar test on the "
        "cases where the sides disagree (with several attempts per case: each case's pass "
        "rate, the bounded interval of their differences and the exact sign test). A pass "
        f"verdict needs both the interval and the test (p < {rule.alpha:g}). {pass_sentence()}",
        "Errors: an infrastructure error (before the agent took a turn, or the model "
        "provider or Docker failing) is left out of the lift and counted by side. A run that "
        "broke off for any other cause (the harness crashed, the container stopped under the "
        "agent's commands) is a failed trial: it fails and scores 0 on every outcome metric. "
        "A grader that crashes, cannot start or writes no reward after the agent ran grades 0 "
        "(fail-closed). So a skill cannot turn its failures into left-out errors. When runs "
        "broke off on one side only, or the errored trials differ between the sides more "
        f"than chance allows (Fisher's exact test, p < {rule.alpha:g}), no metric reads "
        "helps, and `--gate` fails.",
    ]
    if report.extra.rounds is not None:
        from skillforge.report.rounds import method_note

        notes.insert(2, method_note(report.extra.rounds))
    if report.extra.no_judge:
        notes.append("The run used --no-judge: accuracy, goal_accuracy and behavior_check "
                     "were not scored, and overall is the mean of the rest.")
    return notes
