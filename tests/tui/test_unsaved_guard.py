"""Unsaved eval edits are never lost by a key: `q`, switching skill, and the file changing
on disk under the form each ask (save / discard / cancel; reload / keep mine / view the
difference)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from skillforge.screens.diff_view import DiffScreen
from skillforge.screens.unsaved import UnsavedChanges
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, open_evals_tab, settle, wait_for
from widgets.case_list import CaseList
from widgets.evals_bars import ConflictBar
from widgets.evals_pane import EvalsPane

EDIT = "Report revenue by month, please"


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def pane(app) -> EvalsPane:
    return app.workbench.query_one(EvalsPane)


async def edit_first_prompt(pilot) -> None:
    """Evals tab, type into the first case's prompt, then back to the case list."""
    await open_evals_tab(pilot)
    prompt = pilot.app.workbench.query_one("#field-prompt")
    prompt.focus()
    prompt.select_all()
    await pilot.press("backspace", *EDIT)
    await wait_for(pilot, lambda: pane(pilot.app).dirty, 5, "the edit")
    pilot.app.workbench.query_one(CaseList).focus()
    await pilot.pause()


def on_disk(skill: Path) -> str:
    return (skill / "evals" / "evals.json").read_text()


async def test_q_with_unsaved_edits_asks_and_cancel_keeps_them(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await edit_first_prompt(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("escape")
        await pilot.pause()
        assert app.return_code is None and pane(app).dirty
        assert EDIT not in on_disk(skill)


async def test_q_then_save_writes_the_edits_and_quits(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await edit_first_prompt(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("s")
        await wait_for(pilot, lambda: app.return_code is not None, 5, "the app to quit")
    assert EDIT in on_disk(skill)


async def test_q_then_discard_quits_without_writing(skill: Path):
    before = on_disk(skill)
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await edit_first_prompt(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("d")
        await wait_for(pilot, lambda: app.return_code is not None, 5, "the app to quit")
    assert on_disk(skill) == before


async def test_q_without_edits_quits_at_once(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None, 5, "the app to quit")


async def test_switching_skill_with_unsaved_edits_asks_first(tmp_path: Path):
    folder = tmp_path / "skills"
    for name in ("csv-insights", "lab-units"):
        shutil.copytree(SAMPLE_SKILLS / name, folder / name)
    app = make_app(folder, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.workbench.results) == 2, 20, "both skills")
        first = app.workbench.current
        await edit_first_prompt(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("escape")
        await pilot.pause()
        assert app.workbench.current == first and pane(app).dirty
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("s")
        await wait_for(pilot, lambda: app.workbench.current != first, 5, "the switch")
    assert EDIT in on_disk(first)


async def test_a_change_on_disk_under_edits_offers_reload_keep_or_the_difference(skill: Path):
    path = skill / "evals" / "evals.json"
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await edit_first_prompt(pilot)
        data = json.loads(path.read_text())
        data["evals"][1]["notes"] = "edited in another editor"
        path.write_text(json.dumps(data, indent=2) + "\n")
        bar = app.workbench.query_one(ConflictBar)
        diff = bar.query_one("#conflict-diff")
        # Shown and laid out: a click lands where the button is drawn, and a bar that has
        # just been shown has no place on the screen until the next refresh.
        await wait_for(pilot, lambda: bar.shown and diff.region.area > 0, 10, "the conflict bar")
        labels = {str(b.label) for b in bar.query("Button")}
        assert {"Reload from disk", "Keep mine", "View difference"} <= labels
        await pilot.click("#conflict-diff")
        await wait_for(pilot, lambda: isinstance(app.screen, DiffScreen), 5, "the difference")
        shown = str(app.screen.query_one("#diff-text").render())
        assert "edited in another editor" in shown and EDIT in shown
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click("#conflict-keep")
        await pilot.pause()
        assert not bar.shown and pane(app).dirty
        await pilot.press("ctrl+s")  # keeping mine: saving writes my version, on purpose
        await wait_for(pilot, lambda: not pane(app).dirty, 5, "the save")
    assert EDIT in path.read_text() and "edited in another editor" not in path.read_text()


async def test_q_pressed_again_while_asking_asks_once(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await edit_first_prompt(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedChanges), 5, "the question")
        await pilot.press("q")
        await pilot.pause()
        assert sum(isinstance(s, UnsavedChanges) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, UnsavedChanges) and app.return_code is None
