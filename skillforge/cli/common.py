"""Helpers shared by the CLI commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from skillforge.config import ConfigError, lint_settings, load_settings

if TYPE_CHECKING:
    from rich.console import Console

    from skillforge.models.config import Settings
    from skillforge.models.lint_config import LintConfig

T = TypeVar("T")


def console(stderr: bool = False) -> Console:
    # Rich loads here, not with the module: `lint --format json` never needs it.
    from rich.console import Console

    # Respect NO_COLOR and pipes; never wrap machine-readable output.
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def shown_path(path: Path) -> str:
    """A path as the user would type it: relative to the launch directory when inside it."""
    try:
        rel = os.path.relpath(path.resolve(), Path.cwd().resolve())
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def settings_for(skill_dir: Path | None, overrides: dict | None = None) -> Settings:
    return _config_or_exit(lambda: load_settings(skill_dir, overrides=overrides))


def lint_settings_for(files: list[Path], skill_dir: Path, overrides: dict) -> LintConfig:
    """`skillforge.config.lint_settings`, exiting 2 on a broken config as `settings_for`."""
    return _config_or_exit(lambda: lint_settings(files, skill_dir, overrides=overrides))


def _config_or_exit(load: Callable[[], T]) -> T:
    try:
        return load()
    except ConfigError as exc:
        click.echo(f"skillforge: {exc}", err=True)
        sys.exit(2)


def require_paths(paths: tuple[str, ...]) -> list[Path]:
    out = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise click.UsageError(
                f"{p}: no such file or folder; pass a skill folder, a SKILL.md, or a folder of skills"
            )
        out.append(path)
    return out


def _check_ci(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    from skillforge.lift.intervals import check_ci_method

    try:
        check_ci_method(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


# `--ci` once chose among four intervals; only the bounded one is left (issue 33). The
# option stays, hidden, so a script that still passes `--ci t` is told why instead of
# "no such option".
ci_option = click.option("--ci", default="bounded", hidden=True, callback=_check_ci,
                         help="The lift's interval: bounded (the only one).")
