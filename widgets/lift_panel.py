"""The Lift tab's body: the stored runs above, the chosen run's Skill Lift below.

Its keys (m, h, t, k, p, a, b) work wherever the focus is in the tab, the run list included: an
author who just pressed Enter on a run can press h for the heatmap without a Tab first.
`b` shows in the footer only while a two-run comparison is on screen, `k` (Skill Mode) only
for a run with skill_mode trials, `p` (Parts) only for a run with without:<part> trials.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical

from widgets.lift_view import LiftView


class LiftPanel(Vertical):
    """RunPicker + LiftView, with the sections' keys for the whole tab."""

    DEFAULT_CSS = """
    LiftPanel { height: 1fr; }
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

    @property
    def view(self) -> LiftView:
        return self.query_one(LiftView)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.view.comparison is not None
        if action == "section" and parameters == ("skill_mode",):
            return self.view.has_skill_mode  # k only for a run with Skill Mode trials
        if action == "section" and parameters == ("parts",):
            return self.view.check_action(action, parameters)  # p: runs with ablations
        return True

    def action_section(self, name: str) -> None:
        self.view.action_section(name)

    def action_back(self) -> None:
        self.view.action_back()
        self.refresh_bindings()
