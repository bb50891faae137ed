"""The case form and the trial form draw their border in the accent colour while the focus
is inside them, and in the panel colour otherwise, following the theme: read off the screen
as the keys move the focus."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.color import Color

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, settle, wait_for
from widgets.case_form import CaseForm
from widgets.evals_pane import EvalsPane
from widgets.trial_config_form import TrialConfigForm


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def border_color(app, widget) -> Color:
    """The colour the widget's left border is painted in, on its first row on screen (the
    pane scrolls to show what has the focus, so the form's top may be above the view)."""
    visible = app.screen.find_widget(widget).visible_region
    return Color.from_rich_color(app.screen.get_style_at(visible.x, visible.y).color)


def theme_color(app, name: str) -> Color:
    return Color.parse(app.theme_variables[name])


def focus_inside(app, widget) -> bool:
    return widget.has_focus_within


async def tab_until(pilot, condition, key: str = "tab", most: int = 30) -> None:
    for _ in range(most):
        if condition():
            return
        await pilot.press(key)
    raise AssertionError(f"{key} {most} times never got there")


async def border_is(pilot, widget, name: str) -> None:
    """Wait for the screen to paint `widget`'s border in the theme's colour `name` (the
    paint follows a focus move or a theme change by a frame or more, later under load)."""
    app = pilot.app
    await wait_for(
        pilot,
        lambda: border_color(app, widget) == theme_color(app, name),
        5,
        f"the border painted in {name}",
    )


@pytest.mark.parametrize(
    "key, kind", [("3", CaseForm), ("4", TrialConfigForm)], ids=["case-form", "trial-form"]
)
async def test_the_border_follows_the_focus_and_the_theme(skill: Path, key: str, kind: type):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: bool(app.workbench.query(kind)), 5, "the form")
        if kind is CaseForm:
            await wait_for(
                pilot,
                lambda: app.workbench.query_one(EvalsPane).evalset is not None,
                5,
                "the evals",
            )
        form = app.workbench.query_one(kind)
        await tab_until(pilot, lambda: not focus_inside(app, form))
        await border_is(pilot, form, "panel")

        await tab_until(pilot, lambda: focus_inside(app, form))
        await border_is(pilot, form, "accent")
        accent = theme_color(app, "accent")

        inside = app.focused
        await pilot.press("tab")  # to the next field, or out of the form
        want = "accent" if focus_inside(app, form) else "panel"
        assert app.focused is not inside
        await border_is(pilot, form, want)

        await tab_until(pilot, lambda: focus_inside(app, form))
        app.theme = "nord"  # as the palette's theme picker does (dark and light share an accent)
        await wait_for(pilot, lambda: theme_color(app, "accent") != accent, 5, "the new theme")
        await border_is(pilot, form, "accent")

        await tab_until(pilot, lambda: not focus_inside(app, form), "shift+tab")
        await border_is(pilot, form, "panel")
