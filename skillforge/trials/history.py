"""Past runs at a glance: one `RunOverview` per stored run, for the runs list and the CLI."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from sessions.store import RunStore
from skillforge.lift.compute import lift_for_run
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


def overview(run: RunRecord, trials: list[TrialRecord]) -> RunOverview:
    """Counts and the overall lift of one run (lift only when both conditions were run)."""
    statuses = [t.status for t in trials]
    lift = verdict = None
    conditions = {t.condition for t in trials}
    if {"with_skill", "baseline"} <= conditions:
        report = lift_for_run(run, trials)
        row = report.metrics.get("overall")
        if row is not None and row.lift is not None:
            lift, verdict = row.lift, row.verdict
    return RunOverview(
        run_id=run.run_id, created_at=run.created_at, skill_name=run.skill_name,
        status=run.status, engine=run.engine, trials=len(trials), ok=statuses.count("ok"),
        errors=statuses.count("error") + statuses.count("timeout"),
        cancelled=statuses.count("cancelled"), overall_lift=lift, overall_verdict=verdict,
        model=run.spec.model if run.spec else None,
        failures=[FailedTrial(case_id=t.case_id, condition=t.condition, attempt=t.attempt,
                              status=t.status, error=t.error)
                  for t in trials if t.status in ("error", "timeout")],
    )


def run_overviews(store: RunStore, limit: int = 100) -> list[RunOverview]:
    """The newest `limit` runs of a store, newest first."""
    return [overview(run, store.trials(run.run_id)) for run in store.runs()[:limit]]
