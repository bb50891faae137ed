"""The live grid of a trial run: case x condition x attempt, status glyphs, running totals.

Feed it the run's events (skillforge.trials.events) with `apply(event)`; a Textual worker
running `TrialRunner(..., on_event=...)` forwards them, e.g. as `TrialsGrid.Event` messages
posted to the screen, whose handler calls `grid.apply(message.event)`. It renders with the
same headless state and Rich tables as the CLI's live display (skillforge.trials.progress).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from skillforge.trials.progress import (
    RunProgress,
    failure_lines,
    progress_table,
    reuse_lines,
    running_lines,
    totals_line,
)
from skillforge.trials.rounds import round_texts


WARNINGS_SHOWN = 3  # the newest; the count says how many there were


class TrialsGrid(Static):
    """Every trial of the current run as a glyph in a case x (condition, attempt) grid."""

    HELP = """## Trials
One row per case, one column per condition and attempt (**with#2** = with the skill,
attempt 2; **−workflow#1** = without that part of the skill, an ablation). **·** queued, **▶n** running (n = the agent's turn), **✓** ok (with the grader
reward when the case has a grader), **✗** error, **⏱** timeout, **⊘** cancelled, **↷**
already done in an earlier session (resume), **↺** reused from an earlier run whose trial
had exactly the same inputs (the line under the totals names the run; `--fresh` runs all). Below: totals, what running trials do now,
and why trials failed (one line per reason, naming the trials it struck).
"""
    DEFAULT_CSS = """
    TrialsGrid { height: auto; min-height: 3; padding: 0 1; border: round $panel; }
    """

    class Event(Message):
        """A run event forwarded to the UI thread (post it; the handler calls apply)."""

        def __init__(self, event: Any) -> None:
            super().__init__()
            self.event = event

    class RunEnded(Message):
        """The run this grid shows has finished (status finished, cancelled, failed or
        stopped at its cost cap)."""

        def __init__(self, run_id: str, status: str, error: str | None) -> None:
            super().__init__()
            self.run_id = run_id
            self.status = status
            self.error = error

    class Warned(Message):
        """The run warned (a skipped decoy, a smoke-test finding, a judge that answered
        badly...): the grid lists warnings instead of a toast each."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.progress = RunProgress()
        self.warnings: list[str] = []
        self.border_title = "Trials"

    def on_mount(self) -> None:
        # The elapsed time keeps moving between events.
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.progress.keys and self.progress.ended is None:
            self.refresh()

    def reset(self) -> None:
        """Forget the current run (before showing another)."""
        self.progress = RunProgress()
        self.warnings = []
        self.border_title = "Trials"
        self.refresh(layout=True)

    def add_warning(self, text: str) -> None:
        """One more warning of the current run (shown under the totals, newest last)."""
        self.warnings.append(" ".join(text.split()))
        self.refresh(layout=True)

    def apply(self, event: Any) -> None:
        """Update the grid from one run event."""
        self.progress.apply(event)
        kind = getattr(event, "kind", None)
        if kind == "run_started":
            self.border_title = f"Trials · run {event.run_id}"
        elif kind == "run_finished":
            self.border_title = f"Trials · run {event.run_id} · {event.status}"
            self.post_message(self.RunEnded(event.run_id, event.status, event.error))
        # Only a step or a phase keeps the height: the others add or drop a row, a line of
        # what runs now or a failure's reason, which must not be cut off.
        self.refresh(layout=kind not in ("step", "phase"))

    def render(self) -> Group | Text:
        p = self.progress
        warned = self._warnings_text()
        if not p.keys:
            empty = Text("No run started in this session: ctrl+r starts one. Past runs are "
                         "listed below (Enter opens one in Lift).", style="dim italic")
            return Group(empty, warned) if warned else empty
        parts: list[Any] = [progress_table(p), totals_line(p), *reuse_lines(p), *running_lines(p),
                            *failure_lines(p.failed()), *round_texts(p)]
        if warned:
            parts.append(warned)
        if p.error:
            parts.append(Text(f"run failed: {p.error}", style="bold red"))
        if p.stop_reason:
            parts.append(Text(f"{p.stop_reason}; the Lift tab shows what finished",
                              style="bold yellow"))
        return Group(*parts)

    def _warnings_text(self) -> Text | None:
        if not self.warnings:
            return None
        n = len(self.warnings)
        text = Text(f"⚠ {n} warning{'s' if n != 1 else ''}", style="bold yellow")
        for line in self.warnings[-WARNINGS_SHOWN:]:
            text.append(f"\n  {line}", style="yellow")
        if n > WARNINGS_SHOWN:
            text.append(f"\n  (and {n - WARNINGS_SHOWN} earlier)", style="dim")
        text.no_wrap, text.overflow = True, "ellipsis"
        return text
