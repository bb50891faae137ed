"""Past trial runs: id, date, skill, trials ok/error, overall lift. Selecting one posts
`RunsList.Selected(run_id)`.

It renders rows it is given (`show(rows)`); the app builds them off the UI thread with
`skillforge.trials.history.run_overviews(store)`. A row is anything with the attributes of
`RunOverview` (run_id, created_at, skill_name, status, trials, ok, errors, cancelled,
overall_lift, overall_verdict, failures). The row under the cursor is posted as
`RunsList.Highlighted`; `RunFailures` below the list says why its trials failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable, Static

from skillforge.trials.progress import failure_lines

VERDICT_STYLE = {"helps": "bold green", "hurts": "bold red", "inconclusive": "yellow"}
STATUS_STYLE = {"finished": "green", "running": "cyan", "cancelled": "magenta",
                "failed": "red", "stopped": "yellow"}  # stopped: at its cost cap


def lift_text(lift: float | None, verdict: str | None) -> Text:
    if lift is None:
        return Text("-", style="dim")
    return Text(f"{lift:+.3f}", style=VERDICT_STYLE.get(verdict or "", ""))


class RunsList(DataTable):
    """One row per stored run, newest first."""

    HELP = """## Runs
Every trial run in this folder's store, newest first: when it ran, the skill (from 100 columns), how many
trials finished ok / failed (error or timeout), and the overall Skill Lift (green: the CI
is above 0, red: below, yellow: inconclusive). Under the list: why the trials of the run
under the cursor failed. **Enter** opens a run.
"""
    DEFAULT_CSS = """
    RunsList { height: 1fr; border: round $panel; }
    RunsList:focus { border: round $accent; }
    """
    COLUMNS = (("run", 22), ("date", 16), ("skill", 18), ("status", 9), ("ok", 4),
               ("err", 4), ("lift", 8))
    # Under 100 columns: a short date and no skill column (the list holds the open skill's
    # runs only), so no horizontal scrollbar takes the row an 80x24 terminal has for runs.
    NARROW = {"date": 11, "skill": 0}

    class Selected(Message):
        def __init__(self, run_id: str) -> None:
            super().__init__()
            self.run_id = run_id

    class Highlighted(Message):
        """The run under the cursor (None: the list is empty)."""

        def __init__(self, row: Any | None) -> None:
            super().__init__()
            self.row = row

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.rows_shown: list[Any] = []
        self._narrow = False
        self.border_title = "Runs"

    def on_mount(self) -> None:
        self._narrow = self._is_narrow()
        self._add_columns()

    def _is_narrow(self) -> bool:
        return (self.size.width or 100) < 100

    def _add_columns(self) -> None:
        for name, width in self.COLUMNS:
            width = self.NARROW.get(name, width) if self._narrow else width
            if width:
                self.add_column(name, key=name, width=width)

    def on_resize(self) -> None:
        if self._is_narrow() != self._narrow:
            self._narrow = self._is_narrow()
            self.clear(columns=True)
            self._add_columns()
            self.show(list(self.rows_shown))

    def show(self, rows: Sequence[Any]) -> None:
        """Replace the list with `rows` (RunOverview-like objects), keeping the selection."""
        selected = self.selected_run_id
        self.clear()
        self.rows_shown = list(rows)
        for row in self.rows_shown:
            err = row.errors
            self.add_row(
                row.run_id,
                row.created_at.strftime("%m-%d %H:%M" if self._narrow else "%Y-%m-%d %H:%M"),
                *([] if self._narrow else [row.skill_name or "-"]),
                Text(row.status, style=STATUS_STYLE.get(row.status, "")),
                Text(str(row.ok), style="green" if row.ok else "dim"),
                Text(str(err), style="red" if err else "dim"),
                lift_text(row.overall_lift, row.overall_verdict),
                key=row.run_id,
            )
        self.border_title = f"Runs ({len(self.rows_shown)})"
        if selected is not None:
            for i, row in enumerate(self.rows_shown):
                if row.run_id == selected:
                    self.move_cursor(row=i)
        self.post_message(self.Highlighted(self.selected_row))

    @property
    def selected_row(self) -> Any | None:
        if not self.rows_shown or self.cursor_row is None:
            return None
        if 0 <= self.cursor_row < len(self.rows_shown):
            return self.rows_shown[self.cursor_row]
        return None

    @property
    def selected_run_id(self) -> str | None:
        row = self.selected_row
        return row.run_id if row is not None else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.Highlighted(self.selected_row))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Selected(str(event.row_key.value)))


class RunFailures(Static):
    """Why the trials of one run failed, a line per reason; hidden when none did."""

    DEFAULT_CSS = """
    RunFailures { height: auto; max-height: 4; padding: 0 1; display: none; }
    """
    SHOWN = 2  # reasons; the run's err column counts them all

    def on_resize(self) -> None:
        # Shown (or grown) under the list the author is reading: on a short terminal the
        # Trials tab scrolls down to it, the list staying in view above (issue 37).
        if self.display and isinstance(self.screen.focused, RunsList):
            self.scroll_visible(animate=False)

    def show(self, row: Any | None) -> None:
        failed = [(f.key, f.status, f.error) for f in getattr(row, "failures", None) or []]
        stopped = getattr(row, "stopped", None)  # --until-decided: why it stopped
        self.display = bool(failed or stopped)
        parts: list[Any] = [Text(f"Run {row.run_id}: {stopped}", style="bold")] \
            if stopped else []
        if failed:
            parts.append(Text(f"Run {row.run_id}: {len(failed)} trial(s) failed", style="bold"))
            parts += failure_lines(failed, limit=self.SHOWN)
        if parts:
            self.update(Group(*parts))
