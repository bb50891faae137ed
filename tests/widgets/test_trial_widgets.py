"""The trial widgets on their own, in a tiny app: the live grid fed with run events, the
runs list, and the run configuration form with its Start and Cancel messages."""

from __future__ import annotations

from datetime import UTC, datetime

from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Checkbox, Input, SelectionList

from skillforge.models.trial import RunSpec, TrialRecord
from skillforge.trials.events import (
    RunFinished,
    RunStarted,
    TrialCancelled,
    TrialFailed,
    TrialFinished,
    TrialQueued,
    TrialReused,
    TrialStarted,
    TrialStep,
)
from skillforge.trials.history import RunOverview
from widgets.runs_list import RunsList
from widgets.trial_config_form import CancelRequested, StartRequested, TrialConfigForm
from widgets.trials_grid import TrialsGrid

SIZE = (110, 30)
KEYS = (("monthly-revenue", "with_skill", 1), ("monthly-revenue", "baseline", 1),
        ("order-stats", "with_skill", 1), ("order-stats", "baseline", 1))


class Host(App):
    """Mounts one widget and records every message (Harlequin's message_hook idea)."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.widget = widget
        self.seen: list = []

    def compose(self) -> ComposeResult:
        yield self.widget

    def record(self, message) -> None:
        # A bubbling message reaches the hook once per node it visits: keep it once.
        if not any(m is message for m in self.seen):
            self.seen.append(message)

    def on_trials_grid_event(self, message: TrialsGrid.Event) -> None:
        # What the app does with events a worker forwards: hand them to the grid.
        self.query_one(TrialsGrid).apply(message.event)


def _record(key, status="ok", **kw) -> TrialRecord:
    return TrialRecord(run_id="r1", case_id=key[0], condition=key[1], attempt=key[2],
                       status=status, **kw)


def _text(renderable) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


async def test_the_grid_follows_a_run_fed_as_messages():
    grid = TrialsGrid()
    app = Host(grid)
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        assert "No run started in this session" in _text(grid.render())
        events = [RunStarted("r1", RunSpec(skill_path="x"), KEYS, "csv-insights"),
                  *[TrialQueued(k) for k in KEYS], TrialStarted(KEYS[0]),
                  TrialStep(KEYS[0], 2, "bash: python3 summarize.py sales.csv",
                            tokens_in=900, tokens_out=40, cost_usd=0.003)]
        for e in events:
            app.post_message(TrialsGrid.Event(e))
        await pilot.pause()
        shown = _text(grid.render())
        assert "with#1" in shown and "base#1" in shown
        assert "▶2" in shown and "turn 2: bash: python3 summarize.py sales.csv" in shown
        assert "0/4 trials" in shown and "900 in" in shown
        assert grid.border_title == "Trials · run r1"
        for e in (TrialFinished(KEYS[0], _record(KEYS[0], grader=1.0, tokens_in=1500,
                                                 tokens_out=60, cost_usd=0.005)),
                  TrialStarted(KEYS[1]),
                  TrialFailed(KEYS[1], _record(KEYS[1], "error", error="sandbox stopped")),
                  RunFinished("r1", "cancelled", {"ok": 1, "error": 1})):
            app.post_message(TrialsGrid.Event(e))
        await pilot.pause()
        shown = _text(grid.render())
        assert "✓1" in shown and "✗" in shown and shown.count("⊘") >= 2
        assert "4/4 trials" in shown and "$0.0050" in shown
        assert grid.border_title == "Trials · run r1 · cancelled"
        ended = [m for m in app.seen if isinstance(m, TrialsGrid.RunEnded)]
        assert [(m.run_id, m.status) for m in ended] == [("r1", "cancelled")]


async def test_a_run_stopped_at_its_cost_cap_says_so_in_the_grid():
    grid = TrialsGrid()
    app = Host(grid)
    reason = ("stopped at the cost cap: $1.0280 spent of $1.2000; 2 trial(s) not started "
              "(the next would have passed the cap)")
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        for e in (RunStarted("r1", RunSpec(skill_path="x"), KEYS, "csv-insights"),
                  TrialStarted(KEYS[0]), TrialFinished(KEYS[0], _record(KEYS[0])),
                  TrialCancelled(KEYS[1]),
                  RunFinished("r1", "stopped", {"ok": 1}, None, reason)):
            app.post_message(TrialsGrid.Event(e))
        await pilot.pause()
        shown = " ".join(_text(grid.render()).split())
        assert reason in shown and "the Lift tab shows what finished" in shown
        assert "run failed" not in shown
        assert grid.border_title == "Trials · run r1 · stopped"
        ended = [m for m in app.seen if isinstance(m, TrialsGrid.RunEnded)]
        assert [(m.status, m.error) for m in ended] == [("stopped", None)]


async def test_the_grid_says_which_trials_were_reused_and_from_which_run():
    grid = TrialsGrid()
    app = Host(grid)
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        earlier = "20261120T100300-aaa"
        events = [RunStarted("r2", RunSpec(skill_path="x"), KEYS, "csv-insights"),
                  *[TrialReused(k, _record(k, grader=1.0, tokens_in=700, cost_usd=0.01),
                                earlier) for k in KEYS[1::2]],
                  *[TrialQueued(k) for k in KEYS[0::2]]]
        for e in events:
            app.post_message(TrialsGrid.Event(e))
        await pilot.pause()
        shown = _text(grid.render())
        assert shown.count("↺1") == 2 and "↺ 2" in shown
        assert f"↺ 2 trials reused from run {earlier}" in shown
        # Spent by the earlier run: not this run's tokens or cost.
        assert "tokens 0 in" in shown and "cost unknown" in shown
        assert "2/4 trials" in shown


def _overview(run_id, lift, verdict, ok=4, errors=0) -> RunOverview:
    return RunOverview(run_id=run_id, created_at=datetime(2026, 11, 20, 10, 3, tzinfo=UTC),
                       skill_name="csv-insights", status="finished", engine="local",
                       trials=ok + errors, ok=ok, errors=errors, overall_lift=lift,
                       overall_verdict=verdict)


async def test_the_runs_list_shows_runs_and_posts_the_selected_one():
    runs = RunsList()
    app = Host(runs)
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        runs.show([_overview("20261120T100300-aaa", 0.42, "helps"),
                   _overview("20261119T090000-bbb", None, None, ok=2, errors=2)])
        await pilot.pause()
        assert runs.row_count == 2 and runs.border_title == "Runs (2)"
        first = runs.get_row_at(0)
        assert first[0] == "20261120T100300-aaa" and first[1] == "2026-11-20 10:03"
        assert str(first[6]) == "+0.420" and str(runs.get_row_at(1)[6]) == "-"
        assert str(runs.get_row_at(1)[5]) == "2"
        runs.focus()
        await pilot.press("down", "enter")
        selected = [m.run_id for m in app.seen if isinstance(m, RunsList.Selected)]
        assert selected == ["20261119T090000-bbb"]
        # A refresh keeps the selection on the same run.
        runs.show([_overview("20261121T000000-ccc", -0.1, "hurts"),
                   *runs.rows_shown])
        await pilot.pause()
        assert runs.selected_run_id == "20261119T090000-bbb"


async def test_the_runs_list_colours_a_run_by_its_headline_verdict():
    # The audit's case: overall alone inconclusive, the grader and the pass rate say "hurts";
    # the run's lift in the Trials tab's list is red like its headline, not yellow.
    from skillforge.models.trial import RunRecord
    from skillforge.trials.history import overview
    from tests.lift.builders import grader_harm

    run = RunRecord(run_id="20261120T100300-harm", created_at=datetime(2026, 11, 20, tzinfo=UTC),
                    skill_name="uniform-harm", status="finished")
    runs = RunsList()
    app = Host(runs)
    async with app.run_test(size=SIZE) as pilot:
        runs.show([overview(run, grader_harm())])
        await pilot.pause()
        lift = runs.get_row_at(0)[6]
        assert lift.plain.startswith("-") and lift.style == "bold red"


async def test_the_form_posts_start_with_the_overrides():
    form = TrialConfigForm(["monthly-revenue", "missing-values", "order-stats"],
                           {"attempts": 3, "concurrency": 2, "sandbox": "docker"})
    app = Host(form)
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        cases = form.query_one("#cases", SelectionList)
        cases.select("order-stats")
        form.query_one("#cond-self_generated", Checkbox).value = True
        form.query_one("#attempts", Input).value = "5"
        form.query_one("#model", Input).value = "openai:llama3.1"
        form.query_one("#network", Checkbox).value = True
        await pilot.click("#start")
        await pilot.pause()
        (start,) = [m for m in app.seen if isinstance(m, StartRequested)]
        assert start.spec_overrides == {
            "case_ids": ["order-stats"], "conditions": ["with_skill", "baseline",
                                                        "self_generated"],
            "attempts": 5, "concurrency": 2, "max_turns": 30, "timeout_sec": 600,
            "disk_mb": 1024, "decoys": None, "agent": "builtin", "model": "openai:llama3.1",
            "sandbox": "docker", "image": None, "network": True, "judge": True,
            "max_cost_usd": None, "until_decided": False}


async def test_the_form_refuses_bad_values_and_cancels_a_running_run():
    form = TrialConfigForm(["a"], {})
    app = Host(form)
    async with app.run_test(size=SIZE, message_hook=app.record) as pilot:
        form.query_one("#attempts", Input).value = "0"
        for cond in ("with_skill", "baseline"):
            form.query_one(f"#cond-{cond}", Checkbox).value = False
        await pilot.click("#start")
        await pilot.pause()
        assert not [m for m in app.seen if isinstance(m, StartRequested)]
        problems = str(form.query_one("#problems").render())
        assert "conditions: tick at least one" in problems and "attempts" in problems
        form.set_running(True)
        await pilot.pause()
        await pilot.click("#cancel")
        await pilot.pause()
        assert len([m for m in app.seen if isinstance(m, CancelRequested)]) == 1
        assert form.query_one("#start").disabled
