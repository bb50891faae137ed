"""`skillforge trial PATH`: paired trials in local containers, with live progress and a gate.

Exit codes: 0 the run finished (with `--gate`: and nothing fails it); 1 `--gate` failed
(skillforge.trials.output.gate_failures) or `--require-calibrated` did (a judged metric's
judges are not shown to agree with the author's labels); 2 bad input, no provider, no
Docker, no trial could finish, or the run stopped at its cost cap (`--max-cost-usd`,
skillforge.trials.budget: the partial results are printed and stored); 130 interrupted,
143 / 129 stopped by SIGTERM / SIGHUP (skillforge.cli.stops): the run is stored as
cancelled, `--resume RUN_ID` finishes it.

`--ablate PART[,PART...]` / `--ablate all` adds one `without:<part>` condition per part of
the skill (skillforge.cli.parts) and ends with each part's lift; `--dry-run` prints the
trials, tokens and cost a run would take and starts nothing (skillforge.trials.estimate).

`--agent claude-code|codex` runs that CLI inside the container (skillforge.harnesses);
`--decoys N` adds decoy skills to both conditions and `--sweep-decoys 0,5,10` runs the
paired trial once per count and prints lift and wall time per count (skillforge.trials.decoys).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import NoReturn

import click
from rich.markup import escape

from sessions.store import RunStore
from skillforge.cli.common import ci_option, settings_for, shown_path
from skillforge.cli.stops import Stops
from skillforge.cli.trial_display import Display
from skillforge.trials.decoys import DecoyError, check_decoys, choose_decoys
from skillforge.harnesses import AGENTS
from skillforge.cli.trial_calibration import calibration_bar, calibration_failures
from skillforge.cli.trial_rounds import rounds_overrides, until_decided_options
from skillforge.lift.compute import lift_for_run
from skillforge.models.labels import CalibrationBar
from skillforge.lift.agreement import run_agreement
from skillforge.models.llm import ProviderNotConfigured
from skillforge.models.trial import BASE_CONDITIONS, is_condition
from skillforge.providers import PriceTableError, aclose
from skillforge.sandbox import SandboxUnavailable
from skillforge.trials.config import (
    TrialConfigError,
    build_run_spec,
    check_harness,
    resolve_skill_paths,
    skill_root,
)
from skillforge.trials.output import gate_failures, lift_table, trial_document
from skillforge.trials.setup import prepare_runner
from skillforge.trials.skill_summary import skill_mode_summary, skill_mode_table
from skillforge.trials.run import RunError, RunSummary


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"skillforge trial: {message}", err=True)
    sys.exit(code)


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for raw in values for v in raw.split(",") if v.strip()]


def _conditions(values: tuple[str, ...]) -> list[str] | None:
    conds = _split(values)
    bad = [c for c in conds if not is_condition(c)]
    if bad:
        raise click.BadParameter(f"{', '.join(bad)}: use {', '.join(BASE_CONDITIONS)} or "
                                 "without:<part> (`skillforge parts PATH` lists the parts)",
                                 param_hint="--conditions")
    return conds or None


@click.command("trial")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--cases", "cases", multiple=True, metavar="IDS",
              help="Case ids to run, comma-separated (default: every case).")
@click.option("--attempts", type=click.IntRange(1, 100), default=None,
              help="Attempts per case and condition (default [trial] attempts, 3).")
@click.option("--conditions", "conditions", multiple=True, metavar="LIST",
              help="Comma-separated: with_skill, baseline, self_generated, skill_mode "
                   "(default with_skill,baseline). skill_mode: the built-in agent may save "
                   "and run its own code skills, carried from case to case in order.")
@click.option("--agent", type=click.Choice(AGENTS), default=None,
              help="builtin (default): skillforge's agent loop; claude-code / codex: that CLI "
                   "inside the container, its model through skillforge's proxy (claude-code: "
                   "the pinned Claude Code; codex: an --image that has it).")
@click.option("--model", default=None, help="The agent's model (provider prefix allowed, "
                                            "e.g. openai:llama3.1).")
@click.option("--provider", type=click.Choice(["anthropic", "openai"]), default=None)
@click.option("--concurrency", type=click.IntRange(1, 64), default=None,
              help="Trials at a time (default [trial] concurrency, 2).")
@click.option("--sandbox", type=click.Choice(["docker", "local"]), default=None,
              help="docker (isolated, default) or local (NO isolation: trusted skills only).")
@click.option("--image", default=None, help="Trial container image (default python:3.12-slim).")
@click.option("--network/--no-network", default=None,
              help="Give the trial containers network access (off by default).")
@click.option("--timeout", "timeout_sec", type=click.IntRange(1), default=None,
              help="Seconds an agent may run per trial (default 600).")
@click.option("--max-turns", type=click.IntRange(1), default=None,
              help="Model turns per trial (default 30).")
@click.option("--disk-mb", type=click.IntRange(64), default=None,
              help="MiB a trial may write, all paths together (default 1024; Docker only).")
@click.option("--workspace", type=click.Choice(["isolated", "group"]), default=None,
              help="isolated: only the target skill; group: plus support and decoy skills.")
@click.option("--decoys", type=click.IntRange(0), default=None, metavar="N",
              help="Add N decoy skills, visible in both conditions (workspace group).")
@click.option("--decoys-from", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Folder of skills to take decoys from (default: the skills "
                                  "next to the target).")
@click.option("--decoy-seed", type=int, default=0, show_default=True,
              help="Seed of the (deterministic) decoy choice.")
@click.option("--sweep-decoys", default=None, metavar="COUNTS",
              help="Run the paired trial once per decoy count, e.g. 0,1,5,10; report lift, "
                   "routing precision and wall time per count.")
@click.option("--baseline-version", default=None, metavar="git:REF|DIR",
              help="Run the baseline with an earlier version of the skill (git:REF, or a "
                   "folder holding a saved copy) instead of without it: a version delta.")
@click.option("--skill-cache-from", default=None, metavar="RUN_ID",
              help="skill_mode: start from the final skill cache of stored run RUN_ID "
                   "(cross-task transfer; its skills are listed in the agent's prompt).")
@click.option("--static-reuse", is_flag=True,
              help="skill_mode: execute cached skills only, save none (SkillCraft's static "
                   "reuse). Only meaningful with --skill-cache-from (or a resumed run's "
                   "cache): on an empty cache there is nothing to run.")
@click.option("--resume", "resume", default=None, metavar="RUN_ID",
              help="Finish a stored run with its own settings, its judges included (only "
                   "--concurrency may change): trials already ok are not run again.")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run store folder (default .skillforge in the launch directory).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one document at the end.")
@click.option("--gate", is_flag=True,
              help="Exit 1 when overall or the grader is `hurts`, when the paired pass rate "
                   "falls significantly (exact McNemar or sign test), or when errors are "
                   "one-sided: runs that broke off on one side only, or errored trials that "
                   "differ between the sides more than chance allows (docs/ci.md).")
@click.option("--require-calibrated", is_flag=True,
              help="Gate: exit 1 when a judged metric's judges do not agree with the author's "
                   "labels (weighted kappa under [judge] calibration_kappa, too few labels, or "
                   "none; see `skillforge label`), as `skillforge report --require-calibrated`.")
@ci_option
@click.option("--ablate", "ablate", multiple=True, metavar="PART[,PART...]|all",
              help="Also run the skill without each of these parts (one without:<part> "
                   "condition each; `skillforge parts PATH` lists them) and report each "
                   "part's lift: earns its keep, dead weight, harmful or inconclusive.")
@click.option("--dry-run", is_flag=True,
              help="Print the number of trials, the estimated tokens and cost of the agent's "
                   "and the judge's calls (per trial from the last comparable run, else a "
                   "stated assumption; priced by the price table), and start nothing.")
@click.option("--max-cost-usd", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="X", help="Hard cap on the run's spend in USD (agent and judge calls "
                                "priced from their recorded tokens): no trial starts once the "
                                "spend plus the next trial's estimate would pass X; the run "
                                "stops with its partial results and exit code 2 (default "
                                "[trial] max_cost_usd, none). --resume may raise it.")
@click.option("--judge-model", "judge_models", multiple=True, metavar="MODEL",
              help="Judge model(s) for accuracy, goal_accuracy and behavior_check "
                   "(default [judge] models, else the agent's model).")
@click.option("--no-judge", is_flag=True,
              help="Skip the LLM-judged metrics (only deterministic metrics and the grader).")
@click.option("--fresh", is_flag=True,
              help="Run every trial. Without it a trial is reused from any earlier run in the "
                   "store whose trial had the same key and a usable outcome (not an "
                   "infrastructure error, not cancelled), shown as 'reused from RUN'. The key "
                   "hashes the skills staged for the condition (a baseline's hold no byte of "
                   "the target), the case (prompt, files, expectations, grader and its "
                   "folder), the harness and its version, the model and provider settings "
                   "(base URL, temperature, max tokens), the judges, the image id, the limits "
                   "(turns, timeout, network, ...), the attempt index and skillforge's trial "
                   "loop version (docs/trial-cache.md).")
@until_decided_options
def trial(path: Path | None, cases: tuple[str, ...], attempts: int | None,
          conditions: tuple[str, ...], agent: str | None, model: str | None,
          provider: str | None, concurrency: int | None, sandbox: str | None,
          image: str | None, network: bool | None, timeout_sec: int | None,
          max_turns: int | None, disk_mb: int | None, workspace: str | None, decoys: int | None,
          decoys_from: Path | None, decoy_seed: int, sweep_decoys: str | None,
          baseline_version: str | None, skill_cache_from: str | None, static_reuse: bool,
          resume: str | None, state_dir: Path | None, fmt: str, gate: bool,
          require_calibrated: bool, ci: str,
          ablate: tuple[str, ...], dry_run: bool, max_cost_usd: float | None,
          judge_models: tuple[str, ...], no_judge: bool, fresh: bool) -> None:
    """Run paired trials of a skill: each case with the skill and without it (baseline).

    Each trial gets a fresh container (Docker), the agent runs the case's prompt (the
    built-in agent, or with --agent claude-code / codex that CLI inside the container: see
    docs/harnesses.md), the case's grader scores the result, and the trajectory (ATIF) and
    metrics are stored under --state-dir. At the end: the Skill Lift table (or, with
    --baseline-version git:REF, the version delta against an earlier version). --decoys N
    adds other skills to both conditions; --sweep-decoys 0,5,10 reports lift per decoy
    count. Needs a provider (ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL) and, for
    --sandbox docker, a running Docker Engine.
    A trial whose inputs match a stored trial's is reused, not run (see --fresh): after an
    edit of SKILL.md only the trials that stage the skill run again.
    Ctrl+C, SIGTERM and SIGHUP stop the run (containers are removed, the run is stored as
    cancelled); --resume RUN_ID finishes it later. --max-cost-usd X stops it before the
    trial that would pass X (exit 2, partial results). Graders: docs/graders.md.
    """
    if resume and (skill_cache_from or static_reuse):
        raise click.UsageError("--resume finishes a stored run with its own skill cache "
                               "settings; drop --skill-cache-from / --static-reuse")
    if path is None and not resume:
        raise click.UsageError("give the skill PATH (or --resume RUN_ID)")
    if path is not None and not path.exists():
        raise click.UsageError(f"{path}: no such skill folder; pass a folder holding SKILL.md")
    skill_dir = skill_root(path) if path is not None else None
    overrides = {"case_ids": _split(cases) or None, "attempts": attempts,
                 "baseline_version": baseline_version,
                 "skill_cache_from": skill_cache_from,
                 "skill_cache_mode": "static" if static_reuse else None,
                 "conditions": _conditions(conditions), "agent": agent, "model": model,
                 "provider": provider, "concurrency": concurrency, "sandbox": sandbox,
                 "image": image, "network": network, "timeout_sec": timeout_sec,
                 "max_turns": max_turns, "disk_mb": disk_mb, "workspace": workspace,
                 "max_cost_usd": max_cost_usd, **rounds_overrides()}
    if (decoys_from is not None) and decoys is None and sweep_decoys is None:
        raise click.UsageError("--decoys-from needs --decoys N or --sweep-decoys COUNTS")
    if workspace == "isolated" and (decoys or sweep_decoys):
        raise click.UsageError("decoys are staged with --workspace group (the default with "
                               "--decoys / --sweep-decoys); drop --workspace isolated")
    if resume and (decoys is not None or sweep_decoys):
        raise click.UsageError("--resume finishes a stored run with its own decoys; drop "
                               "--decoys / --sweep-decoys")
    settings = settings_for(skill_dir)
    if resume and (ablate or dry_run):
        raise click.UsageError("--resume finishes a stored run as it was planned; drop "
                               "--ablate / --dry-run")
    if ablate:
        from skillforge.cli.parts import ablate_conditions

        overrides["conditions"] = ablate_conditions(skill_dir, _split(ablate),
                                                    overrides["conditions"], settings)
    store = RunStore(state_dir or Path(settings.state_dir))
    if dry_run:
        assert skill_dir is not None
        from skillforge.cli.parts import dry_run_and_exit

        dry_run_and_exit(settings, store, skill_dir, overrides, fmt, judged=not no_judge,
                         judge_models=judge_models, fresh=fresh)
    display = Display(fmt)
    if sweep_decoys is not None:
        if decoys is not None or gate or require_calibrated:
            raise click.UsageError("--sweep-decoys runs one paired trial per count; it does "
                                   "not combine with --decoys, --gate or "
                                   "--require-calibrated")
        assert skill_dir is not None
        from skillforge.cli.trial_sweep import sweep

        sweep(settings, store, skill_dir, sweep_decoys, overrides=overrides,
              source=decoys_from, seed=decoy_seed, judge=not no_judge,
              judge_models=judge_models, ci=ci, fmt=fmt, display=display)
    if decoys is not None and skill_dir is not None:
        try:
            support = resolve_skill_paths(list(settings.trial.support_skills), skill_dir)
            overrides["decoy_skills"] = choose_decoys(skill_dir, decoys, source=decoys_from,
                                                      seed=decoy_seed, exclude=support,
                                                      warn=display.warn)
        except DecoyError as exc:
            _fail(str(exc))
        overrides["workspace"] = "group"
    try:
        if skill_dir is not None and not resume:
            # A harness that cannot run says so before any provider is looked for.
            check_harness(build_run_spec(skill_dir, settings, overrides))
        runner = prepare_runner(settings, store, skill_dir=skill_dir, overrides=overrides,
                                resume=resume, judge=False if no_judge else None,
                                judge_models=judge_models, fresh=fresh,
                                on_event=display, warn=display.warn)
        check_harness(runner.spec)
        check_decoys(runner.spec)
    except ProviderNotConfigured as exc:
        _fail(f"trials need an LLM provider for the agent.\n{exc}")
    except (TrialConfigError, RunError, PriceTableError, DecoyError) as exc:
        _fail(str(exc))
    client, judges = runner.client, runner.judges
    stops = Stops()

    async def main() -> RunSummary:
        stops.install()
        try:
            if display.live is not None:
                with display.live:
                    return await runner.run()
            return await runner.run()
        finally:
            for c in {id(c): c for c in [client, *judges]}.values():
                await aclose(c)

    resume_hint = f"finish it with `skillforge trial --resume {runner.run_id}`" + (
        f" --state-dir {shown_path(state_dir)}" if state_dir else "")
    try:
        summary = asyncio.run(main())
    except KeyboardInterrupt:
        _fail(f"interrupted: run {runner.run_id} is stored as cancelled and its containers "
              f"were removed; {resume_hint}", 130)
    except asyncio.CancelledError:
        if stops.received is None:
            raise
        _fail(f"stopped by {stops.received.name}: run {runner.run_id} is stored as cancelled "
              f"and its containers were removed; {resume_hint}", stops.exit_code())
    except (RunError, SandboxUnavailable) as exc:
        _fail(str(exc))
    bar = calibration_bar(settings if skill_dir is not None else None,
                          runner.spec.skill_path) if require_calibrated else None
    finish(store, summary, fmt=fmt, gate=gate, ci=ci, display=display, calibration=bar)


def finish(store: RunStore, summary: RunSummary, *, fmt: str, gate: bool, ci: str,
           display: Display, calibration: CalibrationBar | None = None) -> NoReturn:
    """Print the result (json document or lift table) and exit with the right code;
    `calibration` (the bar) when --require-calibrated gates on the judges' agreement."""
    run = store.run(summary.run_id)
    trials = store.trials(summary.run_id)
    lift = None
    conds = {t.condition for t in trials}
    if run is not None and {"with_skill", "baseline"} <= conds:
        lift = lift_for_run(run, trials, ci=ci,  # type: ignore[arg-type]
                            judge_agreement=run_agreement(store.metrics(summary.run_id)))
    failures = gate_failures(lift) if (gate and lift is not None) else []
    if calibration is not None:
        failures += calibration_failures(store, run, trials, lift, calibration)
    gated = gate or calibration is not None
    skills = skill_mode_summary(store.skill_mode_trials(summary.run_id))
    from skillforge.cli.parts import ablation_table
    from skillforge.report.source import run_ablation

    ablation = run_ablation(store, run, trials, ci) if run is not None else None
    if fmt == "json":
        doc = trial_document(summary.run_id, summary.spec, trials, status=summary.status,
                             lift=lift, gate=failures if gated else None)
        if skills:
            doc["skill_mode"] = skills
        if ablation is not None:
            doc["ablation"] = ablation.model_dump(mode="json", by_alias=True)
        if summary.stop_reason:
            doc["stop_reason"] = summary.stop_reason
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        out = display.out
        out.print()
        if lift is not None:
            out.print(lift_table(lift))
        if skills:
            out.print(skill_mode_table(skills))
        if ablation is not None:
            out.print(ablation_table(ablation))
        where = store.state_dir / "runs" / summary.run_id
        out.print(f"[dim]trajectories: {escape(shown_path(where))}[/]")
        out.print(f"[dim]report:       skillforge report {summary.run_id}[/]")
        for failure in failures:
            out.print(f"[bold red]gate: {escape(failure)}[/]")
    ok = [t for t in trials if t.status == "ok"]
    if not ok and trials:
        errors = list(dict.fromkeys(t.error for t in trials if t.error))[:3]
        _fail("no trial finished ok: " + "; ".join(e[:300] for e in errors))
    if summary.status == "failed":
        _fail(f"the run failed: {summary.error}")
    if summary.status == "stopped":
        _fail(f"run {summary.run_id} {summary.stop_reason}; the results above are from the "
              f"{len(ok)} trial(s) that finished ok (`skillforge report {summary.run_id}`); "
              f"finish it with `skillforge trial --resume {summary.run_id} --max-cost-usd "
              "HIGHER`")
    sys.exit(1 if failures else 0)
