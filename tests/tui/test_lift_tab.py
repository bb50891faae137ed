"""The Lift tab by keys on stored runs: at 80x24 the heatmap has rows, m/h/t work from the
run list, b (back from a two-run comparison) shows in the footer while it applies, and an
empty negative-lift table says why it is empty."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import footer_current, make_app, screen_lines, screen_text, wait_for
from tests.tui.helpers import open_lift as open_run_lift
from tests.widgets.lift_fixture import CASES, RUN_ID, build_store
from widgets.heatmap import Heatmap
from widgets.lift_view import LiftView
from widgets.run_picker import RunPicker
from widgets.triage_list import NegativeList


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge", second_run=True).close()
    return tmp_path


async def open_lift(pilot, run_row: int = 0) -> LiftView:
    """Lift tab; Enter on the run at `run_row` of the list (newest first)."""
    lift = await open_run_lift(pilot, run_row)
    app = pilot.app
    # the lift's keys painted in the footer (what a test reads there is then this tab's)
    await wait_for(
        pilot,
        lambda: footer_current(app) and "m Metrics" in screen_lines(app)[-1],
        5,
        "the lift's keys in the footer",
    )
    return lift


async def test_at_80x24_the_heatmap_shows_case_rows(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lift(pilot)
        await pilot.press("h")  # straight from the run list
        await wait_for(
            pilot, lambda: app.focused is app.workbench.query_one(Heatmap), 5, "the heatmap focused"
        )

        def case_rows() -> list[str]:
            return [line for line in screen_lines(app) if any(case in line for case in CASES)]

        await wait_for(pilot, lambda: len(case_rows()) >= 3, 5, "three case rows of the heatmap")


async def test_m_and_t_work_from_the_run_list(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_lift(pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: lift.section == "triage", 5, "the negative-lift list")
        app.workbench.query_one(RunPicker).focus()
        await pilot.press("m")
        await wait_for(pilot, lambda: lift.section == "metrics", 5, "the metrics")


async def test_b_is_in_the_footer_only_during_a_comparison(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_lift(pilot)
        assert "Back to run" not in screen_lines(app)[-1]
        app.workbench.query_one(RunPicker).focus()
        await pilot.press("space", "down", "c")  # mark one, compare with the other
        await wait_for(pilot, lambda: lift.comparison is not None, 15, "the comparison")
        await wait_for(
            pilot, lambda: "b Back to run" in screen_lines(app)[-1], 5, "b in the footer"
        )
        await pilot.press("b")
        await wait_for(pilot, lambda: lift.comparison is None, 5, "back to the run")
        # it was there a moment ago: its going is the change awaited
        await wait_for(
            pilot, lambda: "Back to run" not in screen_lines(app)[-1], 5, "b gone from the footer"
        )


async def test_an_empty_negative_lift_table_says_why(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_lift(pilot)
        assert lift.report.run_id != RUN_ID or lift.report.negative_cases
        none = lift.report.model_copy(update={"negative_cases": []})
        lift.show(none)  # a run the skill made no case worse in
        await pilot.press("t")
        await wait_for(
            pilot,
            lambda: "No case is worse with the skill" in screen_text(app),
            5,
            "the empty negative-lift table's reason",
        )
        assert app.workbench.query_one(NegativeList).current() is None
