"""Where a report comes from: a stored run (recomputed from its trials) or a lift.json file.

A run's report is recomputed from the run store every time, so `--ci bootstrap` and a
re-judged metric show up without a separate step; a lift.json file is shown as written.
For each negative case, one trajectory per side goes to the side-by-side view: the attempt
whose overall is closest to that side's case score (the most representative one).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sessions.store import DB_NAME, RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.lift.agreement import run_agreement
from skillforge.lift.calibration_run import calibration_for_run
from skillforge.lift.cases import trial_overall
from skillforge.lift.skillcraft import attach_skillcraft, lift_conditions, skillcraft_for_run
from skillforge.models.labels import CalibrationBar
from skillforge.models.lift import CiMethod, LiftReport
from skillforge.models.trial import RunRecord, TrialRecord
from skillforge.report.triggers import attach_triggers, trigger_report

Trajectories = dict[str, dict[str, dict[str, Any]]]
LATEST = "latest"


class ReportSourceError(LookupError):
    """No such run, store or file; the message says what exists and what to do."""


def _representative(trials: list[TrialRecord]) -> TrialRecord | None:
    """The attempt whose overall is closest to the side's mean (lowest attempt on ties)."""
    scored = [(t, v) for t in trials if (v := trial_overall(t)) is not None]
    if not scored:
        return min(trials, key=lambda t: t.attempt, default=None)
    centre = sum(v for _, v in scored) / len(scored)
    return min(scored, key=lambda tv: (abs(tv[1] - centre), tv[0].attempt))[0]


def _read_json(path: Path, warn: Callable[[str], None]) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        warn(f"trajectory {path} is missing; the side-by-side view leaves it out")
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warn(f"cannot read trajectory {path} ({exc}); the side-by-side view leaves it out")
        return None
    if not isinstance(data, dict):
        warn(f"trajectory {path} is not a JSON object; the side-by-side view leaves it out")
        return None
    return data


def negative_trajectories(store: RunStore, report: LiftReport, trials: list[TrialRecord],
                          warn: Callable[[str], None]) -> Trajectories:
    """{case_id: {condition: ATIF dict}} for the report's negative cases."""
    wanted = {n.case_id for n in report.negative_cases}
    if not wanted:
        return {}
    stored = {(r.case_id, r.condition, r.attempt): r.path
              for r in store.trajectories(report.run_id) if r.case_id in wanted}
    out: Trajectories = {}
    for case_id in sorted(wanted):
        for condition in report.conditions:
            side = [t for t in trials if t.case_id == case_id and t.condition == condition]
            pick = _representative(side)
            if pick is None:
                continue
            path = stored.get((case_id, condition, pick.attempt))
            if path is None and pick.trajectory_path:
                path = Path(pick.trajectory_path)
                if not path.is_absolute():
                    path = store.state_dir / path
            if path is None:
                continue
            data = _read_json(Path(path), warn)
            if data is not None:
                out.setdefault(case_id, {})[condition] = data
    return out


def run_lift(store: RunStore, record: RunRecord, trials: list[TrialRecord], *,
             ci: CiMethod | None = None, bar: CalibrationBar | None = None) -> LiftReport:
    """A stored run's lift report: with_skill vs baseline (skill_mode vs baseline for a run
    with no with_skill trial), judge agreement, and SkillCraft's metrics under
    `extra.skillcraft` when the run has skill-mode trials. The TUI's Lift tab calls it too
    (`ci` None: lift_for_run's default interval)."""
    agreement = run_agreement(store.metrics(record.run_id))
    options = {"ci": ci} if ci is not None else {}
    report = lift_for_run(record, trials, judge_agreement=agreement,
                          conditions=lift_conditions(trials), **options)
    report = attach_skillcraft(report, skillcraft_for_run(
        record, trials, store.skill_mode_trials(record.run_id), ci=ci))
    # The judges' agreement with the author's labels, when the skill has any (issue 19).
    report.extra.calibration = calibration_for_run(store, record, trials, report, bar)
    report.extra.ablation = run_ablation(store, record, trials, report.extra.ci_method)
    # A trigger run's description loop (issue 21), recomputed from the store.
    return attach_triggers(report, trigger_report(store.state_dir, record, store.trials))


def run_ablation(store: RunStore, record: RunRecord, trials: list[TrialRecord],
                 ci: CiMethod):
    """The lift of each part of the skill (issue 18), for a run with `without:<part>` trials
    (else None); routing precision per side when the run had decoys."""
    from skillforge.lift.ablation import compute_ablation, routing_values

    spec = record.spec
    return compute_ablation(
        trials, spec.parts if spec else [], case_ids=(spec.case_ids or None) if spec else None,
        pass_threshold=spec.pass_threshold if spec else 0.6, ci=ci,
        routing=routing_values(store.metrics(record.run_id))
        if spec is not None and spec.decoy_skills else None)


def load_run_report(state_dir: Path | str, run: str = LATEST, *, ci: CiMethod = "bounded",
                    warn: Callable[[str], None] | None = None,
                    bar: CalibrationBar | None = None) -> tuple[LiftReport, Trajectories]:
    """The lift report of a stored run (`latest` or a run id) and its negative cases' trajectories.

    Raises ReportSourceError when the store or the run does not exist; never creates a store.
    """
    db = Path(state_dir) / DB_NAME
    if not db.is_file():
        raise ReportSourceError(
            f"no run store at {db}: run `skillforge trial` first, point --state-dir at the "
            "folder that holds skillforge.db, or pass a lift.json file")
    with RunStore(state_dir) as store:
        record = store.latest_run() if run == LATEST else store.run(run)
        if record is None:
            known = [r.run_id for r in store.runs()[:5]]
            hint = f"recent runs: {', '.join(known)}" if known else "the store has no runs yet"
            what = "no runs" if run == LATEST else f"no run {run!r}"
            raise ReportSourceError(f"{what} in {db} ({hint}); pass a run id, `latest`, or a "
                                    "lift.json file")
        trials = store.trials(record.run_id)
        report = run_lift(store, record, trials, ci=ci, bar=bar)
        trajectories = negative_trajectories(store, report, trials, warn or (lambda _m: None))
    return report, trajectories
