"""Past runs at a glance: one `RunOverview` per stored run, for the runs list and the CLI;
which runs are one skill's; and a cheap stamp of the store, so an open workbench sees runs
that other processes (`skillforge trial` in a shell) start and finish."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sessions.store import DB_NAME, RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.report.headline import headline_verdict
from skillforge.models.trial import RunRecord, TrialRecord


class FailedTrial(BaseModel):
    """A trial that ended in error or timeout, and why."""

    case_id: str
    condition: str
    attempt: int
    status: str
    error: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.case_id, self.condition, self.attempt)


class RunOverview(BaseModel):
    """A stored run: when, which skill, how its trials ended, and its overall lift."""

    run_id: str
    created_at: datetime
    skill_name: str | None = None
    status: str
    engine: str
    trials: int = 0
    ok: int = 0
    errors: int = 0  # error + timeout
    cancelled: int = 0
    overall_lift: float | None = None
    overall_verdict: str | None = None
    model: str | None = None
    failures: list[FailedTrial] = []
    # A run that stopped when decided: "interval: anytime-valid, stopped at round 2 because
    # decided helps" (None for other runs).
    stopped: str | None = None


def overview(run: RunRecord, trials: list[TrialRecord]) -> RunOverview:
    """Counts and the overall lift of one run (lift only when both conditions were run)."""
    statuses = [t.status for t in trials]
    lift = verdict = stopped = None
    conditions = {t.condition for t in trials}
    if {"with_skill", "baseline"} <= conditions:
        report = lift_for_run(run, trials)
        row = report.metrics.get("overall")
        if row is not None and row.lift is not None:
            # Coloured as the headline reads (the grader or the pass rate can decide it).
            lift, verdict = row.lift, headline_verdict(report)[0]
        if report.extra.rounds is not None:
            stopped = report.extra.rounds.sentence()
    return RunOverview(
        run_id=run.run_id, created_at=run.created_at, skill_name=run.skill_name,
        status=run.status, engine=run.engine, trials=len(trials), ok=statuses.count("ok"),
        errors=statuses.count("error") + statuses.count("timeout"),
        cancelled=statuses.count("cancelled"), overall_lift=lift, overall_verdict=verdict,
        model=run.spec.model if run.spec else None,
        failures=[FailedTrial(case_id=t.case_id, condition=t.condition, attempt=t.attempt,
                              status=t.status, error=t.error)
                  for t in trials if t.status in ("error", "timeout")],
        stopped=stopped,
    )


OverviewCache = dict[str, tuple[int, RunOverview]]


def run_overviews(store: RunStore, limit: int = 100, *, runs: Sequence[RunRecord] | None = None,
                  cache: OverviewCache | None = None) -> list[RunOverview]:
    """The newest `limit` of `runs` (default: the store's), newest first. With `cache` (the
    caller keeps it between calls) a run whose record and trials did not change is not
    summarised again: its lift is the costly part (~90 ms for 48 trials, ~2 ms to compare)."""
    out = []
    for run in (store.runs() if runs is None else runs)[:limit]:
        trials = store.trials(run.run_id)
        if cache is None:
            out.append(overview(run, trials))
            continue
        stamp = hash((run.model_dump_json(), *(t.model_dump_json() for t in trials)))
        hit = cache.get(run.run_id)
        if hit is None or hit[0] != stamp:
            hit = cache[run.run_id] = (stamp, overview(run, trials))
        out.append(hit[1])
    return out


def runs_of_skill(runs: Sequence[Any], skill_dir: Path, name: str,
                  launch_dir: Path) -> list[Any]:
    """The runs (RunRecords) of the skill at `skill_dir`: stored from that folder (a relative
    path is from the launch directory) or under its name (trigger loops run a copy)."""
    here = os.path.abspath(skill_dir)
    return [r for r in runs if r.skill_name == name or (
        r.skill_path and os.path.abspath(os.path.join(launch_dir, r.skill_path)) == here)]


def store_stamp(state_dir: Path) -> tuple | None:
    """Changes whenever anything writes the store at `state_dir` (None: no store yet): the
    time and size of its database and of its write-ahead log, which every commit touches.
    Two stats, cheap enough to look at every few seconds."""
    stamp = []
    for name in (DB_NAME, f"{DB_NAME}-wal"):
        try:
            st = (Path(state_dir) / name).stat()
        except OSError:
            stamp.append(None)
            continue
        stamp.append((st.st_mtime_ns, st.st_size))
    return tuple(stamp) if stamp[0] is not None else None
