"""`skillforge new NAME`: scaffold a valid skill with an evals/evals.json template."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from skillforge.authoring.scaffold import ScaffoldError, create_skill


@click.command("new")
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(file_okay=False), default=".", show_default=True,
              help="Folder to create the skill in.")
@click.option("--description", help="The skill's description (what it does and when to use it).")
def new(name: str, parent: str, description: str | None) -> None:
    """Create NAME/ with SKILL.md and evals/evals.json, ready to edit."""
    try:
        root = create_skill(Path(parent), name, description)
    except ScaffoldError as exc:
        click.echo(f"skillforge new: {exc}", err=True)
        sys.exit(2)
    click.echo(f"created {root}/SKILL.md and {root}/evals/evals.json")
    click.echo(f"next: skillforge {root}")
