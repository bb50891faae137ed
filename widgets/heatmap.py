"""Cases x metrics heatmap of the paired deltas D(i, m) = S(with) - S(base).

Each cell is coloured on a diverging scale shared by the whole table
(`skillforge.report.facts.delta_scale`, as in the HTML report): grey at zero, deeper green
the more the skill helped that case on that metric, deeper red the more it hurt. The number
is always printed too, so the sign never depends on telling colours apart. A case with one
side missing shows `·` (not imputed). The cursor moves over cells; Enter asks for the
side-by-side of the case under it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from skillforge.models.lift import CaseRow, LiftReport
from skillforge.report import facts as F
from widgets.words import counted

SHORT: dict[str, str] = {
    "overall": "overall", "accuracy": "acc", "goal_accuracy": "goal",
    "behavior_check": "behav", "security": "sec", "skill_execution": "exec",
    "skill_efficiency": "effic", "grader": "grader",
}
NEUTRAL = (70, 70, 70)
HELPS = (26, 152, 80)
HURTS = (215, 48, 39)
CELL_WIDTH = 7
SORTS = ("overall", "case")


def heat_rgb(delta: float, scale: float) -> tuple[int, int, int]:
    """The cell colour of a delta: neutral grey at 0, full green/red at +-scale."""
    t = min(1.0, abs(delta) / scale) if scale > 0 else 0.0
    end = HELPS if delta > 0 else HURTS
    return tuple(round(n + (e - n) * t) for n, e in zip(NEUTRAL, end, strict=True))  # type: ignore[return-value]


def heat_style(delta: float | None, scale: float) -> Style:
    if delta is None:
        return Style(dim=True)
    r, g, b = heat_rgb(delta, scale)
    light = 0.299 * r + 0.587 * g + 0.114 * b > 150
    return Style(color="black" if light else "white", bgcolor=f"rgb({r},{g},{b})")


def heat_cell(delta: float | None, scale: float, width: int = CELL_WIDTH) -> Text:
    text = "·" if delta is None else F.signed(delta, 2)
    return Text(text.center(width), style=heat_style(delta, scale), no_wrap=True)


def heat_legend(scale: float, metrics: list[str] | None = None) -> Text:
    """The colour scale from -scale to +scale, and what the column names stand for."""
    text = Text("Δ with − base  ")
    text.append(f"-{scale:g} ", style="dim")
    steps = 9
    for i in range(steps):
        d = -scale + 2 * scale * i / (steps - 1)
        text.append("  ", style=heat_style(d, scale))
    text.append(f" +{scale:g}", style="dim")
    text.append("   · = one side missing", style="dim")
    names = [m for m in metrics or [] if SHORT.get(m, m) != m]
    if names:
        text.append("\n" + "  ".join(f"{SHORT[m]} = {m}" for m in names), style="dim")
    return text


def metric_columns(report: LiftReport) -> list[str]:
    """overall first, then the report's metrics in report order."""
    names = F.metric_names(report)
    return (["overall"] if "overall" in names else []) + [m for m in names if m != "overall"]


class Heatmap(DataTable):
    """The per-case paired deltas of every metric, coloured, with a cell cursor."""

    HELP = """## Cases × metrics
One row per case, one column per metric: the paired delta D = S(with skill) − S(baseline)
of that case, where S is the mean over the attempts. Green: the skill helped that case on
that metric; red: it hurt; grey: no difference. `·` means one side has no value (the case
is counted in the inventory but not imputed). Column names are abbreviated (see the legend).

- The arrow keys move over the cells; the line below the map explains the cell.
- **Enter** (or a click on the highlighted cell) opens the with/without side-by-side of
  the case under the cursor.
- **s** sorts by overall delta (best first) or by case id.
"""
    DEFAULT_CSS = """
    Heatmap { height: 1fr; border: round $panel; }
    Heatmap:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "cycle_sort", "Sort", id="heatmap.sort")]

    class CaseHighlighted(Message):
        """The cursor moved onto a cell."""

        def __init__(self, case: CaseRow, metric: str) -> None:
            super().__init__()
            self.case = case
            self.metric = metric

    class CaseChosen(Message):
        """Enter on a cell: the author wants to compare this case's trajectories."""

        def __init__(self, case_id: str, metric: str) -> None:
            super().__init__()
            self.case_id = case_id
            self.metric = metric

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="cell", cursor_background_priority="css", **kwargs)
        self.border_title = "Cases × metrics (paired Δ)"
        self.report: LiftReport | None = None
        self.metrics: list[str] = []
        self.case_rows: list[CaseRow] = []
        self.scale = 1.0
        self.sort_by = SORTS[0]

    def show(self, report: LiftReport | None) -> None:
        """Lay out the report's per-case table (keeps the cursor on the same case)."""
        keep = self.current()
        self.report = report
        self.metrics = metric_columns(report) if report else []
        self.scale = F.delta_scale(report) if report else 1.0
        self._fill()
        if keep is not None:
            self.move_to(*keep)

    def _sorted(self, rows: list[CaseRow]) -> list[CaseRow]:
        if self.sort_by == "overall":
            def key(r: CaseRow) -> tuple[bool, float]:
                d = r.delta.get("overall")
                return (d is None, -(d or 0.0))
            return sorted(rows, key=key)
        return list(rows)  # the report's order: natural case-id order

    def _fill(self) -> None:
        self.clear(columns=True)
        self.case_rows = []
        report = self.report
        if report is None:
            return
        for m in self.metrics:
            self.add_column(Text(SHORT.get(m, m), justify="center"), key=m, width=CELL_WIDTH)
        self.case_rows = self._sorted(list(report.extra.cases))
        for row in self.case_rows:
            cells = [heat_cell(row.delta.get(m), self.scale) for m in self.metrics]
            self.add_row(*cells, key=row.case_id, label=Text(row.case_id))
        self.border_subtitle = f"{counted(len(self.case_rows), 'case')} · sort: {self.sort_by} · Enter: compare"

    # --- queries -----------------------------------------------------------------------

    def current(self) -> tuple[str, str] | None:
        """(case_id, metric) under the cursor."""
        if not self.case_rows or not self.metrics:
            return None
        r, c = self.cursor_coordinate
        if not (0 <= r < len(self.case_rows) and 0 <= c < len(self.metrics)):
            return None
        return self.case_rows[r].case_id, self.metrics[c]

    def cell_text(self, case_id: str, metric: str) -> str:
        """The text shown in one cell (stripped)."""
        return self.get_cell(case_id, metric).plain.strip()

    def move_to(self, case_id: str, metric: str = "overall") -> bool:
        ids = [r.case_id for r in self.case_rows]
        if case_id not in ids or metric not in self.metrics:
            return False
        self.move_cursor(row=ids.index(case_id), column=self.metrics.index(metric))
        return True

    # --- events ------------------------------------------------------------------------

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        event.stop()
        cur = self.current()
        if cur is not None:
            row = self.case_rows[event.coordinate.row]
            self.post_message(self.CaseHighlighted(row, cur[1]))

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        cur = self.current()
        if cur is not None:
            self.post_message(self.CaseChosen(*cur))

    def action_cycle_sort(self) -> None:
        self.sort_by = SORTS[(SORTS.index(self.sort_by) + 1) % len(SORTS)]
        keep = self.current()
        self._fill()
        if keep is not None:
            self.move_to(*keep)


def cell_detail(row: CaseRow, metric: str) -> Text:
    """One line about the highlighted cell: the case, both sides' scores and the delta."""
    text = Text()
    text.append(row.case_id, style="bold")
    if row.kind:
        text.append(f" ({row.kind})", style="dim")
    w, b, d = row.with_.get(metric), row.base.get(metric), row.delta.get(metric)
    text.append(f"  {metric}: with {F.num(w, 2)}, base {F.num(b, 2)}, Δ ")
    text.append(F.signed(d, 3), style="bold green" if (d or 0) > 0 else
                "bold red" if (d or 0) < 0 else "")
    text.append(f"  · attempts {row.attempts_with}+{row.attempts_base}"
                f" · pass {F.pct(row.pass_with)} vs {F.pct(row.pass_base)}", style="dim")
    return text
