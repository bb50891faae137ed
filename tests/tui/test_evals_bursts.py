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
from tests.tui.helpers import burst, make_app, open_evals_tab, screen_text, wait_for
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


def ids(app) -> list[str]:
    return [str(c.id) for c in pane(app).evalset.cases]


def shows_selected(app) -> bool:
    """The form, the highlighted row and the screen all show the selected case."""
    selected, form = pane(app).selected_case, app.workbench.query_one(CaseForm).case
    if selected is None or form is None or app.workbench.query_one(CaseList).highlighted is None:
        return False  # mid-move: the form or the highlight is being rebuilt
    shown = selected.id
    return (
        form.id == shown
        and str(shown) in highlighted_row(app)
        and f"case '{shown}'" in screen_text(app)
    )


async def test_shift_down_three_times_then_d_moves_and_deletes_the_highlighted_case(skill):
    order = [c["id"] for c in on_disk(skill)]
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals_tab(pilot)
        app.workbench.query_one(CaseList).focus()
        await pilot.pause()
        await burst(pilot, "shift+down", "shift+down", "shift+down")
        moved = order[1:4] + [FIRST] + order[4:]
        await wait_for(
            pilot,
            lambda: ids(app) == moved and shows_selected(app),
            5,
            "the case moved three rows down, and shown",
        )
        assert ids(app) == moved
        # The highlighted row and the form show the moved case.
        assert FIRST in highlighted_row(app)
        assert app.workbench.query_one(CaseForm).case.id == FIRST
        assert f"case '{FIRST}'" in screen_text(app)

        await burst(pilot, "shift+up", "shift+up", "d")
        await wait_for(
            pilot,
            lambda: ids(app) == order[1:] and shows_selected(app),
            5,
            "the case moved back to the top and deleted, and its neighbour shown",
        )
        assert ids(app) == order[1:]
        shown = app.workbench.query_one(CaseForm).case.id
        assert shown == pane(app).selected_case.id and str(shown) in highlighted_row(app)
        assert f"case '{shown}'" in screen_text(app)


@pytest.mark.parametrize("field", ["id", "prompt"])
async def test_typing_in_a_burst_then_ctrl_s_saves_every_character(skill, field):
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals_tab(pilot)
        widget = app.workbench.query_one(f"#field-{field}")
        widget.focus()
        widget.select_all()
        await pilot.press("backspace")
        await burst(pilot, *"count-words", "ctrl+s")
        await wait_for(pilot, lambda: "Saved" in pane(app).status_text, 5, "the save")
        # the screen drawn since the save, so that the marker's absence below is not stale
        await wait_for(pilot, lambda: "Saved" in screen_text(app), 5, "the save drawn")
        assert on_disk(skill)[0][field] == "count-words"
        assert "● modified" not in screen_text(app)


async def test_typing_in_a_burst_then_ctrl_z_undoes_all_of_it(skill):
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_evals_tab(pilot)
        before = str(pane(app).selected_case.prompt)
        prompt = app.workbench.query_one("#field-prompt")
        prompt.focus()
        await pilot.pause()
        await burst(pilot, *"Sum it: ", "ctrl+z")
        # proof the burst reached ctrl+z and it undid the typing (else the checks below,
        # the prompt as before, would hold with no key handled at all)
        await wait_for(pilot, lambda: "Undone." in pane(app).status_text, 5, "the undo")
        await wait_for(pilot, lambda: "Undone." in screen_text(app), 5, "the undo drawn")
        assert pane(app).selected_case.prompt == before
        assert prompt.text == before  # the form shows the set, not a late keystroke
        assert not pane(app).dirty and "● modified" not in screen_text(app)
