"""The form that configures a trial run: cases, conditions, attempts, concurrency, model,
sandbox and network. **Start** posts `StartRequested(spec_overrides)`, **Cancel** posts
`CancelRequested`; the app builds the RunSpec with
`skillforge.trials.config.build_run_spec(skill, settings, spec_overrides)` and runs it.

`load(case_ids, defaults)` fills it: the eval set's case ids and the current [trial]
values (a dict with any of conditions, attempts, concurrency, model, sandbox, network).
`spec_overrides` uses RunSpec/[trial] key names: case_ids, conditions, attempts,
concurrency, model (None = the configured one), sandbox, network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static

CONDITIONS = (("with_skill", "with the skill"), ("baseline", "baseline (skill withheld)"),
              ("self_generated", "self-generated notes"))
SANDBOXES = (("docker (isolated)", "docker"), ("local (NO isolation)", "local"))


class StartRequested(Message):
    """The author asked to start a run with these overrides of the configured [trial]."""

    def __init__(self, spec_overrides: dict[str, Any]) -> None:
        super().__init__()
        self.spec_overrides = spec_overrides


class CancelRequested(Message):
    """The author asked to cancel the running trial run (the app calls runner.cancel())."""


class TrialConfigForm(Vertical):
    """Run configuration with Start and Cancel buttons."""

    HELP = """## Trial run
Pick the **cases** (none picked = all), the **conditions** (with the skill, baseline with
the skill withheld, and optionally self-generated notes), **attempts** per case and
condition, how many trials run at once, the agent's **model** (empty = the configured one),
the **sandbox** (docker isolates; local runs commands on this machine) and whether trial
containers get **network** access. **Start** runs it; **Cancel** stops a running run (its
containers are removed; it can be resumed later).
"""
    DEFAULT_CSS = """
    TrialConfigForm { height: auto; border: round $panel; padding: 0 1; }
    TrialConfigForm .row { height: auto; }
    TrialConfigForm Label { padding: 1 1 0 0; }
    TrialConfigForm #cases { height: 6; width: 1fr; }
    TrialConfigForm #conditions { width: 34; height: auto; }
    TrialConfigForm #conditions Checkbox { border: none; padding: 0 1; height: 1; }
    TrialConfigForm Input.number { width: 10; }
    TrialConfigForm #model { width: 1fr; }
    TrialConfigForm #sandbox { width: 26; }
    TrialConfigForm #problems { color: $error; height: auto; }
    TrialConfigForm Button { margin: 0 1 0 0; }
    """

    def __init__(self, case_ids: Sequence[str] = (), defaults: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._case_ids = [str(c) for c in case_ids]
        self._defaults = dict(defaults or {})
        self.border_title = "Trial run"
        self.running = False

    def compose(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield SelectionList[str](id="cases")
            with Vertical(id="conditions"):
                for value, label in CONDITIONS:
                    yield Checkbox(label, id=f"cond-{value}")
        with Horizontal(classes="row"):
            yield Label("attempts")
            yield Input(id="attempts", classes="number", type="integer")
            yield Label("at once")
            yield Input(id="concurrency", classes="number", type="integer")
            yield Label("model")
            yield Input(id="model", placeholder="configured model")
        with Horizontal(classes="row"):
            yield Label("sandbox")
            yield Select(SANDBOXES, id="sandbox", allow_blank=False, value="docker")
            yield Checkbox("network", id="network")
            yield Button("Start", id="start", variant="success")
            yield Button("Cancel", id="cancel", variant="error", disabled=True)
        yield Static("", id="problems")

    def on_mount(self) -> None:
        self.query_one("#cases", SelectionList).border_title = "cases (none picked = all)"
        self.load(self._case_ids, self._defaults)

    def load(self, case_ids: Sequence[str], defaults: Mapping[str, Any] | None = None) -> None:
        """Show these cases and these starting values (the current [trial] config)."""
        d = dict(defaults or {})
        self._case_ids = [str(c) for c in case_ids]
        cases = self.query_one("#cases", SelectionList)
        cases.clear_options()
        picked = set(d.get("case_ids") or [])
        cases.add_options([(cid, cid, cid in picked) for cid in self._case_ids])
        conds = set(d.get("conditions") or ("with_skill", "baseline"))
        for value, _label in CONDITIONS:
            self.query_one(f"#cond-{value}", Checkbox).value = value in conds
        self.query_one("#attempts", Input).value = str(d.get("attempts", 3))
        self.query_one("#concurrency", Input).value = str(d.get("concurrency", 2))
        self.query_one("#model", Input).value = d.get("model") or ""
        self.query_one("#sandbox", Select).value = d.get("sandbox", "docker")
        self.query_one("#network", Checkbox).value = bool(d.get("network", False))
        self._problems([])

    def _problems(self, problems: list[str]) -> None:
        self.query_one("#problems", Static).update("\n".join(problems))

    def _positive(self, field: str, problems: list[str]) -> int | None:
        raw = self.query_one(f"#{field}", Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            problems.append(f"{field}: give a whole number of at least 1 (got {raw!r})")
            return None
        return value

    def spec_overrides(self) -> tuple[dict[str, Any], list[str]]:
        """(overrides, problems) from the current field values."""
        problems: list[str] = []
        conditions = [v for v, _ in CONDITIONS if self.query_one(f"#cond-{v}", Checkbox).value]
        if not conditions:
            problems.append("conditions: tick at least one")
        attempts = self._positive("attempts", problems)
        concurrency = self._positive("concurrency", problems)
        model = self.query_one("#model", Input).value.strip() or None
        overrides = {
            "case_ids": list(self.query_one("#cases", SelectionList).selected),
            "conditions": conditions,
            "attempts": attempts,
            "concurrency": concurrency,
            "model": model,
            "sandbox": self.query_one("#sandbox", Select).value,
            "network": self.query_one("#network", Checkbox).value,
        }
        return overrides, problems

    def set_running(self, running: bool) -> None:
        """Start is disabled while a run is going on; Cancel only then."""
        self.running = running
        self.query_one("#start", Button).disabled = running
        self.query_one("#cancel", Button).disabled = not running

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            overrides, problems = self.spec_overrides()
            self._problems(problems)
            if not problems:
                self.post_message(StartRequested(overrides))
        elif event.button.id == "cancel":
            self.post_message(CancelRequested())
