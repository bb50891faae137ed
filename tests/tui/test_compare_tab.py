"""The Compare tab reached by keys from the Lift tab, on a stored run: Enter, Space or a
click on a step of the side-by-side opens it whole, tool output included (issue 16: the
footer and F1 advertised "Enter: expand step" and nothing happened)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, mounted, open_lift, screen_text, wait_for
from tests.widgets.lift_fixture import RUN_ID, WORST, build_store
from widgets.compare_view import CompareView
from widgets.step_detail import StepDetail
from widgets.triage_list import NegativeList

FAILED_RUN = "summarize.py: error: unrecognized arguments: --pivot region,quarter"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge").close()
    return tmp_path


async def open_worst_case(pilot) -> CompareView:
    """Lift tab, Enter on the run, t for the negative-lift list, Enter on the worst case."""
    app = pilot.app
    await open_lift(pilot, run_id=RUN_ID)
    await pilot.press("t")  # from the run list: the tab's keys work without a Tab first
    await wait_for(
        pilot,
        lambda: app.focused is app.workbench.query_one(NegativeList),
        5,
        "the negative-lift list focused",
    )
    assert app.workbench.query_one(NegativeList).current() == WORST
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.workbench.active_tab == "compare-pane", 10, "Compare")
    view = await mounted(pilot, CompareView, 10, "the Compare tab mounted")
    await wait_for(pilot, lambda: view.case_id == WORST, 10, "the worst case side by side")
    # drawn, not only chosen: callers click on rows of the trajectories
    side = view.viewer("with_skill")
    await wait_for(
        pilot,
        lambda: f"Case {WORST}" in screen_text(app) and side.size.height > 0,
        5,
        "the worst case drawn",
    )
    return view


async def test_a_click_on_a_step_opens_it_whole_with_its_tool_output(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_worst_case(pilot)
        side = view.viewer("with_skill")
        row = side.row_of(4) - round(side.scroll_y)
        assert row + 1 < side.size.height
        await pilot.click(side, offset=(4, row + 1))  # +1: the border
        await wait_for(pilot, lambda: isinstance(app.screen, StepDetail), 5, "the step")
        text = app.screen.text
        assert "Step 4" in text and FAILED_RUN in text and "exit 2" in text
        assert '"command": "python /skills/csv-insights/scripts/summarize.py' in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, StepDetail), 5, "closed")


async def test_enter_and_space_open_the_step_under_the_cursor(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=SIZE) as pilot:
        view = await open_worst_case(pilot)
        side = view.viewer("with_skill")
        row = side.row_of(3) - round(side.scroll_y)
        await pilot.click(side, offset=(4, row + 1))
        await wait_for(pilot, lambda: isinstance(app.screen, StepDetail), 5, "step 3")
        assert "Step 3" in app.screen.text and "SKILL.md" in app.screen.text
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, StepDetail), 5, "step 4")
        assert FAILED_RUN in app.screen.text
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: isinstance(app.screen, StepDetail), 5, "step 5")
        assert "Step 5" in app.screen.text
