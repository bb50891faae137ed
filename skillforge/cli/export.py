"""`skillforge export harbor PATH -o DIR`: a skill's paired trials as a Harbor dataset."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click

from skillforge.cli.common import settings_for, shown_path
from skillforge.harbor.environments import DEFAULT_ENVIRONMENT, ENVIRONMENTS, concurrency
from skillforge.harbor.export import ExportError, export_harbor
from skillforge.models.trial import is_condition
from skillforge.trials.config import TrialConfigError, build_run_spec, skill_root

CONDITIONS = ("with_skill", "baseline", "self_generated", "skill_mode")  # and without:<part>


@click.group("export", context_settings={"help_option_names": ["-h", "--help"]})
def export() -> None:
    """Export trials for other engines (Harbor: hundreds of trials on cloud sandboxes)."""


def _split(values: tuple[str, ...]) -> list[str]:
    """Repeatable options that also take comma-separated lists."""
    return [v.strip() for raw in values for v in raw.split(",") if v.strip()]


@export.command("harbor")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", "output", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the dataset to (new or empty, or an earlier export with "
                   "--force).")
@click.option("--cases", multiple=True, metavar="ID[,ID...]",
              help="Only these case ids (repeatable; default every case).")
@click.option("--conditions", multiple=True, metavar="NAME[,NAME...]",
              help="with_skill, baseline, self_generated, without:<part> (default [trial] "
                   "conditions); skill_mode is refused: it runs only with `skillforge trial`.")
@click.option("--ablate", multiple=True, metavar="PART[,PART...]|all",
              help="Add a without:<part> condition per part (`skillforge parts PATH`): one "
                   "task per case and ablated condition.")
@click.option("--attempts", "-k", type=click.IntRange(1), default=None,
              help="Attempts per task, written into the README's `harbor run -k`.")
@click.option("--image", default=None, help="Base image of every task (FROM in the Dockerfile).")
@click.option("--network/--no-network", default=None,
              help="Let the agent and grader use the network (default [trial] network: off).")
@click.option("--environment", "-e", "environment", default=DEFAULT_ENVIRONMENT,
              show_default=True, type=click.Choice(sorted(ENVIRONMENTS)), metavar="NAME",
              help="The Harbor environment the tasks will run on (`harbor run -e`): docker, "
                   "daytona, modal, e2b, runloop, ... It decides the network policy written: "
                   "Harbor's docker environment cannot enforce no-network, so its tasks have "
                   "network.")
@click.option("--timeout", "timeout_sec", type=click.IntRange(1), default=None,
              help="Agent time limit per trial, in seconds.")
@click.option("--max-turns", type=click.IntRange(1), default=None,
              help="Turn limit per trial (Harbor's terminus-2 takes it as --ak max_turns).")
@click.option("--cpus", type=click.FloatRange(min=0, min_open=True), default=None,
              help="CPUs per trial (Harbor takes whole CPUs: rounded up).")
@click.option("--memory-mb", type=click.IntRange(64), default=None, help="Memory per trial.")
@click.option("--workspace", type=click.Choice(["isolated", "group"]), default=None,
              help="isolated: only the target skill; group: also support and decoy skills.")
@click.option("--support-skill", "support", multiple=True, type=click.Path(exists=True),
              help="A skill shown in every condition (repeatable; implies --workspace group).")
@click.option("--decoy-skill", "decoy", multiple=True, type=click.Path(exists=True),
              help="A skill that should not be used, shown in every condition (repeatable).")
@click.option("--force", is_flag=True, help="Replace an earlier export in the output folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints exactly one document.")
def harbor(path: Path, output: Path, cases: tuple[str, ...], conditions: tuple[str, ...],
           ablate: tuple[str, ...], attempts: int | None, image: str | None, network: bool | None,
           environment: str, timeout_sec: int | None, max_turns: int | None,
           cpus: float | None, memory_mb: int | None,
           workspace: str | None, support: tuple[str, ...], decoy: tuple[str, ...],
           force: bool, fmt: str) -> None:
    """Write PATH's eval cases as a Harbor dataset: one task per case and condition.

    Each task's container holds what a local trial's would (the case's files in
    /workspace, the visible skills in /skills, never evals/); a baseline task holds no trace
    of the skill. DIR/README.md gives the `harbor run` commands, and
    `skillforge import harbor JOB_DIR` brings the results back as a run.
    Exit 0 on success, 2 for bad input.
    """
    root = skill_root(path)
    wanted = _split(conditions)
    bad = [c for c in wanted if not is_condition(c)]
    if bad:
        raise click.BadParameter(f"{', '.join(bad)}: use {', '.join(CONDITIONS)} or "
                                 "without:<part> (`skillforge parts PATH` lists the parts)",
                                 param_hint="--conditions")
    if ablate:
        from skillforge.authoring.parts import PartsError
        from skillforge.cli.parts import ablate_conditions

        try:
            wanted = ablate_conditions(root, _split(ablate), wanted or None,
                                       settings_for(root)) or []
        except PartsError as exc:
            raise click.BadParameter(str(exc), param_hint="--ablate") from None
    notes: list[str] = []
    if (support or decoy) and workspace is None:
        workspace = "group"
        notes.append("support/decoy skills given: using --workspace group so they are staged")
    overrides = {
        "case_ids": _split(cases) or None, "conditions": wanted or None, "attempts": attempts,
        "image": image, "network": network, "timeout_sec": timeout_sec,
        "max_turns": max_turns, "cpus": cpus,
        "memory_mb": memory_mb, "workspace": workspace,
        "support_skills": list(support) or None, "decoy_skills": list(decoy) or None,
    }
    try:
        spec = build_run_spec(root, settings_for(root), overrides)
        result = export_harbor(spec, output, force=force, shown_dir=shown_path(output),
                               environment=environment)
    except (TrialConfigError, ExportError) as exc:
        click.echo(f"skillforge export harbor: {exc}", err=True)
        sys.exit(2)
    if result.network_notice:  # on stderr in both formats: it must not go unseen
        click.echo(f"{click.style('warning:', fg='yellow')} {result.network_notice}", err=True)
    if fmt == "json":
        click.echo(json.dumps({**result.model_dump(mode="json"), "notes": notes}, indent=2,
                              ensure_ascii=False))
        return
    m = result.manifest
    shown = shown_path(output)
    conds = ", ".join(m.spec.conditions)
    for note in notes:
        click.echo(f"note: {note}")
    click.echo(f"{click.style('wrote', fg='green')} Harbor dataset {shown}/ for {m.skill}: "
               f"{len(result.tasks)} tasks ({len(m.cases)} cases x {conds})"
               + (" (replaced the earlier export)" if result.replaced else ""))
    if result.ungraded:
        click.echo(f"  cases without a grader (scored by skillforge after import): "
                   f"{', '.join(result.ungraded)}")
    q = shlex.quote(shown)
    env = f"-e {m.harbor_environment} "
    n = concurrency(m.harbor_environment)
    click.echo("next (see its README.md):")
    click.echo("  export HARBOR_TELEMETRY=0")
    click.echo(f"  harbor run -p {q} {env}-a nop -k 1 -n {n}    # the plumbing, no model")
    click.echo(f"  harbor run -p {q} {env}-a <agent> -m <model> -k {m.spec.attempts} -n {n}")
    click.echo(f"  skillforge import harbor jobs/<job name> --dataset {q}")
