"""The Triggers view (key 7): the trigger set, the loop run live from the view (two presses
of s: the estimate first), the best description accepted with a, and Enter on a query that
failed to trigger opening its run in Compare. The scripted trigger agent and proposer run on
the loopback server; the trials use the local sandbox (the Docker path is
tests/trials/test_optimize_description.py)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from skillforge.models.config import Settings
from skillforge.screens.triggers_tab import TriggersScreen
from tests.trials.scripted_triggers import WITH_WORDS, ScriptedTriggers, trigger_skills
from tests.tui.helpers import SIZE, make_app, settle, wait_for

pytestmark = pytest.mark.timeout(180)


async def test_the_loop_runs_live_and_the_author_accepts_it(tmp_path, monkeypatch, llm_server):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.chdir(tmp_path)
    llm_server.handler = ScriptedTriggers()
    skill = trigger_skills(tmp_path)
    before = (skill / "SKILL.md").read_text("utf-8")
    # The workbench reads each skill's settings from the files, as a user's would be.
    (tmp_path / "skillforge.toml").write_text(
        f'state_dir = "{tmp_path / "state"}"\n[trial]\nsandbox = "local"\nconcurrency = 4\n'
    )
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await wait_for(pilot, lambda: isinstance(app.screen, TriggersScreen), 5, "the view")
        screen = app.screen
        queries = screen.query_one("#triggers-queries", DataTable)
        assert queries.row_count == 8
        status = screen.query_one("#triggers-status")
        await pilot.press("s")
        await wait_for(pilot, lambda: screen.plan is not None, 20, "the estimate")
        # the plan is kept only once its cost is on screen, so a second `s` starts a loop whose
        # cost the author has seen
        assert "trigger trials: at most 144" in str(status.render())  # (1 + 5) x 8 x 3
        # and where its figures come from: the price table and a stated assumption
        assert "per-trial figures: the price table and an assumption" in str(status.render())
        await pilot.press("s")
        await wait_for(
            pilot,
            lambda: (
                not screen.running
                and screen.history is not None
                and screen.history.status == "finished"
            ),
            120,
            "the loop",
        )
        iters = screen.query_one("#triggers-iterations", DataTable)
        assert iters.row_count == 6  # the current description and five proposals
        assert screen.history.comparison.best_iteration == 2
        assert (skill / "SKILL.md").read_text("utf-8") == before  # nothing written yet
        await pilot.press("a")
        await wait_for(pilot, lambda: screen.history.written_at is not None, 5, "the write")
        assert WITH_WORDS in (skill / "SKILL.md").read_text("utf-8")
        # ledger-totals (first row) did not trigger under the current description.
        queries.focus()
        queries.move_cursor(row=0)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: not isinstance(app.screen, TriggersScreen), 5, "the view to close"
        )
        await wait_for(
            pilot, lambda: app.screen.active_tab == "compare-pane", 10, "the Compare tab"
        )


class _DaemonWithoutTheImage:
    """A Docker daemon that answers but has no image: what `check_sandbox` meets when the
    chosen image was never pulled (no Docker needed for the test)."""

    def __init__(self) -> None:
        self.inspected: list[str] = []
        self.api = self

    def inspect_image(self, name: str):
        import docker.errors

        self.inspected.append(name)
        raise docker.errors.ImageNotFound(f"No such image: {name}")


async def test_the_loop_runs_in_the_trials_forms_image_and_a_failure_is_said_whole(
    tmp_path, monkeypatch, llm_server
):
    """Issue 37: the loop used the default image, not the form's; its error lost "[trial]"
    to markup; and the failed loop left its run "running" in the store for good."""
    from sessions.store import RunStore
    from skillforge.sandbox import docker_client
    from tests.tui.helpers import screen_text
    from widgets.trial_config_form import TrialConfigForm

    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.chdir(tmp_path)
    daemon = _DaemonWithoutTheImage()
    monkeypatch.setattr(docker_client, "get_client", lambda: daemon)
    llm_server.handler = ScriptedTriggers()
    skill = trigger_skills(tmp_path)
    state = tmp_path / "state"
    (tmp_path / "skillforge.toml").write_text(f'state_dir = "{state}"\n')
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_for(pilot, lambda: bool(app.screen.query(TrialConfigForm)), 5, "the form")
        app.screen.query_one("#image").focus()
        await pilot.press(*"my-lab/trials:1")
        app.screen.query_one("#runs").focus()  # out of the field: 7 is a key again
        await pilot.press("7")
        await wait_for(pilot, lambda: isinstance(app.screen, TriggersScreen), 5, "the view")
        screen = app.screen
        await pilot.press("s")
        await wait_for(pilot, lambda: screen.plan is not None, 20, "the estimate")
        assert screen.plan.loop.trials.base.image == "my-lab/trials:1"
        await pilot.press("s")
        await wait_for(
            pilot,
            lambda: (
                not screen.running
                and screen.history is not None
                and screen.history.status == "failed"
            ),
            30,
            "the loop to fail",
        )
        await wait_for(
            pilot,
            lambda: "The loop stopped" in screen_text(app),
            5,
            "the reason the loop stopped, drawn",
        )
        shown = screen_text(app)
        # the loop's and (the trial cache keys on the image's id) the form's estimate's
        assert daemon.inspected and set(daemon.inspected) == {"my-lab/trials:1"}
        assert "The loop stopped: the trial image 'my-lab/trials:1' is not on" in shown
        assert "set --image / [trial] image" in " ".join(shown.split())
    with RunStore(state) as store:
        statuses = [r.status for r in store.runs()]
    assert statuses == ["failed"]
