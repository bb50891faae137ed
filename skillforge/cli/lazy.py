"""A click group whose commands are imported when they run, not when the program starts.

`skillforge --version` used to cost half a second because importing the group imported every
command module, and with them the judge, the lint engine, the Harbor importer and the trial
models. A `LazyGroup` knows each command by name, module and one-line summary: `--help`
lists the commands from the summaries alone, and a command's module is imported the first
time click resolves its name. tests/cli/test_startup.py checks that each summary still
matches its command's docstring and that importing the group imports no command module.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives (`module:attribute`) and what `--help` says about it."""

    target: str
    # The first paragraph of the command's docstring: click shortens it to the terminal's
    # width exactly as it would the real command's help.
    summary: str
    hidden: bool = False

    def load(self) -> click.Command:
        module, _, attr = self.target.partition(":")
        cmd = getattr(importlib.import_module(module), attr)
        if not isinstance(cmd, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return cmd

    def stand_in(self, name: str) -> click.Command:
        """A command that only carries the name and help, for the group's `--help` listing."""
        return click.Command(name, help=self.summary, hidden=self.hidden)


NAME_COLUMN = 12


class LazyGroup(click.Group):
    """A group with commands added eagerly (`add_command`) and lazily (`lazy_commands`)."""

    def __init__(self, *args, lazy_commands: Mapping[str, LazyCommand] | None = None,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, LazyCommand] = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            self.add_command(self.lazy_commands[cmd_name].load(), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing would call get_command for each name, importing them all.
        shown = []
        for name in self.list_commands(ctx):
            cmd = self.commands.get(name) or self.lazy_commands[name].stand_in(name)
            if not cmd.hidden:
                shown.append((name, cmd))
        if not shown:
            return
        # A name longer than NAME_COLUMN (optimize-description) gets a line of its own, its
        # summary under it (click's write_dl does that), so it does not narrow every summary.
        limit = formatter.width - 6 - min(NAME_COLUMN, max(len(n) for n, _cmd in shown))
        with formatter.section("Commands"):
            formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in shown],
                               col_max=NAME_COLUMN)
