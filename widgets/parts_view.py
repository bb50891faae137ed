"""The Parts view of the Lift tab: what each part of the skill is worth, by ablation.

One row per part the run removed: its id, token cost, its effect (`with_skill −
without:<part>` on the metric that decided its verdict, else the first task metric
measured) with the 95% CI as a bar, n, and the verdict. Below the table, the highlighted
part's reason, token saving and routing effect. **Enter** posts `PartChosen(part)`; the Lift
view turns it into the case-level comparison of `with_skill` and `without:<part>` in Compare.
Texts come from `skillforge.report.ablation`, so the view says what the reports say.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from skillforge.models.lift import LiftReport
from skillforge.models.ablation import AblationReport, PartEffect
from skillforge.report import ablation as AB
from skillforge.report import facts as F
from widgets.ci_bars import ci_bar

VERDICT_STYLE = {"earns its keep": "bold green", "harmful": "bold red",
                 "dead weight": "bold yellow", "inconclusive": "yellow"}


class PartsTable(DataTable):
    """The parts of the skill, one row each; Enter chooses one."""

    DEFAULT_CSS = """
    PartsTable { height: 1fr; border: round $panel; }
    PartsTable:focus { border: round $accent; }
    """

    class PartHighlighted(Message):
        def __init__(self, part: str | None) -> None:
            super().__init__()
            self.part = part

    class PartChosen(Message):
        def __init__(self, part: str) -> None:
            super().__init__()
            self.part = part

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "Parts"
        self.parts: list[PartEffect] = []

    def show(self, ab: AblationReport | None, width: int = 80) -> None:
        self.clear(columns=True)
        self.parts = list(ab.parts) if ab else []
        if ab is None:
            return
        bar = 11 if width < 100 else 21
        part_w = max(12, min(40, width - bar - 52))
        self.add_column("part", key="part", width=part_w)
        self.add_column("tokens", key="tokens", width=6)
        self.add_column("effect", key="effect", width=7)
        self.add_column("CI", key="bar", width=bar)
        self.add_column("n", key="n", width=3)
        self.add_column("verdict", key="verdict", width=20)
        for r in AB.task_rows(ab):
            e, row = r.effect, r.row
            self.add_row(
                Text(e.part, overflow="ellipsis", no_wrap=True),
                Text(AB.tokens_text(e), justify="right"),
                Text(F.signed(row.effect), justify="right"),
                ci_bar(row.effect, row.ci_low, row.ci_high, 1.0, bar, row.verdict),
                Text(str(row.n), justify="right"),
                Text(f"{AB.VERDICT_MARK[e.verdict]} {AB.verdict_text(e)}",
                     style=VERDICT_STYLE[e.verdict], overflow="ellipsis", no_wrap=True),
                key=e.part)
        self.border_subtitle = f"{AB.summary_line(ab)} · Enter: compare"

    def current(self) -> PartEffect | None:
        r = self.cursor_row
        return self.parts[r] if 0 <= r < len(self.parts) else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        part = self.current()
        self.post_message(self.PartHighlighted(part.part if part else None))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        part = self.current()
        if part is not None:
            self.post_message(self.PartChosen(part.part))


def part_detail(effect: PartEffect | None) -> RenderableType:
    """The highlighted part: why its verdict, its token saving, its routing effect."""
    if effect is None:
        return Text("This run removed no part of the skill: run `skillforge trial PATH "
                    "--ablate all` (the Trials form's conditions can hold without:<part>).",
                    style="dim")
    why = Text()
    why.append(f"{effect.part}: ", style="bold")
    why.append(AB.verdict_text(effect), style=VERDICT_STYLE[effect.verdict])
    why.append(f", {effect.reason} (shown: {AB.headline_metric(effect)})")
    saving = AB.saving_text(effect)
    if saving:
        why.append("\nsaving ", style="dim")
        why.append(saving)
    r = effect.routing
    why.append("\nrouting ", style="dim")
    why.append(f"skill_execution {F.signed(r.skill_execution.effect)} "
               f"{AB.ci_text(r.skill_execution)}, activation {F.pct(r.activation_with)} → "
               f"{F.pct(r.activation_without)}: {r.note}")
    return why


class PartsView(Vertical):
    """The Parts section of the Lift tab: the table and the highlighted part's detail."""

    HELP = """## Parts (ablation)
For a run made with `skillforge trial PATH --ablate ...`: one row per part of the skill
the run removed (a section, the examples, a reference, a script, all scripts, the
description, the allowed-tools grant), its token cost, its effect (with the skill minus
without the part, on the metric that decided) with the 95% CI bar, and the verdict:
**earns its keep** (removing it hurts), **dead weight** (no detectable effect at the
planned precision, for its tokens), **harmful** (removing it helps), **inconclusive** (with
the cases needed). Routing (whether the skill is used at all) is in the detail below.
**Enter** opens the cases with the whole skill and without that part side by side.
"""
    DEFAULT_CSS = """
    PartsView { height: 1fr; }
    PartsView PartsTable { min-height: 6; }
    PartsView #parts-detail { height: auto; max-height: 4; padding: 0 1; }
    """

    class CompareRequested(Message):
        """with_skill vs without:<part>, case by case (the Lift view picks the case)."""

        def __init__(self, part: str) -> None:
            super().__init__()
            self.part = part

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.report: LiftReport | None = None

    def compose(self):
        yield PartsTable(id="parts-table")
        yield Static(id="parts-detail")

    def show(self, report: LiftReport | None) -> None:
        self.report = report
        if not self.is_mounted:
            return
        ab = AB.ablation_of(report)
        table = self.query_one(PartsTable)
        table.show(ab, self.size.width or 80)
        self.query_one("#parts-detail", Static).update(part_detail(table.current()))

    def on_resize(self) -> None:
        if self.report is not None:
            self.show(self.report)

    def on_mount(self) -> None:
        self.show(self.report)

    def on_parts_table_part_highlighted(self, message: PartsTable.PartHighlighted) -> None:
        message.stop()
        ab = AB.ablation_of(self.report)
        effect = next((p for p in ab.parts if p.part == message.part), None) if ab else None
        self.query_one("#parts-detail", Static).update(part_detail(effect))

    def on_parts_table_part_chosen(self, message: PartsTable.PartChosen) -> None:
        message.stop()
        self.post_message(self.CompareRequested(message.part))
