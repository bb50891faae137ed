"""Issue 37, item 8: the workbench at 80x24 (the README says every tab fits) and at 120x40,
read off the screen: the run lists show runs (and the one under the cursor), the sidebar a
failing skill's name, every footer `q` and `f1`, Compare's two trajectories start on the
same row, and Lift's stakeholder dimensions and Skill Mode table are whole."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.skill_mode import SkillModeTrial
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.report import facts as F
from tests.conftest import FIXTURES, SAMPLE_SKILLS
from tests.lift.skillcraft_builders import RUN as SM_RUN
from tests.lift.skillcraft_builders import chain, records
from tests.tui.helpers import (
    make_app,
    open_lift,
    screen_lines,
    screen_text,
    settle,
    show_tab,
    wait_for,
)
from tests.tui.test_compare_tab import open_worst_case
from tests.tui.test_failed_trials import RUN as FAILED_RUN
from tests.tui.test_failed_trials import SETUP, store_with_errors
from tests.tui.test_run_lists import add_run
from tests.widgets.lift_fixture import build_store
from widgets.key_footer import KeyFooter
from widgets.run_picker import RunPicker
from widgets.runs_list import RunsList
from widgets.skill_table import SkillTable

pytestmark = pytest.mark.timeout(120)
SMALL, LARGE = (80, 24), (120, 40)
RUN_ID = re.compile(r"20261201T\d{6}-\w{6}")


def runs_on_screen(app) -> list[str]:
    return RUN_ID.findall(screen_text(app))


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


async def test_at_80x24_the_trials_runs_box_shows_runs_and_why_the_chosen_one_failed(
    skill: Path, tmp_path: Path
):
    """Ten runs, the oldest with failed trials: with the list focused and the cursor on
    that run, its row, three more and its failure reason are all on screen."""
    state = tmp_path / ".skillforge"
    store_with_errors(state)  # 09:00, the oldest
    for i in range(1, 10):
        add_run(state, f"20261201T09{i:02d}00-csv{i:03d}", "csv-insights", i)
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunsList))
                and app.workbench.query_one(RunsList).row_count == 10
            ),
            10,
            "the runs",
        )
        app.workbench.query_one(RunsList).focus()
        await pilot.press(*["down"] * 9)
        await wait_for(
            pilot,
            lambda: (
                FAILED_RUN in runs_on_screen(app)
                and f"Run {FAILED_RUN}: 2 trial(s) failed" in screen_text(app)
            ),
            5,
            "the oldest run and why it failed, on screen",
        )
        shown = runs_on_screen(app)
        assert FAILED_RUN in shown, screen_text(app)
        assert len(set(shown)) >= 4, screen_text(app)
        said = screen_text(app)  # the reason, wrapped at 80 columns
        assert f"Run {FAILED_RUN}: 2 trial(s) failed" in said, said
        assert SETUP.split("'lab/none:1' ")[1] in said, said


async def test_at_80x24_lift_shows_three_runs_and_the_one_under_the_cursor(
    skill: Path, tmp_path: Path
):
    for i in range(12):
        add_run(tmp_path / ".skillforge", f"20261201T09{i:02d}00-csv{i:03d}", "csv-insights", i)
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(RunPicker))
                and len(app.workbench.query_one(RunPicker).runs) == 12
            ),
            10,
            "the runs",
        )
        await wait_for(pilot, lambda: len(set(runs_on_screen(app))) >= 3, 5, "three runs drawn")
        app.workbench.query_one(RunPicker).focus()
        await pilot.press(*["down"] * 10)
        await wait_for(
            pilot,
            lambda: "20261201T090100-csv001" in runs_on_screen(app),
            5,
            "the list scrolled to the run under the cursor",
        )
        shown = runs_on_screen(app)
        assert "20261201T090100-csv001" in shown and len(set(shown)) >= 3, screen_text(app)


async def test_at_80x24_the_sidebar_shows_a_failing_skills_name(tmp_path: Path):
    folder = tmp_path / "skills"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", folder / "csv-insights")
    shutil.copytree(FIXTURES / "tui" / "report-writer", folder / "report-writer")
    app = make_app(folder, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: len(app.workbench.results) == 2, 20, "both skills")
        await settle(pilot)
        failing = next(r for r in app.workbench.results.values() if not r.report.passed_gate)
        name = failing.skill.display_name

        def sidebar_text() -> str:
            return " ".join(line[:24] for line in screen_lines(app))

        shown = name if len(name) <= 12 else name[:12]
        await wait_for(
            pilot,
            lambda: shown in sidebar_text() and "FAIL" in sidebar_text(),
            5,
            "the failing skill's row drawn",
        )
        sidebar = sidebar_text()
        assert shown in sidebar, sidebar
        assert "FAIL" in sidebar, sidebar


@pytest.mark.parametrize("key", list("123456"))
async def test_at_80x24_every_footer_keeps_quit_and_help(skill: Path, key: str):
    build_store(skill.parent / ".skillforge").close()  # Lift with a run: its keys too
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await show_tab(pilot, key)
        bar = app.workbench.query_one(KeyFooter).text
        assert " q Quit " in bar and " f1 Help " in bar, bar


async def test_at_80x24_compares_two_trajectories_start_on_the_same_row(skill: Path):
    build_store(skill.parent / ".skillforge").close()
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        view = await open_worst_case(pilot)
        # The baseline's attempt says why its trajectory is partial: its head wraps.
        view.attempt("baseline").problem = "the trajectory was cut at step 12 (disk full)"
        view._refresh_view()
        # the wrapped head drawn, so that the rows compared below are those of the new layout
        await wait_for(pilot, lambda: "disk full" in screen_text(app), 5, "the wrapped head")
        heads = [view.query_one(f"#head-{s}") for s in ("with_skill", "baseline")]
        sides = [view.viewer(s) for s in ("with_skill", "baseline")]
        assert sides[0].region.y == sides[1].region.y, [s.region for s in sides]
        assert heads[0].region.y == heads[1].region.y


async def test_at_120x40_lifts_stakeholder_dimensions_scroll_into_view_whole(skill: Path):
    build_store(skill.parent / ".skillforge").close()
    app = make_app(skill, Settings())
    async with app.run_test(size=LARGE) as pilot:
        lift = await open_lift(pilot)
        rows = F.dimension_rows(lift.report)
        app.workbench.query_one("#lift-metrics-body").focus()

        def whole() -> bool:
            lines = screen_lines(app)
            return all(
                any(name in line and F.signed(value) in line for line in lines)
                for name, value, _m in rows
            )

        body = app.workbench.query_one("#lift-metrics-body")
        for _ in range(40):
            if whole():
                break
            before = screen_text(app)
            await pilot.press("down")
            # the scroll drawn before the next look (or the end reached: nothing more to draw)
            await wait_for(
                pilot,
                lambda: screen_text(app) != before or body.scroll_y >= body.max_scroll_y,
                5,
                "the scroll drawn",
            )
        await wait_for(pilot, whole, 5, "every stakeholder row whole on screen")
        at = next(i for i, line in enumerate(screen_lines(app)) if "Stakeholder" in line)
        table = screen_lines(app)[at : at + len(rows) + 6]
        assert not any("…" in line for line in table), "\n".join(table)


def renamed(model, names: dict[str, str]):
    """`model` with the case ids c1..c4 replaced by real-looking ones."""
    text = model.model_dump_json()
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return type(model).model_validate_json(text)


async def test_at_120x40_the_skill_mode_table_shows_every_column(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    names = {
        "c1": "monthly-revenue-by-region",
        "c2": "missing-values-report",
        "c3": "order-stats-per-quarter",
        "c4": "top-region-summary",
    }
    run = RunRecord(
        run_id=SM_RUN,
        created_at=datetime(2026, 11, 25, tzinfo=UTC),
        skill_name="csv-insights",
        status="finished",
        spec=RunSpec(skill_path=str(skill), conditions=["baseline"], attempts=1),
    )
    with RunStore(tmp_path / ".skillforge") as store:
        store.create_run(run)
        for t in records():
            store.upsert_trial(renamed(t, names))
        for row in chain():
            store.save_skill_mode_trial(renamed(row, names))
    assert isinstance(renamed(chain()[0], names), SkillModeTrial)
    assert isinstance(renamed(records()[0], names), TrialRecord)
    app = make_app(skill, Settings())
    async with app.run_test(size=LARGE) as pilot:
        lift = await open_lift(pilot)
        await pilot.press("k")
        await wait_for(pilot, lambda: lift.section == "skill_mode", 5, "the Skill Mode view")
        table = app.workbench.query_one(SkillTable)

        def in_table() -> str:
            r = table.region
            return "\n".join(line[r.x : r.right] for line in screen_lines(app)[r.y : r.bottom])

        await wait_for(
            pilot,
            lambda: "parse" in in_table() and "fmt" in in_table(),
            5,
            "the skill table's rows drawn",
        )
        shown = in_table()
        for head in ("skill", "created by", "reused in", "runs", "exec rate", "failures", "inh."):
            assert head in shown, shown
        assert "parse" in shown and "fmt" in shown, shown
        assert table.scroll_x == 0 and table.max_scroll_x == 0, shown
