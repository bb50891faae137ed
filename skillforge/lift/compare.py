"""Compare two runs (two models, two agents, two skill versions) metric by metric.

Each run has its own with/base pairing; the comparison aligns the two lift tables and, for
the cases both runs share, tests the change of lift paired by case:
change_i = D_b(i, m) - D_a(i, m), with the lift's bounded interval (skillforge.lift.intervals)
over the changes' range [-2, 2], so the case difficulty that both runs share cancels out. `verdict` is `helps` when run b's lift is
higher with confidence, `hurts` when lower.
"""

from __future__ import annotations

from collections.abc import Iterable

from skillforge.lift.compute import compute_lift
from skillforge.lift.intervals import DEFAULT_CI, check_ci_method, lift_interval
from skillforge.lift.stats import mean, verdict
from skillforge.models.lift import CiMethod, LiftReport, MetricComparison, RunComparison
from skillforge.models.trial import TrialRecord

# A change of two paired deltas, each in [-1, 1].
CHANGE_RANGE = (-2.0, 2.0)


def _paired_changes(a: LiftReport, b: LiftReport, metric: str) -> list[float]:
    deltas_a = {row.case_id: row.delta.get(metric) for row in a.extra.cases}
    out = []
    for row in b.extra.cases:
        da, db = deltas_a.get(row.case_id), row.delta.get(metric)
        if da is not None and db is not None:
            out.append(db - da)
    return out


def compare_reports(a: LiftReport, b: LiftReport, ci: CiMethod = DEFAULT_CI) -> RunComparison:
    """Align two lift reports; paired CIs of the change where both carry per-case rows."""
    check_ci_method(ci)
    names = list(a.metrics) + [m for m in b.metrics if m not in a.metrics]
    rows: dict[str, MetricComparison] = {}
    for m in names:
        ra, rb = a.metrics.get(m), b.metrics.get(m)
        la = ra.lift if ra else None
        lb = rb.lift if rb else None
        row = MetricComparison(
            lift_a=la,
            lift_b=lb,
            change=None if la is None or lb is None else lb - la,
            verdict_a=ra.verdict if ra else "inconclusive",
            verdict_b=rb.verdict if rb else "inconclusive",
        )
        if a.extra.cases and b.extra.cases:
            changes = _paired_changes(a, b, m)
            interval = lift_interval(changes, ci, value_range=CHANGE_RANGE)
            row.n_common = len(changes)
            row.ci_low, row.ci_high = interval if interval else (None, None)
            row.verdict = verdict(interval, len(changes))
            if changes:
                # Over the common cases only, so it can differ from lift_b - lift_a.
                row.change = mean(changes)
        rows[m] = row
    ids_a = {r.case_id for r in a.extra.cases}
    ids_b = {r.case_id for r in b.extra.cases}
    return RunComparison(
        run_a=a.run_id,
        run_b=b.run_id,
        label_a=a.extra.label,
        label_b=b.extra.label,
        metrics=rows,
        pass_with=(a.pass_.with_, b.pass_.with_),
        pass_base=(a.pass_.base, b.pass_.base),
        g=(a.pass_.g, b.pass_.g),
        only_in_a=sorted(ids_a - ids_b),
        only_in_b=sorted(ids_b - ids_a),
    )


def compare_trial_sets(
    trials_a: Iterable[TrialRecord],
    trials_b: Iterable[TrialRecord],
    *,
    run_a: str = "a",
    run_b: str = "b",
    ci: CiMethod = DEFAULT_CI,
    **options,
) -> RunComparison:
    """Lift both trial sets with the same options, then compare them case by case."""
    report_a = compute_lift(trials_a, run_id=run_a, ci=ci, **options)
    report_b = compute_lift(trials_b, run_id=run_b, ci=ci, **options)
    return compare_reports(report_a, report_b, ci)
