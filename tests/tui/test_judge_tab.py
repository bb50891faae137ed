"""The Judge tab against the loopback model server: result, cache, staleness, errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.judge.answers import rubric_answer
from tests.llm_server import error, structured
from tests.tui.helpers import SIZE, make_app, settle, wait_for
from widgets.judge_pane import JudgePane


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")


def _pane(app) -> JudgePane:
    return app.screen.query_one(JudgePane)


async def test_judge_runs_shows_criteria_and_goes_stale(skill: Path, provider):
    provider.script(structured(rubric_answer({"workflow": 3}, default=8)))
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "openai · judge-model" in app.status_text
        await pilot.press("j")
        await wait_for(pilot, lambda: _pane(app).result is not None, 15, "the judge result")
        r = _pane(app).result
        assert len(r.criteria) == 9 and r.grade in "ABCDF"
        assert next(c for c in r.criteria if c.criterion == "workflow").score == 3
        assert len(provider.completions) == 1
        # The skill goes in as delimited data, never as instructions.
        assert "lab-units" in provider.completions[0].all_text()
        assert not _pane(app).stale

        md = skill / "SKILL.md"
        md.write_text(md.read_text() + "\nOne more line.\n")
        await wait_for(pilot, lambda: _pane(app).stale, 10, "the result to go stale")

        md.write_text(md.read_text().replace("\nOne more line.\n", ""))
        await wait_for(pilot, lambda: not _pane(app).stale, 10, "fresh again after the undo")
        # Judging the unchanged skill again is a cache hit: no new request.
        await pilot.press("j")
        await wait_for(pilot, lambda: _pane(app).result is not None and _pane(app).result.cached, 10,
                       "a cached result")
        assert len(provider.completions) == 1


async def test_provider_error_is_shown_in_the_tab(skill: Path, provider, monkeypatch):
    # One retry, set as an author would, not the default four: the error shows after the
    # last one either way, and the default's backoff (about 5 s of waiting) only made the
    # test slow.
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MAX_RETRIES", "1")
    provider.script(*[error(500, "upstream exploded")] * 3)
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await wait_for(pilot, lambda: "upstream exploded" in str(_pane(app)._body.render()) or
                       _pane(app)._status is not None and _pane(app)._status.style == "red", 60,
                       "the provider error in the tab")
        assert app.is_running and _pane(app).result is None
        assert len(provider.completions) == 2  # the first try and the one retry asked for


async def test_no_provider_says_what_to_set(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "no LLM provider" in app.status_text
        await pilot.press("j")
        await wait_for(pilot, lambda: _pane(app)._status is not None and "ANTHROPIC_API_KEY" in _pane(app)._status.plain,
                       10, "the what-to-set notice")
        assert app.is_running
