"""Skill Lift: trial records in, a `LiftReport` (lift.json, CONTRACTS.md section 8) out.

Pure: no files, no database, no clock. The run store hands over the trial records of a run;
this module groups them by case, pairs the two conditions, and computes per-metric lift with
a 95% CI, pass rates and their paired test, efficiency, how the skill was used,
negative-lift triage and sample-size plans.

What is a lift. The outcome metrics (grader, accuracy, goal_accuracy, behavior_check,
security) and their mean `overall`, the headline. The process metrics (skill_execution,
skill_efficiency) are fixed by construction in a baseline that withholds the target, so
against such a baseline they are reported as use (`extra.use`), never as lift; when both
compared conditions stage the target (a part's ablation, a version delta) they are ordinary
lift rows.

`with`/`base` in a metric row are the means of S(i, m, c) over the *paired* cases (those
that also give D), so `lift == with - base` holds in every row; cases with one side missing
are counted in `inventory.missing_pairs` (for `overall`) and `extra.unpaired` (per metric).
Infrastructure errors are left out and counted, runs that broke off count as failed trials
(`extra.errors`, skillforge.lift.errors); when errors are one-sided, no metric may read
`helps`.

Version delta: when the baseline side ran an earlier version of the skill
(`RunSpec.baseline_version`), the statistics are the same and the report is labelled
"version delta" (`extra.label`), with the version in `extra.baseline_version`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skillforge.lift.cases import CaseTrials, group_cases, select_trials, trial_value
from skillforge.lift.errors import error_summary
from skillforge.lift.intervals import DEFAULT_CI, check_ci_method, lift_interval
from skillforge.lift.paired_pass import pass_test
from skillforge.lift.pass_rates import efficiency, pass_summary
from skillforge.lift.planner import TARGET_HALF_WIDTH, plan_sample
from skillforge.lift.stats import (
    ALPHA,
    CONFIDENCE,
    MIN_VERDICT_CASES,
    TIE_EPS,
    is_positive,
    mean,
    verdict,
    verdict_withheld,
)
from skillforge.lift.triage import triage
from skillforge.lift.use import use_summary
from skillforge.models.conditions import stages_target
from skillforge.models.lift import (
    SKILL_LIFT,
    VERSION_DELTA,
    AgreementReport,
    CaseRow,
    CiMethod,
    Inventory,
    LiftExtra,
    LiftReport,
    MetricLift,
    ReusedTrial,
    SamplePlan,
    VerdictRule,
    WithheldVerdict,
)
from skillforge.models.verdicts import NO_TASK_METRIC, Headline, PassTest
from skillforge.models.trial import (
    DIMENSIONS,
    OUTCOME_METRICS,
    PROCESS_METRICS,
    RunRecord,
    TrialRecord,
)

DEFAULT_CONDITIONS: tuple[str, str] = ("with_skill", "baseline")
ONE_SIDED = "one-sided errors"


def metric_lift(
    cases: Sequence[CaseTrials],
    metric: str,
    ci: CiMethod = DEFAULT_CI,
    *,
    confidence: float = CONFIDENCE,
) -> MetricLift:
    """One metric's row: paired means, lift = mean D, n, positive share, CI and verdict."""
    paired = [(c.score("with", metric), c.score("base", metric)) for c in cases]
    paired = [(w, b) for w, b in paired if w is not None and b is not None]
    deltas = [w - b for w, b in paired]
    if not deltas:
        return MetricLift()
    interval = lift_interval(deltas, ci, confidence)
    return MetricLift(
        with_=mean([w for w, _ in paired]),
        base=mean([b for _, b in paired]),
        lift=mean(deltas),
        ci_low=interval[0] if interval else None,
        ci_high=interval[1] if interval else None,
        n=len(deltas),
        positive_share=sum(1 for d in deltas if is_positive(d)) / len(deltas),
        verdict=verdict(interval, len(deltas)),
    )


def withheld_verdict(row: MetricLift, plan: SamplePlan | None,
                     one_sided: str | None = None) -> WithheldVerdict | None:
    """Why a measured metric's verdict is inconclusive by rule (too few cases, no interval,
    errors on one side) with the cases that would settle it; None when its CI decided."""
    interval = None if row.ci_low is None or row.ci_high is None else (row.ci_low, row.ci_high)
    reason = verdict_withheld(interval, row.n)
    if reason is None and one_sided is not None and row.ci_low is not None \
            and is_positive(row.ci_low):
        return WithheldVerdict(
            reason=ONE_SIDED, n=row.n, min_cases=MIN_VERDICT_CASES,
            note=(f"inconclusive: the interval is above 0, but the {one_sided} side errored "
                  "(runs that broke off on that side only, or more errors than chance "
                  "allows), so 'helps' is withheld."))
    if reason is None or row.n == 0:
        return None
    needed = plan.cases_needed if plan is not None else None
    if reason == "too few cases":
        needed = max(MIN_VERDICT_CASES, needed or MIN_VERDICT_CASES)
        note = (f"inconclusive: too few cases ({row.n} paired; a verdict needs at least "
                f"{MIN_VERDICT_CASES})")
    else:
        note = "inconclusive: no interval"
    if needed is not None:
        target = plan.target_half_width if plan is not None else None
        note += f"; about {needed} cases needed" + \
            (f" for ±{target:g}" if plan is not None and plan.cases_needed else "")
    return WithheldVerdict(reason=reason, n=row.n, min_cases=MIN_VERDICT_CASES,
                           cases_needed=needed, note=note + ".")


def lift_metrics(trials: Sequence[TrialRecord], conditions: tuple[str, str],
                 version_delta: bool = False) -> list[str]:
    """The metrics with a lift row: the outcome metrics (the grader when some trial has a
    grade) and, when both sides hold the skill (a part's ablation, a version delta whose
    baseline runs an earlier version), the process metrics; then overall."""
    names = [m for m in OUTCOME_METRICS if m != "grader"]
    if any(trial_value(t, "grader") is not None for t in trials):
        names.insert(0, "grader")
    if version_delta or all(stages_target(c) for c in conditions):
        names += PROCESS_METRICS
    return [*names, "overall"]


def _plan(cases: Sequence[CaseTrials], metric: str, target: float,
          confidence: float) -> SamplePlan:
    paired = [(c, d) for c in cases if (d := c.delta(metric)) is not None]
    return plan_sample(
        [d for _, d in paired],
        [c.values("with", metric) for c, _ in paired],
        [c.values("base", metric) for c, _ in paired],
        metric=metric,
        target=target,
        confidence=confidence,
    )


def _case_row(case: CaseTrials, deltas: Sequence[str], values: Sequence[str],
              threshold: float) -> CaseRow:
    return CaseRow(
        case_id=case.case_id,
        kind=case.kind,
        with_={m: case.score("with", m) for m in values},
        base={m: case.score("base", m) for m in values},
        delta={m: case.delta(m) for m in deltas},
        pass_with=case.pass_rate("with", threshold),
        pass_base=case.pass_rate("base", threshold),
        attempts_with=len(case.with_),
        attempts_base=len(case.base),
    )


def headline_verdict(rows: dict[str, MetricLift], paired: PassTest | None) -> Headline:
    """The report's leading verdict: overall's, unless the grader or the paired pass rate
    decides where overall does not (a grader that goes 1 -> 0 on eight cases is harm even
    when security, averaged into overall, held); opposite verdicts cancel.

    Each of the three holds its level on its own; taken together at a true lift of 0 they
    gave a verdict at most HEADLINE_WRONG (1.9%) of the time on the pass/fail families of
    the coverage simulation (skillforge.lift.coverage_record)."""
    found = [(name, verdict) for name, verdict in (
        ("overall", rows["overall"].verdict if "overall" in rows else "inconclusive"),
        ("grader", rows["grader"].verdict if "grader" in rows else "inconclusive"),
        ("pass rate", paired.verdict if paired is not None else "inconclusive"),
    ) if verdict != "inconclusive"]
    verdicts = {v for _, v in found}
    if len(verdicts) == 1:
        verdict = verdicts.pop()
        by = [name for name, _ in found]
        note = "" if by[0] == "overall" else \
            f"overall alone is inconclusive; {' and '.join(by)} decided it"
        return Headline(verdict=verdict, by=by, note=note)  # type: ignore[arg-type]
    if verdicts:
        listed = "; ".join(f"{name} {verdict}" for name, verdict in found)
        return Headline(by=[n for n, _ in found], note=f"the task measures disagree ({listed})")
    return Headline()


def _withhold_helps(rows: dict[str, MetricLift]) -> None:
    for row in rows.values():
        if row.verdict == "helps":
            row.verdict = "inconclusive"


def compute_lift(
    trials: Iterable[TrialRecord],
    *,
    run_id: str = "",
    skill: str | None = None,
    agent: str | None = None,
    model: str | None = None,
    conditions: tuple[str, str] = DEFAULT_CONDITIONS,
    case_ids: Iterable[str] | None = None,
    graded_cases: Iterable[str] | None = None,
    pass_threshold: float = 0.6,
    ci: CiMethod = DEFAULT_CI,
    confidence: float = CONFIDENCE,
    baseline_version: str | None = None,
    no_judge: bool | None = None,
    target_half_width: float = TARGET_HALF_WIDTH,
    judge_agreement: AgreementReport | None = None,
) -> LiftReport:
    """The lift report of one run's trials, `conditions[0]` versus `conditions[1]`.

    `case_ids` lists the run's planned cases, so a case with no trial at all still counts
    (as 0) in the pass rates; `graded_cases` says which cases have a grader (default: those
    with a grader reward on any trial); `no_judge`: the run was scored without the judge.
    """
    check_ci_method(ci)
    if len(conditions) != 2 or conditions[0] == conditions[1]:
        raise ValueError(f"compare two different conditions, got {conditions!r}")
    selected = select_trials(trials, conditions)
    kept = [t for t in selected if not t.excluded]
    cases = group_cases(selected, conditions, case_ids, graded_cases)
    names = lift_metrics(kept, conditions, version_delta=bool(baseline_version))
    rows = {m: metric_lift(cases, m, ci, confidence=confidence) for m in names}
    errors = error_summary(selected, conditions)
    one_sided = conditions[0 if errors.one_sided == "with" else 1] if errors.one_sided \
        else None
    paired_pass = pass_test(cases, pass_threshold, confidence)
    if one_sided is not None:
        if paired_pass is not None and paired_pass.verdict == "helps":
            paired_pass.verdict = "inconclusive"
            paired_pass.withheld = ONE_SIDED
        _withhold_helps(rows)
    plans = {
        m: _plan(cases, m, target_half_width, confidence)
        for m, row in rows.items()
        if row.verdict == "inconclusive" and row.n >= 1
    }
    negatives, evidence = triage(cases)
    statuses = [t.status for t in selected]
    process = [m for m in PROCESS_METRICS if m not in rows]
    overall_of = [m for m in OUTCOME_METRICS if any(trial_value(t, m) is not None for t in kept)]
    headline = headline_verdict(rows, paired_pass)
    if cases and not overall_of:
        headline.note = NO_TASK_METRIC
    extra = LiftExtra(
        label=VERSION_DELTA if baseline_version else SKILL_LIFT,
        baseline_version=baseline_version,
        overall_of=overall_of,
        no_judge=no_judge,
        ci_method=ci,
        confidence=confidence,
        pass_threshold=pass_threshold,
        cancelled=statuses.count("cancelled"),
        missing_metrics=[m for m in (*OUTCOME_METRICS[1:], *PROCESS_METRICS)
                         if not any(trial_value(t, m) is not None for t in kept)],
        unpaired={
            m: sum(1 for c in cases if (c.score("with", m) is None) != (c.score("base", m) is None))
            for m in names
        },
        dimensions={
            dim: mean([rows[m].lift for m in ms if m in rows and rows[m].lift is not None])
            for dim, ms in DIMENSIONS.items()
        },
        triage=evidence,
        verdict_rule=VerdictRule(tie_eps=TIE_EPS, min_cases=MIN_VERDICT_CASES, alpha=ALPHA),
        plans=plans,
        withheld={
            m: w for m, row in rows.items()
            if (w := withheld_verdict(row, plans.get(m), one_sided)) is not None
        },
        cases=[_case_row(c, names, [*names, *process], pass_threshold) for c in cases],
        judge_agreement=judge_agreement,
        use=use_summary(cases) if process else None,
        pass_test=paired_pass,
        headline=headline,
        errors=errors,
        reused=[ReusedTrial(case_id=t.case_id, condition=t.condition, attempt=t.attempt,
                            reused_from=t.reused_from) for t in selected if t.reused_from],
    )
    return LiftReport(
        run_id=run_id,
        skill=skill,
        agent=agent,
        model=model,
        conditions=list(conditions),
        n_cases=len(cases),
        metrics=rows,
        pass_=pass_summary(cases, pass_threshold),
        efficiency=efficiency(cases, pass_threshold),
        negative_cases=negatives,
        inventory=Inventory(
            trials=len(selected),
            ok=statuses.count("ok"),
            error=statuses.count("error"),
            timeout=statuses.count("timeout"),
            missing_pairs=sum(1 for c in cases if c.delta("overall") is None),
        ),
        extra=extra,
    )


def lift_for_run(
    run: RunRecord, trials: Iterable[TrialRecord], *, ci: CiMethod = DEFAULT_CI, **options
) -> LiftReport:
    """compute_lift with the run's metadata and spec (cases, threshold, baseline version)."""
    spec = run.spec
    kwargs: dict = {
        "run_id": run.run_id,
        "skill": run.skill_name,
        "agent": spec.agent if spec else None,
        "model": spec.model if spec else None,
        "case_ids": (spec.case_ids or None) if spec else None,
        "pass_threshold": spec.pass_threshold if spec else 0.6,
        "baseline_version": spec.baseline_version if spec else None,
        "no_judge": (spec.judge is False) if spec and spec.judge is not None else None,
    }
    kwargs.update(options)
    trials = list(trials)
    report = compute_lift(trials, ci=ci, **kwargs)
    if spec is not None and spec.until_decided:  # stopped when decided: anytime-valid
        from skillforge.lift.rounds import apply_rounds, rounds_record

        report = apply_rounds(report, rounds_record(run, trials))  # type: ignore[arg-type]
    return report
