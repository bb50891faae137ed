"""`skillforge trial --until-decided [--max-attempts K] [--margin M]`: the options.

The run goes in rounds (one attempt of every case in every condition), prints each
round's anytime-valid interval, and stops once the headline is decided either way, the
headline metric's interval is narrower than the margin, or K rounds ran
(skillforge.trials.rounds). The options are added by one decorator and reach the command
through the click context, so `trial`'s own signature stays as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from skillforge.models.rounds import DEFAULT_MARGIN

DEFAULT_MAX_ATTEMPTS = 10
_META = "skillforge.until_decided"


def until_decided_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --until-decided, --max-attempts and --margin to `command`."""

    @functools.wraps(command)
    def wrapper(*args: Any, until_decided: bool, max_attempts: int | None,
                margin: float | None, **kwargs: Any) -> Any:
        if not until_decided and (max_attempts is not None or margin is not None):
            raise click.UsageError("--max-attempts and --margin go with --until-decided")
        if until_decided and kwargs.get("attempts") is not None:
            raise click.UsageError("--until-decided runs up to --max-attempts rounds (default "
                                   f"{DEFAULT_MAX_ATTEMPTS}); drop --attempts")
        if until_decided and kwargs.get("resume"):
            raise click.UsageError("--resume finishes a stored run with its own settings; "
                                   "drop --until-decided")
        found: dict[str, Any] = {}
        if until_decided:
            found = {"until_decided": True,
                     "attempts": max_attempts or DEFAULT_MAX_ATTEMPTS, "margin": margin}
        click.get_current_context().meta[_META] = found
        return command(*args, **kwargs)

    options = [
        click.option("--until-decided", is_flag=True,
                     help="Run in rounds (one attempt of every case per condition) and stop "
                          "once the headline verdict is decided either way, its interval is "
                          "narrower than --margin, or --max-attempts rounds ran. Intervals "
                          "are anytime-valid (a betting confidence sequence; pass/fail: a "
                          "sequential test on the discordant pairs), so stopping early keeps "
                          "the 95% promise; each round's interval is printed."),
        click.option("--max-attempts", type=click.IntRange(1, 100), default=None,
                     metavar="K", help="--until-decided: the most rounds (default "
                                       f"{DEFAULT_MAX_ATTEMPTS})."),
        click.option("--margin", type=click.FloatRange(0, 2, min_open=True, max_open=True),
                     default=None, metavar="M",
                     help="--until-decided: also stop once the headline metric's interval "
                          f"is narrower than M (default [trial] margin, {DEFAULT_MARGIN})."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def rounds_overrides() -> dict[str, Any]:
    """The spec overrides the options asked for ({} without --until-decided)."""
    return dict(click.get_current_context().meta.get(_META) or {})
