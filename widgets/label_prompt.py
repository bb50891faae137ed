"""A one-line window for the author's own score of a judgment: "SCORE REASON".

Dismissed with `(value, reason)` on the metric's stored scale (see
`skillforge.models.labels.parse_author_score`), or None on Escape. A score that does not fit
the metric is refused in the window with what does, and the window stays open.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from skillforge.models.labels import entry_hint, parse_author_score, shown_value


class LabelPrompt(ModalScreen[tuple[float, str] | None]):
    """Your score for one judgment, and a one-line reason."""

    DEFAULT_CSS = """
    LabelPrompt { align: center middle; }
    LabelPrompt > Vertical { width: 72; height: auto; border: round $accent;
                             background: $surface; padding: 0 1; }
    LabelPrompt #label-problem { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="label.cancel")]

    def __init__(self, metric: str, what: str, judge_value: float | None) -> None:
        super().__init__()
        self.metric, self.what, self.judge_value = metric, what, judge_value

    def compose(self) -> ComposeResult:
        with Vertical():
            head = Text()
            head.append(f"Your score for {self.metric}", style="bold")
            head.append(f" · {self.what}\n", style="dim")
            head.append(f"judge: {shown_value(self.metric, self.judge_value)}   type "
                        f"{entry_hint(self.metric)}, then a one-line reason", style="dim")
            yield Static(head)
            yield Input(placeholder="e.g. 6 misses the failure path", id="label-input")
            yield Static("", id="label-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        score, _, reason = event.value.strip().partition(" ")
        try:
            value = parse_author_score(self.metric, score)
        except ValueError as exc:
            self.query_one("#label-problem", Static).update(str(exc))
            return
        self.dismiss((value, " ".join(reason.split())))

    def action_cancel(self) -> None:
        self.dismiss(None)
