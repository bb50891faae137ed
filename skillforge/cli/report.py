"""`skillforge report [RUN]`: a run's Skill Lift as Markdown, one HTML file, or lift.json."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from skillforge.cli.common import ci_option, settings_for, shown_path
from skillforge.models.fileio import atomic_write_text
from skillforge.models.labels import CalibrationBar
from skillforge.models.lift import CiMethod, LiftFileError, LiftReport, load_lift_report
from skillforge.report import render_html, render_json, render_markdown
from skillforge.report.calibration import gate_failures as calibration_gate
from skillforge.report.source import LATEST, ReportSourceError, Trajectories, load_run_report

FORMATS = ("md", "html", "json")


def _fail(message: str) -> NoReturn:
    click.echo(f"skillforge report: {message}", err=True)
    sys.exit(2)


def _is_file_arg(run: str) -> bool:
    """A lift.json path rather than a run id: it names a .json file or an existing file."""
    return run.endswith(".json") or Path(run).is_file()


def _from_file(run: str) -> LiftReport:
    path = Path(run)
    if not path.is_file():
        _fail(f"{run}: no such file; pass a lift.json file, a run id or `latest`")
    try:
        report = load_lift_report(path)
    except LiftFileError as exc:
        _fail(str(exc))
    return report


def _render(report: LiftReport, fmt: str, trajectories: Trajectories) -> str:
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report, trajectories=trajectories)
    return render_markdown(report, trajectories=trajectories)


@click.command("report")
@click.argument("run", required=False, default=LATEST)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True,
              help="md (to read), html (one self-contained file to share or present) or json "
                   "(exactly lift.json).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to FILE (atomically) instead of standard output.")
@ci_option
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run store folder (default .skillforge in the launch directory).")
@click.option("--require-calibrated", is_flag=True,
              help="Gate: exit 1 (after writing the report) when a judged metric's judges "
                   "are not shown to agree with the author's labels (weighted kappa under "
                   "[judge] calibration_kappa, too few labels, or none; see `skillforge "
                   "label`).")
def report(run: str, fmt: str, output: Path | None, ci: str,
           state_dir: Path | None, require_calibrated: bool) -> None:
    """Render a run's Skill Lift report.

    RUN is a run id, `latest` (the default), or a path to a lift.json file. A stored run is
    recomputed from its trials, and the trajectories of its negative cases are added to the
    md and html reports. A run with skill_mode trials adds a Skill Mode (SkillCraft)
    section (lift.json: extra.skillcraft): success rate at score >= 0.9, Exec and Reuse rates,
    efficiency over the cases both sides solved, the skills the agent saved. Exit 0 on
    success, 2 for an unknown run or an unreadable file, 1 when --require-calibrated
    fails. With author labels (`skillforge label`) a Judges-against-the-author section
    (lift.json: extra.calibration) gives each judge's agreement with the author, marks
    metrics "not calibrated", and shows raw and calibrated lift side by side.
    """
    trajectories: Trajectories = {}
    if _is_file_arg(run):
        lift = _from_file(run)
    else:
        store_dir = state_dir or Path(settings_for(None).state_dir)

        def warn(message: str) -> None:
            click.echo(f"skillforge report: warning: {message}", err=True)

        try:
            method: CiMethod = ci  # type: ignore[assignment]
            settings = settings_for(None)
            bar = CalibrationBar(min_kappa=settings.judge.calibration_kappa,
                                 min_labels=settings.judge.calibration_min_labels)
            lift, trajectories = load_run_report(store_dir, run, ci=method, warn=warn, bar=bar)
        except ReportSourceError as exc:
            _fail(str(exc))
    text = _render(lift, fmt, trajectories)
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            atomic_write_text(output, text)
        except OSError as exc:
            _fail(f"cannot write {output}: {exc}")
        click.echo(f"wrote {shown_path(output)} ({fmt}, {len(text.encode('utf-8')):,} bytes)",
                   err=True)
    if require_calibrated:
        failures = calibration_gate(lift)
        for failure in failures:
            click.echo(f"skillforge report: gate: {failure}", err=True)
        if failures:
            sys.exit(1)
