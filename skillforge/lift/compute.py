"""Skill Lift: trial records in, a `LiftReport` (lift.json, CONTRACTS.md section 8) out.

Pure: no files, no database, no clock. The run store hands over the trial records of a run;
this module groups them by case, pairs the two conditions, and computes per-metric lift with
a 95% CI, pass rates, efficiency, negative-lift triage and sample-size plans.

`with`/`base` in a metric row are the means of S(i, m, c) over the *paired* cases (those
that also give D), so `lift == with - base` holds in every row; cases with one side missing
are counted in `inventory.missing_pairs` (for `overall`) and `extra.unpaired` (per metric).

Version delta: when the baseline side ran an earlier version of the skill
(`RunSpec.baseline_version`), the statistics are the same and the report is labelled
"version delta" (`extra.label`), with the version in `extra.baseline_version`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skillforge.lift.cases import CaseTrials, group_cases, select_trials, trial_value
from skillforge.lift.pass_rates import efficiency, pass_summary
from skillforge.lift.bootstrap import (
    BOOTSTRAP_MIN_CASES,
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap_refusal,
)
from skillforge.lift.intervals import DEFAULT_CI, check_ci_method, lift_interval
from skillforge.lift.stats import (
    CONFIDENCE,
    MIN_VERDICT_CASES,
    TIE_EPS,
    is_positive,
    mean,
    verdict,
    verdict_withheld,
)
from skillforge.lift.triage import triage
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
    SamplePlan,
    VerdictRule,
    WithheldVerdict,
)
from skillforge.models.trial import DEFAULT_METRICS, DIMENSIONS, RunRecord, TrialRecord
from skillforge.lift.planner import TARGET_HALF_WIDTH, plan_sample

DEFAULT_CONDITIONS: tuple[str, str] = ("with_skill", "baseline")


def metric_lift(
    cases: Sequence[CaseTrials],
    metric: str,
    ci: CiMethod = DEFAULT_CI,
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> MetricLift:
    """One metric's row: paired means, lift = mean D, n, positive share, CI and verdict."""
    paired = [(c.score("with", metric), c.score("base", metric)) for c in cases]
    paired = [(w, b) for w, b in paired if w is not None and b is not None]
    deltas = [w - b for w, b in paired]
    if not deltas:
        return MetricLift()
    interval = lift_interval(deltas, ci, confidence, resamples, seed)
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
                     ci: CiMethod = DEFAULT_CI) -> WithheldVerdict | None:
    """Why a measured metric's verdict is inconclusive by rule (too few cases, a zero-width
    or no interval) with the cases that would settle it; None when its CI decided."""
    interval = None if row.ci_low is None or row.ci_high is None else (row.ci_low, row.ci_high)
    reason = verdict_withheld(interval, row.n)
    if reason is None or row.n == 0:
        return None
    planned = plan.cases_needed if plan is not None else None
    needed = max(MIN_VERDICT_CASES, planned) if planned is not None else \
        (MIN_VERDICT_CASES if reason == "too few cases" else None)
    if reason == "too few cases":
        note = (f"inconclusive: too few cases ({row.n} paired; a verdict needs at least "
                f"{MIN_VERDICT_CASES})")
    elif reason == "zero-width interval":
        note = (f"inconclusive: zero-width interval (all {row.n} paired deltas are equal, "
                "so their spread cannot be estimated)")
    else:
        note = "inconclusive: no interval"
    if needed is not None:
        target = plan.target_half_width if plan is not None else None
        note += f"; about {needed} cases needed" + (f" for ±{target:g}" if planned else "")
    refusal = bootstrap_refusal(row.n) if ci == "bootstrap" else None
    if refusal:
        note += f"; {refusal}"
    return WithheldVerdict(reason=reason, n=row.n, min_cases=MIN_VERDICT_CASES,
                           cases_needed=needed, note=note + ".")


def _metric_names(trials: Sequence[TrialRecord]) -> list[str]:
    names = [*DEFAULT_METRICS, "overall"]
    if any(trial_value(t, "grader") is not None for t in trials):
        names.append("grader")
    return names


def _plan(
    cases: Sequence[CaseTrials], metric: str, target: float, confidence: float, ci: CiMethod
) -> SamplePlan:
    paired = [(c, d) for c in cases if (d := c.delta(metric)) is not None]
    return plan_sample(
        [d for _, d in paired],
        [c.values("with", metric) for c, _ in paired],
        [c.values("base", metric) for c, _ in paired],
        metric=metric,
        target=target,
        confidence=confidence,
        ci=ci,
    )


def _case_row(case: CaseTrials, metrics: Sequence[str], threshold: float) -> CaseRow:
    return CaseRow(
        case_id=case.case_id,
        kind=case.kind,
        with_={m: case.score("with", m) for m in metrics},
        base={m: case.score("base", m) for m in metrics},
        delta={m: case.delta(m) for m in metrics},
        pass_with=case.pass_rate("with", threshold),
        pass_base=case.pass_rate("base", threshold),
        attempts_with=len(case.with_),
        attempts_base=len(case.base),
    )


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
    bootstrap_resamples: int = BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = BOOTSTRAP_SEED,
    baseline_version: str | None = None,
    target_half_width: float = TARGET_HALF_WIDTH,
    judge_agreement: AgreementReport | None = None,
) -> LiftReport:
    """The lift report of one run's trials, `conditions[0]` versus `conditions[1]`.

    `case_ids` lists the run's planned cases, so a case with no trial at all still counts
    (as 0) in the pass rates; `graded_cases` says which cases have a grader (default: those
    with a grader reward on any trial).
    """
    check_ci_method(ci)
    if len(conditions) != 2 or conditions[0] == conditions[1]:
        raise ValueError(f"compare two different conditions, got {conditions!r}")
    selected = select_trials(trials, conditions)
    cases = group_cases(selected, conditions, case_ids, graded_cases)
    names = _metric_names(selected)
    rows = {
        m: metric_lift(
            cases, m, ci, confidence=confidence, resamples=bootstrap_resamples, seed=bootstrap_seed
        )
        for m in names
    }
    plans = {
        m: _plan(cases, m, target_half_width, confidence, ci)
        for m, row in rows.items()
        if row.verdict == "inconclusive" and row.n >= 1
    }
    negatives, evidence = triage(cases)
    statuses = [t.status for t in selected]
    extra = LiftExtra(
        label=VERSION_DELTA if baseline_version else SKILL_LIFT,
        baseline_version=baseline_version,
        ci_method=ci,
        confidence=confidence,
        bootstrap_resamples=bootstrap_resamples if ci == "bootstrap" else None,
        bootstrap_seed=bootstrap_seed if ci == "bootstrap" else None,
        pass_threshold=pass_threshold,
        cancelled=statuses.count("cancelled"),
        missing_metrics=[
            m for m in DEFAULT_METRICS if not any(trial_value(t, m) is not None for t in selected)
        ],
        unpaired={
            m: sum(1 for c in cases if (c.score("with", m) is None) != (c.score("base", m) is None))
            for m in names
        },
        dimensions={
            dim: mean([rows[m].lift for m in ms if rows[m].lift is not None])
            for dim, ms in DIMENSIONS.items()
        },
        triage=evidence,
        bootstrap_kind="studentized" if ci == "bootstrap" else None,
        verdict_rule=VerdictRule(
            tie_eps=TIE_EPS, min_cases=MIN_VERDICT_CASES,
            bootstrap_min_cases=BOOTSTRAP_MIN_CASES if ci == "bootstrap" else None),
        plans=plans,
        withheld={
            m: w for m, row in rows.items()
            if (w := withheld_verdict(row, plans.get(m), ci)) is not None
        },
        cases=[_case_row(c, names, pass_threshold) for c in cases],
        judge_agreement=judge_agreement,
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
    }
    kwargs.update(options)
    return compute_lift(trials, ci=ci, **kwargs)
