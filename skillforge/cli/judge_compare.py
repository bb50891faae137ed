"""`skillforge judge --compare-judges`: which configured judge agrees best with the author.

Each judge model judges the skill on its own (cached by content, so a repeat costs nothing;
one model failing leaves the others), and what it said is recorded in the run store. The
judges are then ranked exactly as the Lift tab's agreement view ranks them
(skillforge.lift.calibration_rank.skill_agreement): every judge's scores of this version
of the skill and its stored trial judgments (every run of the skill) meet the author's
labels, and the scores the author saw when labelling count for the judge that gave them.
By mean weighted kappa over the metrics and criteria with labels when every judge has one
(then by the mean absolute error, scaled to 0-1), else by that error alone.

Every model listed is either ranked or named with why not: its judge call failed (the
model and the error), or none of the author's labels meets a judgment by it. Exit 0; 2 when
a judge failed or no judge could be compared.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import click

from skillforge.lift.calibration_rank import is_configured, rank, skill_agreement
from skillforge.lift.calibration_run import rubric_judgments
from skillforge.models.labels import CalibrationBar
from skillforge.report.facts import num

LABEL_HOW = "`skillforge label RUN_ID`, or a and o in the Judge tab"


@dataclass
class JudgeRun:
    """One model's judgment of one skill, or why it has none."""

    shown: str
    skill: str
    model: str
    result: Any = None  # JudgeResult
    error: str | None = None


def _fail(message: str) -> NoReturn:
    click.echo(f"skillforge judge: {message}", err=True)
    sys.exit(2)


async def judge_each(plans: list, judge_one: Callable[..., Awaitable[Any]]) -> list[JudgeRun]:
    """Every model of every plan judges its skill alone, the models of a skill at once."""
    from skillforge.cli.common import shown_path
    from skillforge.models.judge import JudgeError
    from skillforge.models.llm import ProviderError
    from skillforge.models.skill import load_skill
    from skillforge.models.structured_ask import client_labels
    from skillforge.providers import aclose

    async def one(skill_dir: Path, settings: Any, client: Any, label: str) -> JudgeRun:
        skill = load_skill(skill_dir)
        run = JudgeRun(shown_path(skill_dir), skill.name or skill.folder_name, label)
        try:
            result = await judge_one(skill_dir, settings, client)
            # Named as in a judgment of all of them (provider:model when two share a model).
            run.result = result.model_copy(update={"judges": [
                v.model_copy(update={"label": label}) for v in result.judges]})
        except (ProviderError, JudgeError) as exc:
            run.error = str(exc)
        finally:
            await aclose(client)
        return run

    runs: list[JudgeRun] = []
    for skill_dir, settings, clients in plans:
        try:
            labels = client_labels(clients)
        except ValueError as exc:
            _fail(str(exc))
        runs += await asyncio.gather(*(one(skill_dir, settings, c, label)
                                       for c, label in zip(clients, labels, strict=True)))
    return runs


def not_compared(runs: list[JudgeRun], ranking: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each listed model that has no place in the ranking, with why."""
    out = []
    for model in dict.fromkeys(r.model for r in runs):
        if any(is_configured(d["judge"], [model]) for d in ranking):
            continue
        failed = next((r for r in runs if r.model == model and r.error), None)
        if failed is not None:
            out.append({"judge": model, "reason": f"the judge call failed on {failed.shown}",
                        "error": failed.error})
            continue
        skills = ", ".join(dict.fromkeys(r.skill for r in runs if r.model == model))
        out.append({"judge": model, "error": None, "reason": (
            f"no labelled judgment by {model}: it judged this version of {skills}, which "
            "you have not labelled, and none of the trials you labelled; label its scores "
            f"to compare it ({LABEL_HOW})")})
    return out


def compare_and_exit(plans: list, judge_one: Callable[..., Awaitable[Any]], *, fmt: str,
                     state_dir: str | None) -> NoReturn:
    from sessions.store import DB_NAME, RunStore
    from skillforge.cli.common import settings_for

    settings = plans[0][1] if plans else settings_for(None)
    state = Path(state_dir or settings.state_dir)
    if not (state / DB_NAME).is_file():
        _fail(f"no run store at {state / DB_NAME}: label some judgments first ({LABEL_HOW})")
    bar = CalibrationBar(min_kappa=settings.judge.calibration_kappa,
                         min_labels=settings.judge.calibration_min_labels)
    runs = asyncio.run(judge_each(plans, judge_one))
    for r in runs:
        if r.error:
            click.echo(f"skillforge judge: {r.model} could not judge {r.shown}: {r.error}",
                       err=True)
    skills = list(dict.fromkeys(r.skill for r in runs))
    rows, labels = [], 0
    with RunStore(state) as store:
        store.record_judgments([j for r in runs if r.result is not None
                                for j in rubric_judgments(r.result)])
        for skill in skills:
            agreement = skill_agreement(store, skill, bar)
            rows += agreement.rows
            labels += agreement.labels
    ranking = rank(rows)
    missing = not_compared(runs, ranking)
    failed = any(r.error for r in runs)
    if fmt == "json":
        click.echo(json.dumps({"version": 1, "judges": ranking, "not_compared": missing},
                              indent=2, ensure_ascii=False))
    if not ranking:
        if not labels:
            why = f"you have no labels of {', '.join(skills)}: label some first ({LABEL_HOW})"
        elif failed and all(d["error"] for d in missing):
            why = "every judge failed (see above)"
        else:
            why = "; ".join(f"{d['judge']}: {d['error'] or d['reason']}" for d in missing)
        _fail(f"no judge could be compared with your labels: {why}")
    if fmt != "json":
        click.echo("judges ranked by agreement with your labels (mean weighted kappa, then "
                   "MAE on a 0-1 scale):")
        for i, d in enumerate(ranking, 1):
            worst = f"  not calibrated: {', '.join(d['not_calibrated'])}" \
                if d["not_calibrated"] else ""
            click.echo(f"{i}. {d['judge']}  kappa {num(d['mean_kappa'], 2)}  MAE "
                       f"{num(d['mean_mae'], 3)}  over {d['labels']} labels{worst}")
        for d in missing:
            click.echo(f"not compared: {d['judge']} ({d['reason']}"
                       + (f": {d['error']})" if d["error"] else ")"))
    sys.exit(2 if failed else 0)
