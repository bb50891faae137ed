"""`skillforge label RUN_ID`: the author's own scores of a run's LLM judgments (issue 19).

Walks the unlabelled trials of a stored run in the terminal: the task, the final answer and
the judge's value (and the steps its evidence cites) are shown, and the author types their
own score for each judged metric (accuracy 0-10, goal met/partial/not, behavior_check 0-1,
the grader's pass y/n); Enter keeps the judge's value, `s` skips, `q` stops (what was typed
is already stored). `--import FILE.csv` stores many labels at once, all or none: every bad
row is named by file and line with its fix. `--template` prints that CSV for the unlabelled
judgments. Labels go to the run store, keyed by the judged content, metric, judge model and
prompt version (sessions.label_rows). Exit 0 ok, 2 bad input.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import click

from skillforge.cli.common import settings_for, shown_path
from skillforge.models.labels import (
    TRIAL_LABEL_METRICS,
    Judgment,
    Label,
    entry_hint,
    parse_author_score,
    shown_value,
)

CSV_COLUMNS = ("run_id", "case_id", "condition", "attempt", "metric", "score", "reason")
QUOTE = 400


def _fail(message: str) -> NoReturn:
    click.echo(f"skillforge label: {message}", err=True)
    sys.exit(2)


def _open_store(state_dir: Path | None):
    from sessions.store import DB_NAME, RunStore

    state = state_dir or Path(settings_for(None).state_dir)
    if not (state / DB_NAME).is_file():
        _fail(f"no run store at {state / DB_NAME}: run `skillforge trial` first or point "
              "--state-dir at the folder that holds skillforge.db")
    return RunStore(state)


def _judgments(store, run_id: str) -> list[Judgment]:
    from skillforge.lift.calibration_run import run_judgments

    if store.run(run_id) is None:
        known = ", ".join(r.run_id for r in store.runs()[:5]) or "none"
        _fail(f"no run {run_id!r} in {store.db_path} (recent runs: {known})")
    return run_judgments(store, run_id)


def _grouped(judgments: Sequence[Judgment]) -> dict[tuple, dict[str, list[Judgment]]]:
    """{(case, condition, attempt): {metric: [one judgment per judge]}} in report order."""
    out: dict[tuple, dict[str, list[Judgment]]] = {}
    for j in judgments:
        out.setdefault((j.case_id, j.condition, j.attempt), {}).setdefault(j.metric, []).append(j)
    return out


def _mean(js: Sequence[Judgment]) -> float:
    return sum(j.value for j in js) / len(js)


@click.command("label")
@click.argument("run_id", required=False)
@click.option("--import", "import_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Store labels from a CSV file with columns "
                                 + ",".join(CSV_COLUMNS) + " (run_id may be left empty when "
                                 "RUN_ID is given). All rows or none are stored.")
@click.option("--template", is_flag=True,
              help="Print the CSV for RUN_ID's unlabelled judgments, the judge's values in "
                   "the score column, ready to correct and --import.")
@click.option("--metric", "metrics", multiple=True, type=click.Choice(TRIAL_LABEL_METRICS),
              help="Only these metrics (repeat); default: every judged metric and pass.")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run store folder (default .skillforge in the launch directory).")
def label(run_id: str | None, import_file: Path | None, template: bool,
          metrics: tuple[str, ...], state_dir: Path | None) -> None:
    """Label a run's LLM judgments with your own scores (agreement and calibration).

    Walks RUN_ID's unlabelled trials: for each, the task, the final answer and the judge's
    value; type your score (Enter keeps the judge's, s skips, q stops) and a one-line
    reason. Labels are stored at once, keyed by what was judged, so a re-judge of the same
    trial meets them again. `skillforge report` then shows each judge's agreement with you.
    """
    if import_file is None and run_id is None:
        raise click.UsageError("give a RUN_ID to label, or --import FILE.csv")
    with _open_store(state_dir) as store:
        if import_file is not None:
            n = import_labels(store, import_file, run_id)
            click.echo(f"stored {n} label(s) from {shown_path(import_file)}", err=True)
            return
        assert run_id is not None
        judgments = [j for j in _judgments(store, run_id) if not metrics or j.metric in metrics]
        if template:
            click.echo(template_csv(store, judgments), nl=False)
            return
        walk(store, run_id, judgments)


def template_csv(store, judgments: Sequence[Judgment]) -> str:
    done = set(store.author_values())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for (case, cond, attempt), by_metric in _grouped(judgments).items():
        for metric, js in by_metric.items():
            if js[0].item not in done:
                w.writerow([js[0].run_id, case, cond, attempt, metric,
                            shown_value(metric, _mean(js)), ""])
    return buf.getvalue()


def _trial_text(store, j: Judgment) -> tuple[str, str]:
    """(task, final answer) of the judged trial, from its stored trajectory."""
    from sessions.atif import AtifError
    from skillforge.trajectory.compare_data import final_answer

    try:
        traj = store.load(f"{j.run_id}/{j.case_id}/{j.condition}/{j.attempt}")
    except (KeyError, AtifError, OSError) as exc:
        return f"(trajectory unreadable: {exc})", ""
    task = next((s.text for s in traj.steps if s.source == "user"), "")
    return task, final_answer(traj)


def walk(store, run_id: str, judgments: Sequence[Judgment]) -> None:
    """The interactive walk over unlabelled judgments (reads standard input line by line)."""
    done = set(store.author_values())
    groups = _grouped(judgments)
    items = {j.item for j in judgments}
    todo = [(k, m, js) for k, by in groups.items() for m, js in by.items()
            if js[0].item not in done]
    click.echo(f"{len(items) - len(todo)} of {len(items)} judgments of run {run_id} labelled; "
               f"{len(todo)} to go. Enter keeps the judge's value, s skips, q stops.")
    shown = None
    stored = 0
    for key, metric, js in todo:
        if key != shown:
            shown = key
            task, answer = _trial_text(store, js[0])
            click.echo(f"\n== case {key[0]} · {key[1]} · attempt {key[2]}")
            click.echo(f"task:   {task[:QUOTE]}")
            click.echo(f"answer: {answer[:QUOTE] or '(no final answer)'}")
        judges = ", ".join(f"{j.judge_model} {shown_value(metric, j.value)}" for j in js)
        while True:
            try:
                typed = click.prompt(f"{metric} [judge: {judges}] ({entry_hint(metric)})",
                                     default="", show_default=False, prompt_suffix=": ")
            except click.Abort:
                typed = "q"
            typed = typed.strip()
            if typed.lower() == "q":
                click.echo(f"stopped; {stored} label(s) stored this time")
                return
            if typed.lower() == "s":
                break
            try:
                value = _mean(js) if typed == "" else parse_author_score(metric, typed)
            except ValueError as exc:
                click.echo(f"  {exc}")
                continue
            reason = ""
            if typed != "":
                try:
                    reason = click.prompt("  reason (one line, Enter for none)", default="",
                                          show_default=False, prompt_suffix=": ").strip()
                except click.Abort:
                    reason = ""
            store.save_labels(Label.of(j, value, reason, source="cli") for j in js)
            stored += 1
            break
    click.echo(f"\ndone: {stored} label(s) stored this time")


def import_labels(store, path: Path, run_id: str | None) -> int:
    """Validate every row of a label CSV, then store them all (or none, exit 2)."""
    try:
        text = path.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {path}: {exc}")
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [c for c in ("case_id", "condition", "attempt", "metric", "score")
               if c not in header]
    if missing:
        _fail(f"{path}:1: the header lacks {', '.join(missing)}; the columns are "
              f"{','.join(CSV_COLUMNS)} (`skillforge label RUN_ID --template` writes one)")
    cache: dict[str, dict] = {}
    labels: list[Label] = []
    errors: list[str] = []
    for line, row in enumerate(reader, start=2):
        rid = (row.get("run_id") or "").strip() or run_id
        where = f"{path}:{line}"
        if not rid:
            errors.append(f"{where}: no run_id; fill the column or pass RUN_ID")
            continue
        if rid not in cache:
            if store.run(rid) is None:
                errors.append(f"{where}: no run {rid!r} in {store.db_path}; fix the run_id")
                continue
            from skillforge.lift.calibration_run import run_judgments

            cache[rid] = _grouped(run_judgments(store, rid))
        try:
            attempt = int((row.get("attempt") or "").strip())
        except ValueError:
            errors.append(f"{where}: attempt {row.get('attempt')!r} is not a whole number")
            continue
        key = ((row.get("case_id") or "").strip(), (row.get("condition") or "").strip(), attempt)
        metric = (row.get("metric") or "").strip()
        by_metric = cache[rid].get(key)
        if by_metric is None:
            errors.append(f"{where}: run {rid} has no judged ok trial {key[0]!r} {key[1]} "
                          f"attempt {attempt}; fix case_id, condition or attempt")
            continue
        if metric not in by_metric:
            errors.append(f"{where}: that trial has no judged {metric!r}; use one of "
                          f"{', '.join(by_metric)}")
            continue
        try:
            value = parse_author_score(metric, row.get("score") or "")
        except ValueError as exc:
            errors.append(f"{where}: {exc}")
            continue
        reason = " ".join((row.get("reason") or "").split())
        labels += [Label.of(j, value, reason, source="import") for j in by_metric[metric]]
    if errors:
        shown = errors[:20] + ([f"... and {len(errors) - 20} more"] if len(errors) > 20 else [])
        _fail("nothing stored; fix these rows and import again:\n" + "\n".join(shown))
    store.save_labels(labels)
    return len({(lb.content_hash, lb.metric) for lb in labels})
