"""`skillforge trial --require-calibrated`: the gate on the judges' agreement with the author's
labels (issue 19), the same as `skillforge report --require-calibrated`
(skillforge.report.calibration.gate_failures), under the skill's own [judge] bar."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skillforge.cli.common import settings_for
from skillforge.models.labels import CalibrationBar
from skillforge.models.lift import LiftReport
from skillforge.models.trial import RunRecord, TrialRecord


def calibration_bar(settings: Any, skill_path: str | None) -> CalibrationBar:
    """[judge] calibration_kappa and calibration_min_labels of the skill (`settings`, or for
    a resumed run those of its stored skill folder)."""
    if settings is None:
        path = Path(skill_path) if skill_path else None
        settings = settings_for(path if path is not None and path.is_dir() else None)
    return CalibrationBar(min_kappa=settings.judge.calibration_kappa,
                          min_labels=settings.judge.calibration_min_labels)


def calibration_failures(store: Any, run: RunRecord | None, trials: list[TrialRecord],
                         lift: LiftReport | None, bar: CalibrationBar) -> list[str]:
    """Each judged metric of the run not shown calibrated, as gate failures; the run's lift
    gets its `extra.calibration` (so `--format json` carries it)."""
    if lift is None or run is None:
        return ["calibration: no Skill Lift to check (the run has no with_skill and baseline "
                "trials to pair)"]
    from skillforge.lift.calibration_run import calibration_for_run
    from skillforge.report.calibration import gate_failures

    lift.extra.calibration = calibration_for_run(store, run, trials, lift, bar)
    return [f"calibration: {f}" for f in gate_failures(lift)]
