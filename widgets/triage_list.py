"""The Negative lift list: the cases the skill made worse, with their triage class.

`NegativeList` lists every case whose overall paired delta is below zero, worst first;
`triage_detail` renders the evidence behind one case's class. Both take their numbers and
sentences from `skillforge.report.facts`, like the reports. The Lift tab (`widgets.lift_view`)
holds the list and shows the detail of the highlighted case under it.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from skillforge.models.lift import LiftReport, TriageEvidence
from skillforge.report import facts as F
from widgets.words import counted

CLASS_STYLE = {"never_discovered": "bold magenta", "misused": "bold red",
               "overhead": "bold yellow", "unstable": "bold cyan", "unexplained": "bold"}


class NegativeList(DataTable):
    """The cases the skill made worse (overall), worst first, with their triage class."""

    HELP = """## Negative lift
Every case whose overall paired delta is below zero, worst first, with the first triage
class that fits (CONTRACTS.md section 8):

- **unstable**: a side has errored or timed-out attempts, or its attempts disagree more
  than the loss: rerun before concluding anything;
- **never_discovered**: the agent never opened the skill (work on the description);
- **misused**: the skill was opened and correctness fell (work on the instructions);
- **overhead**: correctness held but the skill cost extra steps;
- **unexplained**: none of the four fits the recorded facts.

The panel below shows the evidence for the highlighted case. **Enter** opens its
with/without trajectories side by side.
"""
    DEFAULT_CSS = """
    NegativeList { height: 1fr; border: round $panel; }
    NegativeList:focus { border: round $accent; }
    """

    class CaseHighlighted(Message):
        def __init__(self, case_id: str | None) -> None:
            super().__init__()
            self.case_id = case_id

    class CaseChosen(Message):
        def __init__(self, case_id: str) -> None:
            super().__init__()
            self.case_id = case_id

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "Negative lift"
        self.case_ids: list[str] = []
        self.evidence: dict[str, TriageEvidence] = {}

    def show(self, report: LiftReport | None) -> None:
        self.clear(columns=True)
        self.case_ids = []
        self.evidence = F.evidence_for(report) if report else {}
        if report is None:
            return
        reason = max(20, (self.size.width or 100) - 46)
        self.add_column("case", key="case")
        self.add_column("Δ overall", key="delta", width=9)
        self.add_column("class", key="class", width=16)
        self.add_column("why", key="why", width=reason)
        for neg in report.negative_cases:
            ev = self.evidence.get(neg.case_id)
            self.add_row(neg.case_id, Text(F.signed(neg.delta), style="red", justify="right"),
                         Text(neg.class_, style=CLASS_STYLE.get(neg.class_, "")),
                         Text(ev.reason if ev else "", overflow="ellipsis", no_wrap=True),
                         key=neg.case_id)
            self.case_ids.append(neg.case_id)
        if not report.negative_cases:
            # An empty table says nothing; this row says why it is empty.
            self.add_row(Text("No case is worse with the skill (overall Δ < 0): nothing to "
                              "triage.", style="dim italic"), "", "", "", key="none")
        self.border_subtitle = (f"{counted(len(self.case_ids), 'case')} · Enter: compare" if self.case_ids
                                else "none")

    def current(self) -> str | None:
        r = self.cursor_row
        return self.case_ids[r] if 0 <= r < len(self.case_ids) else None

    def select_case(self, case_id: str) -> bool:
        if case_id not in self.case_ids:
            return False
        self.move_cursor(row=self.case_ids.index(case_id))
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.CaseHighlighted(self.current()))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        case = self.current()
        if case is not None:
            self.post_message(self.CaseChosen(case))


def triage_detail(ev: TriageEvidence | None, delta: float | None = None) -> RenderableType:
    """The evidence behind one negative case's class, in a few lines."""
    if ev is None:
        return Text("No case has a negative overall lift.", style="dim")
    head = Text()
    head.append(ev.case_id, style="bold")
    if delta is not None:
        head.append(f"  Δ overall {F.signed(delta)}", style="red")
    head.append("  ")
    head.append(ev.class_, style=CLASS_STYLE.get(ev.class_, ""))
    head.append(f": {F.CLASS_MEANING.get(ev.class_, '')}", style="dim")
    facts = Text()
    facts.append("why ", style="dim")
    facts.append(ev.reason)
    facts.append("\nfell ", style="dim")
    facts.append(", ".join(ev.fell) or "nothing")
    facts.append("  · activation rate ", style="dim")
    facts.append(F.pct(ev.activation_rate))
    facts.append("  · failed attempts ", style="dim")
    facts.append(F.failed_text(ev.failed_attempts))
    spread = ", ".join(f"{side} {F.num(v)}" for side, v in ev.spread.items())
    facts.append("  · spread ", style="dim")
    facts.append(spread or F.DASH)
    hint = Text("Enter: the with/without trajectories side by side", style="dim italic")
    return Group(head, facts, hint)
