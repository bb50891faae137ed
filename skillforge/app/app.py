"""The Textual App: themes, global keys (remappable by id), command palette, help.

`build_app` is the one factory the CLI, `skillforge serve` and the tests use.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from skillforge.app.commands import WorkbenchCommands
from skillforge.app.idle_gc import CHECK_EVERY_S, IdleCollector
from skillforge.workspace.live import Workspace
from skillforge.models.config import Settings
from skillforge.screens.workbench import WorkbenchScreen

DARK, LIGHT = "textual-dark", "textual-light"


class SkillforgeApp(App[None]):
    TITLE = "skillforge"
    # Panels draw their border in $panel, and a border's title takes its colour: #242F38 on
    # #121212 in the dark theme, unreadable in a terminal and in `skillforge serve`. Titles
    # read in the muted text colour, in the accent colour on the focused widget. (Not
    # `:focus-within` here: an app-wide rule with it restyled every widget on every focus
    # change, 200 ms a tab switch, measured with tests/bench/bench_tui.py.)
    CSS = """
    * { border-title-color: $text-muted; border-subtitle-color: $text-muted; }
    *:focus { border-title-color: $accent; border-subtitle-color: $accent; }
    """
    COMMANDS = App.COMMANDS | {WorkbenchCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("f1", "help", "Help", id="help"),
        Binding("ctrl+t", "toggle_theme", "Theme", id="toggle_theme", show=False),
    ]

    def __init__(self, workspace: Workspace, settings: Settings) -> None:
        super().__init__()
        self.workspace = workspace
        self.settings = settings
        self.status_text = ""
        self.idle_gc = IdleCollector()
        self.theme = settings.ui.theme if settings.ui.theme in self.available_themes else DARK

    def on_mount(self) -> None:
        if self.settings.ui.keys:
            self.set_keymap(dict(self.settings.ui.keys))
        self.push_screen(self.make_workbench())
        self.idle_gc.start()
        self.set_interval(CHECK_EVERY_S, self.idle_gc.tick)

    def on_unmount(self) -> None:
        self.idle_gc.stop()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            self.idle_gc.input_seen()
        await super().on_event(event)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's "Theme" picker would stand beside our light/dark toggle (ctrl+t) as a
        # second theme entry: the palette offers one.
        yield from (c for c in super().get_system_commands(screen) if c.title != "Theme")

    def make_workbench(self) -> WorkbenchScreen:
        return WorkbenchScreen(self.workspace, debounce_ms=self.settings.ui.watch_debounce_ms)

    @property
    def workbench(self) -> WorkbenchScreen | None:
        """The workbench, also while a modal or the command palette is on top of it."""
        return next((s for s in reversed(self.screen_stack) if isinstance(s, WorkbenchScreen)),
                    None)

    async def action_quit(self) -> None:
        """Quit; with unsaved edits, ask first (save, discard or cancel)."""
        wb = self.workbench
        if wb is None:
            self.exit()
        else:
            wb.guard("quit", self.exit)

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.current_theme.dark else DARK

    def action_help(self) -> None:
        # Imported on first use: the Markdown widget costs ~80 ms at start-up otherwise.
        from skillforge.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        focused = self.focused
        widget_help = ""
        node = focused
        while node is not None and not widget_help:
            widget_help = getattr(node, "HELP", "") or ""
            node = node.parent
        if not widget_help:
            widget_help = "## skillforge\nThe lint workbench. Move focus with **Tab**; **F1** on a panel explains it."
        rows = []
        for binding in self._all_bindings():
            rows.append((binding.key, binding.description or binding.action, binding.id or ""))
        self.push_screen(HelpScreen(widget_help, rows))

    def _all_bindings(self) -> list[Binding]:
        seen: dict[str, Binding] = {}
        nodes = [self, self.screen, *self.screen.query("*")]
        for node in nodes:
            for b in getattr(node, "BINDINGS", []):
                if isinstance(b, Binding) and b.id and b.id not in seen:
                    seen[b.id] = b
        # Show the keys as remapped, not as declared, and as a person types them
        # ("]" and "+", not right_square_bracket and plus).
        keymap = getattr(self, "_keymap", {}) or {}
        out = []
        for bid, b in seen.items():
            keys = keymap.get(bid, b.key)
            shown = ", ".join(self.get_key_display(Binding(k.strip(), b.action))
                              for k in keys.split(","))
            out.append(Binding(shown, b.action, b.description, id=bid))
        return out


def build_app(path: Path | str = ".", settings: Settings | None = None) -> SkillforgeApp:
    """The workbench on `path` (a skill, a SKILL.md, or a folder of skills)."""
    from skillforge.config import load_settings

    workspace = Workspace.open(Path(path))
    if settings is None:
        single = workspace.skills[0] if len(workspace.skills) == 1 else None
        settings = load_settings(single)
    workspace.prefetch()  # the first lint overlaps Textual's start-up
    return SkillforgeApp(workspace, settings)
