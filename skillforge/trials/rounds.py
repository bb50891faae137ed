"""Run in rounds and stop when decided (`skillforge trial --until-decided`, issue 38).

    await run_rounds(runner, ctx, plans, todo, done, summary, start_cache)

Round r runs attempt r of every case in every condition (through the runner's own
`run_batch`, so concurrency, skill chains, cancellation and errors behave as in any run),
then recomputes the rounds from the stored trials (skillforge.lift.rounds: anytime-valid
intervals, so looking after every round costs no validity), emits a `RoundDone` event with
the round's interval and, when the rule says so, why the run stops, and keeps the record
in `runs/<run_id>/rounds.json`. Trials of rounds never run are announced `TrialNotNeeded`.
The trial cache's reusable trials (skillforge.trials.cache) of round r are taken into the
run when round r comes, so a run that stops early holds none of the later rounds. A
resumed run recomputes its finished rounds and goes on where it stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text

from skillforge.models.fileio import atomic_write_text
from skillforge.models.rounds import RoundResult, RoundsRecord, StopReason
from skillforge.models.trial import RunSpec
from skillforge.trials.events import TrialKey

if TYPE_CHECKING:
    from sessions.store import RunStore
    from skillforge.trials.run import RunSummary, TrialRunner
    from skillforge.trials.runner import TrialContext, TrialPlan

RECORD_NAME = "rounds.json"


@dataclass(frozen=True)
class RoundDone:
    """A round of an --until-decided run finished: its state, and why the run stops now
    (None: it goes on)."""

    kind: ClassVar[str] = "round"
    result: RoundResult
    max_attempts: int
    margin: float
    reason: StopReason | None = None


@dataclass(frozen=True)
class TrialNotNeeded:
    """A planned trial of a round the run did not need (it stopped before)."""

    kind: ClassVar[str] = "not_needed"
    key: TrialKey


def rounds_problem(spec: RunSpec) -> str | None:
    """Why this spec cannot run until decided (None when it can)."""
    if not spec.until_decided:
        return None
    if not {"with_skill", "baseline"} <= set(spec.conditions):
        return ("--until-decided stops on the lift of with_skill over baseline; add both to "
                "the conditions")
    if not 0 < spec.margin < 2:
        return f"--margin must be in (0, 2) (the width of a lift interval), got {spec.margin}"
    return None


def record_path(store: RunStore, run_id: str) -> Path:
    return store.state_dir / "runs" / run_id / RECORD_NAME


def load_record(store: RunStore, run_id: str) -> RoundsRecord | None:
    """The stored rounds of a run (None when it did not run until decided)."""
    path = record_path(store, run_id)
    try:
        return RoundsRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save(store: RunStore, run_id: str, record: RoundsRecord) -> None:
    path = record_path(store, run_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, record.model_dump_json(indent=1, by_alias=True))


async def run_rounds(runner: TrialRunner, ctx: TrialContext, plans: Sequence[TrialPlan],
                     todo: Sequence[TrialPlan], done: set[TrialKey], summary: RunSummary,
                     start_cache) -> None:
    """Run the planned attempts one round at a time until the rule stops the run."""
    from skillforge.lift.rounds import round_results, stop_reason
    from skillforge.lift.sequential import INTERVAL_NAME, TEST_NAME

    spec = ctx.spec
    record = RoundsRecord(margin=spec.margin, max_attempts=spec.attempts,
                          method=f"{INTERVAL_NAME}; pass/fail: {TEST_NAME}")
    for r in range(1, spec.attempts + 1):
        batch = [p for p in plans if p.attempt == r]
        for p in batch:  # the trial cache's trials of this round, taken now
            if (stored := runner.deferred_reuse.pop(p.key, None)) is not None:
                runner.adopt_reused(summary, p.key, stored)
        try:
            await runner.run_batch(ctx, batch, [p for p in todo if p.attempt == r], done,
                                   summary, start_cache)
        except BaseException:
            record.reason = "cancelled" if runner.cancelled else "failed"
            record.stopped_at = r
            _save(ctx.store, ctx.run_id, record)
            raise
        if runner.cancelled:
            record.reason, record.stopped_at = "cancelled", r
            break
        if runner.cost_cap is not None and runner.cost_cap.stopped:  # --max-cost-usd
            record.reason, record.stopped_at = "the cost cap", r
            break
        stored = [t for t in ctx.store.trials(ctx.run_id) if t.attempt <= r]
        results = round_results(stored, spec.attempts,
                                case_ids=[str(p.case.id) for p in plans if p.attempt == 1],
                                pass_threshold=spec.pass_threshold)
        record.rounds = results
        result = results[-1] if results else RoundResult(round=r)
        reason = stop_reason(result, spec.margin, spec.attempts)
        if reason is not None:
            record.reason, record.stopped_at = reason, r
        _save(ctx.store, ctx.run_id, record)
        runner.emit(RoundDone(result, spec.attempts, spec.margin, reason))
        if reason is not None:
            for p in plans:
                if p.attempt > r:
                    runner.emit(TrialNotNeeded(p.key))
            break
    _save(ctx.store, ctx.run_id, record)


def round_line(result: RoundResult, max_attempts: int) -> str:
    """One round as the CLI and the Trials tab print it."""
    head = result.headline
    text = f"round {result.round}/{max_attempts}: {result.metric}"
    if head is not None and head.ci_low is not None and head.ci_high is not None:
        lift = "-" if head.lift is None else f"{head.lift:+.3f}"
        text += (f" {lift}, 95% anytime-valid [{head.ci_low:+.3f}, {head.ci_high:+.3f}] "
                 f"(width {head.ci_high - head.ci_low:.3f}, {head.n} pairs)")
    else:
        text += " no paired value yet"
    p = result.pass_
    if p is not None:
        text += f"; pass/fail discordant {p.with_only} with / {p.base_only} without, " \
                f"E = {p.e_value:.3g}"
    return text + f": {result.verdict}"


def stop_line(reason: StopReason, round_no: int, not_needed: int) -> str:
    text = f"stopped at round {round_no} because {reason}"
    if not_needed:
        text += f" ({not_needed} planned trial{'s' if not_needed != 1 else ''} not needed)"
    return text


BAR = 33  # characters of the [-1, +1] axis in a round's bar


def interval_bar(low: float, high: float, width: int = BAR) -> Text:
    """The interval on the [-1, +1] axis: ━ inside it, ┼ at zero, · elsewhere."""
    text = Text()
    zero = (width - 1) // 2
    first = round((max(-1.0, low) + 1.0) / 2.0 * (width - 1))
    last = round((min(1.0, high) + 1.0) / 2.0 * (width - 1))
    for i in range(width):
        inside = first <= i <= last
        if i == zero:
            text.append("╋" if inside else "┼", style="bold" if inside else "dim")
        else:
            text.append("━" if inside else "·", style="cyan" if inside else "dim")
    return text


def round_texts(progress: Any) -> list[Text]:
    """The rounds of an --until-decided run as the live views show them: one line per
    round with its interval drawn on [-1, +1], then why the run stopped."""
    out = []
    for event in progress.rounds:
        result = event.result
        head = result.headline
        line = Text(f"round {result.round:>2} ", style="bold")
        if head is not None and head.ci_low is not None and head.ci_high is not None:
            line.append_text(interval_bar(head.ci_low, head.ci_high))
        line.append(" " + round_line(result, event.max_attempts).split(": ", 1)[1],
                    style={"helps": "green", "hurts": "red"}.get(result.verdict, ""))
        out.append(line)
    last = progress.rounds[-1] if progress.rounds else None
    if last is not None and last.reason is not None:
        skipped = sum(1 for c in progress.cells.values() if c.status == "not_needed")
        out.append(Text(stop_line(last.reason, last.result.round, skipped),
                        style="bold green" if last.reason.startswith("decided") else "bold"))
    elif progress.rounds and progress.status in ("cancelled", "failed"):
        out.append(Text(f"stopped: the run was {progress.status}", style="bold magenta"))
    return out
