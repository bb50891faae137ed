"""The stored runs, newest first: pick one to see its lift, or mark two to compare them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from skillforge.models.trial import RunRecord
from widgets.words import counted

STATUS_STYLE = {"finished": "green", "running": "yellow", "cancelled": "dim", "failed": "red",
                "stopped": "yellow"}  # stopped: at its cost cap
MARK = "◉"


class RunChosen(Message):
    """The author picked a run: show its lift."""

    def __init__(self, run_id: str) -> None:
        super().__init__()
        self.run_id = run_id


class CompareRunsChosen(Message):
    """The author wants two runs compared; `run_a` is the older, so change = B − A reads as
    "what changed since"."""

    def __init__(self, run_a: str, run_b: str) -> None:
        super().__init__()
        self.run_a = run_a
        self.run_b = run_b


class RunPicker(DataTable):
    """Stored runs: id, date, skill, engine, trials, status (label when wide)."""

    HELP = """## Runs
Every paired run in the run store, newest first: its id, when it started, the skill, the
engine that ran it (local Docker, Harbor, an import), how many trials it stored and its
status.

- **Enter** shows the run's Skill Lift.
- **Space** marks a run for comparison (◉); **c** compares the two marked runs (or the
  marked run with the one under the cursor). The older run is A, the newer B: the table
  then shows the change of lift B − A per metric with a paired CI over their common cases.
"""
    DEFAULT_CSS = """
    RunPicker { height: 1fr; border: round $panel; }
    RunPicker:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Mark", id="runs.mark"),
        Binding("c", "compare", "Compare", id="runs.compare"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "Runs"
        self.runs: list[RunRecord] = []
        self.trial_counts: dict[str, int] = {}
        self.marked: list[str] = []
        self._wide: str | None = None

    def set_runs(self, runs: Sequence[RunRecord],
                 trial_counts: Mapping[str, int] | None = None) -> None:
        """Show `runs` (e.g. `store.runs()`) with their number of stored trials."""
        keep = self.current()
        self.runs = list(runs)
        self.trial_counts = dict(trial_counts or {})
        known = {r.run_id for r in self.runs}
        self.marked = [m for m in self.marked if m in known]
        self._fill()
        if keep is not None:
            self.select_run(keep)

    def _layout(self) -> str:
        """"wide" (a label column), "normal", or "narrow" (no engine, a short date) so that
        at 80 columns no horizontal scrollbar hides the one row a short terminal shows."""
        width = self.size.width or 100
        return "wide" if width >= 100 else "normal" if width >= 90 else "narrow"

    def _fill(self) -> None:
        layout = self._layout()
        wide, narrow = layout == "wide", layout == "narrow"
        self._wide = layout
        self.clear(columns=True)
        # Widths from the rows themselves: an auto-sized column is measured only when the
        # table next idles, so the first paint (or one on a busy machine) would cut the ids.
        run_w = max([3, *(len(r.run_id) for r in self.runs)])
        skill_w = min(24, max([5, *(len(r.skill_name or "—") for r in self.runs)]))
        self.add_column(" ", key="mark", width=1)
        self.add_column("run", key="run", width=run_w)
        self.add_column("date (UTC)", key="date", width=11 if narrow else 16)
        self.add_column("skill", key="skill", width=skill_w)
        if not narrow:
            self.add_column("engine", key="engine", width=6)
        self.add_column("trials", key="trials", width=6)
        self.add_column("status", key="status", width=9)
        if wide:
            self.add_column("label", key="label",
                            width=max([5, *(len(r.label or "") for r in self.runs)]))
        for run in self.runs:
            count = self.trial_counts.get(run.run_id)
            cells = [Text(MARK if run.run_id in self.marked else " ", style="bold cyan"),
                     run.run_id, f"{run.created_at:%m-%d %H:%M}" if narrow else
                     f"{run.created_at:%Y-%m-%d %H:%M}", run.skill_name or "—",
                     *([] if narrow else [run.engine]),
                     Text("—" if count is None else str(count), justify="right"),
                     Text(run.status, style=STATUS_STYLE.get(run.status, ""))]
            if wide:
                cells.append(run.label or "")
            self.add_row(*cells, key=run.run_id)
        marked = f" · marked {len(self.marked)}/2" if self.marked else ""
        self.border_subtitle = (f"{counted(len(self.runs), 'run')}{marked} · Enter: lift · Space: mark · "
                                "c: compare") if self.runs else "no runs yet: run a trial first"

    def on_resize(self) -> None:
        if self.runs and self._wide != self._layout():
            keep = self.current()
            self._fill()
            if keep is not None:
                self.select_run(keep)

    def current(self) -> str | None:
        r = self.cursor_row
        return self.runs[r].run_id if self.runs and 0 <= r < len(self.runs) else None

    def select_run(self, run_id: str) -> bool:
        ids = [r.run_id for r in self.runs]
        if run_id not in ids:
            return False
        self.move_cursor(row=ids.index(run_id))
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        run = self.current()
        if run is not None:
            self.post_message(RunChosen(run))

    def action_mark(self) -> None:
        run = self.current()
        if run is None:
            return
        if run in self.marked:
            self.marked.remove(run)
        else:
            self.marked = (self.marked + [run])[-2:]  # a third mark replaces the oldest
        row = self.cursor_row
        self._fill()
        self.move_cursor(row=row)

    def action_compare(self) -> None:
        pair = list(self.marked)
        cur = self.current()
        if len(pair) == 1 and cur is not None and cur not in pair:
            pair.append(cur)
        if len(pair) != 2:
            self.notify("Mark two runs with Space (or one, and put the cursor on the other), "
                        "then press c.", timeout=4)
            return
        order = {r.run_id: r.created_at for r in self.runs}
        a, b = sorted(pair, key=lambda rid: (order[rid], rid))
        self.post_message(CompareRunsChosen(a, b))
