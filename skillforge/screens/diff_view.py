"""A unified diff between two texts, in a modal: what changed on disk against my edits."""

from __future__ import annotations

import difflib

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

LINE_STYLE = {"+": "green", "-": "red", "@": "cyan"}


def diff_text(before: str, after: str, before_name: str, after_name: str) -> Text:
    """The unified diff, coloured (+ green, - red, @@ cyan); a sentence when equal."""
    lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(), before_name,
                                      after_name, lineterm=""))
    if not lines:
        return Text("The two versions are identical.", style="dim")
    out = Text()
    for line in lines:
        style = "bold" if line.startswith(("+++", "---")) else LINE_STYLE.get(line[:1], "")
        out.append(line + "\n", style=style)
    return out


class DiffScreen(ModalScreen[None]):
    """Shows `diff_text(...)`; Esc or q closes it."""

    BINDINGS = [Binding("escape,q", "close", "Close", id="diff.close")]
    DEFAULT_CSS = """
    DiffScreen { align: center middle; }
    DiffScreen > VerticalScroll {
        width: 90%; height: 85%; border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, title: str, before: str, after: str, before_name: str,
                 after_name: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = diff_text(before, after, before_name, after_name)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="diff-body"):
            yield Static(self.body, id="diff-text")

    def on_mount(self) -> None:
        box = self.query_one(VerticalScroll)
        box.border_title = self.title_text
        box.border_subtitle = "Esc: close"
        box.focus()

    def action_close(self) -> None:
        self.dismiss(None)
