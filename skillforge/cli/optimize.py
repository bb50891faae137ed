"""`skillforge optimize-description PATH`: trigger evals and a description loop with a held-out
test; the result is a proposal the author accepts with --write (or `--apply LOOP_ID` later).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import NoReturn

import click

from skillforge.cli.common import settings_for, shown_path


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"skillforge optimize-description: {message}", err=True)
    sys.exit(code)


def _pct(p) -> str:
    if p is None or p.value is None:
        return "-"
    return f"{p.value:.2f} [{p.ci_low:.2f}, {p.ci_high:.2f}] ({p.k}/{p.n})"


def render_text(history) -> str:
    """The loop's result as the author reads it: table, comparison, flips, diff."""
    import difflib

    lines = [f"Description loop {history.loop_id} for {history.skill} ({history.status}; "
             f"agent {history.agent_model}, proposer {history.proposer_model}, "
             f"{len(history.train)} train / {len(history.test)} test queries, "
             f"{history.settings.runs} run(s) each, {len(history.decoy_skills)} decoy(s))", "",
             f"{'iter':>4}  {'status':<13} {'train accuracy':<28} {'test accuracy':<28} "
             "description"]
    for a in history.attempts:
        train = _pct(a.train.accuracy) if a.train else "-"
        test = _pct(a.test.accuracy) if a.test else "-"
        desc = a.description if len(a.description) <= 70 else a.description[:69] + "…"
        lines.append(f"{a.iteration:>4}  {a.status:<13} {train:<28} {test:<28} {desc}")
        if a.note:
            lines.append(f"{'':>6}{a.note}")
    cur = history.current
    if cur is not None and cur.test is not None:
        lines += ["", "Current description on the test queries: accuracy "
                  f"{_pct(cur.test.accuracy)}, precision {_pct(cur.test.precision)}, "
                  f"recall {_pct(cur.test.recall)}"]
    comp, best = history.comparison, history.best
    if comp is not None and best is not None and best.test is not None:
        lines.append(f"Best: iteration {comp.best_iteration}, test accuracy "
                     f"{_pct(best.test.accuracy)}, precision {_pct(best.test.precision)}, "
                     f"recall {_pct(best.test.recall)}")
        if comp.warning:
            lines.append(f"warning: {comp.warning}")
    if history.flips:
        lines += ["", "Queries that flipped (current -> best):"]
        for f in history.flips:
            mark = "fixed" if f.now_correct else "broken"
            want = "should trigger" if f.should_trigger else "should not"
            lines.append(f"  [{f.split}] {f.id} ({want}): rate {_rate(f.rate_before)} -> "
                         f"{_rate(f.rate_after)}, {mark}: {f.query[:80]}")
    if best is not None and cur is not None and comp is not None and comp.best_iteration:
        lines += ["", "Proposed description (diff):"]
        lines += [ln.rstrip("\n") for ln in difflib.unified_diff(
            [f"description: {cur.description}\n"], [f"description: {best.description}\n"],
            "SKILL.md (current)", "SKILL.md (proposed)")]
    return "\n".join(lines)


def _rate(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


def _write(skill_dir: Path, history, store_dir: Path, err: bool = False) -> str | None:
    """Write the best description into SKILL.md and record it in loop.json. Returns why
    nothing was written when SKILL.md could not be changed (the caller exits 2), else None."""
    from datetime import UTC, datetime

    from skillforge.authoring.describe_loop import loop_dir, save_history
    from skillforge.authoring.description_edit import DescriptionEditError, write_description

    best, cur, comp = history.best, history.current, history.comparison
    if best is None or cur is None or comp is None or comp.best_iteration == 0:
        click.echo("nothing written: the current description stays (no candidate beat it on "
                   "the test queries)", err=err)
        return None
    try:
        path = write_description(skill_dir, best.description, expect=cur.description)
    except DescriptionEditError as exc:
        return f"{exc}; nothing was written"
    history.written_at = datetime.now(UTC)
    save_history(loop_dir(store_dir, history.loop_id), history)
    click.echo(f"wrote the description of iteration {comp.best_iteration} to "
               f"{shown_path(path)}" + (" (within noise: see the warning)"
                                        if comp.within_noise else ""), err=err)
    return None


@click.command("optimize-description")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--iterations", type=click.IntRange(0, 20), default=5, show_default=True,
              help="Descriptions the model proposes after the current one.")
@click.option("--runs", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Trigger trials per query and description.")
@click.option("--holdout", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.4, show_default=True, help="Share of each class held out as test.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the split and the decoy choice.")
@click.option("--model", default=None, metavar="MODEL", help="The agent's model in the trials.")
@click.option("--proposer-model", default=None, metavar="MODEL",
              help="The model that proposes descriptions (default: --model).")
@click.option("--max-turns", type=click.IntRange(1, 30), default=3, show_default=True,
              help="Turns a trigger trial runs; activation after them is not counted.")
@click.option("--decoys", type=click.IntRange(0, 50), default=5, show_default=True,
              help="Decoy skills beside the target (fewer when fewer are usable).")
@click.option("--decoys-from", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder of skill folders to take decoys from (default: the skill's "
                   "neighbours).")
@click.option("--sandbox", type=click.Choice(["docker", "local"]), default=None)
@click.option("--image", default=None, help="Trial image (default [trial] image).")
@click.option("--concurrency", type=click.IntRange(1, 64), default=None,
              help="Trials at once (default [trial] concurrency).")
@click.option("--dry-run", is_flag=True,
              help="Print the trials, tokens and estimated cost (an upper bound, from the "
                   "price table and a stated assumption), and stop.")
@click.option("--max-cost-usd", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="X", help="Hard cap on the loop's spend in USD (trigger trials and "
                                "proposer, priced from their recorded tokens): nothing starts "
                                "that would pass it; the loop stops with what was scored in "
                                "full, exit 2.")
@click.option("--write", is_flag=True,
              help="Write the best description into SKILL.md (only the description changes).")
@click.option("--apply", "apply_id", default=None, metavar="LOOP_ID",
              help="Write the best description of a finished loop (no trials run).")
@click.option("--state-dir", type=click.Path(path_type=Path, file_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints the loop history (loop.json) only.")
def optimize_description(path: Path, iterations: int, runs: int, holdout: float, seed: int,
                         model: str | None, proposer_model: str | None, max_turns: int,
                         decoys: int, decoys_from: Path | None, sandbox: str | None,
                         image: str | None, concurrency: int | None, dry_run: bool,
                         max_cost_usd: float | None, write: bool, apply_id: str | None,
                         state_dir: Path | None,
                         fmt: str) -> None:
    """Optimise a skill's description for triggering, with a held-out test set.

    The trigger queries are the evals.json cases with "should_trigger" true or false. They
    are split (stratified, --holdout to test); the current description and then each
    proposal are run as trigger trials: the agent sees the skill among decoy skills and the
    query, and a run counts as triggered when it reads the skill's SKILL.md or runs its
    script (within --max-turns turns). Each iteration the model proposes a description from
    the training failures and the earlier attempts (never the test queries or scores); it
    is linted first. The best by test accuracy is proposed, with a warning when its
    difference to the current one is within noise. Nothing is written without --write.
    """
    from sessions.store import RunStore
    from skillforge.trials.config import skill_root

    if not path.exists():
        raise click.UsageError(f"{path}: no such skill folder; pass a folder holding SKILL.md")
    skill_dir = skill_root(path).resolve()
    settings = settings_for(skill_dir)
    store_dir = state_dir or Path(settings.state_dir)
    if apply_id:
        from skillforge.authoring.describe_loop import load_history, loop_dir

        try:
            history = load_history(loop_dir(store_dir, apply_id))
        except (OSError, ValueError) as exc:
            _fail(f"no loop {apply_id!r} under {shown_path(store_dir)}/triggers ({exc})")
        if Path(history.skill_path).resolve() != skill_dir:
            _fail(f"loop {apply_id} optimised {history.skill_path}, not {skill_dir}")
        # As after a run: with --format json, stdout holds the loop history (loop.json, with
        # written_at set when the description was written) and nothing else.
        failure = _write(skill_dir, history, store_dir, err=fmt == "json")
        if fmt == "json":
            click.echo(history.model_dump_json(indent=2))
        if failure:
            _fail(failure)
        return
    _run(skill_dir, settings, RunStore(store_dir), store_dir, fmt=fmt, dry_run=dry_run,
         write=write, options=dict(
             iterations=iterations, runs=runs, holdout=holdout, seed=seed, max_turns=max_turns,
             decoys=decoys, decoys_from=str(decoys_from) if decoys_from else None,
             model=model, proposer_model=proposer_model, max_cost_usd=max_cost_usd,
             trial={k: v for k, v in {"sandbox": sandbox, "image": image,
                                      "concurrency": concurrency}.items() if v is not None}))


def _run(skill_dir: Path, settings, store, store_dir: Path, *, fmt: str, dry_run: bool,
         write: bool, options: dict) -> None:
    from skillforge.cli.stops import Stops
    from skillforge.authoring.describe_setup import LoopOptions, LoopSetupError, prepare_loop
    from skillforge.models.llm import ProviderError, ProviderNotConfigured
    from skillforge.providers import aclose
    from skillforge.providers.prices import PriceTableError
    from skillforge.sandbox import SandboxUnavailable
    from skillforge.trials.config import TrialConfigError
    from skillforge.trials.run import RunError

    def warn(message: str) -> None:
        click.echo(f"warning: {message}", err=True)

    def progress(history) -> None:
        if fmt != "text":
            return
        last = history.attempts[-1] if history.attempts else None
        if last is not None:
            done = [s for s in ("train", "test") if getattr(last, s) is not None]
            click.echo(f"iteration {last.iteration}: {last.status}"
                       + (f", scored on {' and '.join(done)}" if done else ""), err=True)

    try:
        plan = prepare_loop(skill_dir, settings, store, LoopOptions(**options), warn=warn,
                            on_progress=progress)
    except ProviderNotConfigured as exc:
        _fail(f"the loop needs an LLM provider for the agent and the proposer.\n{exc}")
    except (LoopSetupError, TrialConfigError, PriceTableError) as exc:
        _fail(str(exc))
    est = plan.estimate
    if fmt == "text" or dry_run:
        out = sys.stdout if fmt == "text" else sys.stderr
        for line in est.lines():
            click.echo(line, file=out)
    if dry_run:
        if fmt == "json":
            click.echo(json.dumps(est.model_dump(mode="json") | {
                "cost_usd": est.cost_usd, "source": est.source}, indent=2))
        asyncio.run(_close(plan, aclose))
        return

    stops = Stops()

    async def main():
        stops.install()
        try:
            return await plan.loop.run()
        finally:
            await _close(plan, aclose)

    cancelled = (f"loop {plan.history.loop_id} is stored as cancelled "
                 f"({shown_path(plan.folder)}) and its containers were removed; nothing was "
                 "written")
    try:
        history = asyncio.run(main())
    except KeyboardInterrupt:
        _fail(f"interrupted: {cancelled}", 130)
    except asyncio.CancelledError:
        if stops.received is None:
            raise
        _fail(f"stopped by {stops.received.name}: {cancelled}", stops.exit_code())
    except (RunError, SandboxUnavailable, ProviderError) as exc:
        _fail(f"{exc} (loop {plan.history.loop_id} stored as failed)")
    failure = None
    if fmt == "json":
        # Written first, so the history printed says whether (written_at) it was.
        if write:
            failure = _write(skill_dir, history, store_dir, err=True)
        click.echo(history.model_dump_json(indent=2))
    else:
        click.echo(render_text(history))
        click.echo(f"\nloop {history.loop_id}: {shown_path(plan.folder / 'loop.json')}")
        if write:
            failure = _write(skill_dir, history, store_dir)
        elif history.comparison and history.comparison.best_iteration:
            click.echo(f"nothing written; accept with `skillforge optimize-description "
                       f"{shown_path(skill_dir)} --apply {history.loop_id}` or `a` in the "
                       "workbench's Triggers tab")
    if failure:
        _fail(failure)
    if history.status == "stopped":
        _fail(f"loop {history.loop_id} {history.error}; the table above holds the attempts "
              "scored in full", 2)


async def _close(plan, aclose) -> None:
    for c in {id(c): c for c in (plan.agent, plan.proposer)}.values():
        await aclose(c)
