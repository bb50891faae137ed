"""The Lift tab: Skill Lift (or version delta) of one stored run, or the change between two.

Three sections, one key each: **Metrics** (the headline, the lift table with CI bars, the
sample-size planner wherever a verdict is inconclusive, how the skill was used (never a
lift), stakeholder dimensions, pass rates / g / pass@k with the paired pass/fail test,
efficiency and cost diffs with the script exec rate, inventory with errors and missing
metrics), **Cases** (the cases x metrics heatmap) and **Negative lift** (the triage list of
`widgets.triage_list`, with each case's class and evidence). Enter on a case in the heatmap
or the triage list posts `CompareRequested(case_id)`. Numbers and sentences come from
`skillforge.report.facts`, so the tab says exactly what the HTML and Markdown reports say.

The widget only renders: the app computes the report (`skillforge.lift.compute.lift_for_run`) or
the comparison (`skillforge.lift.compare.compare_reports`) in a worker and calls `show` /
`show_comparison`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static, TabbedContent, TabPane

from skillforge.models.lift import LiftReport, RunComparison
from skillforge.report import facts as F
from skillforge.report import headline as H
from widgets.agreement_view import AgreementView
from widgets.ci_bars import VERDICT_STYLE, MetricTable, dimensions_table
from widgets.heatmap import Heatmap, cell_detail, heat_legend
from widgets.lift_sections import (
    efficiency_section,
    inventory_section,
    pass_section,
    use_section,
)
from widgets.parts_view import PartsTable, PartsView
from widgets.skill_table import SkillModeView, SkillTable
from widgets.triage_list import NegativeList, triage_detail

SECTIONS = {"metrics": "lift-metrics", "cases": "lift-cases", "triage": "lift-triage",
            "skill_mode": "lift-skillmode", "parts": "lift-parts", "agreement": "lift-agreement"}


class CompareRequested(Message):
    """The author asked for the with/without side-by-side of `case_id` (of run `run_id`)."""

    def __init__(self, case_id: str, run_id: str | None = None,
                 conditions: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.case_id = case_id
        self.run_id = run_id
        self.conditions = conditions  # None: with_skill and baseline


class LiftView(Vertical):
    """Skill Lift of one run (three sections), or the comparison of two runs."""

    HELP = """## Skill Lift
The paired difference with the skill minus without it, per outcome metric (the grader,
accuracy, goal_accuracy, behavior_check, security) and their mean **overall**, over the
cases that ran on both sides, with its 95% confidence interval, one that holds for any
data on [-1, 1]. A row **helps** (▲ green) when the whole interval is above zero, **hurts**
(▼ red) when it is below, else it is **inconclusive** (◆ yellow) and the sample-size
planner says how many cases would settle it. Fewer than 6 paired cases give
**inconclusive** whatever the interval says (`n<6` in the plan column). The headline under
the title leads with overall, the grader and the paired pass rate together. How the agent
used the skill (skill_execution, skill_efficiency) is shown apart: the baseline cannot use
the skill, so it is never a lift. In the bars `│` is zero, `━` the interval and `●` the
lift, on one scale for all rows.
When the baseline ran an earlier version of the skill the label reads **version delta**.

- **m** metrics (table, planner, dimensions, pass rates, efficiency, inventory)
- **h** the cases × metrics heatmap of paired deltas
- **t** the negative-lift triage list
- **k** Skill Mode (SkillCraft), for a run with `skill_mode` trials: success rate at
  score ≥ 0.9, Exec and Reuse rates, efficiency over the cases both sides solved, and the
  skills the agent saved (**v** there harvests one into a skill folder and opens it)
- **p** Parts, for a run with `without:<part>` trials (`--ablate`): each part's token
  cost, effect with its CI bar and verdict; **Enter** on a part compares with_skill and
  without it on the case where they differ most
- **a** agreement: the judge models ranked by agreement with your labels of this skill
  (n, MAE, bias, Spearman ρ, weighted κ with intervals, self-consistency, "not
  calibrated" under the skill's `[judge] calibration_kappa` bar), and raw vs calibrated lift
- **Enter** on a case (heatmap or triage list) opens its trajectories side by side
- **b** back from a two-run comparison to the run's own lift
"""
    DEFAULT_CSS = """
    LiftView { height: 1fr; }
    LiftView #lift-title { height: auto; padding: 0 1; }
    LiftView TabbedContent { height: 1fr; }
    LiftView TabPane { padding: 0; height: 1fr; }
    LiftView #lift-metrics-body { height: 1fr; padding: 0 1; }
    LiftView #lift-metrics-body > Static { margin-top: 1; }
    LiftView #heat-legend, LiftView #heat-detail { height: auto; padding: 0 1; }
    LiftView #triage-detail { height: auto; min-height: 4; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "section('metrics')", "Metrics", id="lift.metrics"),
        Binding("h", "section('cases')", "Heatmap", id="lift.heatmap"),
        Binding("t", "section('triage')", "Negative lift", id="lift.triage"),
        Binding("k", "section('skill_mode')", "Skill Mode", id="lift.skill_mode"),
        Binding("p", "section('parts')", "Parts", id="lift.parts"),
        Binding("a", "section('agreement')", "Agreement", id="lift.agreement"),
        Binding("b", "back", "Back to run", id="lift.back"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # b is in the footer only while a two-run comparison is on screen; k only for a
        # run with Skill Mode trials.
        if action == "section" and parameters == ("skill_mode",):
            return self.has_skill_mode
        if action == "section" and parameters == ("parts",):
            return self.comparison is None and self._ablation() is not None
        return self.comparison is not None if action == "back" else True

    @property
    def has_skill_mode(self) -> bool:
        return (self.comparison is None and self.report is not None
                and self.report.extra.skillcraft is not None)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.report: LiftReport | None = None
        self.comparison: RunComparison | None = None
        self._message: Text | None = Text("No run chosen yet.", style="dim")

    def compose(self) -> ComposeResult:
        yield Static(id="lift-title")
        with TabbedContent(id="lift-tabs"):
            with TabPane("Metrics", id="lift-metrics"), VerticalScroll(id="lift-metrics-body"):
                    yield MetricTable(id="lift-table")
                    yield Static(id="lift-plans")
                    yield Static(id="lift-use")
                    yield Static(id="lift-dimensions")
                    yield Static(id="lift-pass")
                    yield Static(id="lift-efficiency")
                    yield Static(id="lift-inventory")
            with TabPane("Cases", id="lift-cases"):
                yield Heatmap(id="lift-heatmap")
                yield Static(id="heat-legend")
                yield Static(id="heat-detail")
            with TabPane("Negative lift", id="lift-triage"):
                yield NegativeList(id="lift-negatives")
                yield Static(id="triage-detail")
            with TabPane("Skill Mode", id="lift-skillmode"):
                yield SkillModeView(id="lift-skill-mode")
            with TabPane("Parts", id="lift-parts"):
                yield PartsView(id="lift-parts-view")
            with TabPane("Agreement", id="lift-agreement"):
                yield AgreementView(id="lift-agreement-view")

    def on_mount(self) -> None:
        self._render_all()

    def on_resize(self) -> None:
        if self.report is not None and self.comparison is None:
            self._render_metrics_extras()

    # --- what the app calls -------------------------------------------------------------

    def show(self, report: LiftReport | None) -> None:
        """Show one run's lift report (None: nothing yet)."""
        self.report, self.comparison, self._message = report, None, None
        if report is None:
            self._message = Text("No run chosen yet.", style="dim")
        self._render_all()
        if self.is_mounted and report is not None and self.section == "agreement":
            self.query_one(AgreementView).request(report)  # the new run's agreement

    def show_comparison(self, comparison: RunComparison) -> None:
        """Show the change of lift between two runs; **b** returns to the last report."""
        self.comparison, self._message = comparison, None
        self._render_all()
        self.action_section("metrics")
        self.refresh_bindings()

    def show_message(self, text: str, *, error: bool = False) -> None:
        """A notice in place of the title (computing…, a store error with what to do)."""
        self._message = Text(text, style="bold red" if error else "yellow")
        self._render_title()

    def show_agreement(self, data) -> None:
        """The judges' agreement with the author (a SkillAgreement), computed by the app."""
        self.query_one(AgreementView).show(data)

    @property
    def section(self) -> str:
        active = self.query_one(TabbedContent).active
        return next((k for k, v in SECTIONS.items() if v == active), "metrics")

    # --- rendering ----------------------------------------------------------------------

    def _render_all(self) -> None:
        if not self.is_mounted:
            return
        self._render_title()
        tabs = self.query_one(TabbedContent)
        comparing = self.comparison is not None
        for pane in ("lift-cases", "lift-triage"):
            (tabs.hide_tab if comparing else tabs.show_tab)(pane)
        # Agreement: in the strip once opened with a (not for a two-run comparison).
        agreement = not comparing and self.query_one(AgreementView).requested
        (tabs.show_tab if agreement else tabs.hide_tab)(SECTIONS["agreement"])
        if not agreement and tabs.active == SECTIONS["agreement"]:
            tabs.active = SECTIONS["metrics"]
        skill_mode = self.has_skill_mode
        if not skill_mode and tabs.active == SECTIONS["skill_mode"]:
            tabs.active = SECTIONS["metrics"]
        (tabs.show_tab if skill_mode else tabs.hide_tab)(SECTIONS["skill_mode"])
        self.query_one(SkillModeView).show(self.report if skill_mode else None)
        self._render_parts(tabs)
        if comparing:
            self.query_one(MetricTable).show_comparison(self.comparison)
            self._render_comparison_extras()
            return
        report = self.report
        self.query_one(MetricTable).show(report)
        self._render_metrics_extras()
        heatmap = self.query_one(Heatmap)
        heatmap.show(report)
        self.query_one("#heat-legend", Static).update(
            heat_legend(heatmap.scale, heatmap.metrics) if report else "")
        cur = heatmap.current()
        row = next((r for r in heatmap.case_rows if cur and r.case_id == cur[0]), None)
        self.query_one("#heat-detail", Static).update(
            cell_detail(row, cur[1]) if row and cur else "")
        negatives = self.query_one(NegativeList)
        negatives.show(report)
        n = len(report.negative_cases) if report else 0
        tabs.get_tab("lift-triage").label = f"Negative lift ({n})"  # type: ignore[assignment]
        self._show_triage(negatives.current())

    def _render_title(self) -> None:
        title = self.query_one("#lift-title", Static)
        if self._message is not None:
            title.update(self._message)
            return
        if self.comparison is not None:
            c = self.comparison
            head = Text()
            head.append("Run comparison ", style="bold")
            head.append(f"{c.run_a} ({c.label_a}) → {c.run_b} ({c.label_b})")
            note = Text("change = lift B − lift A over the cases both runs share; CI paired "
                        "by case", style="dim")
            title.update(Group(head, note))
            return
        r = self.report
        if r is None:
            title.update(Text("No run chosen yet.", style="dim"))
            return
        head = Text(no_wrap=True, overflow="ellipsis")  # the details may go; the verdict not
        head.append(F.title(r), style="bold")
        bits = [f"run {r.run_id}", " / ".join(x for x in (r.agent, r.model) if x),
                f"{r.n_cases} cases",
                F.comparison(r) if r.extra.baseline_version or r.conditions[:2] != [
                    "with_skill", "baseline"] else ""]
        head.append("  " + " · ".join(b for b in bits if b), style="dim")
        overall = r.metrics.get("overall")
        style = VERDICT_STYLE[H.headline_verdict(r)[0]] if overall and overall.lift is not None \
            else "dim"
        errors = H.errors_text(r)  # a lift over the trials left is not a lift over all
        title.update(Group(head, Text(H.headline(r, components=False), style=style),
                           *([Text(errors, style="bold yellow")] if errors else [])))

    def _bar_width(self) -> int:
        return max(15, min(31, (self.size.width or 100) // 4) | 1)

    def _render_metrics_extras(self) -> None:
        r = self.report
        statics = {k: self.query_one(f"#lift-{k}", Static)
                   for k in ("plans", "use", "dimensions", "pass", "efficiency", "inventory")}
        if r is None:
            for s in statics.values():
                s.update("")
            return
        plans = F.plan_lines(r)
        statics["plans"].update(Group(
            Text("Sample-size planner (inconclusive metrics)", style="bold"),
            *[Text(f"◆ {line}", style="yellow") for line in plans]) if plans else "")
        use = use_section(r)
        statics["use"].update(Group(Text("How the skill was used (not a lift)", style="bold"),
                                    use) if use else "")
        body = max(20, (self.size.width or 100) - 4)  # the padding and scrollbar left out
        statics["dimensions"].update(Group(Text("Stakeholder dimensions", style="bold"),
                                           dimensions_table(r, self._bar_width(), body)))
        statics["pass"].update(Group(Text("Pass rates", style="bold"), pass_section(r)))
        statics["efficiency"].update(Group(Text("Efficiency and cost", style="bold"),
                                           efficiency_section(r)))
        statics["inventory"].update(Group(Text("Inventory", style="bold"), inventory_section(r)))

    def _render_comparison_extras(self) -> None:
        c = self.comparison
        assert c is not None

        def pair(v: tuple[float | None, float | None], fmt=F.pct) -> str:
            return f"{fmt(v[0])} → {fmt(v[1])}"

        lines = Text()
        lines.append(f"Pass rate with the skill {pair(c.pass_with)}; without {pair(c.pass_base)}; "
                     f"g {pair(c.g, F.signed)}")
        if c.only_in_a or c.only_in_b:
            lines.append(f"\nCases only in A: {', '.join(c.only_in_a) or 'none'}; only in B: "
                         f"{', '.join(c.only_in_b) or 'none'} (left out of the paired change)",
                         style="dim")
        self.query_one("#lift-plans", Static).update(Group(Text("Pass rates", style="bold"),
                                                           lines))
        for k in ("use", "dimensions", "pass", "efficiency", "inventory"):
            self.query_one(f"#lift-{k}", Static).update("")

    def _show_triage(self, case_id: str | None) -> None:
        r = self.report
        ev = F.evidence_for(r).get(case_id) if r and case_id else None
        delta = next((n.delta for n in r.negative_cases if n.case_id == case_id), None) \
            if r else None
        self.query_one("#triage-detail", Static).update(triage_detail(ev, delta))

    # --- events and actions -------------------------------------------------------------

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()  # our own sections: the screen's tabs need not hear about them

    def on_heatmap_case_highlighted(self, message: Heatmap.CaseHighlighted) -> None:
        message.stop()
        self.query_one("#heat-detail", Static).update(cell_detail(message.case, message.metric))

    def on_heatmap_case_chosen(self, message: Heatmap.CaseChosen) -> None:
        message.stop()
        self._compare(message.case_id)

    def on_negative_list_case_highlighted(self, message: NegativeList.CaseHighlighted) -> None:
        message.stop()
        self._show_triage(message.case_id)

    def on_negative_list_case_chosen(self, message: NegativeList.CaseChosen) -> None:
        message.stop()
        self._compare(message.case_id)

    def _compare(self, case_id: str) -> None:
        self.post_message(CompareRequested(case_id, self.report.run_id if self.report else None))

    def action_section(self, name: str) -> None:
        if self.comparison is not None and name != "metrics":
            self.notify("A two-run comparison has no per-case view; press b to go back to "
                        "the run.", timeout=3)
            return
        if name == "skill_mode" and not self.has_skill_mode:
            self.notify("This run has no skill_mode trials: no Skill Mode view.", timeout=3)
            return
        if name == "parts" and self._ablation() is None:
            self.notify("This run removed no part of the skill: run `skillforge trial PATH "
                        "--ablate all` for the Parts view.", timeout=3)
            return
        if name == "agreement":  # computed afresh: labels may have been added since
            self.query_one(AgreementView).request(self.report)
            self.query_one(TabbedContent).show_tab(SECTIONS[name])
        self.query_one(TabbedContent).active = SECTIONS[name]
        target = {"metrics": "#lift-metrics-body", "cases": Heatmap,
                  "triage": NegativeList, "skill_mode": SkillTable, "parts": PartsTable,
                  "agreement": AgreementView}[name]
        self.query_one(target).focus()  # type: ignore[call-overload]

    # --- parts (ablation) -------------------------------------------------------------------

    def _ablation(self):
        return self.report.extra.ablation if self.report is not None else None

    def _render_parts(self, tabs: TabbedContent) -> None:
        shown = self.comparison is None and self._ablation() is not None
        if not shown and tabs.active == SECTIONS["parts"]:
            tabs.active = SECTIONS["metrics"]
        (tabs.show_tab if shown else tabs.hide_tab)(SECTIONS["parts"])
        self.query_one(PartsView).show(self.report if shown else None)

    def on_parts_view_compare_requested(self, message: PartsView.CompareRequested) -> None:
        """with_skill vs without:<part> on the case where the part mattered most."""
        message.stop()
        ab = self._ablation()
        effect = next((p for p in ab.parts if p.part == message.part), None) if ab else None
        if effect is None or self.report is None:
            return
        deltas = [(c, d) for c, d in effect.case_deltas.items() if d is not None]
        case = max(deltas, key=lambda cd: abs(cd[1]))[0] if deltas else \
            next(iter(effect.case_deltas), None)
        if case is None:
            self.notify(f"No case ran both with the skill and without {effect.part}.",
                        timeout=3)
            return
        self.post_message(CompareRequested(case, self.report.run_id,
                                           ("with_skill", effect.condition)))

    def action_back(self) -> None:
        if self.comparison is not None:
            self.comparison = None
            self._render_all()
            self.refresh_bindings()
