"""Labels entered by keys in Compare: y confirms, m picks the metric, o corrects; stored in
the run store and shown again by a new app on the same state dir."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import make_app, screen_text, wait_for
from tests.tui.test_compare_tab import open_worst_case
from tests.widgets.lift_fixture import JUDGE, WORST, build_store
from widgets.label_prompt import LabelPrompt


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge").close()
    return tmp_path


async def test_confirm_and_correct_by_keys_persist_across_a_restart(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(140, 44)) as pilot:
        view = await open_worst_case(pilot)
        await wait_for(pilot, lambda: view.progress[1] > 0, 10, "the judgments")
        assert view.progress == (0, 192)
        await wait_for(
            pilot, lambda: "0 of 192 judgments labelled" in screen_text(app), 5, "the count drawn"
        )
        shown = view.attempt("with_skill")
        await pilot.press("y")  # accuracy of the with-skill attempt: the judge is right
        await wait_for(pilot, lambda: view.progress[0] == 1, 5, "the confirmed label")
        await pilot.press("m", "o")  # goal_accuracy: corrected
        await wait_for(pilot, lambda: isinstance(app.screen, LabelPrompt), 5, "the prompt")
        await pilot.press(*"partial the pivot table is half there")
        await pilot.press("enter")
        await wait_for(pilot, lambda: view.progress[0] == 2, 5, "the corrected label")
        await wait_for(
            pilot,
            lambda: "2 of 192 judgments labelled" in screen_text(app),
            5,
            "the new count drawn",
        )
        assert "goal not→partial" in screen_text(app)

    with RunStore(workspace / ".skillforge") as store:
        labels = {lb.metric: lb for lb in store.labels(kind="trial")}
    assert set(labels) == {"accuracy", "goal_accuracy"}
    acc, goal = labels["accuracy"], labels["goal_accuracy"]
    assert (acc.case_id, acc.condition, acc.attempt) == (WORST, "with_skill", shown.trial.attempt)
    assert acc.accepted and acc.author_value == shown.trial.metrics["accuracy"]
    assert acc.judge_model == JUDGE and acc.prompt_version == "trial-v1"
    assert goal.author_value == 0.5 and goal.judge_value == 0.0
    assert goal.reason == "the pivot table is half there" and goal.source == "compare"

    restarted = make_app(workspace / "csv-insights", Settings())
    async with restarted.run_test(size=(140, 44)) as pilot:
        view = await open_worst_case(pilot)
        await wait_for(pilot, lambda: view.progress == (2, 192), 10, "the labels again")
        await wait_for(
            pilot,
            lambda: "goal not→partial" in screen_text(restarted),
            5,
            "the stored correction drawn",
        )
