"""Issue 37: a failed trial's reason is on the Trials tab (live, and for the run under the
cursor in the runs list), and Lift says how many trials errored on each side and that they
are left out, instead of a bare "0.000 … inconclusive"."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from tests.conftest import SAMPLE_SKILLS
from tests.llm_server import error
from tests.tui.helpers import (
    local_scripted_model,
    make_app,
    one_case_skill,
    settle,
    shown_in,
    wait_for,
)
from widgets.runs_list import RunsList
from widgets.trial_config_form import TrialConfigForm
from widgets.trials_grid import TrialsGrid

pytestmark = pytest.mark.timeout(120)
CASE = "monthly-revenue"
OVERFLOW = "This model's maximum context length is 8192 tokens"
SETUP = "the trial image 'lab/none:1' is not on this machine"
RUN = "20261201T090000-e1e2e3"


def store_with_errors(state: Path) -> None:
    """A finished run: CASE errored on both sides before the agent ran, another case ran."""
    with RunStore(state) as store:
        store.create_run(
            RunRecord(
                run_id=RUN,
                created_at=datetime(2026, 12, 1, 9, tzinfo=UTC),
                skill_name="csv-insights",
                skill_path="csv-insights",
                status="finished",
                spec=RunSpec(skill_path="csv-insights", case_ids=[CASE, "missing-values"]),
            )
        )
        for cond in ("with_skill", "baseline"):
            store.upsert_trial(
                TrialRecord(
                    run_id=RUN,
                    case_id=CASE,
                    condition=cond,
                    attempt=1,
                    status="error",
                    error=SETUP,
                    error_stage="setup",
                )
            )
            store.upsert_trial(
                TrialRecord(
                    run_id=RUN,
                    case_id="missing-values",
                    condition=cond,
                    attempt=1,
                    metrics={"accuracy": 0.5, "goal_accuracy": 0.5},
                )
            )


async def test_the_grid_says_why_trials_failed_as_they_fail(
    tmp_path: Path, monkeypatch, llm_server
):
    skill = one_case_skill(tmp_path, CASE)
    local_scripted_model(tmp_path, monkeypatch, llm_server, lambda req: error(400, OVERFLOW))
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(pilot, lambda: bool(app.workbench.query(TrialConfigForm)), 5, "the form")
        await pilot.press("ctrl+r")
        grid = app.workbench.query_one(TrialsGrid)
        await wait_for(pilot, lambda: grid.progress.ended is not None, 60, "the run to end")
        await wait_for(pilot, lambda: OVERFLOW in shown_in(app, grid), 5, "the reason drawn")
        assert grid.progress.counts() == {"error": 6}  # 3 attempts a side
        shown = shown_in(app, grid)
        assert f"✗ {CASE} with#1, {CASE} base#1 and 4 more: " in shown
        assert OVERFLOW in shown


async def test_the_run_under_the_cursor_says_why_its_trials_failed(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store_with_errors(tmp_path / ".skillforge")
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunsList))
                and app.workbench.query_one(RunsList).row_count == 1
            ),
            10,
            "the run",
        )
        app.workbench.query_one(RunsList).focus()
        await pilot.press("down", "up")
        failures = app.workbench.query_one("#run-failures")
        await wait_for(
            pilot,
            lambda: f"Run {RUN}: 2 trial(s) failed" in shown_in(app, failures),
            5,
            "the run's failures drawn",
        )
        shown = shown_in(app, failures)
        assert f"Run {RUN}: 2 trial(s) failed" in shown
        assert f"✗ {CASE} base#1, {CASE} with#1: {SETUP}" in shown


async def test_lift_says_how_many_trials_errored_on_each_side(tmp_path: Path, monkeypatch):
    from widgets.lift_view import LiftView
    from widgets.run_picker import RunPicker

    monkeypatch.chdir(tmp_path)
    store_with_errors(tmp_path / ".skillforge")
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    app = make_app(skill, Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunPicker)) and app.workbench.query_one(RunPicker).runs
            ),
            10,
            "the runs",
        )
        app.workbench.query_one(RunPicker).focus()
        await pilot.press("enter")
        view = app.workbench.query_one(LiftView)
        await wait_for(pilot, lambda: view.report is not None, 15, "the run's lift")
        title = app.workbench.query_one("#lift-title")
        await wait_for(
            pilot, lambda: "errored trial(s)" in shown_in(app, title), 5, "the errored trials drawn"
        )
        shown = shown_in(app, title)
        assert "2 errored trial(s) left out of this lift: 1 with_skill, 1 baseline" in shown
