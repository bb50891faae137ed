"""`skillforge trial --sweep-decoys COUNTS`: one paired run per decoy count, then the table
(or JSON) of lift, routing precision and wall time per count (skillforge.trials.decoys)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import NoReturn

import click

from sessions.store import RunStore
from skillforge.cli.stops import Stops
from skillforge.cli.trial import _fail
from skillforge.cli.trial_display import Display
from skillforge.models.llm import ProviderNotConfigured
from skillforge.providers import PriceTableError
from skillforge.sandbox import SandboxUnavailable
from skillforge.trials.config import TrialConfigError
from skillforge.trials.decoys import (
    DecoyError,
    SweepPoint,
    SweepReport,
    parse_counts,
    run_sweep,
    sweep_table,
)
from skillforge.trials.run import RunError


def sweep(settings, store: RunStore, skill_dir: Path, counts_text: str, *, overrides: dict,
          source: Path | None, seed: int, judge: bool, judge_models: tuple[str, ...],
          ci: str, fmt: str, display: Display) -> NoReturn:
    """`--sweep-decoys`: one paired run per count, then the table (or JSON) and the exit."""
    try:
        counts = parse_counts(counts_text)
    except DecoyError as exc:
        raise click.BadParameter(str(exc), param_hint="--sweep-decoys") from None

    def on_point(point: SweepPoint) -> None:
        lift = "-" if point.lift_overall is None else f"{point.lift_overall:+.3f}"
        display.notes.print(f"[dim]{point.decoys} decoys: run {point.run_id}, {point.ok}/"
                            f"{point.trials} trials ok, lift overall {lift}, "
                            f"{point.wall_s:.1f} s[/]")

    stops = Stops()

    async def main() -> SweepReport:
        stops.install()
        go = run_sweep(settings, store, skill_dir, counts, overrides=overrides, source=source,
                       seed=seed, judge=judge, judge_models=judge_models, ci=ci,
                       on_event=display, warn=display.warn, on_point=on_point)
        if display.live is not None:
            with display.live:
                return await go
        return await go

    try:
        report = asyncio.run(main())
    except KeyboardInterrupt:
        _fail("interrupted: the sweep stopped; runs finished so far are stored (`skillforge "
              "report` lists them)", 130)
    except asyncio.CancelledError:
        if stops.received is None:
            raise
        _fail(f"stopped by {stops.received.name}: the sweep stopped; runs finished so far are "
              "stored (`skillforge report` lists them)", stops.exit_code())
    except ProviderNotConfigured as exc:
        _fail(f"trials need an LLM provider for the agent.\n{exc}")
    except (TrialConfigError, RunError, PriceTableError, DecoyError, SandboxUnavailable) as exc:
        _fail(str(exc))
    if fmt == "json":
        click.echo(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        display.out.print()
        display.out.print(sweep_table(report))
    dead = [p for p in report.points if p.ok == 0]
    if dead:
        _fail("no trial finished ok at " + ", ".join(f"{p.decoys} decoys (run {p.run_id})"
                                                    for p in dead)
              + "; `skillforge report RUN_ID` shows why")
    sys.exit(0)
