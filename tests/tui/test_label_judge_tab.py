"""Labels entered by keys in the Judge tab: stored in the run store, shown after a restart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.judge.answers import rubric_answer
from tests.llm_server import structured
from tests.tui.helpers import SIZE, make_app, screen_text, settle, wait_for
from widgets.judge_pane import JudgePane
from widgets.label_prompt import LabelPrompt


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the run store goes to ./.skillforge
    return shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")


def _pane(app) -> JudgePane:
    return app.screen.query_one(JudgePane)


async def _judged(pilot) -> JudgePane:
    app = pilot.app
    await settle(pilot)
    await pilot.press("j")
    await wait_for(pilot, lambda: _pane(app).result is not None, 15, "the judge result")
    pane = _pane(app)
    pane.focus()
    await pilot.pause()
    return pane


async def test_accept_and_override_by_keys_persist_across_a_restart(skill, provider, tmp_path):
    provider.handler = lambda req: structured(rubric_answer({"scope": 9, "clarity": 4},
                                                            default=7))
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        pane = await _judged(pilot)
        assert "0 of 9 judgments labelled" in screen_text(app)
        await pilot.press("a")  # trigger: the judge's 7 is right
        await wait_for(pilot, lambda: "trigger" in pane.labels, 5, "the accepted label")
        await pilot.press("down", "o")  # scope: the judge's 9 is too generous
        await wait_for(pilot, lambda: isinstance(app.screen, LabelPrompt), 5, "the prompt")
        await pilot.press(*"eleven")
        await pilot.press("enter")
        await pilot.pause()
        assert "is scored 0-10" in screen_text(app) or "not a score" in screen_text(app)
        await pilot.press(*["backspace"] * 6, *"5 no out-of-scope section")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "scope" in pane.labels, 5, "the overridden label")
        assert "2 of 9 judgments labelled" in screen_text(app)

    with RunStore(tmp_path / ".skillforge") as store:
        labels = {lb.metric: lb for lb in store.labels(kind="rubric")}
    assert set(labels) == {"trigger", "scope"}
    assert labels["trigger"].accepted and labels["trigger"].author_value == 7
    assert labels["scope"].author_value == 5 and labels["scope"].judge_value == 9
    assert labels["scope"].reason == "no out-of-scope section"
    assert labels["scope"].judge_model == "judge-model"
    assert labels["scope"].prompt_version  # the rubric version the judge answered under

    requests = len(provider.requests)
    restarted = make_app(skill, Settings())
    async with restarted.run_test(size=SIZE) as pilot:
        pane = await _judged(pilot)  # the same content: a cache hit meets its old labels
        assert len(provider.requests) == requests
        await wait_for(pilot, lambda: set(pane.labels) == {"trigger", "scope"}, 5,
                       "the labels after a restart")
        text = screen_text(restarted)
        assert "2 of 9 judgments labelled" in text
        assert "5*" in text  # the override is marked as differing from the judge
