"""The Lift tab's Skill Mode view: SkillCraft's rates, the efficiency table over the cases
both sides solved, and the per-skill table of the skills the agent saved while it worked.

`SkillModeView.show(report)` renders `report.extra.skillcraft` (nothing when absent); the
numbers and sentences come from `skillforge.report.skillcraft`, so the view says what the
Markdown and HTML reports say. In the per-skill table (`SkillTable`) **v** asks to harvest
the highlighted skill: the widget only posts `SkillTable.HarvestRequested`; the screen
harvests in a worker and opens the folder.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static

from skillforge.models.lift import LiftReport
from skillforge.models.skillcraft import SkillcraftReport, SkillRow
from skillforge.report import facts as F
from skillforge.report import skillcraft as SC

# The report's per-skill columns (SC.SKILL_HEAD), headed short so 80 columns hold them all.
HEAD = ["skill", "att.", "created by", "reused in", "runs", "exec rate", "failures", "inh."]
WRAPPED = ("created by", "reused in", "failures")  # the long lists, wrapped when narrow


class SkillTable(DataTable):
    """One row per skill the agent saved (or inherited), per attempt chain."""

    HELP = """## Skills the agent saved (Skill Mode)
One row per skill and attempt chain (each attempt carries its own cache across the cases):
the case that saved it first (or the run it was inherited from), the other cases that
executed it (**reused in**), its executions and exec rate (runs that set a `result` and
passed the quality check), and its failures by kind.

- **v** harvests the highlighted skill into an Agent Skills folder next to the current
  skill (SKILL.md, `scripts/`, `evals/evals.json`) and opens it in the workbench; an
  existing folder is never overwritten
"""
    DEFAULT_CSS = """
    SkillTable { height: auto; max-height: 10; border: round $panel; }
    SkillTable:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "harvest", "Harvest", id="skill_mode.harvest"),
    ]

    class Highlighted(Message):
        def __init__(self, row: SkillRow | None) -> None:
            super().__init__()
            self.row = row

    class HarvestRequested(Message):
        """Harvest skill `name` of run `run_id` (the screen does the work)."""

        def __init__(self, run_id: str, name: str) -> None:
            super().__init__()
            self.run_id, self.name = run_id, name

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "Skills the agent saved"
        self.skills: list[SkillRow] = []
        self.run_id: str | None = None
        self._sc: SkillcraftReport | None = None
        self._shown_width = 0

    def show(self, run_id: str | None, sc: SkillcraftReport | None) -> None:
        keep = self.cursor_row
        self.clear(columns=True)
        self.run_id, self._sc = run_id, sc
        self.skills = list(sc.skills) if sc else []
        rows = [SC.skill_cells(row) for row in self.skills]
        wrap = self._wrap_widths(rows)
        self._shown_width = self.size.width
        for head in HEAD:
            self.add_column(head, key=head, width=wrap.get(head))
        for i, (row, cells) in enumerate(zip(self.skills, rows, strict=True)):
            rate = row.exec_rate
            style = "" if rate is None else "green" if rate >= 0.9 else "yellow" if rate >= 0.5 \
                else "red"
            cells[5] = Text(cells[5], style=style, justify="right")  # type: ignore[call-overload]
            self.add_row(*cells, key=str(i), height=None if wrap else 1)
        if 0 < keep < len(self.skills):
            self.move_cursor(row=keep)
        if sc is not None and not self.skills:
            self.add_row(Text("No skill was saved or inherited.", style="dim italic"),
                         *[""] * (len(HEAD) - 1), key="none")
        self.border_subtitle = f"{len(self.skills)} · v: harvest" if self.skills else "none"

    def _wrap_widths(self, rows: list[list[str]]) -> dict[str, int]:
        """Narrower widths for the WRAPPED columns when the table would not fit its width
        (their text then wraps; the widest gives way first), else {}: scrolled sideways,
        the table hid its right-hand columns at 120x40 with real case ids (issue 37)."""
        room = self.size.width - 2  # the border
        if room <= 2 or not rows:
            return {}
        natural = {h: max([len(h), *(len(str(r[i])) for r in rows)]) for i, h in enumerate(HEAD)}
        over = sum(natural.values()) + 2 * len(HEAD) - room
        if over <= 0:
            return {}
        if len(rows) > self.size.height - 3:
            over += 2  # a scrollbar will take two columns
        widths: dict[str, int] = {}
        while over > 0:
            head = max(WRAPPED, key=lambda h: widths.get(h, natural[h]))
            width = widths.get(head, natural[head])
            if width <= 10:
                break  # past this, scrolled sideways rather than one word a line
            widths[head] = width - 1
            over -= 1
        return widths

    def on_resize(self) -> None:
        if self.skills and self.size.width != self._shown_width:
            self.show(self.run_id, self._sc)

    def current(self) -> SkillRow | None:
        r = self.cursor_row
        return self.skills[r] if 0 <= r < len(self.skills) else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.Highlighted(self.current()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.skills) if action == "harvest" else True

    def action_harvest(self) -> None:
        row = self.current()
        if row is None or self.run_id is None:
            self.notify("No skill to harvest.", severity="warning", timeout=3)
            return
        self.post_message(self.HarvestRequested(self.run_id, row.name))


def rates_text(sc: SkillcraftReport) -> RenderableType:
    return Group(*[Text(line) for line in SC.rate_lines(sc)])


def efficiency_table(sc: SkillcraftReport) -> RenderableType:
    note = Text(SC.efficiency_note(sc), style="dim")
    rows = SC.efficiency_lines(sc)
    if not rows:
        return note
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold")
    for head in SC.EFFICIENCY_HEAD:
        table.add_column(head, justify="left" if head == "resource" else "right", no_wrap=True)
    for r in rows:
        style = "" if r.diff_value is None else "green" if r.diff_value < 0 else "red" \
            if r.diff_value > 0 else ""
        table.add_row(r.label, r.base, r.skill, Text(r.diff, style=style), str(r.n))
    return Group(note, table)


def lift_table(report: LiftReport, sc: SkillcraftReport) -> RenderableType:
    rows = SC.lift_cells(report, sc)
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold")
    for head in SC.LIFT_HEAD:
        table.add_column(head, justify="left" if head in ("metric", "verdict") else "right",
                         no_wrap=True)
    for r in rows:
        table.add_row(*r)
    return table


def skill_detail(row: SkillRow | None) -> RenderableType:
    if row is None:
        return ""
    head = Text()
    head.append(row.name, style="bold")
    head.append(f"  attempt {row.attempt} · created by {SC.created_text(row)}", style="dim")
    body = Text(row.description or "(no description)")
    return Group(head, body)


class SkillModeView(Vertical):
    """The rates in one line, the per-skill table, then (scrolling) the highlighted skill,
    every rate in full, the efficiency table and the per-metric lift."""

    DEFAULT_CSS = """
    SkillModeView { height: 1fr; }
    SkillModeView #sm-summary { height: auto; padding: 0 1; }
    SkillModeView SkillTable { max-height: 60%; }
    SkillModeView #sm-body { height: 1fr; padding: 0 1; }
    SkillModeView #sm-body > Static { margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="sm-summary")
        yield SkillTable(id="sm-skills")
        with VerticalScroll(id="sm-body"):
            yield Static(id="sm-detail")
            yield Static(id="sm-efficiency")
            yield Static(id="sm-rates")
            yield Static(id="sm-lift")

    def show(self, report: LiftReport | None) -> None:
        sc = SC.skillcraft_of(report)
        table = self.query_one(SkillTable)
        table.show(report.run_id if report else None, sc)
        statics = {k: self.query_one(f"#sm-{k}", Static)
                   for k in ("summary", "rates", "detail", "efficiency", "lift")}
        if report is None or sc is None:
            for s in statics.values():
                s.update("")
            return
        statics["summary"].update(Text(SC.summary_line(sc), style="bold"))
        statics["rates"].update(rates_text(sc))
        statics["detail"].update(skill_detail(table.current()))
        statics["efficiency"].update(Group(
            Text("Efficiency over the cases both sides solved", style="bold"),
            efficiency_table(sc)))
        statics["lift"].update(Group(
            Text(f"Skill Lift of skill_mode over baseline ({F.ci_method(report)})",
                 style="bold"), lift_table(report, sc)))

    def on_skill_table_highlighted(self, message: SkillTable.Highlighted) -> None:
        message.stop()
        self.query_one("#sm-detail", Static).update(skill_detail(message.row))
