"""The form that configures a trial run: every knob of `skillforge trial` that a new run
takes (cases, conditions, attempts, concurrency, agent, model, image, sandbox, network,
timeout, turns, disk, decoys, cost cap, judged or not, stop when decided). **Start**
(ctrl+r) posts `StartRequested(spec_overrides)`, **Cancel** (ctrl+x) posts `CancelRequested`;
the app builds the RunSpec with `skillforge.trials.config.build_run_spec(skill, settings, overrides)`.
A change of any field posts `EstimateWanted(spec_overrides)` (debounced); the app answers
with `show_estimate(line, detail)`: what the run would take, under the buttons.

`load(case_ids, values)` fills it: the eval set's case ids and the starting values (the
[trial] settings, with what the author last used for this skill over them). The knobs sit
in a grid of one-line cells whose column count follows the width, so Start and every field
stay on screen at 80x24.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static

from widgets.focus_border import FocusWithinBorder

CONDITIONS = (("with_skill", "with the skill"), ("baseline", "baseline (skill withheld)"),
              ("self_generated", "self-generated notes"),
              ("skill_mode", "skill mode (own code skills)"))
SANDBOXES = (("docker (isolated)", "docker"), ("local (NO isolation)", "local"))
AGENTS = (("builtin", "builtin"), ("claude-code", "claude-code"), ("codex", "codex"))
# number fields: id -> (label, override key, smallest value, default, may be empty)
NUMBERS = {
    "attempts": ("attempts", "attempts", 1, 3, False),
    "concurrency": ("at once", "concurrency", 1, 2, False),
    "max_turns": ("turns", "max_turns", 1, 30, False),
    "timeout": ("timeout s", "timeout_sec", 1, 600, False),
    "disk": ("disk MiB", "disk_mb", 64, 1024, False),
    "decoys": ("decoys", "decoys", 0, None, True),
}
ESTIMATE_DEBOUNCE_S = 0.4  # typing a number re-estimates once, after the last key
CELL_WIDTH = 26  # a cell's columns: label, field and gaps; the grid fits as many as it can


class StartRequested(Message):
    """The author asked to start a run with these overrides of the configured [trial]
    (plus `judge`: False runs without the LLM-judged metrics)."""

    def __init__(self, spec_overrides: dict[str, Any]) -> None:
        super().__init__()
        self.spec_overrides = spec_overrides


class EstimateWanted(Message):
    """The form's values changed: estimate the run they would start (trials, tokens, cost)."""

    def __init__(self, spec_overrides: dict[str, Any]) -> None:
        super().__init__()
        self.spec_overrides = spec_overrides


class CancelRequested(Message):
    """The author asked to cancel the running trial run (the app calls runner.cancel())."""


def _cell(label: str, widget: Widget, cell_id: str) -> Horizontal:
    return Horizontal(Label(label, classes="knob-label"), widget, classes="knob",
                      id=f"knob-{cell_id}")


class TrialConfigForm(FocusWithinBorder, Vertical):
    """Run configuration with Start and Cancel."""

    HELP = """## Trial run
**ctrl+r** starts the run, **ctrl+x** cancels it (its containers are removed; it can be
resumed later with `skillforge trial --resume RUN_ID`). Pick the **cases** (none picked =
all) and the **conditions** (with the skill, baseline with the skill withheld, optionally
self-generated notes). **attempts** per case and condition, trials **at once**, the agent's
**turns** and **timeout**, the **disk** a trial may write, **decoys** (other skills shown
in both conditions, empty = none), **max $** (a hard cost cap in USD: no trial starts once
the spend plus the next trial's estimate would pass it; empty = none), the **agent**
(builtin, or claude-code / codex in an image that has them), its **model** (empty = the
configured one), the **sandbox** (docker isolates; local runs commands on this machine),
the trial **image**, **network** access
and whether the LLM **judge** scores the run. **stop when decided** runs in rounds (one
attempt of every case per condition, **attempts** at most) and stops once the headline is
decided or its anytime-valid interval is narrower than [trial] margin; the grid shows each
round's interval and why the run stopped. The values are remembered per skill. Under the
buttons: the run's estimated trials, tokens and cost (agent and judge), and where the
per-trial figures come from (hover it for the whole of it).
"""
    DEFAULT_CSS = """
    TrialConfigForm { height: auto; border: round $panel; padding: 0 1; }
    TrialConfigForm #form-actions { height: 1; }
    TrialConfigForm #form-actions Button { margin-right: 1; min-width: 10; }
    TrialConfigForm #form-state { width: 1fr; color: $foreground-muted; padding-left: 1; }
    TrialConfigForm #form-top { height: auto; }
    TrialConfigForm #estimate { height: auto; color: $foreground-muted; }
    TrialConfigForm #cases { height: 6; width: 1fr; border: none; padding: 0; }
    TrialConfigForm #conditions { width: 30; height: 4; padding-left: 1; }
    TrialConfigForm #knobs { grid-size: 3; grid-gutter: 0 2; grid-rows: 1; height: auto; }
    TrialConfigForm .knob { height: 1; }
    TrialConfigForm #knob-image, TrialConfigForm #knob-model { column-span: 2; }
    TrialConfigForm .knob-label { width: 10; color: $foreground-muted; }
    TrialConfigForm .knob Input, TrialConfigForm .knob Select { width: 1fr; }
    TrialConfigForm .knob Checkbox { width: 1fr; }
    TrialConfigForm #problems { color: $text-error; height: auto; display: none; }
    TrialConfigForm #problems.-shown { display: block; }
    """
    def __init__(self, case_ids: Sequence[str] = (), defaults: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._case_ids = [str(c) for c in case_ids]
        self._defaults = dict(defaults or {})
        self.border_title = "Trial run"
        self.running = False
        self.estimate_text = self.estimate_detail = ""
        self._asked = 0  # estimate timers pending: only the last one asks

    def compose(self) -> ComposeResult:
        with Horizontal(id="form-actions"):
            yield Button("Start ^r", id="start", variant="success", compact=True)
            yield Button("Cancel ^x", id="cancel", variant="error", compact=True, disabled=True)
            yield Static("", id="form-state")
        yield Static("", id="estimate")
        with Horizontal(id="form-top"):
            yield SelectionList[str](id="cases", compact=True)
            with Vertical(id="conditions"):
                for value, label in CONDITIONS:
                    yield Checkbox(label, id=f"cond-{value}", compact=True)
        with Grid(id="knobs"):
            for wid, (label, _key, _low, default, _empty) in NUMBERS.items():
                yield _cell(label, Input(id=wid, type="integer", compact=True,
                                         placeholder="none" if default is None else str(default)),
                            wid)
            yield _cell("max $", Input(id="max_cost", type="number", compact=True,
                                       placeholder="none"), "max_cost")
            yield _cell("agent", Select(AGENTS, id="agent", allow_blank=False, value="builtin",
                                        compact=True), "agent")
            yield _cell("model", Input(id="model", placeholder="configured", compact=True),
                        "model")
            yield _cell("sandbox", Select(SANDBOXES, id="sandbox", allow_blank=False,
                                          value="docker", compact=True), "sandbox")
            yield _cell("image", Input(id="image", placeholder="configured", compact=True),
                        "image")
            yield _cell("network", Checkbox("allowed", id="network", compact=True), "network")
            yield _cell("judge", Checkbox("by LLM", id="judge", compact=True, value=True),
                        "judge")
            yield _cell("stop", Checkbox("when decided", id="until_decided", compact=True),
                        "until_decided")
        yield Static("", id="problems")

    def on_mount(self) -> None:
        self.query_one("#cases", SelectionList).border_title = "cases (none picked = all)"
        self.load(self._case_ids, self._defaults)

    def on_resize(self) -> None:
        columns = max(1, min(4, (self.content_region.width + 2) // CELL_WIDTH))
        grid = self.query_one("#knobs", Grid)
        if grid.styles.grid_size_columns != columns:
            grid.styles.grid_size_columns = columns

    # --- values ---------------------------------------------------------------------------

    def load(self, case_ids: Sequence[str], defaults: Mapping[str, Any] | None = None) -> None:
        """Show these cases and these starting values ([trial] keys and case_ids, decoys,
        judge)."""
        d = dict(defaults or {})
        self._case_ids = [str(c) for c in case_ids]
        cases = self.query_one("#cases", SelectionList)
        cases.clear_options()
        picked = {str(c) for c in d.get("case_ids") or []}
        cases.add_options([(cid, cid, cid in picked) for cid in self._case_ids])
        conds = set(d.get("conditions") or ("with_skill", "baseline"))
        for value, _label in CONDITIONS:
            self.query_one(f"#cond-{value}", Checkbox).value = value in conds
        for wid, (_label, key, _low, default, _empty) in NUMBERS.items():
            value = d.get(key, default)
            self.query_one(f"#{wid}", Input).value = "" if value is None else str(value)
        self.query_one("#agent", Select).value = d.get("agent") or "builtin"
        self.query_one("#model", Input).value = d.get("model") or ""
        self.query_one("#sandbox", Select).value = d.get("sandbox", "docker")
        self.query_one("#image", Input).value = d.get("image") or ""
        self.query_one("#network", Checkbox).value = bool(d.get("network", False))
        self.query_one("#judge", Checkbox).value = d.get("judge", True) is not False
        cap = d.get("max_cost_usd")
        self.query_one("#max_cost", Input).value = "" if cap is None else f"{cap:g}"
        self.query_one("#until_decided", Checkbox).value = bool(d.get("until_decided", False))
        self.show_problem("")

    def set_cases(self, case_ids: Sequence[str]) -> None:
        """The eval set changed (saved in the Evals tab): list its cases now, keeping the
        picks that still exist and every other field as typed."""
        ids = [str(c) for c in case_ids]
        if ids == self._case_ids:
            return
        cases = self.query_one("#cases", SelectionList)
        picked = set(cases.selected)
        self._case_ids = ids
        cases.clear_options()
        cases.add_options([(cid, cid, cid in picked) for cid in ids])

    def show_problem(self, text: str) -> None:
        """A problem of the values, or why the last start failed ("" hides it)."""
        problems = self.query_one("#problems", Static)
        problems.update(text)
        problems.set_class(bool(text), "-shown")

    @property
    def problem_text(self) -> str:
        return str(self.query_one("#problems", Static).render())

    def _number(self, wid: str, problems: list[str]) -> int | None:
        label, _key, low, _default, may_be_empty = NUMBERS[wid]
        raw = self.query_one(f"#{wid}", Input).value.strip()
        if not raw and may_be_empty:
            return None
        try:
            value = int(raw)
        except ValueError:
            value = low - 1
        if value < low:
            problems.append(f"{label}: give a whole number of at least {low} (got {raw!r})")
            return None
        return value

    def _cap(self, problems: list[str]) -> float | None:
        raw = self.query_one("#max_cost", Input).value.strip()
        if not raw:
            return None
        try:
            value = float(raw)
        except ValueError:
            value = 0.0
        if not value > 0:
            problems.append(f"max $: give a cost in USD above 0, or leave it empty (got {raw!r})")
            return None
        return value

    def spec_overrides(self) -> tuple[dict[str, Any], list[str]]:
        """(overrides, problems) from the current field values."""
        problems: list[str] = []
        conditions = [v for v, _ in CONDITIONS if self.query_one(f"#cond-{v}", Checkbox).value]
        if not conditions:
            problems.append("conditions: tick at least one")
        overrides: dict[str, Any] = {
            "case_ids": list(self.query_one("#cases", SelectionList).selected),
            "conditions": conditions,
        }
        for wid, (_label, key, _low, _default, _empty) in NUMBERS.items():
            overrides[key] = self._number(wid, problems)
        overrides |= {
            "agent": self.query_one("#agent", Select).value,
            "model": self.query_one("#model", Input).value.strip() or None,
            "sandbox": self.query_one("#sandbox", Select).value,
            "image": self.query_one("#image", Input).value.strip() or None,
            "network": self.query_one("#network", Checkbox).value,
            "judge": self.query_one("#judge", Checkbox).value,
            "max_cost_usd": self._cap(problems),
            "until_decided": self.query_one("#until_decided", Checkbox).value,
        }
        return overrides, problems

    # --- the estimate ---------------------------------------------------------------------

    def on_input_changed(self) -> None:
        self._values_changed()

    def on_checkbox_changed(self) -> None:
        self._values_changed()

    def on_select_changed(self) -> None:
        self._values_changed()

    def on_selection_list_selected_changed(self) -> None:
        self._values_changed()

    def _values_changed(self) -> None:
        if self.is_mounted:
            self._asked += 1
            self.set_timer(ESTIMATE_DEBOUNCE_S, self._ask_estimate, name="estimate")

    def _ask_estimate(self) -> None:
        self._asked -= 1
        if self._asked > 0:
            return  # a later change asks again
        overrides, problems = self.spec_overrides()
        if not problems:
            self.post_message(EstimateWanted(overrides))

    def show_estimate(self, line: str, detail: str = "") -> None:
        """What the run would take (`line`, beside the buttons) and where the figures come
        from (`detail`, its tooltip)."""
        self.estimate_text, self.estimate_detail = line, detail
        shown = self.query_one("#estimate", Static)
        shown.update(line)
        shown.tooltip = detail or None

    def set_running(self, running: bool) -> None:
        """Start is disabled while a run is going on; Cancel only then. The focus moves from
        the button that is disabled to the other: a disabled button drops it, and the tab's
        keys (ctrl+r, ctrl+x) and footer went with it until a click (issue 37)."""
        self.running = running
        start, cancel = self.query_one("#start", Button), self.query_one("#cancel", Button)
        usable, unusable = (cancel, start) if running else (start, cancel)
        usable.disabled = False
        if unusable.has_focus:
            usable.focus()
        unusable.disabled = True
        self.query_one("#form-state", Static).update(
            "running… ctrl+x cancels" if running else "")

    # --- actions --------------------------------------------------------------------------

    def action_start(self) -> None:
        if self.running:
            self.notify("A run is going on: ctrl+x cancels it.", timeout=3)
            return
        overrides, problems = self.spec_overrides()
        self.show_problem("\n".join(problems))
        if not problems:
            self.post_message(StartRequested(overrides))

    def action_cancel(self) -> None:
        if self.running:
            self.post_message(CancelRequested())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "cancel":
            self.action_cancel()


class TrialsPanel(Vertical):
    """The Trials tab's body (form, live grid, past runs): its keys work wherever the focus
    is in the tab, a text field included (priority: ctrl+x is not "cut" here). It scrolls
    when a long run's grid and the form do not fit."""

    DEFAULT_CSS = """
    TrialsPanel { height: 1fr; overflow-y: auto; }
    """

    BINDINGS = [
        Binding("ctrl+r", "start", "Start run", id="trials.start", priority=True),
        Binding("ctrl+x", "cancel", "Cancel run", id="trials.cancel", priority=True),
    ]

    def action_start(self) -> None:
        self.query_one(TrialConfigForm).action_start()

    def action_cancel(self) -> None:
        self.query_one(TrialConfigForm).action_cancel()
