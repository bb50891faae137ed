"""The footer of keys: one line of text, redrawn only when the keys it shows change.

Textual's Footer rebuilds a widget per key on every change of focus (each focus change
publishes "bindings updated"), several times per tab switch; with a few hundred widgets on
the screen those rebuilds were a third of a tab switch's time (cProfile over
tests/bench/bench_tui.py). This footer renders the same keys as one line of text: requests
of a frame are coalesced, nothing is redrawn when the keys are the same, and a key that
does not fit is left out whole instead of cut mid-word. The app's own keys (`q` Quit, `f1`
Help) always keep their room: at 80 columns a tab's keys pushed them off (issue 37), and F1
is where every key left out is listed. A click on a key presses it.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget


class KeyFooter(Widget):
    """The keys of the focused widget, its containers, the screen and the app."""

    COMPONENT_CLASSES = {"key-footer--key", "key-footer--description"}
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom; height: 1; background: $footer-background;
        color: $footer-foreground;
        /* the keys are clickable: links, drawn like the keys */
        link-color: $footer-key-foreground; link-style: bold;
        link-color-hover: $footer-key-foreground; link-style-hover: bold reverse;
    }
    KeyFooter > .key-footer--key {
        color: $footer-key-foreground; background: $footer-key-background; text-style: bold;
    }
    KeyFooter > .key-footer--description {
        color: $footer-description-foreground; background: $footer-description-background;
    }
    """
    ALLOW_SELECT = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._pending = False
        self.keys: tuple[tuple[str, str, str, bool], ...] = ()  # (key, shown, description, on)
        self.app_keys: frozenset[str] = frozenset()  # the keys bound by the app itself
        self.palette: tuple[str, str] | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._update()

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen and not self._pending:
            self._pending = True
            self.call_after_refresh(self._update)

    def _update(self) -> None:
        self._pending = False
        if not self.is_attached:  # its screen was replaced (switch_screen) before the refresh
            return
        app = self.app
        keys: list[tuple[str, str, str, bool]] = []
        own: set[str] = set()
        seen_actions: set[str] = set()
        palette = None
        for key, (node, binding, enabled, _tip) in self.screen.active_bindings.items():
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = (app.get_key_display(binding), "palette")
            if not binding.show or binding.action in seen_actions:
                continue
            seen_actions.add(binding.action)
            keys.append((key, app.get_key_display(binding), binding.description, enabled))
            if node is app:
                own.add(key)
        if tuple(keys) != self.keys or palette != self.palette:
            self.keys, self.palette, self.app_keys = tuple(keys), palette, frozenset(own)
            self.refresh()

    @property
    def text(self) -> str:
        """The footer as shown."""
        return self.render().plain

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-footer--key")
        desc_style = self.get_component_rich_style("key-footer--description")
        right = Text()
        if self.palette is not None:
            right.append("▏", style="dim")
            right.append(f"{self.palette[0]}", style=key_style)
            right.append(f" {self.palette[1]} ", style=desc_style)
        room = max(0, self.size.width - right.cell_len)
        pieces = []
        for key, shown, description, enabled in self.keys:
            piece = Text()
            click = Style.from_meta({"@click": f"press({key!r})"})
            dim = Style(dim=True) if not enabled else Style()
            piece.append(f" {shown} ", style=key_style + dim + click)
            piece.append(f"{description} ", style=desc_style + dim)
            pieces.append((piece, key in self.app_keys))
        # The app's keys are counted first, so the tab's keys fill only what they leave.
        kept = sum(p.cell_len for p, own in pieces if own)
        line = Text(no_wrap=True)
        full = False
        for piece, own in pieces:
            if not own:
                if full or line.cell_len + piece.cell_len + kept > room:
                    full = True  # left out whole: F1 lists every key
                    continue
            else:
                kept -= piece.cell_len
                if line.cell_len + piece.cell_len > room:
                    break
            line.append_text(piece)
        line.pad_right(room - line.cell_len)
        line.append_text(right)
        return line

    def action_press(self, key: str) -> None:
        self.app.simulate_key(key)
