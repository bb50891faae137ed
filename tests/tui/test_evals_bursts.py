"""Keys pressed faster than the Evals tab answers them act in the order they were pressed,
on what the author sees (issue 37: shift+↓ three times quickly moved another case and the
form then showed a case other than the highlighted row; typing `count-words` and saving at
speed wrote `count-word`). Keys go in with `burst`, all at once as a terminal delivers
fast typing, at 80x24."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import burst, make_app, screen_text, settle, wait_for
from widgets.case_form import CaseForm
from widgets.case_list import CaseList
from widgets.evals_pane import EvalsPane

SMALL = (80, 24)
FIRST = "monthly-revenue"  # the first case of csv-insights


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def pane(app) -> EvalsPane:
    return app.workbench.query_one(EvalsPane)


def on_disk(skill: Path) -> list[dict]:
    return json.loads((skill / "evals" / "evals.json").read_text())["evals"]


def highlighted_row(app) -> str:
    """The text of the case list's highlighted row, as drawn."""
    cases = app.workbench.query_one(CaseList)
    return str(cases.get_option_at_index(cases.highlighted).prompt)


async def open_evals(pilot) -> None:
    await settle(pilot)
    await pilot.press("3")
    await wait_for(pilot, lambda: bool(pilot.app.workbench.query(EvalsPane))
                   and pane(pilot.app).evalset is not None, 5, "the evals")
    await pilot.pause(0.2)


async def quiet(pilot) -> None:
    """Let every key of a burst and what it set off be handled."""
    await pilot.pause(0.3)
    await pilot.pause()


async def test_shift_down_three_times_then_d_moves_and_deletes_the_highlighted_case(skill):
    order = [c["id"] for c in on_disk(skill)]
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals(pilot)
        app.workbench.query_one(CaseList).focus()
        await pilot.pause()
        await burst(pilot, "shift+down", "shift+down", "shift+down")
        await quiet(pilot)
        moved = order[1:4] + [FIRST] + order[4:]
        assert [str(c.id) for c in pane(app).evalset.cases] == moved
        # The highlighted row and the form show the moved case.
        assert FIRST in highlighted_row(app)
        assert app.workbench.query_one(CaseForm).case.id == FIRST
        assert f"case '{FIRST}'" in screen_text(app)

        await burst(pilot, "shift+up", "shift+up", "d")
        await quiet(pilot)
        assert [str(c.id) for c in pane(app).evalset.cases] == order[1:]
        shown = app.workbench.query_one(CaseForm).case.id
        assert shown == pane(app).selected_case.id and str(shown) in highlighted_row(app)
        assert f"case '{shown}'" in screen_text(app)


@pytest.mark.parametrize("field", ["id", "prompt"])
async def test_typing_in_a_burst_then_ctrl_s_saves_every_character(skill, field):
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals(pilot)
        widget = app.workbench.query_one(f"#field-{field}")
        widget.focus()
        widget.select_all()
        await pilot.press("backspace")
        await burst(pilot, *"count-words", "ctrl+s")
        await wait_for(pilot, lambda: "Saved" in pane(app).status_text, 5, "the save")
        await quiet(pilot)
        assert on_disk(skill)[0][field] == "count-words"
        assert "● modified" not in screen_text(app)


async def test_typing_in_a_burst_then_ctrl_z_undoes_all_of_it(skill):
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals(pilot)
        before = str(pane(app).selected_case.prompt)
        prompt = app.workbench.query_one("#field-prompt")
        prompt.focus()
        await pilot.pause()
        await burst(pilot, *"Sum it: ", "ctrl+z")
        await quiet(pilot)
        assert pane(app).selected_case.prompt == before
        assert prompt.text == before  # the form shows the set, not a late keystroke
        assert not pane(app).dirty and "● modified" not in screen_text(app)
