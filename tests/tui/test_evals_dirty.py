"""The Evals tab's "● modified" says whether the document differs from the file on disk, after
every way of getting there: edits, a reload from disk, undo and redo of the reload, a save;
and `q` asks exactly when it says so (issue 37: undo after a reload brought the edits back as
"clean", and q quit without asking)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from skillforge.screens.unsaved import UnsavedChanges
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import make_app, open_evals_tab, screen_text, wait_for
from widgets.case_list import CaseList
from widgets.evals_bars import ConflictBar
from widgets.evals_pane import EvalsPane

SMALL = (80, 24)
MODIFIED = "● modified"


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def pane(app) -> EvalsPane:
    return app.workbench.query_one(EvalsPane)


def ids(app) -> list[str]:
    return [str(c.id) for c in pane(app).evalset.cases]


async def open_case_list(pilot) -> None:
    await open_evals_tab(pilot)
    pilot.app.workbench.query_one(CaseList).focus()
    await pilot.pause()


async def asks_on_q(pilot) -> bool:
    """Press q: True when it asks (the question is then cancelled), False when it quits."""
    app = pilot.app
    app.workbench.query_one(CaseList).focus()  # q in a field is a letter
    await pilot.pause()
    await pilot.press("q")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, UnsavedChanges) or app.return_code is not None,
        5,
        "q to ask or quit",
    )
    if app.return_code is not None:
        return False
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, UnsavedChanges), 5, "cancel")
    return True


async def test_undoing_a_reload_brings_the_edits_back_as_modified_and_q_asks(skill: Path):
    path = skill / "evals" / "evals.json"
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_case_list(pilot)
        deleted = ids(app)[0]
        await pilot.press("d")
        await wait_for(pilot, lambda: MODIFIED in screen_text(app), 5, "● modified")

        # Another editor changes the file; the tab offers to reload it.
        data = json.loads(path.read_text())
        data["evals"][1]["notes"] = "edited in another editor"
        path.write_text(json.dumps(data, indent=2) + "\n")
        bar = app.workbench.query_one(ConflictBar)
        reload = bar.query_one("#conflict-reload")
        await wait_for(pilot, lambda: bar.shown and reload.region.area > 0, 10, "the bar")
        await pilot.click("#conflict-reload")
        await wait_for(pilot, lambda: deleted in ids(app), 5, "the reload")
        await pilot.pause()
        assert MODIFIED not in screen_text(app) and not pane(app).dirty

        # ctrl+z: my edits (the case deleted) are back, and they are not on disk.
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: deleted not in ids(app), 5, "the undo")
        await pilot.pause()
        assert MODIFIED in screen_text(app), screen_text(app)
        assert await asks_on_q(pilot)

        # ctrl+y: the file as on disk again, clean; q would quit.
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: deleted in ids(app), 5, "the redo")
        await pilot.pause()
        assert MODIFIED not in screen_text(app) and not pane(app).dirty

        # Undo again and save: clean; redoing the reload after the save differs from the
        # disk again.
        await pilot.press("ctrl+z", "ctrl+s")
        await wait_for(pilot, lambda: deleted not in path.read_text(), 5, "the save")
        await pilot.pause()
        assert MODIFIED not in screen_text(app) and not pane(app).dirty
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: deleted in ids(app), 5, "the redo after saving")
        await pilot.pause()
        assert MODIFIED in screen_text(app)
        assert await asks_on_q(pilot)


async def test_typing_a_field_back_to_what_is_on_disk_is_not_modified(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SMALL) as pilot:
        await open_case_list(pilot)
        field = app.workbench.query_one("#field-notes")
        field.focus()
        await pilot.press("end", "x")
        await wait_for(pilot, lambda: MODIFIED in screen_text(app), 5, "● modified")
        await pilot.press("backspace")
        await wait_for(pilot, lambda: MODIFIED not in screen_text(app), 5, "clean again")
        assert not await asks_on_q(pilot)
