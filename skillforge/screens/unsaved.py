"""Asking before unsaved edits are lost (quit, switch skill): save, discard or cancel."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class UnsavedChanges(ModalScreen[str]):
    """Dismisses with "save", "discard" or "cancel"."""

    BINDINGS = [
        Binding("s", "choose('save')", "Save", id="unsaved.save"),
        Binding("d", "choose('discard')", "Discard", id="unsaved.discard"),
        Binding("escape,c", "choose('cancel')", "Cancel", id="unsaved.cancel"),
    ]
    DEFAULT_CSS = """
    UnsavedChanges { align: center middle; }
    UnsavedChanges > Vertical {
        width: 64; max-width: 95%; height: auto; border: round $warning; background: $surface;
        padding: 0 1;
    }
    UnsavedChanges #unsaved-text { height: auto; margin-bottom: 1; }
    UnsavedChanges Horizontal { height: auto; align-horizontal: right; }
    UnsavedChanges Button { margin-left: 1; }
    """

    def __init__(self, what: str, doing: str) -> None:
        super().__init__()
        self.what = what    # "evals/evals.json has unsaved edits"
        self.doing = doing  # "quit", "switch to lab-units"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.what}.\nSave them before you {self.doing}?", id="unsaved-text")
            with Horizontal():
                yield Button("Save (s)", variant="success", id="save")
                yield Button("Discard (d)", variant="error", id="discard")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = "Unsaved changes"
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "cancel")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
