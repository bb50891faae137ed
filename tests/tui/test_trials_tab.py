"""The Trials tab driven by keys: start with ctrl+r, a failed start leaves the form usable
and says what to fix, every knob of `skillforge trial` is in the form and remembered per
skill, and at 80x24 Start and Cancel are on screen."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Button, Checkbox, Input, Select

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import Recorder, footer_current, make_app, settle, wait_for
from widgets.trial_config_form import StartRequested, TrialConfigForm

MISSING_IMAGE = "skillforge-test/no-such-image:0"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    """A launch directory with one skill and a provider that is configured but never called."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "test-model")
    return tmp_path


def form(app) -> TrialConfigForm:
    return app.workbench.query_one(TrialConfigForm)


def on_screen(app, widget) -> bool:
    """The widget is shown whole inside the terminal (not cut off at an edge)."""
    region = widget.region
    screen = app.screen.region
    return bool(widget.display and region.area and screen.contains_region(region))


async def open_trials(pilot) -> TrialConfigForm:
    await settle(pilot)
    await pilot.press("4")
    await wait_for(pilot, lambda: bool(pilot.app.workbench.query(TrialConfigForm)), 5, "the form")
    # the tab's focus handed out and its keys in the footer: the tab is ready for keys
    await wait_for(pilot, lambda: footer_current(pilot.app), 5, "the Trials tab's keys")
    return form(pilot.app)


async def type_into(pilot, selector: str, text: str) -> None:
    field = pilot.app.workbench.query_one(selector, Input)
    field.focus()
    field.value = ""
    await pilot.press(*text)


async def test_a_failed_start_enables_start_again_and_names_the_image_field(workspace: Path):
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        f = await open_trials(pilot)
        await type_into(pilot, "#image", MISSING_IMAGE)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: bool(f.problem_text), 30, "the failure under the form")
        await wait_for(pilot, lambda: not f.running, 5, "the form to stop running")
        assert not f.query_one("#start", Button).disabled
        assert f.query_one("#cancel", Button).disabled
        notes = [n for n in app._notifications if n.severity == "error"]
        assert notes and all("a bug" not in n.title for n in notes)
        assert notes[-1].title.startswith("Environment")
        assert "--image" not in f.problem_text and "image field" in f.problem_text
        assert app.workbench.runner is None


async def test_every_knob_of_the_trial_command_is_in_the_form_and_sent(workspace: Path):
    rec = Recorder()
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40), message_hook=rec) as pilot:
        f = await open_trials(pilot)
        await type_into(pilot, "#attempts", "2")
        await type_into(pilot, "#concurrency", "4")
        await type_into(pilot, "#timeout", "120")
        await type_into(pilot, "#max_turns", "12")
        await type_into(pilot, "#disk", "512")
        await type_into(pilot, "#decoys", "0")
        await type_into(pilot, "#model", "openai:other")
        await type_into(pilot, "#image", MISSING_IMAGE)
        await type_into(pilot, "#max_cost", "2.5")
        f.query_one("#agent", Select).value = "codex"
        f.query_one("#sandbox", Select).value = "local"
        f.query_one("#network", Checkbox).focus()
        await pilot.press("space")
        f.query_one("#judge", Checkbox).focus()
        await pilot.press("space")
        f.query_one("#until_decided", Checkbox).focus()
        await pilot.press("space")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: bool(rec.of(StartRequested)), 5, "StartRequested")
        sent = rec.of(StartRequested)[0].spec_overrides
        assert sent == {
            "case_ids": [],
            "conditions": ["with_skill", "baseline"],
            "attempts": 2,
            "concurrency": 4,
            "max_turns": 12,
            "timeout_sec": 120,
            "disk_mb": 512,
            "decoys": 0,
            "agent": "codex",
            "model": "openai:other",
            "sandbox": "local",
            "image": MISSING_IMAGE,
            "network": True,
            "judge": False,
            "max_cost_usd": 2.5,
            "until_decided": True,
        }


async def test_the_form_shows_the_runs_estimate_and_what_its_cost_cap_would_do(
    workspace: Path, monkeypatch
):
    """Beside Start: trials, the agent's and the judge's tokens, the cost and its source,
    re-estimated as the author types; a cap that would stop the run says after how many."""
    monkeypatch.setenv("SKILLFORGE_PROVIDER__PRICES", '{"test-model": {"input": 1, "output": 1}}')
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        f = await open_trials(pilot)
        state = f.query_one("#estimate")
        await wait_for(pilot, lambda: "est." in str(state.render()), 10, "the estimate")
        first = str(state.render())
        # 6 cases x 2 conditions x 3 attempts; no run yet: the assumption, judge included
        assert first.startswith("est. 36 trials") and "(judge ~" in first
        assert "figures assumed (no run yet)" in first and "$" in first
        assert "every trial uses all 30 turns" in f.estimate_detail
        assert "no earlier judged run" in f.estimate_detail
        await type_into(pilot, "#attempts", "1")
        await wait_for(
            pilot,
            lambda: str(state.render()).startswith("est. 12 trials"),
            10,
            "the estimate of 1 attempt",
        )
        await type_into(pilot, "#max_cost", "0.5")
        await wait_for(
            pilot, lambda: "cap stops it after ~1" in str(state.render()), 10, "the cap's effect"
        )
        f.query_one("#judge", Checkbox).focus()
        await pilot.press("space")  # unjudged: the judge's share leaves the estimate
        await wait_for(
            pilot, lambda: "(judge ~" not in str(state.render()), 10, "the unjudged estimate"
        )


async def test_the_form_is_remembered_per_skill_in_the_state_dir(workspace: Path):
    skill = workspace / "csv-insights"
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_trials(pilot)
        await type_into(pilot, "#attempts", "1")
        await type_into(pilot, "#image", MISSING_IMAGE)
        await pilot.press("ctrl+r")
        await wait_for(
            pilot,
            lambda: (workspace / ".skillforge/ui/trial-forms.json").exists(),
            10,
            "the remembered form",
        )
        await wait_for(
            pilot,
            lambda: not form(app).running and bool(form(app).problem_text),
            30,
            "the run to fail",
        )
    stored = json.loads((workspace / ".skillforge/ui/trial-forms.json").read_text())
    assert stored == {str(skill.resolve()): {"attempts": 1, "image": MISSING_IMAGE}}
    assert not (skill / ".skillforge").exists()  # nothing lands among the author's files

    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        f = await open_trials(pilot)
        assert f.query_one("#attempts", Input).value == "1"
        assert f.query_one("#image", Input).value == MISSING_IMAGE
        assert f.query_one("#concurrency", Input).value == "2"  # untouched: the configured value


async def test_at_80x24_start_and_cancel_are_on_screen_and_ctrl_r_starts(workspace: Path):
    rec = Recorder()
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(80, 24), message_hook=rec) as pilot:
        f = await open_trials(pilot)
        assert on_screen(app, f.query_one("#start", Button))
        assert on_screen(app, f.query_one("#cancel", Button))
        for knob in (
            "#attempts",
            "#image",
            "#timeout",
            "#decoys",
            "#network",
            "#judge",
            "#max_cost",
        ):
            assert on_screen(app, f.query_one(knob)), knob
        app.workbench.query_one("#runs").focus()  # the keys work from anywhere in the tab
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: bool(rec.of(StartRequested)), 5, "StartRequested")


async def test_run_warnings_are_listed_in_the_grid_not_stacked_as_toasts(
    workspace: Path, monkeypatch
):
    """A run that warns ten times (decoys skipped, smoke findings, a judge answering badly)
    shows one short notice and the list in the grid, where the toasts used to pile up."""
    import asyncio

    class Runner:
        client, judges = object(), []

        def __init__(self, warn) -> None:
            self.warn = warn

        async def run(self) -> None:
            for i in range(10):
                self.warn(f"SF30{i % 10} scripts/x.py: warning number {i}")
                await asyncio.sleep(0)

        def cancel(self) -> None:
            pass

    monkeypatch.setattr(
        "skillforge.trials.setup.prepare_runner", lambda *a, warn, **k: Runner(warn)
    )
    app = make_app(workspace / "csv-insights", Settings())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_trials(pilot)
        await pilot.press("ctrl+r")
        grid = app.workbench.query_one("TrialsGrid")
        await wait_for(pilot, lambda: len(grid.warnings) == 10, 10, "the warnings")
        from tests.tui.helpers import screen_text

        # the notice and the grid's last warning drawn, so the count below is of what was sent
        await wait_for(
            pilot,
            lambda: (
                any(n.severity == "warning" for n in app._notifications)
                and "warning number 9" in screen_text(app)
            ),
            5,
            "the warnings shown",
        )
        assert len([n for n in app._notifications if n.severity == "warning"]) == 1
        text = screen_text(app)
        assert "⚠ 10 warnings" in text and "warning number 9" in text
