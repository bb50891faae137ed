"""Small builders for trial records, so each test reads as the trial set it describes."""

from __future__ import annotations

from skillforge.models.trial import DEFAULT_METRICS, TrialRecord

SIX = DEFAULT_METRICS


def scores(level: float | None = 0.5, **overrides: float | None) -> dict[str, float | None]:
    """All six default metrics at `level`, with some overridden (e.g. accuracy=0.2)."""
    out: dict[str, float | None] = {m: level for m in SIX}
    for name, value in overrides.items():
        if name not in SIX:
            raise KeyError(f"not a default metric: {name}")
        out[name] = value
    return out


def trial(
    case: str,
    condition: str,
    attempt: int = 0,
    *,
    overall: float | None = None,
    metrics: dict[str, float | None] | None = None,
    status: str = "ok",
    **fields,
) -> TrialRecord:
    """One trial; `overall=x` sets all six metrics to x (so the trial's overall is x)."""
    if metrics is None:
        metrics = scores(overall) if overall is not None else {}
    return TrialRecord(
        run_id=fields.pop("run_id", "run-1"),
        case_id=case,
        condition=condition,  # type: ignore[arg-type]
        attempt=attempt,
        status=status,  # type: ignore[arg-type]
        metrics=metrics,
        **fields,
    )


def paired_cases(deltas: list[float], base: float = 0.5, run_id: str = "run-1") -> list[TrialRecord]:
    """One attempt per side per case, with overall(with) - overall(base) = delta."""
    out = []
    for i, d in enumerate(deltas):
        out.append(trial(f"case-{i}", "with_skill", overall=base + d, run_id=run_id))
        out.append(trial(f"case-{i}", "baseline", overall=base, run_id=run_id))
    return out


def grader_harm() -> list[TrialRecord]:
    """Eight graded cases the skill turns from pass (grader 1) to fail (0) while the judged
    accuracy rises on its side: overall (their mean) is inconclusive, the headline, decided
    by the grader and the pass rate, reads "hurts" (the audit's uniform-harm run)."""
    out = []
    for i, acc in enumerate([1.0, 1.0, 0.9, 1.0, 0.8, 1.0, 1.0, 0.7]):
        out.append(trial(f"case-{i}", "with_skill", metrics={"accuracy": acc}, grader=0.0))
        out.append(trial(f"case-{i}", "baseline", metrics={"accuracy": 0.1 * i}, grader=1.0))
    return out
