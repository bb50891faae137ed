"""Issue 37: the run lists follow the run store while the workbench is open (a run started
from a shell appears, a finished one stops reading "running"), list only the open skill's
runs, and Lift opens on the newest of them, or says there is none and how to start one."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import make_app, settle, show_tab, shown_in, wait_for

pytestmark = pytest.mark.timeout(120)
T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)


def add_run(
    state: Path,
    run_id: str,
    skill: str,
    minutes: int,
    status: str = "finished",
    trials: bool = True,
) -> None:
    """A run of `skill` stored as `skillforge trial` stores one (from another process)."""
    with RunStore(state) as store:
        store.create_run(
            RunRecord(
                run_id=run_id,
                created_at=T0 + timedelta(minutes=minutes),
                skill_name=skill,
                skill_path=str(state.parent / skill),
                status=status,
                spec=RunSpec(skill_path=skill),
            )
        )
        for cond in ("with_skill", "baseline") if trials else ():
            store.upsert_trial(
                TrialRecord(
                    run_id=run_id,
                    case_id="monthly-revenue",
                    condition=cond,
                    attempt=1,
                    metrics={"accuracy": 0.5},
                )
            )


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


async def test_a_run_started_from_a_shell_appears_and_its_end_shows(skill: Path, tmp_path: Path):
    from widgets.runs_list import RunsList

    state = tmp_path / ".skillforge"
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(pilot, lambda: bool(app.workbench.query(RunsList)), 5, "the runs")
        runs = app.workbench.query_one(RunsList)
        # the store read (the title counts the rows then), else an empty list proves nothing
        await wait_for(pilot, lambda: runs.border_title == "Runs (0)", 5, "the runs read")
        assert runs.row_count == 0
        add_run(state, "20261201T090000-aaaaaa", "csv-insights", 0, status="running", trials=False)
        await wait_for(
            pilot,
            lambda: (
                "20261201T090000-aaaaaa" in shown_in(app, runs) and "running" in shown_in(app, runs)
            ),
            10,
            "the shell's run listed",
        )
        with RunStore(state) as store:
            store.finish_run("20261201T090000-aaaaaa", "finished")
        await wait_for(pilot, lambda: "finished" in shown_in(app, runs), 10, "the run's end shown")
        assert "running" not in shown_in(app, runs)


async def test_trials_and_lift_list_only_the_open_skills_runs(skill: Path, tmp_path: Path):
    from widgets.run_picker import RunPicker
    from widgets.runs_list import RunsList

    state = tmp_path / ".skillforge"
    add_run(state, "20261201T090000-csv001", "csv-insights", 0)
    add_run(state, "20261201T091000-lab001", "lab-units", 10)
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunsList))
                and app.workbench.query_one(RunsList).row_count > 0
            ),
            10,
            "the runs",
        )
        # Columns are sized after the first rows land; on a loaded machine that takes a while.
        await wait_for(
            pilot,
            lambda: "csv001" in shown_in(app, app.workbench.query_one(RunsList)),
            10,
            "the run's id in full",
        )
        listed = shown_in(app, app.workbench.query_one(RunsList))
        assert "csv001" in listed and "lab001" not in listed
        await show_tab(pilot, "5")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunPicker)) and app.workbench.query_one(RunPicker).runs
            ),
            10,
            "the Lift runs",
        )
        await wait_for(
            pilot,
            lambda: "csv001" in shown_in(app, app.workbench.query_one(RunPicker)),
            20,
            "the Lift run's id in full",
        )
        listed = shown_in(app, app.workbench.query_one(RunPicker))
        assert "csv001" in listed and "lab001" not in listed


async def test_lift_opens_on_the_newest_run_of_the_open_skill(skill: Path, tmp_path: Path):
    from widgets.lift_view import LiftView

    state = tmp_path / ".skillforge"
    add_run(state, "20261201T090000-csv001", "csv-insights", 0)
    add_run(state, "20261201T092000-csv002", "csv-insights", 20)
    add_run(state, "20261201T093000-lab001", "lab-units", 30)
    app = make_app(skill, Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("5")  # no Enter: the tab opens on a run by itself
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(LiftView))
                and app.workbench.query_one(LiftView).report is not None
            ),
            15,
            "a run's lift",
        )
        lift_title = app.workbench.query_one("#lift-title")
        await wait_for(
            pilot,
            lambda: "Skill Lift: csv-insights" in shown_in(app, lift_title),
            5,
            "the lift's title drawn",
        )
        title = shown_in(app, lift_title)
        assert "Skill Lift: csv-insights" in title and "run 20261201T092000-csv002" in title


async def test_lift_without_a_run_says_how_to_start_one(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_for(pilot, lambda: bool(app.workbench.query("#lift-title")), 5, "Lift")
        title = app.workbench.query_one("#lift-title")
        await wait_for(pilot, lambda: "yet" in shown_in(app, title), 10, "the notice")
        said = shown_in(app, title)
        assert "No run of csv-insights yet" in said
        assert "ctrl+r" in said and "skillforge trial csv-insights" in said


async def test_switching_skills_switches_the_runs_and_the_lift(tmp_path: Path, monkeypatch):
    from widgets.lift_view import LiftView
    from widgets.run_picker import RunPicker

    monkeypatch.chdir(tmp_path)
    for name in ("csv-insights", "lab-units"):
        shutil.copytree(SAMPLE_SKILLS / name, tmp_path / "skills" / name)
    state = tmp_path / ".skillforge"
    add_run(state, "20261201T090000-csv001", "csv-insights", 0)
    add_run(state, "20261201T091000-lab001", "lab-units", 10)
    app = make_app(tmp_path / "skills", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        wb = app.workbench
        await pilot.press("5")
        await wait_for(
            pilot,
            lambda: bool(wb.query(LiftView)) and wb.query_one(LiftView).report is not None,
            15,
            "a lift",
        )
        first = wb.current.name
        assert wb.query_one(LiftView).report.skill == first
        await pilot.press("n")
        await wait_for(pilot, lambda: wb.current.name != first, 5, "the other skill")
        view = wb.query_one(LiftView)
        await wait_for(
            pilot,
            lambda: view.report is not None and view.report.skill == wb.current.name,
            15,
            "the other skill's lift",
        )
        assert [r.skill_name for r in wb.query_one(RunPicker).runs] == [wb.current.name]
