"""`skillforge harvest RUN_ID -o DIR`: the skills an agent saved in Skill Mode, as skill folders."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import NoReturn

import click

from skillforge.cli.common import settings_for, shown_path


def _fail(message: str) -> NoReturn:
    click.echo(f"skillforge harvest: {message}", err=True)
    sys.exit(2)


@click.command("harvest")
@click.argument("run_id")
@click.option("--skill", "skills", multiple=True, metavar="NAME",
              help="A skill of the run's final cache to harvest (repeat for several; default: "
                   "every skill).")
@click.option("-o", "--output", "out_dir", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write into: each skill becomes DIR/<name>/ (never overwritten).")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run store folder (default .skillforge in the launch directory).")
def harvest(run_id: str, skills: tuple[str, ...], out_dir: Path,
            state_dir: Path | None) -> None:
    """Turn the skills an agent saved in a skill_mode run into Agent Skills folders.

    Each chosen skill of the run's final skill cache becomes DIR/<name>/ with a SKILL.md (a
    valid name, a description from what the skill did and where it was reused), the agent's
    code as a command under scripts/ (arguments in, result printed as JSON) and an
    evals/evals.json seeded from the cases that created and reused it. RUN_ID may be
    `latest`. Exit 0 when written; 2 for an unknown run or skill, a run without skill_mode
    trials, an empty cache or a folder that already exists (nothing is written then).
    """
    from sessions.store import RunStore
    from skillforge.authoring.harvest import HarvestError, harvest_skills

    store_dir = state_dir or Path(settings_for(None).state_dir)
    if not store_dir.is_dir():
        _fail(f"no run store at {store_dir}; run trials first (skillforge trial SKILL "
              "--conditions skill_mode,baseline) or pass --state-dir")
    with RunStore(store_dir) as store:
        if run_id == "latest":
            latest = store.latest_run()
            if latest is None:
                _fail(f"the run store {store_dir} holds no run yet")
            run_id = latest.run_id
        try:
            result = harvest_skills(store, run_id, out_dir, list(skills) or None)
        except HarvestError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"cannot write under {out_dir}: {exc}")
    for message in result.messages:
        click.echo(message)
    click.echo("next:")
    for folder in result.folders:
        shown = shlex.quote(shown_path(folder))
        click.echo(f"  skillforge lint {shown}")
        click.echo(f"  skillforge trial {shown} --conditions with_skill,baseline")
