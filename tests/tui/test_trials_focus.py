"""After a run fails to start (Docker unreachable), the Trials tab keeps the focus and its
keys: ctrl+r starts again at once and the footer lists the tab's keys (issue 37: focus left
the panel, the footer shrank to `q Quit f1 Help` and ctrl+r did nothing until a click)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import Recorder, make_app, screen_lines, settle, wait_for
from widgets.trial_config_form import StartRequested, TrialConfigForm, TrialsPanel


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    """One skill, a provider that is configured but never called, and no Docker daemon."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "test-model")
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    return tmp_path


def footer(app) -> str:
    return screen_lines(app)[-1]


async def test_after_a_failed_start_ctrl_r_starts_again_and_the_footer_keeps_the_keys(
    workspace: Path,
):
    rec = Recorder()
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(80, 24), message_hook=rec) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(pilot, lambda: bool(app.workbench.query(TrialConfigForm)), 5, "the form")
        form = app.workbench.query_one(TrialConfigForm)
        panel = app.workbench.query_one(TrialsPanel)
        await wait_for(pilot, lambda: "Start run" in footer(app), 5, "Start run in the footer")

        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: bool(form.problem_text), 30, "the failure under the form")
        await wait_for(pilot, lambda: not form.running, 5, "the form to stop running")
        # the footer is drawn a refresh after the focus settles: wait for both
        await wait_for(
            pilot,
            lambda: (
                app.focused is not None
                and panel in app.focused.ancestors_with_self
                and "Start run" in footer(app)
            ),
            5,
            "the focus in the panel and Start run in the footer",
        )
        assert "Docker" in form.problem_text or "docker" in form.problem_text, form.problem_text
        assert app.focused is not None and panel in app.focused.ancestors_with_self
        assert "Start run" in footer(app), footer(app)

        started = len(rec.of(StartRequested))
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(rec.of(StartRequested)) > started, 5, "a second start")
