"""The Lift tab's Skill Mode view on a stored run with skill-mode rows (built from records):
k shows the rates, the efficiency table and the per-skill table at 80x24 and 120x40; v on a
skill harvests it into a folder next to the current skill and opens that folder."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import SAMPLE_SKILLS
from tests.lift.skillcraft_builders import RUN, chain, records
from tests.tui.helpers import (
    make_app,
    open_lift,
    press_handled,
    screen_lines,
    screen_text,
    settle,
    shown_in,
    wait_for,
)
from widgets.lift_view import LiftView
from widgets.run_picker import RunPicker
from widgets.skill_table import SkillTable


def build(root: Path, skill_dir: Path, with_skill_mode: bool = True) -> None:
    run = RunRecord(
        run_id=RUN,
        created_at=datetime(2026, 11, 25, tzinfo=UTC),
        skill_name="csv-insights",
        status="finished",
        spec=RunSpec(skill_path=str(skill_dir), conditions=["baseline"], attempts=1),
    )
    with RunStore(root / ".skillforge") as store:
        store.create_run(run)
        for t in records():
            if with_skill_mode or t.condition != "skill_mode":
                store.upsert_trial(t)
        if with_skill_mode:
            for row in chain():
                store.save_skill_mode_trial(row)


def workspace(
    tmp_path: Path, monkeypatch, *, folder: bool = False, with_skill_mode: bool = True
) -> Path:
    """The sample skill copied into tmp_path/skills/, the store in tmp_path/.skillforge."""
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    build(tmp_path, skill, with_skill_mode)
    return skill.parent if folder else skill


async def open_skill_mode(pilot) -> LiftView:
    app = pilot.app
    lift = await open_lift(pilot)
    await pilot.press("k")  # straight from the run list
    await wait_for(pilot, lambda: lift.section == "skill_mode", 5, "the Skill Mode view")
    await wait_for(
        pilot,
        lambda: app.focused is app.workbench.query_one(SkillTable),
        5,
        "the skill table focused",
    )
    table = app.workbench.query_one(SkillTable)
    await wait_for(
        pilot,
        lambda: "parse" in shown_in(app, table) and "fmt" in shown_in(app, table),
        5,
        "the skill table's rows drawn",
    )
    return lift


async def test_at_80x24_skill_mode_shows_the_rates_and_the_skill_table(tmp_path, monkeypatch):
    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_skill_mode(pilot)
        await wait_for(pilot, lambda: "Base 75% → Skill 75%" in screen_text(app), 5, "the rates")
        text = screen_text(app)
        assert "Base 75% → Skill 75% · Exec 50% (3/6) · Reuse 2.50/skill (5/2)" in text, text
        assert "parse" in text and "fmt" in text, text
        assert "c1, attempt 1" in text, text  # created by
        assert "v Harvest" in text  # the footer offers the harvest key
        # The efficiency table scrolls into view under the skill table.
        # Focus is handed over on the app's next turn, so the keys wait for it; then the body
        # is scrolled a line at a time until the table shows, as a person would (the Per case
        # table may still be laying out when the first keys arrive, which clamps the scroll).
        body = app.workbench.query_one("#sm-body")
        body.focus()
        await wait_for(pilot, lambda: app.focused is body, 5, "the body focused")
        for _ in range(12):
            if "tokens (in + out)" in screen_text(app):
                break
            await pilot.press("down")
        await wait_for(
            pilot,
            lambda: "tokens (in + out)" in screen_text(app),
            5,
            "the efficiency table scrolled into view",
        )
        text = screen_text(app)
        assert "tokens (in + out)" in text and "-25.0%" in text, text


async def test_at_120x40_skill_mode_shows_the_efficiency_table_too(tmp_path, monkeypatch):
    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_skill_mode(pilot)
        await wait_for(pilot, lambda: "Reuse rate: 2.50" in screen_text(app), 5, "the rates")
        text = screen_text(app)
        assert "Reuse rate: 2.50 invocations per saved skill" in text, text
        assert "c2, c3" in text  # parse reused in
        assert "both sides solved (c1, c2)" in text, text
        assert "-25.0%" in text, text  # tokens Diff
        assert "skill_mode vs baseline" in text  # the title: no with_skill in this run
        table = app.workbench.query_one(SkillTable)
        assert [r.name for r in table.skills] == ["fmt", "parse"]
        await pilot.press("down")
        await wait_for(
            pilot,
            lambda: "parse things" in screen_text(app),
            5,
            "the highlighted skill's description",
        )
        assert lift.report.extra.skillcraft.reuse_rate == 2.5


async def test_a_run_without_skill_mode_has_no_skill_mode_view(tmp_path, monkeypatch):
    app = make_app(workspace(tmp_path, monkeypatch, with_skill_mode=False), Settings())
    async with app.run_test(size=(100, 30)) as pilot:
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
        lift = app.workbench.query_one(LiftView)
        await wait_for(pilot, lambda: lift.report is not None, 20, "the run's lift")
        # the lift drawn with its keys, so the absence below is not that of a stale screen
        await wait_for(
            pilot,
            lambda: (
                "m Metrics" in screen_lines(app)[-1]
                and "Skill Lift: csv-insights" in screen_text(app)
            ),
            5,
            "the lift and its keys",
        )
        assert "Skill Mode" not in screen_text(app)
        await press_handled(pilot, "k")
        assert lift.section == "metrics"


async def test_v_harvests_the_skill_next_to_the_current_one_and_opens_it(tmp_path, monkeypatch):
    root = workspace(tmp_path, monkeypatch, folder=True)
    app = make_app(root, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_skill_mode(pilot)
        wb = app.workbench
        assert wb.current == (root / "csv-insights").resolve()
        await pilot.press("down", "v")  # parse
        target = (root / "parse").resolve()
        await wait_for(
            pilot, lambda: app.workbench.current == target, 30, "the harvested skill opened"
        )
        assert (target / "SKILL.md").is_file()
        assert any((target / "scripts").iterdir())
        assert (target / "evals" / "evals.json").is_file()
        assert "name: parse" in (target / "SKILL.md").read_text("utf-8")


async def test_v_on_a_single_skill_opens_the_harvested_folder_in_a_new_workbench(
    tmp_path, monkeypatch
):
    skill = workspace(tmp_path, monkeypatch)
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_skill_mode(pilot)
        await pilot.press("v")  # fmt, the first row
        target = (skill.parent / "fmt").resolve()
        await wait_for(
            pilot,
            lambda: app.workbench is not None and app.workbench.current == target,
            30,
            "a workbench on the folder",
        )
        assert (target / "SKILL.md").is_file()
        assert "name: fmt" in (target / "SKILL.md").read_text("utf-8")


async def test_v_never_overwrites_an_existing_folder(tmp_path, monkeypatch):
    skill = workspace(tmp_path, monkeypatch)
    taken = skill.parent / "fmt"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine", encoding="utf-8")
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_skill_mode(pilot)
        await pilot.press("v")

        def said() -> str:
            return " ".join(str(n.message) for n in app._notifications)

        await wait_for(pilot, lambda: "already exist" in said(), 30, "the refusal")
        assert sorted(p.name for p in taken.iterdir()) == ["notes.txt"]
        assert app.workbench.current == skill.resolve()
