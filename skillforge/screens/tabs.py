"""The workbench's tabs: which there are, and filling each on its first visit.

A mixin of WorkbenchScreen. Composing every form and view up front would double the
start-up time, so only Lint is composed; the others are mounted by `ensure_tab` the first
time they are shown, then given the state they missed (`*_sync`).
"""

from __future__ import annotations

import gc

from textual.widgets import TabbedContent

# (title, pane id), in key order: key 1 shows the first.
TABS = (("Lint", "lint-pane"), ("Judge", "judge-pane"), ("Evals", "evals-pane"),
        ("Trials", "trials-pane"), ("Lift", "lift-pane"), ("Compare", "compare-pane"))


def freeze_built_widgets() -> None:
    """Take the objects built so far (a tab's widgets, the lint results) out of the cyclic
    garbage collector's reach. With them tracked, a full collection paused the UI for
    250-450 ms every few key presses (tests/bench/bench_tui.py: tab switch p95 350 ms, and
    40 ms once frozen). Widgets are long-lived here; the few later dropped stay allocated."""
    gc.freeze()


def tab_content(tab: str) -> list:
    """The widgets of a tab other than Lint (imported here: each loads on its first visit)."""
    if tab == "judge-pane":
        from widgets.judge_pane import JudgePane

        return [JudgePane(id="judge")]
    if tab == "evals-pane":
        from widgets.evals_pane import EvalsPane

        return [EvalsPane(id="evals")]
    if tab == "trials-pane":
        from widgets.runs_list import RunFailures, RunsList
        from widgets.trial_config_form import TrialConfigForm, TrialsPanel
        from widgets.trials_grid import TrialsGrid

        return [TrialsPanel(TrialConfigForm(id="trial-form"), TrialsGrid(id="trials-grid"),
                            RunsList(id="runs"), RunFailures(id="run-failures"),
                            id="trials-body")]
    if tab == "lift-pane":
        from widgets.lift_panel import LiftPanel
        from widgets.lift_view import LiftView
        from widgets.run_picker import RunPicker

        return [LiftPanel(RunPicker(id="run-picker"), LiftView(id="lift"), id="lift-body")]
    if tab == "compare-pane":
        from widgets.compare_view import CompareView

        return [CompareView(id="compare")]
    return []


class LazyTabs:
    """Tab switching and first-visit mounting; mixed into WorkbenchScreen."""

    _mounted_tabs: set[str]

    @property
    def active_tab(self) -> str:
        return self.query_one("#tabs", TabbedContent).active

    async def ensure_tab(self, tab: str) -> None:
        """Mount a tab's widgets the first time it is shown, then give them the state."""
        if tab in self._mounted_tabs:
            return
        self._mounted_tabs.add(tab)
        pane = self.query_one("#tabs", TabbedContent).get_pane(tab)
        await pane.mount(*tab_content(tab))
        {"judge-pane": self.judge_sync, "evals-pane": self.evals_sync,
         "trials-pane": self.trials_sync, "lift-pane": self.lift_sync,
         "compare-pane": self.compare_sync}.get(tab, lambda: None)()
        self.call_after_refresh(freeze_built_widgets)

    def pane(self, cls):
        """The mounted widget of `cls` (a class or its name), or None before its tab shows."""
        found = self.query(cls)
        return found.first() if found else None

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.tabbed_content.id == "tabs" and event.pane.id:
            await self.ensure_tab(event.pane.id)
            self.refresh_bindings()  # the footer shows the keys of the tab on screen

    async def action_show_tab(self, tab: str) -> None:
        await self.ensure_tab(tab)
        tabs = self.query_one("#tabs", TabbedContent)
        # Let go of the focused widget first: TabbedContent re-activates the pane that holds
        # the focus, which would snap the view straight back.
        self.set_focus(None)
        tabs.active = tab
        pane = tabs.get_pane(tab)

        def focus_first() -> None:
            # The focus chain holds only focusable widgets that are shown.
            target = next((w for w in self.focus_chain if pane in w.ancestors), None)
            if target is not None:
                target.focus()

        self.call_after_refresh(focus_first)
