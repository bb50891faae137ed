"""Issue 38: the Trials tab of a run that stops when decided shows each round's interval on
the [-1, +1] axis as it narrows, and why the run stopped; the runs list says it again for a
past run.

- A real run started with keys (Trials tab, tick "stop when decided", ctrl+r) in the local
  sandbox, a scripted model that answers at once: no difference between the sides, so the
  run goes to its last round and says so.
- The grid fed the events of a run that decides "helps" in round 2, through the message the
  runner's events travel by: the bar narrows and the stop names the reason and the trials
  it saved.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.rounds import MetricSequence, PassSequence, RoundResult
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.trials.events import RunFinished, RunStarted, TrialFinished
from skillforge.trials.rounds import RoundDone, TrialNotNeeded
from tests.llm_server import text
from tests.tui.helpers import (
    footer_current,
    local_scripted_model,
    make_app,
    one_case_skill,
    settle,
    shown_in,
    wait_for,
)
from widgets.runs_list import RunFailures, RunsList
from widgets.trial_config_form import TrialConfigForm
from widgets.trials_grid import TrialsGrid

pytestmark = pytest.mark.timeout(120)
RUN = "20261205T090000-d38d38"


async def _open_trials(pilot) -> TrialConfigForm:
    await settle(pilot)
    await pilot.press("4")
    await wait_for(pilot, lambda: bool(pilot.app.workbench.query(TrialConfigForm)), 5, "the form")
    # the tab's focus handed out and its keys in the footer: the tab is ready for keys
    await wait_for(pilot, lambda: footer_current(pilot.app), 5, "the Trials tab's keys")
    return pilot.app.workbench.query_one(TrialConfigForm)


def _bar_length(line: str) -> int:
    """How much of the axis an interval covers, in characters."""
    return sum(line.count(c) for c in "━╋")


async def test_a_run_started_with_keys_shows_its_rounds_and_why_it_stopped(
    tmp_path: Path, monkeypatch, llm_server
):
    skill = one_case_skill(tmp_path)
    local_scripted_model(
        tmp_path,
        monkeypatch,
        llm_server,
        lambda req: text("The monthly revenue is in the table above."),
    )
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _open_trials(pilot)
        attempts = form.query_one("#attempts", Input)
        attempts.focus()
        attempts.value = ""
        await pilot.press("2")
        form.query_one("#judge", Checkbox).focus()
        await pilot.press("space")  # no judge: the scripted model only answers
        form.query_one("#until_decided", Checkbox).focus()
        await pilot.press("space")
        await pilot.press("ctrl+r")
        grid = app.workbench.query_one(TrialsGrid)
        await wait_for(pilot, lambda: grid.progress.ended is not None, 90, "the run to end")
        await wait_for(
            pilot,
            lambda: "stopped at round 2" in shown_in(app, grid),
            5,
            "the rounds and why the run stopped, drawn",
        )
        shown = shown_in(app, grid)
        assert "round 1 " in shown and "round 2 " in shown, shown
        assert "stopped at round 2 because max attempts reached" in shown
        assert "overall +0.000, 95% anytime-valid [-1.000, +1.000] (width 2.000, 2 pairs)" in shown
        assert len(grid.progress.rounds) == 2
        assert all(e.result.verdict == "inconclusive" for e in grid.progress.rounds)


def _event(
    round_no: int, low: float, high: float, verdict: str = "inconclusive", reason: str | None = None
) -> RoundDone:
    result = RoundResult(
        round=round_no,
        trials=4 * round_no,
        verdict=verdict,
        metrics={
            "overall": MetricSequence(
                lift=(low + high) / 2, ci_low=low, ci_high=high, n=2 * round_no, verdict=verdict
            )
        },
        pass_=PassSequence(with_only=2 * round_no),
        width=high - low,
    )
    return RoundDone(result, 3, 0.05, reason)  # type: ignore[arg-type]


async def test_the_grid_draws_the_interval_narrowing_and_the_reason(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    skill = one_case_skill(tmp_path)
    spec = RunSpec(skill_path=str(skill), attempts=3, until_decided=True)
    keys = [
        (c, cond, a) for a in (1, 2, 3) for c in ("a", "b") for cond in ("with_skill", "baseline")
    ]
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_trials(pilot)
        grid = app.workbench.query_one(TrialsGrid)
        events = [RunStarted(RUN, spec, tuple(keys), "csv-insights")]
        events += [
            TrialFinished(
                k, TrialRecord(run_id=RUN, case_id=k[0], condition=k[1], attempt=k[2], grader=1.0)
            )
            for k in keys
            if k[2] == 1
        ]
        events.append(_event(1, -0.40, 0.90))
        events += [
            TrialFinished(
                k, TrialRecord(run_id=RUN, case_id=k[0], condition=k[1], attempt=k[2], grader=1.0)
            )
            for k in keys
            if k[2] == 2
        ]
        events.append(_event(2, 0.10, 0.70, "helps", "decided helps"))
        events += [TrialNotNeeded(k) for k in keys if k[2] == 3]
        events.append(RunFinished(RUN, "finished"))
        for event in events:
            grid.post_message(TrialsGrid.Event(event))
        await wait_for(pilot, lambda: grid.progress.ended is not None, 5, "the events")
        await wait_for(
            pilot,
            lambda: "stopped at round 2" in shown_in(app, grid),
            5,
            "the rounds and why the run stopped, drawn",
        )
        shown = shown_in(app, grid)
        assert "stopped at round 2 because decided helps (4 planned trials not needed)" in shown
        lines = {
            n: next(line for line in shown.split("round ")[1:] if line.startswith(f"{n} "))
            for n in (1, 2)
        }
        assert _bar_length(lines[2]) < _bar_length(lines[1])  # the interval narrowed
        assert "╋" in lines[1] and "╋" not in lines[2]  # round 2 no longer reaches 0
        assert ": helps" in lines[2] and ": inconclusive" in lines[1]
        assert "– 4" in shown  # the trials not needed, tallied


async def test_a_past_run_in_the_list_says_why_it_stopped(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    skill = one_case_skill(tmp_path)
    with RunStore(tmp_path / ".skillforge") as store:
        store.create_run(
            RunRecord(
                run_id=RUN,
                created_at=datetime(2026, 12, 5, 9, tzinfo=UTC),
                skill_name="csv-insights",
                skill_path=str(skill),
                status="finished",
                spec=RunSpec(skill_path=str(skill), attempts=3, until_decided=True),
            )
        )
        for i in range(8):
            for cond, grade in (("with_skill", 0.0), ("baseline", 1.0)):
                store.upsert_trial(
                    TrialRecord(
                        run_id=RUN, case_id=f"c{i}", condition=cond, attempt=1, grader=grade
                    )
                )
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_trials(pilot)
        runs = app.workbench.query_one(RunsList)
        await wait_for(pilot, lambda: runs.row_count > 0, 10, "the runs list")
        runs.focus()
        await pilot.press("home")
        failures = app.workbench.query_one(RunFailures)
        await wait_for(pilot, lambda: failures.display, 5, "the stop line")
        assert "interval: anytime-valid, stopped at round 1 because decided hurts" in shown_in(
            app, failures
        )
