"""`skillforge import plugin-eval PATH`: a `claude plugin eval` result as a stored run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from sessions.store import RunStore
from skillforge.cli.common import settings_for, shown_path
from skillforge.plugineval.importer import PluginEvalImport, import_plugin_eval
from skillforge.plugineval.results import PluginEvalFileError


def _num(value: float | None, signed: bool = False) -> str:
    return "—" if value is None else (f"{value:+.2f}" if signed else f"{value:.2f}")


def _lines(rep: PluginEvalImport) -> list[str]:
    counts = ", ".join(f"{n} {s}" for s, n in sorted(rep.statuses.items()))
    cost = f" · ${rep.cost_usd:.2f}" if rep.cost_usd is not None else ""
    out = [f"{click.style('imported', fg='green')} claude plugin eval result "
           f"{shown_path(Path(rep.source))} (Claude Code {rep.claude_version or '?'})",
           f"  run {rep.run_id}: plugin {rep.plugin} {rep.plugin_version or ''}".rstrip()
           + f" · skill {rep.skill} · {rep.trials} trials ({counts}) · {rep.graded_trials} "
           f"graded · {rep.traces} traces{cost}"
           + (" · replaced an earlier import" if rep.replaced else "")]
    out.append("  as claude plugin eval scored it:  CASE  WITH  W/OUT  Δ")
    for case in rep.cases:
        out.append(f"    {case.case_id}  {_num(case.score_with)}  {_num(case.score_without)}  "
                   f"{_num(case.delta, signed=True)}")
    out.append(f"    mean Δ {_num(rep.mean_delta, signed=True)}")
    if rep.graders_compared or rep.graders_undecided:
        out.append(f"  graders decided again by skillforge on the traces: {rep.graders_compared} "
                   f"compared, {len(rep.disagreements)} disagree"
                   + (f", {rep.graders_undecided} not decidable from a trace"
                      if rep.graders_undecided else ""))
        for d in rep.disagreements[:20]:
            out.append(f"    {d['case_id']} {d['condition']} #{d['attempt']} {d['grader']}: "
                       f"claude plugin eval {'pass' if d['plugin_eval'] else 'fail'}, "
                       f"skillforge {'pass' if d['skillforge'] else 'fail'} ({d['why']})")
    if rep.traces_missing:
        out.append(f"  {rep.traces_missing} run(s) without a trace: claude plugin eval removes "
                   "its temporary folders unless run with --keep-temp; their grades, cost and "
                   "status are imported, their trajectories and trace metrics are not")
    for note, n in rep.notes.items():
        if "trace not found" not in note:
            out.append(f"  note ({n} trial{'s' if n > 1 else ''}): {note}")
    out += [f"{click.style('warning', fg='yellow')}: {w}" for w in rep.warnings]
    out.append(f"next: skillforge report {rep.run_id}")
    return out


@click.command("plugin-eval")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--skill", default=None,
              help="The skill whose use skill_execution checks (default: the plugin's only "
                   "skill, else the plugin's name).")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run store folder (default .skillforge in the launch directory).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints exactly one document.")
def plugin_eval(path: Path, skill: str | None, state_dir: Path | None, fmt: str) -> None:
    """Import a `claude plugin eval` result as a run: grades, cost, traces.

    PATH is an aggregate-result.json, the folder holding it (`--output-dir`, or
    evals/results/<timestamp>/), or a plugin (its newest evals/results/*/). Each case's
    `with` and `without` runs become with_skill and baseline trials: the run's score is the
    grader reward (so a trial passes when claude plugin eval's run passed), each grader's
    pass/fail is kept, costUsd is the cost, and each run's trace (kept only by
    `claude plugin eval --keep-temp`) is converted to an ATIF trajectory, so `skillforge
    report`, the lift, triage and the workbench's side-by-side view show the run. Runs that
    ended on an API error (not graded by claude plugin eval) are left out of the lift as
    infrastructure errors. Exit 0 when the result imported (runs without a trace are said
    so), 2 when it cannot be read.
    """
    store_dir = state_dir or Path(settings_for(None).state_dir)
    try:
        with RunStore(store_dir) as store:
            rep = import_plugin_eval(path, store, skill=skill)
    except PluginEvalFileError as exc:
        click.echo(f"skillforge import plugin-eval: {exc}", err=True)
        sys.exit(2)
    if fmt == "json":
        click.echo(json.dumps(rep.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        for line in _lines(rep):
            click.echo(line)
