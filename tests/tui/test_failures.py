"""Failures a person can act on are named for what to fix (configuration, environment,
provider, model output, skill content) and leave the tab usable; only an exception
skillforge did not expect is "a bug", with the log that holds its traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from skillforge.screens.failures import classify
from tests.conftest import SAMPLE_SKILLS
from tests.llm_server import structured
from tests.tui.helpers import SIZE, make_app, open_run_list, settle, wait_for
from tests.widgets.lift_fixture import build_store
from widgets.evals_pane import EvalsPane
from widgets.lift_view import LiftView


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def errors(app) -> list:
    return [n for n in app._notifications if n.severity == "error"]


async def test_a_drafted_answer_that_does_not_validate_is_model_output_not_a_bug(
        skill: Path, monkeypatch, llm_server):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "tiny-model")
    llm_server.script(structured({"cases": "not a list"}), structured({"cases": 3}))
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: bool(app.workbench.query(EvalsPane)), 5, "the Evals tab")
        pane = app.workbench.query_one(EvalsPane)
        pane.query_one("#evals-cases").focus()
        await pilot.press("ctrl+g")  # the draft bar, its count field focused
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(errors(app)), 20,
                       f"the failure (status: {pane.status_text})")
        note = errors(app)[-1]
        assert note.title == "Model output"
        assert "tiny-model" in note.message
        # The status line moved on from "drafting 2 case(s) per kind…" to what happened.
        assert pane.status_text.startswith("Drafting cases: model tiny-model did not give")


async def test_an_unexpected_exception_is_a_bug_with_the_log_path(skill: Path, monkeypatch,
                                                                 tmp_path: Path):
    build_store(tmp_path / ".skillforge").close()
    monkeypatch.setenv("SKILLFORGE_CACHE_DIR", str(tmp_path / "cache"))

    def broken(*_a, **_k):
        raise KeyError("a key nobody expected")

    # Where the Lift tab calls it (report.source binds the name at import, so patching
    # skillforge.lift.agreement alone depends on which test imported source first).
    monkeypatch.setattr("skillforge.report.source.run_agreement", broken)
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_run_list(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(errors(app)), 10, "the failure")
        note = errors(app)[-1]
        log = tmp_path / "cache" / "workbench.log"
        assert "a bug" in note.title and str(log) in note.message
        assert "KeyError" in log.read_text() and "a key nobody expected" in log.read_text()
        view = app.workbench.query_one(LiftView)
        assert "KeyError" in str(view.query_one("#lift-title").render())


@pytest.mark.parametrize("exc, kind", [
    ("skillforge.sandbox.base:SandboxUnavailable", "environment"),
    ("skillforge.trials.config:TrialConfigError", "configuration"),
    ("skillforge.models.llm:ProviderNotConfigured", "configuration"),
    ("skillforge.models.proposals:ProposalError", "model output"),
    ("skillforge.trials.staging:StagingError", "skill content"),
])
def test_each_kind_of_failure_gets_its_title_and_what_to_do(exc: str, kind: str):
    import importlib

    module, _, name = exc.partition(":")
    cls = getattr(importlib.import_module(module), name)
    failure = classify(cls("it failed"), "Doing it")
    assert failure.kind == kind and not failure.is_bug
    assert failure.message.startswith("Doing it: it failed\n")
