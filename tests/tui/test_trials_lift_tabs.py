"""Trials, Lift and Compare tabs inside the workbench, on a stored fixture run: the runs
list, the lift table, a negative-lift case from the triage list opened side by side."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, mounted, settle, wait_for
from tests.widgets.lift_fixture import RUN_ID, WORST, build_store
from widgets.compare_view import CompareView
from widgets.lift_view import CompareRequested, LiftView
from widgets.runs_list import RunsList


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    """A launch directory with a skill and a run store holding the fixture run."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge", second_run=True).close()
    return tmp_path


async def test_runs_list_lift_table_and_compare_from_the_triage_list(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")  # the Trials tab is built on first visit
        await wait_for(pilot, lambda: bool(app.screen.query(RunsList)), 5, "the Trials tab built")
        runs = app.screen.query_one(RunsList)
        await wait_for(pilot, lambda: runs.row_count >= 2, 10, "the stored runs in the Trials tab")
        app.screen.post_message(RunsList.Selected(RUN_ID))
        await wait_for(pilot, lambda: bool(app.screen.query(LiftView)), 5, "the Lift tab")
        lift = app.screen.query_one(LiftView)
        await wait_for(
            pilot,
            lambda: lift.report is not None and lift.report.run_id == RUN_ID,
            15,
            "the lift report of the fixture run",
        )
        assert app.screen.query_one("#tabs").active == "lift-pane"
        report = lift.report
        assert {"overall", "grader", "accuracy"} <= set(report.metrics)
        assert "skill_execution" not in report.metrics and report.extra.use.used == 7
        assert any(c.case_id == WORST for c in report.negative_cases)

        # Enter on the negative case in the triage list asks to compare it.
        app.screen.post_message(CompareRequested(WORST, RUN_ID))
        await wait_for(
            pilot,
            lambda: app.screen.query_one("#tabs").active == "compare-pane",
            15,
            "the Compare tab for the negative case",
        )
        compare = await mounted(pilot, CompareView, 10, "the Compare tab mounted")
        await wait_for(
            pilot,
            lambda: (
                compare.attempt("with_skill") is not None
                and compare.attempt("baseline") is not None
            ),
            10,
            "both sides' attempts",
        )
        assert compare.attempt("with_skill") is not None and compare.attempt("baseline") is not None
        assert compare.attempt("with_skill").trial.case_id == WORST
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: app.screen.query_one("#tabs").active == "lift-pane",
            5,
            "back to the Lift tab",
        )


@pytest.mark.docker
async def test_start_a_paired_run_from_the_trials_tab(
    tmp_path: Path, monkeypatch, llm_server, trial_image
):
    from tests.trials.scripted_agent import ScriptedAgent
    from widgets.trial_config_form import StartRequested
    from widgets.trials_grid import TrialsGrid

    monkeypatch.chdir(tmp_path)
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    agent = ScriptedAgent()
    llm_server.handler = agent
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.setenv("SKILLFORGE_TRIAL__IMAGE", trial_image)
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        app.screen.post_message(
            StartRequested(
                {
                    "case_ids": ["monthly-revenue"],
                    "attempts": 1,
                    "conditions": ["with_skill", "baseline"],
                    "concurrency": 2,
                }
            )
        )
        grid = app.screen.query_one(TrialsGrid)
        await wait_for(
            pilot, lambda: bool(app.screen.lift_reports), 180, "the run to finish and its lift"
        )
        await wait_for(
            pilot, lambda: app.screen.query_one(RunsList).row_count == 1, 10, "the run listed"
        )
        assert grid.render()  # the grid drew the finished run
        await pilot.press("5")
        await wait_for(
            pilot,
            lambda: (
                bool(app.screen.query(LiftView))
                and app.screen.query_one(LiftView).report is not None
            ),
            10,
            "the run's lift",
        )
        lift = app.screen.query_one(LiftView)
        assert lift.report is not None and lift.report.inventory.trials == 2
        assert agent.conversations  # the scripted agent really ran both conditions
