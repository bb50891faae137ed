"""Which judge to trust: the judge models ranked by agreement with the author's labels of one
skill (issue 19). `skillforge judge --compare-judges` and the Lift tab's agreement view both
rank with `rank`, over rows built by `compare_rows`, so they put the judges in one order.

- `compare_rows(judgments, labels, repeats, bar)`: every judge's values meet the author's
  label of the same content and metric, whichever judge the author saw when labelling (the
  author's value does not depend on the judge). Rubric judgments are compared through the
  content like trial ones, so a model that judged the skill after the labelling is compared
  too; self-consistency counts the repeats of either kind.
- `rank(rows)`: one entry per judge model (the grader's pass is not a judge's), by mean
  weighted kappa over its labelled metrics and criteria when every judge has one, then by the
  mean absolute error scaled to 0-1; else by that error alone.
- `skill_agreement(store, skill, bar, configured, report)`: what the agreement view shows,
  read from the run store only (no judge is called): the trial judgments of every run of the
  skill, the recorded rubric judgments and the labels' own judge values, the ranking, and the
  shown run's raw and calibrated lift of each judged metric (`report.extra.calibration`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skillforge.lift.calibration_run import agreement_rows, run_judgments
from skillforge.models.labels import (
    GRADER_JUDGES,
    TRIAL_LABEL_METRICS,
    CalibratedLift,
    CalibrationBar,
    JudgeAgreement,
    Judgment,
    Label,
    Status,
    scale_max,
)
from skillforge.models.lift import LiftReport
from skillforge.models.trial import JUDGED_METRICS


def rank(rows: list[JudgeAgreement]) -> list[dict[str, Any]]:
    """One entry per judge: mean kappa and scaled MAE over its labelled metrics, best first."""
    judges: dict[str, list[JudgeAgreement]] = {}
    for r in rows:
        if r.judge not in GRADER_JUDGES and r.n:
            judges.setdefault(r.judge, []).append(r)
    out = []
    for judge, rs in judges.items():
        kappas = [r.kappa for r in rs if r.kappa is not None]
        maes = [r.mae / scale_max(r.metric) for r in rs if r.mae is not None]
        out.append({"judge": judge, "labels": sum(r.n for r in rs),
                    "mean_kappa": sum(kappas) / len(kappas) if kappas else None,
                    "mean_mae": sum(maes) / len(maes) if maes else None,
                    "not_calibrated": sorted(r.metric for r in rs if r.status == "not calibrated"),
                    "rows": [r.model_dump(mode="json") for r in rs]})
    # Kappa first when every judge has one (it is undefined on too uniform labels), else
    # the mean absolute error alone.
    by_kappa = all(d["mean_kappa"] is not None for d in out)
    out.sort(key=lambda d: (-d["mean_kappa"] if by_kappa else 0,
                            d["mean_mae"] if d["mean_mae"] is not None else 9))
    return out


def _as_trial(x: Any) -> Any:
    return x.model_copy(update={"kind": "trial"}) if x.kind == "rubric" else x


def compare_rows(judgments: Iterable[Judgment], labels: Iterable[Label],
                 repeats: dict[tuple[str, str, str, str, str], list[float]] | None = None,
                 bar: CalibrationBar | None = None) -> list[JudgeAgreement]:
    """Agreement rows of every judge with the author's latest label of each content and
    metric (see the module docstring); rubric rows keep kind "rubric"."""
    authors = {(lb.kind, lb.content_hash, lb.metric): lb for lb in labels}  # latest wins
    merged: dict[tuple[str, str, str, str, str], list[float]] = {}
    for (_kind, content, metric, judge, version), values in (repeats or {}).items():
        merged.setdefault(("trial", content, metric, judge, version), []).extend(values)
    rows = agreement_rows([_as_trial(j) for j in judgments],
                          [_as_trial(lb) for lb in authors.values()], merged, bar)
    for r in rows:
        if r.metric not in TRIAL_LABEL_METRICS:
            r.kind = "rubric"
    return rows


def label_judgments(labels: Iterable[Label]) -> list[Judgment]:
    """The judge value each rubric label was given against, as a judgment."""
    return [Judgment(kind=lb.kind, content_hash=lb.content_hash, metric=lb.metric,
                     judge_model=lb.judge_model, prompt_version=lb.prompt_version,
                     value=lb.judge_value, skill=lb.skill)
            for lb in labels if lb.kind == "rubric" and lb.judge_value is not None]


def is_configured(judge: str, configured: Sequence[str]) -> bool:
    """A judge named as configured, with or without its provider prefix."""
    bare = judge.split(":", 1)[-1]
    return any(c == judge or c.split(":", 1)[-1] == bare for c in configured)


@dataclass
class LiftPair:
    """One judged metric of the shown run: its raw lift and, when a map applied, the
    calibrated one, side by side."""

    metric: str
    raw: float | None
    raw_ci: tuple[float, float] | None
    calibrated: CalibratedLift | None
    status: Status | None  # None: no label of this metric


@dataclass
class SkillAgreement:
    """The agreement view's data for one skill (and the run shown in the Lift tab)."""

    skill: str | None
    bar: CalibrationBar
    labels: int = 0
    rows: list[JudgeAgreement] = field(default_factory=list)
    ranking: list[dict[str, Any]] = field(default_factory=list)
    configured: list[str] = field(default_factory=list)
    run_id: str | None = None
    lift: list[LiftPair] = field(default_factory=list)

    def rows_of(self, judge: str) -> list[JudgeAgreement]:
        return [r for r in self.rows if r.judge == judge]

    @property
    def grader_rows(self) -> list[JudgeAgreement]:
        return [r for r in self.rows if r.judge in GRADER_JUDGES]

    @property
    def unlabelled_configured(self) -> list[str]:
        """Configured judge models with no labelled judgment of this skill."""
        ranked = [d["judge"] for d in self.ranking]
        return [c for c in self.configured if not any(is_configured(j, [c]) for j in ranked)]


def lift_pairs(report: LiftReport | None) -> list[LiftPair]:
    """Each judged metric of the report with paired cases: raw and calibrated lift."""
    if report is None:
        return []
    cal = report.extra.calibration
    out = []
    for m in JUDGED_METRICS:
        row = report.metrics.get(m)
        if row is None or not row.n:
            continue
        out.append(LiftPair(
            metric=m, raw=row.lift,
            raw_ci=(row.ci_low, row.ci_high) if row.ci_low is not None else None,
            calibrated=cal.lift.get(m) if cal is not None else None,
            status=cal.status.get(m) if cal is not None else None))
    return out


def skill_agreement(store: Any, skill: str | None, bar: CalibrationBar, *,
                    configured: Sequence[str] = (), report: LiftReport | None = None
                    ) -> SkillAgreement:
    """The judges of `skill` against its author's labels, from the run store (see the module
    docstring); `report` is the run shown, for its raw and calibrated lift."""
    out = SkillAgreement(skill=skill, bar=bar, configured=list(configured),
                         run_id=report.run_id if report is not None else None,
                         lift=lift_pairs(report))
    labels = [lb for lb in store.labels() if skill is None or lb.skill in (skill, None)]
    out.labels = len({(lb.kind, lb.content_hash, lb.metric) for lb in labels})
    if not labels:
        return out
    judgments: list[Judgment] = []
    for run in store.runs():
        if skill is None or run.skill_name == skill:
            judgments += run_judgments(store, run.run_id)
    recorded = store.recorded_judgments("rubric", skill)
    seen = {(j.content_hash, j.metric, j.judge_model, j.prompt_version) for j in recorded}
    judgments += recorded + [j for j in label_judgments(labels)
                             if (j.content_hash, j.metric, j.judge_model, j.prompt_version)
                             not in seen]
    out.rows = compare_rows(judgments, labels, store.repeated_judgments(), bar)
    out.ranking = rank(out.rows)
    return out
