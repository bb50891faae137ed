"""`skillforge judge --compare-judges`: which configured judge agrees best with the author.

Each judge model judges the skill (cached by content, so a repeat costs nothing); its
criterion scores meet the author's rubric labels of this very version of the skill, and its
stored trial judgments (every run of the skill in the run store) meet the author's trial
labels. Judges are ranked (skillforge.lift.calibration_rank.rank, as the Lift tab's agreement
view ranks them) by their mean weighted kappa over the metrics and criteria with labels when
every judge has one (then by the mean absolute error, scaled to 0-1), else by that error
alone. Exit 0, or 2 without labels.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import click

from skillforge.lift.calibration_rank import compare_rows, rank
from skillforge.lift.calibration_run import rubric_judgments, run_judgments
from skillforge.models.labels import CalibrationBar
from skillforge.report.facts import num


def _fail(message: str) -> NoReturn:
    click.echo(f"skillforge judge: {message}", err=True)
    sys.exit(2)


def compare_and_exit(plans: list, run_all: Callable, *, fmt: str, state_dir: str | None
                     ) -> NoReturn:
    from sessions.store import DB_NAME, RunStore
    from skillforge.cli.common import settings_for

    settings = plans[0][1] if plans else settings_for(None)
    state = Path(state_dir or settings.state_dir)
    if not (state / DB_NAME).is_file():
        _fail(f"no run store at {state / DB_NAME}: label some judgments first (`skillforge "
              "label RUN_ID`, or a and o in the Judge tab)")
    bar = CalibrationBar(min_kappa=settings.judge.calibration_kappa,
                         min_labels=settings.judge.calibration_min_labels)
    outcomes = asyncio.run(run_all())
    judgments = []
    for o in outcomes:
        if o.error:
            click.echo(f"skillforge judge: {o.shown}: {o.error}", err=True)
        elif o.result is not None:
            judgments += rubric_judgments(o.result)
    skills = {o.result.skill_name for o in outcomes if o.result is not None}
    with RunStore(state) as store:
        store.record_judgments(judgments)
        labels = [lb for lb in store.labels() if lb.skill in skills or lb.skill is None]
        for run in store.runs():
            if run.skill_name in skills:
                judgments += run_judgments(store, run.run_id)
        repeats = store.repeated_judgments()
    # Rubric labels meet every model's fresh scores of the same content, not only the
    # judge the author saw: compared through the content, like trial labels.
    rows = compare_rows(judgments, labels, repeats, bar)
    ranking = rank(rows)
    if not ranking:
        _fail("no labelled judgment of this skill to compare the judges on: label some "
              "first (`skillforge label RUN_ID`, or a and o in the Judge tab)")
    if fmt == "json":
        click.echo(json.dumps({"version": 1, "judges": ranking}, indent=2, ensure_ascii=False))
    else:
        click.echo("judges ranked by agreement with your labels (mean weighted kappa, then "
                   "MAE on a 0-1 scale):")
        for i, d in enumerate(ranking, 1):
            worst = f"  not calibrated: {', '.join(d['not_calibrated'])}" \
                if d["not_calibrated"] else ""
            click.echo(f"{i}. {d['judge']}  kappa {num(d['mean_kappa'], 2)}  MAE "
                       f"{num(d['mean_mae'], 3)}  over {d['labels']} labels{worst}")
    sys.exit(0)
