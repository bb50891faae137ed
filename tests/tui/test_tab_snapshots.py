"""Every tab of the workbench at 80x24 and at 120x40, reached by keys, with a stored run
(the fixture run of tests/widgets/lift_fixture.py) in Lift and Compare.

Update after an intended UI change with
`pytest tests/tui/test_tab_snapshots.py --snapshot-update`, then look at the SVGs in
tests/tui/__snapshots__/test_tab_snapshots/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import (
    footer_current,
    make_app,
    mounted,
    screen_text,
    settle,
    wait_for,
)
from tests.widgets.lift_fixture import RUN_ID, WORST, build_store
from widgets.trajectory_view import TrajectoryView

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    """A launch directory holding csv-insights and a run store with the fixture run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDITOR", "true")
    build_store(tmp_path / ".skillforge").close()
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


async def steady(pilot) -> None:
    """Cursors frozen, trajectory facts gathered, animations over."""
    app = pilot.app
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, (Input, TextArea)):
            widget.cursor_blink = False
    for view in app.screen.query(TrajectoryView):
        await wait_for(
            pilot,
            lambda v=view: v.trajectory is None or v.facts_ready,
            10,
            "the trajectory's facts",
        )
    await pilot.wait_for_scheduled_animations()  # until the tab underline stops moving


async def show_tab(pilot, key: str, pane: str) -> None:
    await settle(pilot)
    await pilot.press(key)
    await wait_for(pilot, lambda: pilot.app.workbench.active_tab == pane, 5, pane)
    await wait_for(pilot, lambda: footer_current(pilot.app), 5, f"the footer of {pane}")


async def lift(pilot) -> None:
    """Lift tab, Enter on the stored run, its Skill Lift shown."""
    await show_tab(pilot, "5", "lift-pane")
    wb = pilot.app.workbench
    picker = wb.query_one("RunPicker")
    await wait_for(pilot, lambda: bool(picker.runs), 10, "the runs")
    picker.focus()
    await pilot.press("enter")
    view = wb.query_one("LiftView")
    # The tab opens on the newest run by itself, so the report can be there before Enter's
    # own load ends: wait for every lift worker too, or a loaded machine shoots mid-redraw.
    await wait_for(
        pilot,
        lambda: (
            view.report is not None
            and view.report.run_id == RUN_ID
            and not any(w.group == "lift" and not w.is_finished for w in pilot.app.workers)
        ),
        15,
        "the run's lift",
    )
    await wait_for(
        pilot,
        lambda: f"run {RUN_ID}" in screen_text(pilot.app) and footer_current(pilot.app),
        5,
        "the lift's title and keys drawn",
    )
    await steady(pilot)


async def compare(pilot) -> None:
    """From the Lift tab: t, Enter on the worst negative case: its side-by-side."""
    await lift(pilot)
    await pilot.press("t")
    negative = pilot.app.workbench.query_one("NegativeList")
    await wait_for(
        pilot,
        lambda: pilot.app.focused is negative and negative.current() == WORST,
        5,
        "the negative-lift list focused on the worst case",
    )
    await pilot.press("enter")
    view = await mounted(pilot, "CompareView", 15, "the Compare tab mounted")
    await wait_for(pilot, lambda: view.case_id == WORST, 15, "the case side by side")
    await steady(pilot)


async def lint(pilot) -> None:
    await settle(pilot)
    await steady(pilot)


async def judge(pilot) -> None:
    await show_tab(pilot, "2", "judge-pane")
    await steady(pilot)


async def evals(pilot) -> None:
    await show_tab(pilot, "3", "evals-pane")
    form = pilot.app.workbench.query_one("CaseForm")
    await wait_for(pilot, lambda: form.case is not None, 5, "the first case")
    await steady(pilot)


async def trials(pilot) -> None:
    await show_tab(pilot, "4", "trials-pane")
    runs = pilot.app.workbench.query_one("RunsList")
    await wait_for(pilot, lambda: runs.row_count == 1, 10, "the stored run")
    form = pilot.app.workbench.query_one("TrialConfigForm")
    await wait_for(pilot, lambda: bool(form.estimate_text), 10, "the run's estimate")
    await steady(pilot)


TABS = {
    "lint": lint,
    "judge": judge,
    "evals": evals,
    "trials": trials,
    "lift": lift,
    "compare": compare,
}


class TestEveryTab:
    @pytest.mark.parametrize("size", SIZES)
    @pytest.mark.parametrize("tab", TABS)
    def test_tab(self, snap_compare, skill, tab, size):
        assert snap_compare(
            make_app(skill, Settings()), terminal_size=SIZES[size], run_before=TABS[tab]
        )
