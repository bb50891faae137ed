"""The Triggers view of the workbench (key 7): trigger queries, per-query rates and the
description loop, live.

A screen over the workbench (Esc closes it). The loop runs in an async worker on the app's
event loop (its trials wait on Docker in executor threads), so the view never blocks; every
step of the loop saves loop.json and redraws the tables. Starting takes two presses of `s`:
the first prepares the loop and shows its trials and estimated cost, the second runs it.
`a` writes the best description (atomically, only the description); Enter on a query that
failed to trigger closes the view and opens that run of it in Compare.

The trials run where the Trials tab's form says (its agent, model, sandbox, image, network,
limits and concurrency, as the workbench passes them in `trial`), the way `skillforge
optimize-description --image ...` takes them as flags.
"""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from widgets.triggers_view import TriggersView


class TriggersScreen(Screen):
    BINDINGS = [Binding("escape", "close", "Close", id="triggers.close")]

    def __init__(self, skill_dir: Path, state_dir: Path, settings,
                 trial: dict | None = None) -> None:
        super().__init__()
        self.skill_dir = Path(skill_dir)
        self.state_dir = Path(state_dir)
        self.settings = settings
        # The Trials form's choices (workbench.trigger_trial_options); the model is the
        # agent's, the rest [trial] overrides.
        self.trial = {k: v for k, v in (trial or {}).items() if v is not None}
        self.plan = None
        self.running = False
        self.queries: list = []
        self.history = None

    def compose(self) -> ComposeResult:
        yield TriggersView(id="triggers")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self, status: str = "", warn: bool = False) -> None:
        from skillforge.authoring.describe_loop import histories
        from skillforge.lift.triggers import trigger_queries
        from skillforge.models.evals import EVALS_PATH, load_evals

        path = self.skill_dir / EVALS_PATH
        evalset = load_evals(path)[0] if path.is_file() else None
        self.queries = trigger_queries(evalset)
        if self.history is None or not self.running:
            found = histories(self.state_dir, self.skill_dir)
            self.history = found[0] if found else None
        if not status:
            status, warn = self._summary()
        self.view.show(self.queries, self.history, status, warn)

    @property
    def view(self) -> TriggersView:
        return self.query_one(TriggersView)

    def _summary(self) -> tuple[str, bool]:
        h = self.history
        if not self.queries:
            return ("No trigger queries yet: Ctrl+K in the Evals tab drafts them (cases with "
                    "should_trigger); then s here prepares the loop.", False)
        if h is None:
            return "s: prepare the description loop (its cost is shown before it runs).", False
        comp = h.comparison
        if comp is None:
            return f"loop {h.loop_id}: {h.status}.", h.status == "failed"
        if comp.best_iteration == 0:
            return f"loop {h.loop_id}: {comp.warning}.", True
        done = " (accepted)" if h.written_at else "; a: write it into SKILL.md"
        warn = f" Warning: {comp.warning}." if comp.warning else ""
        return (f"Best: iteration {comp.best_iteration}, test accuracy {comp.diff:+.2f} over "
                f"the current description{done}.{warn}", bool(comp.warning))

    # --- keys ----------------------------------------------------------------------------

    @on(TriggersView.Start)
    def _start(self, event: TriggersView.Start) -> None:
        event.stop()
        if self.running:
            self.view.show(self.queries, self.history, "The loop is running; x cancels it.")
        elif self.plan is None:
            self.prepare()
        else:
            self.run_loop()

    @work(thread=True, exclusive=True, group="triggers-prepare", exit_on_error=False)
    def prepare(self) -> None:
        from sessions.store import RunStore
        from skillforge.authoring.describe_setup import LoopOptions, prepare_loop

        notes: list[str] = []
        trial = dict(self.trial)
        options = LoopOptions(model=trial.pop("model", None), trial=trial)
        try:
            plan = prepare_loop(self.skill_dir, self.settings, RunStore(self.state_dir),
                                options, warn=notes.append, on_progress=self._progress)
        except Exception as exc:  # noqa: BLE001 - shown: setup errors say what to do
            self.app.call_from_thread(self.view.show, self.queries, self.history,
                                      f"Cannot start: {exc}", True)
            return
        spec = plan.loop.trials.base
        where = f"{spec.sandbox} sandbox" + (f", image {spec.image}" if spec.sandbox == "docker"
                                             else "")
        text = " · ".join([*plan.estimate.lines(), where]) + " — s again starts it"
        if notes:
            text += " (" + "; ".join(notes) + ")"
        self.app.call_from_thread(self.view.show, self.queries, plan.history, text)
        # Only now may a second `s` start the loop: its cost is on screen first.
        self.plan = plan

    def _progress(self, history) -> None:
        self.history = history
        last = history.attempts[-1] if history.attempts else None
        where = f"iteration {last.iteration}: {last.status}" if last else ""
        self.view.show(self.queries, history, f"running… {where} (x cancels)")

    @work(exclusive=True, group="triggers-loop", exit_on_error=False)
    async def run_loop(self) -> None:
        from skillforge.providers import aclose

        plan, self.running = self.plan, True
        try:
            self.history = await plan.loop.run()
            self.running, self.plan = False, None
            self.reload()
        except Exception as exc:  # noqa: BLE001 - shown; loop.json says failed
            self.running, self.plan = False, None
            self.reload(f"The loop stopped: {exc}", True)
        finally:
            self.running = False
            for c in {id(c): c for c in (plan.agent, plan.proposer)}.values():
                await aclose(c)

    @on(TriggersView.Cancel)
    def _cancel(self, event: TriggersView.Cancel) -> None:
        event.stop()
        if self.running and self.plan is not None:
            self.plan.loop.cancel()
            self.view.show(self.queries, self.history, "Cancelling after the trials in "
                           "flight…", True)

    @on(TriggersView.Accept)
    def _accept(self, event: TriggersView.Accept) -> None:
        event.stop()
        from skillforge.authoring.describe_loop import loop_dir, save_history
        from skillforge.authoring.description_edit import DescriptionEditError, write_description

        h = self.history
        if self.running or h is None or h.best is None or not h.comparison.best_iteration:
            self.view.show(self.queries, h, "Nothing to accept: no finished loop has a "
                           "better description.", True)
            return
        from datetime import UTC, datetime

        try:
            write_description(self.skill_dir, h.best.description, expect=h.current.description)
        except (DescriptionEditError, OSError) as exc:
            self.view.show(self.queries, h, f"Not written: {exc}", True)
            return
        h.written_at = datetime.now(UTC)
        save_history(loop_dir(self.state_dir, h.loop_id), h)
        self.notify(f"Wrote iteration {h.comparison.best_iteration}'s description to SKILL.md")
        self.reload()

    @on(TriggersView.CompareQuery)
    def _compare(self, event: TriggersView.CompareQuery) -> None:
        event.stop()
        self.dismiss(("compare", event.run_id, event.case_id))

    def action_close(self) -> None:
        if self.running:
            # Closing would cancel the loop's worker with the screen: say so, stay open.
            self.view.show(self.queries, self.history, "The loop is running: x cancels it "
                           "(its trials so far stay stored), then Esc closes.", True)
            return
        self.dismiss(None)
