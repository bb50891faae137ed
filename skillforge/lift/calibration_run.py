"""The judgments of stored runs, matched with the author's labels: `extra.calibration`.

`run_judgments(store, run_id)` lists what a run's judges said that the author can label:
each judge's accuracy, goal_accuracy and behavior_check of each ok trial with a stored
trajectory (the per-judge values the judged metrics keep in their evidence), and each
trial's pass (the grader's reward, else overall >= pass_threshold). The content hash is
`sessions.label_rows.trial_content_hash` of the trajectory file and case.

`calibration_for_run(store, run, trials, report)` matches the judgments of every run of the
same skill with the author's labels (the author's value of a content does not depend on the
judge, so every judge of a labelled content is compared with it), computes each judge's
agreement per metric (skillforge.lift.calibration), its self-consistency, an isotonic map
when it lowers the held-out error, and the judged metrics' lift with the raw values and
through the maps, side by side. Rubric criteria agree through the labels' own judge values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sessions.label_rows import trial_content_hash
from skillforge.lift.calibration import agreement, apply_knots, fit_mapping, self_consistency
from skillforge.lift.cases import trial_overall
from skillforge.models.labels import (
    CalibratedLift,
    CalibrationBar,
    CalibrationReport,
    JudgeAgreement,
    Judgment,
    Label,
    Status,
)
from skillforge.models.lift import LiftReport
from skillforge.models.trial import JUDGED_METRICS, RunRecord, TrialRecord

_RANK: dict[Status, int] = {"not calibrated": 0, "too few labels": 1, "calibrated": 2}


def trial_passed(trial: TrialRecord, threshold: float) -> float | None:
    """Section 8's pass of one ok trial: grader reward 1, else overall >= threshold."""
    if trial.status != "ok":
        return None
    if trial.grader is not None:
        return 1.0 if trial.grader >= 1.0 - 1e-9 else 0.0
    overall = trial_overall(trial)
    return None if overall is None else (1.0 if overall >= threshold else 0.0)


def run_judgments(store: Any, run_id: str) -> list[Judgment]:
    """Every labelable judgment of a stored run (see the module docstring)."""
    run: RunRecord | None = store.run(run_id)
    if run is None:
        return []
    threshold = run.spec.pass_threshold if run.spec else 0.6
    shas = {(r.case_id, r.condition, r.attempt): r.sha256 for r in store.trajectories(run_id)}
    metrics: dict[tuple[str, str, int], list[Any]] = {}
    for m in store.metrics(run_id):
        metrics.setdefault((m.case_id, m.condition, m.attempt), []).append(m)
    out: list[Judgment] = []
    for trial in store.trials(run_id):
        sha = shas.get(trial.key)
        if trial.status != "ok" or sha is None:
            continue  # nothing the author could read: not labelable
        where = {"kind": "trial", "content_hash": trial_content_hash(sha, trial.case_id),
                 "skill": run.skill_name, "run_id": run_id, "case_id": trial.case_id,
                 "condition": trial.condition, "attempt": trial.attempt}
        for m in metrics.get(trial.key, []):
            if m.metric not in JUDGED_METRICS:
                continue
            per_judge = m.evidence.get("per_judge") if isinstance(m.evidence, dict) else None
            if not isinstance(per_judge, dict):
                per_judge = {m.judge_model: m.value} if m.judge_model else {}
            for judge, value in per_judge.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    out.append(Judgment(metric=m.metric, judge_model=str(judge),
                                        prompt_version=m.rubric_version or "",
                                        value=float(value), **where))
        passed = trial_passed(trial, threshold)
        if passed is not None:
            out.append(Judgment(metric="pass", value=passed, judge_model="grader"
                                if trial.grader is not None else "overall", **where))
    return out


def rubric_judgments(result: Any) -> list[Judgment]:
    """Each judge's score of each criterion in a rubric `JudgeResult` (0-10), keyed by the
    skill's content hash and the rubric version; judged_at tells a repeat from a cache hit."""
    return [Judgment(kind="rubric", content_hash=result.skill_hash, metric=c.criterion,
                     judge_model=v.label, prompt_version=result.rubric_version,
                     value=float(c.score), skill=result.skill_name,
                     judged_at=v.created_at.isoformat())
            for v in result.judges for c in v.criteria]


def label_progress(judgments: Sequence[Judgment], labelled: Iterable[tuple[str, str, str]]
                   ) -> tuple[int, int]:
    """(labelled, total) over the judged items (content x metric, whichever judge)."""
    items = {j.item for j in judgments}
    return len(items & set(labelled)), len(items)


def _pairs(judgments: Iterable[Judgment], authors: dict[tuple[str, str, str], Label]
           ) -> dict[tuple[str, str], dict[tuple[str, str], tuple[float, float]]]:
    """{(judge, metric): {(content, prompt version): (judge value, author value)}}."""
    out: dict[tuple[str, str], dict[tuple[str, str], tuple[float, float]]] = {}
    for j in judgments:
        label = authors.get(j.item)
        if label is not None:
            out.setdefault((j.judge_model, j.metric), {})[(j.content_hash, j.prompt_version)] = \
                (j.value, label.author_value)
    return out


def agreement_rows(judgments: Iterable[Judgment], labels: Iterable[Label],
                   repeats: dict[tuple[str, str, str, str, str], list[float]] | None = None,
                   bar: CalibrationBar | None = None) -> list[JudgeAgreement]:
    """One row per (judge, metric or criterion) with labels: agreement, self-consistency and
    a cross-validated map. Trial judgments meet the author's value by content; rubric labels
    bring the judge value the author saw."""
    bar = bar or CalibrationBar()
    labels = list(labels)
    authors = {(lb.kind, lb.content_hash, lb.metric): lb for lb in labels}
    pairs = _pairs(judgments, authors)
    kinds: dict[tuple[str, str], str] = {}
    for lb in labels:
        if lb.kind == "rubric" and lb.judge_value is not None:
            pairs.setdefault((lb.judge_model, lb.metric), {})[(lb.content_hash,
                                                               lb.prompt_version)] = \
                (lb.judge_value, lb.author_value)
            kinds[(lb.judge_model, lb.metric)] = "rubric"
    rows = []
    for (judge, metric), items in sorted(pairs.items()):
        js = [v[0] for v in items.values()]
        au = [v[1] for v in items.values()]
        kind = kinds.get((judge, metric), "trial")
        row = agreement(js, au, judge_name=judge, metric=metric, kind=kind, bar=bar)
        row.self_consistency = self_consistency(
            [v for (k, _c, m, jm, _p), v in (repeats or {}).items()
             if k == kind and m == metric and jm == judge])
        if judge not in ("grader", "overall"):
            row.mapping = fit_mapping(js, au)
        rows.append(row)
    return rows


def metric_status(rows: Iterable[JudgeAgreement]) -> dict[str, Status]:
    """Per metric or criterion: the worst status over its judges."""
    out: dict[str, Status] = {}
    for r in rows:
        if r.metric not in out or _RANK[r.status] < _RANK[out[r.metric]]:
            out[r.metric] = r.status
    return out


def calibrated_lift(run: RunRecord, trials: Sequence[TrialRecord], judgments: Sequence[Judgment],
                    rows: Sequence[JudgeAgreement], report: LiftReport) -> dict[str, CalibratedLift]:
    """Each judged metric's lift from the raw values and through the applied maps."""
    from skillforge.lift.compute import lift_for_run

    maps = {(r.judge, r.metric): r.mapping for r in rows
            if r.kind == "trial" and r.mapping is not None and r.mapping.applied}
    if not maps:
        return {}
    values: dict[tuple[str, str, int], dict[str, list[float]]] = {}
    mapped: dict[str, set[str]] = {}
    for j in judgments:
        if j.metric not in JUDGED_METRICS or j.run_id != report.run_id:
            continue
        mp = maps.get((j.judge_model, j.metric))
        v = float(apply_knots(mp.x, mp.y, [j.value])[0]) if mp else j.value
        if mp:
            mapped.setdefault(j.metric, set()).add(j.judge_model)
        values.setdefault((j.case_id or "", j.condition or "", j.attempt or 0), {}) \
            .setdefault(j.metric, []).append(v)
    changed = []
    for t in trials:
        got = values.get(t.key)
        if got:
            t = t.model_copy(update={"metrics": {**t.metrics, **{
                m: sum(v) / len(v) for m, v in got.items() if m in mapped}}})
        changed.append(t)
    cal = lift_for_run(run, changed, ci=report.extra.ci_method,
                       conditions=tuple(report.conditions[:2]))
    out = {}
    for m in sorted(mapped):
        raw, new = report.metrics.get(m), cal.metrics.get(m)
        if raw is None or new is None:
            continue
        out[m] = CalibratedLift(
            raw=raw.lift, raw_ci=(raw.ci_low, raw.ci_high) if raw.ci_low is not None else None,
            calibrated=new.lift,
            calibrated_ci=(new.ci_low, new.ci_high) if new.ci_low is not None else None,
            n=new.n, judges_mapped=sorted(mapped[m]))
    return out


def calibration_for_run(store: Any, run: RunRecord, trials: Sequence[TrialRecord],
                        report: LiftReport, bar: CalibrationBar | None = None
                        ) -> CalibrationReport | None:
    """`extra.calibration` of a run; None when the skill has no label at all (nothing to say)."""
    bar = bar or CalibrationBar()
    labels = store.labels(skill=run.skill_name) if run.skill_name else store.labels()
    if not labels:
        return None
    this_run = run_judgments(store, run.run_id)
    seen: dict[tuple[str, str, str, str], Judgment] = {}
    for other in store.runs():
        if other.skill_name != run.skill_name:
            continue
        for j in (this_run if other.run_id == run.run_id else run_judgments(store, other.run_id)):
            seen.setdefault((*j.item, j.judge_model), j)
    rows = agreement_rows(seen.values(), labels, store.repeated_judgments(), bar)
    labelled, total = label_progress(this_run, {(lb.kind, lb.content_hash, lb.metric)
                                                for lb in labels})
    return CalibrationReport(bar=bar, judgments=total, labelled=labelled, rows=rows,
                             status=metric_status(rows),
                             lift=calibrated_lift(run, trials, this_run, rows, report))
