"""Issue 37, item 9: the workbench's smaller rough edges, each pressed as a person would."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.judge.answers import rubric_answer
from tests.llm_server import structured
from tests.tui.helpers import SIZE, make_app, screen_text, settle, wait_for
from widgets.key_footer import KeyFooter


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")


def footer(app) -> str:
    return app.screen.query_one(KeyFooter).text


async def test_x_shows_while_judging_and_hangs_up_on_the_server(skill: Path, provider):
    provider.llama_cpp = True
    provider.handler = lambda req: structured(rubric_answer(), delay=30)
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("j")
        # llama.cpp refuses a json_schema answer (HTTP 500) at once: the second request,
        # asking for a JSON object, is the one the model computes.
        await wait_for(pilot, lambda: len(provider.completions) == 2, 10, "the judge request")
        await wait_for(pilot, lambda: "x Cancel judge" in footer(app), 5, "x in the footer")
        await pilot.press("x")
        # The server was told: the connection closed, so a local model stops computing.
        assert await asyncio.to_thread(provider.completions[-1].disconnected.wait, 3.0)
        await wait_for(pilot, lambda: "judge cancelled" in screen_text(app), 5, "the notice")
        assert "x Cancel judge" not in footer(app)


async def test_the_last_judgment_shows_after_a_restart_without_a_request(skill: Path, provider):
    provider.script(structured(rubric_answer({"workflow": 3}, default=8)))
    async with make_app(skill, Settings()).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await wait_for(pilot, lambda: "judge score" in screen_text(pilot.app), 15, "a verdict")
    # A new workbench on the unchanged skill: the Judge tab shows that verdict at once.
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: "judge score" in screen_text(app), 5, "the last verdict")
        assert "(from cache)" in screen_text(app) and "STALE" not in screen_text(app)
    assert len(provider.completions) == 1


async def test_the_lint_footer_shows_the_fix_keys_and_ctrl_z_after_a_fix(tmp_path: Path):
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    md = skill / "SKILL.md"  # an unknown key (SF112), which F moves under metadata:
    md.write_text(
        md.read_text("utf-8").replace("license: MIT\n", "license: MIT\ncategory: data\n", 1)
    )
    app = make_app(skill)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert " f Fix " in footer(app) and " F Fix all " in footer(app)
        assert "Undo fix" not in footer(app)  # nothing to undo yet
        await pilot.press("F")
        await wait_for(pilot, lambda: "^z Undo fix" in footer(app), 5, "ctrl+z in the footer")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "Undo fix" not in footer(app), 5, "nothing left to undo")


async def test_the_evals_footer_shows_ctrl_n_and_ctrl_k(skill: Path):
    app = make_app(skill)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: "^s Save" in footer(app), 5, "the Evals tab's keys")
        assert "^n New case" in footer(app) and "^k Triggers" in footer(app)


async def test_the_palette_offers_triggers_evals_undo_redo_and_one_theme_entry(skill: Path):
    from tests.tui.test_palette import palette_rows, search

    app = make_app(skill)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        rows = await search(pilot, "theme", "theme")
        assert len([r for r in rows if "theme" in r.lower()]) == 1, rows
        await pilot.press("escape")
        await search(pilot, "triggers", "Triggers: trigger queries")
        await pilot.press("escape")
        await pilot.press("3")
        await wait_for(pilot, lambda: "^s Save" in footer(app), 5, "the Evals tab")
        await search(pilot, "evals: undo", "Evals: undo")
        await pilot.press("escape")
        await search(pilot, "evals: redo", "Evals: redo")
        assert any("Evals: redo" in r for r in palette_rows(app))


async def test_the_palette_offers_parts_agreement_on_an_ablation_run(tmp_path: Path, monkeypatch):
    from tests.tui.helpers import open_lift
    from tests.tui.test_palette import search
    from tests.tui.test_parts_view import workspace

    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_lift(pilot)
        await search(pilot, "agreement", "Lift: judge agreement")
        await pilot.press("escape")
        await search(pilot, "lift: parts", "Lift: Parts")
        await pilot.press("enter")
        await wait_for(pilot, lambda: lift.section == "parts", 5, "the Parts view")


async def test_the_palette_offers_skill_mode_on_a_skill_mode_run(tmp_path: Path, monkeypatch):
    from tests.tui.helpers import open_lift
    from tests.tui.test_palette import search
    from tests.tui.test_skill_mode_view import workspace

    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        lift = await open_lift(pilot)
        await search(pilot, "skill mode", "Lift: Skill Mode")
        await pilot.press("enter")
        await wait_for(pilot, lambda: lift.section == "skill_mode", 5, "the Skill Mode view")


async def test_the_trials_case_list_follows_a_case_saved_in_the_evals_tab(tmp_path: Path):
    from textual.widgets import SelectionList

    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")  # the Trials tab, filled with today's cases
        await wait_for(pilot, lambda: app.screen.query("#cases"), 5, "the run form")
        await pilot.press("3")
        await wait_for(pilot, lambda: app.screen.query("#field-id"), 5, "the Evals tab")
        field = app.screen.query_one("#field-id")
        field.focus()
        await pilot.pause()
        field.value = ""
        await pilot.press(*"renamed-case")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: '"renamed-case"' in (skill / "evals" / "evals.json").read_text(),
            5,
            "the save",
        )
        await pilot.press("escape")
        app.screen.set_focus(None)
        await pilot.press("4")
        cases = app.screen.query_one("#cases", SelectionList)
        await wait_for(
            pilot,
            lambda: "renamed-case" in screen_text(app),
            5,
            f"the renamed case in the run form: {cases._options}",
        )


async def test_the_evals_form_sets_and_unsets_should_trigger(tmp_path: Path):
    import json

    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    path = skill / "evals" / "evals.json"
    app = make_app(skill, Settings())

    def first_case() -> dict:
        return json.loads(path.read_text())["evals"][0]

    async def choose(*keys: str) -> None:
        app.screen.query_one("#field-should_trigger").focus()
        await pilot.pause()
        await pilot.press("enter", *keys, "enter")  # open the choices, pick one
        await pilot.pause()
        await pilot.press("ctrl+s")

    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: app.screen.query("#field-should_trigger"), 5, "the field")
        assert "should_trigger" in screen_text(app) and "should_trigger" not in first_case()
        await choose("down", "down")  # (not set) → true → false
        await wait_for(pilot, lambda: first_case().get("should_trigger") is False, 5, "false")
        await choose("up")
        await wait_for(pilot, lambda: first_case().get("should_trigger") is True, 5, "true")
        await choose("up")
        await wait_for(pilot, lambda: "should_trigger" not in first_case(), 5, "unset again")


async def test_compare_m_offers_only_the_metrics_a_judge_scored(tmp_path: Path, monkeypatch):
    from tests.tui.test_compare_tab import open_worst_case
    from tests.widgets.lift_fixture import build_store
    from widgets.heatmap import SHORT

    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge").close()
    # No judge scored behavior_check on this run: m must not offer it.
    import sqlite3

    with sqlite3.connect(tmp_path / ".skillforge" / "skillforge.db") as db:
        db.execute("UPDATE trial_metrics SET judge_model = NULL WHERE metric = 'behavior_check'")
    app = make_app(tmp_path / "csv-insights", Settings())
    async with app.run_test(size=(140, 44)) as pilot:
        view = await open_worst_case(pilot)
        await wait_for(pilot, lambda: view.progress[1] > 0, 10, "the judgments")
        await wait_for(pilot, lambda: "you: " in screen_text(app), 5, "the judgments drawn")
        you = next(line for line in screen_text(app).splitlines() if "you: " in line)
        picked = []
        for _ in range(5):
            picked.append(view.label_metric)
            await pilot.press("m")
        # Every metric m lands on is one the screen shows a judgment of.
        assert all(f"{SHORT.get(m, m)} " in you for m in picked), (picked, you)
