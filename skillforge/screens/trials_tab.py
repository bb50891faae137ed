"""The workbench's Trials tab: configure and run paired trials, watch them, list past runs.

A mixin of WorkbenchScreen (handlers by naming convention). The run itself is an async
worker on the app's loop (the runner's cancel is not thread-safe); store reads run in
thread workers and come back as messages. Lift and Compare live in `lift_tab`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the tabs' widgets and the run store load on first use, not at start-up
    from sessions.store import RunStore
    from widgets.runs_list import RunsList
    from widgets.trial_config_form import CancelRequested, EstimateWanted, StartRequested
    from widgets.trials_grid import TrialsGrid


# The run's messages are written for the command line; in the form the flags are fields.
FLAG_FIELDS = {"--image": "the image field", "--network": "the network box",
               "--agent": "the agent field", "--model": "the model field",
               "--sandbox": "the sandbox field", "--timeout": "the timeout field",
               "--max-turns": "the turns field", "--disk-mb": "the disk field",
               "--decoys": "the decoys field", "--cases": "the cases list",
               "--attempts": "the attempts field", "--concurrency": "the at-once field",
               "--conditions": "the conditions", "--max-cost-usd": "the max $ field"}


# What the Triggers loop takes from the form: where and how its trials run. Cases,
# conditions, attempts, turns and decoys are the loop's own.
TRIGGER_KEYS = ("agent", "model", "sandbox", "image", "network", "timeout_sec", "disk_mb",
                "concurrency")


def form_words(text: str) -> str:
    """`text` with the trial command's flags named as the form's fields."""
    return re.sub(r"--[a-z][a-z-]*", lambda m: FLAG_FIELDS.get(m.group(0), m.group(0)), text)


# How often the workbench looks whether the run store changed (two stats in a thread; the
# store is read only when they moved): a run started from a shell shows up, and a finished
# one stops reading "running", within this many seconds.
RUNS_POLL_S = 2.0


class RunsLoaded(Message):
    """The stored runs of the skill at `skill` (newest first), read in a worker."""

    def __init__(self, overviews: list, runs: list, counts: dict, skill: Path | None = None,
                 name: str = "") -> None:
        super().__init__()
        self.overviews, self.runs, self.counts = overviews, runs, counts
        self.skill, self.name = skill, name


class TrialsTab:
    """Trials state and handlers; mixed into WorkbenchScreen."""

    runner = None
    # The last list of runs, kept for tabs that mount later (they are filled on first visit).
    _runs: RunsLoaded | None = None

    def trials_init(self) -> None:
        self.lift_reports = {}
        self._trial_forms: dict[Path, dict] = {}
        self._overviews: dict = {}  # run_overviews' cache: unchanged runs are not redone
        self._runs_seen: tuple | None = None  # (state dir, store stamp) of the last read
        self.trials_load()
        self.refresh_runs()
        self.run_worker(self._watch_runs(), name="runs watch", group="runs-watch",
                        exclusive=True, exit_on_error=False)

    def _state_dir(self) -> Path:
        settings, _err = self.ws.settings(self.current)
        return self.ws.launch_dir / settings.state_dir

    def _store(self) -> RunStore | None:
        """The run store, or None before the first run (opening the UI creates nothing)."""
        from sessions.store import RunStore  # the store loads on first use, not at start-up

        state = self._state_dir()
        return RunStore(state) if (state / "skillforge.db").exists() else None

    def _configured_trial(self) -> dict:
        """The run form's values before the author changes any: [trial] settings, then the
        evals.json defaults (as `skillforge trial` layers them)."""
        from skillforge.trials.config import TrialConfigError, evals_defaults

        settings, _err = self.ws.settings(self.current)
        values = settings.trial.model_dump()
        try:
            defaults = evals_defaults(self.current)
        except TrialConfigError:
            defaults = {}  # the run reports it, with the fix, when it starts
        values |= {k: v for k, v in defaults.items() if k in values}
        return values | {"judge": True, "decoys": None}

    def _trial_form_values(self) -> dict:
        from skillforge.trials.form_memory import remembered

        path = self.current
        if path not in self._trial_forms:
            self._trial_forms[path] = remembered(self._state_dir(), path)
        return self._configured_trial() | self._trial_forms[path]

    def trials_load(self) -> None:
        """Fill the run form with the current skill's cases and its values: the configured
        ones, with what the author last used for this skill over them."""
        if self.current is None:
            return
        evalset = self.evals_file.evalset if getattr(self, "evals_file", None) else None
        cases = [str(c.id) for c in evalset.cases] if evalset else []
        if (form := self.pane("TrialConfigForm")) is not None:
            form.load(cases, self._trial_form_values())

    def trials_cases_changed(self) -> None:
        """The eval set was saved or reloaded: the run form lists its cases as they are now."""
        evalset = self.evals_file.evalset if getattr(self, "evals_file", None) else None
        if (form := self.pane("TrialConfigForm")) is not None:
            form.set_cases([str(c.id) for c in evalset.cases] if evalset else [])

    def trials_leaving(self) -> None:
        """The workbench is about to show another skill: keep this one's form values."""
        form = self.pane("TrialConfigForm")
        if form is not None and self.current is not None:
            values, _problems = form.spec_overrides()
            configured = self._configured_trial()
            self._trial_forms[self.current] = {k: v for k, v in values.items()
                                               if v is not None and v != configured.get(k)}

    def remember_trial_form(self, values: dict) -> None:
        """Start was pressed: remember these values for this skill, in the state dir."""
        from skillforge.trials.form_memory import remember

        try:
            kept = remember(self._state_dir(), self.current, values, self._configured_trial())
        except OSError as exc:
            self.notify(f"The form's values are not remembered: {exc}", severity="warning")
            return
        self._trial_forms[self.current] = kept

    def trigger_trial_options(self) -> dict:
        """The form's choices for the Triggers loop's trials: its fields as they are now
        (Start not pressed yet), or the values it would show before the tab was opened."""
        form = self.pane("TrialConfigForm")
        values = form.spec_overrides()[0] if form is not None else self._trial_form_values()
        return {k: values[k] for k in TRIGGER_KEYS if values.get(k) is not None}

    def trials_sync(self) -> None:
        """Fill the Trials tab when it first mounts."""
        self.trials_load()
        if self._runs is not None:
            self.on_runs_loaded(self._runs)

    # --- past runs ----------------------------------------------------------------------

    def _runs_stamp(self) -> tuple:
        """(state dir, its store's stamp) now; run it in a thread (settings and stats)."""
        from skillforge.trials.history import store_stamp

        state = self._state_dir()
        return state, store_stamp(state)

    async def _watch_runs(self) -> None:
        """Keep the run lists true to the store, whoever writes it: the stamp is looked at
        every RUNS_POLL_S in a thread, and the store read again only when it moved."""
        import asyncio

        while True:
            await asyncio.sleep(RUNS_POLL_S)
            if self.current is not None and await asyncio.to_thread(self._runs_stamp) \
                    != self._runs_seen:
                self.refresh_runs()

    def refresh_runs(self) -> None:
        """Read the open skill's runs in a worker (RunsLoaded): the Trials and Lift lists."""
        skill = self.current

        def work() -> None:
            from skillforge.sandbox.skill_tree import tree_name
            from skillforge.trials.history import run_overviews, runs_of_skill

            # Taken before reading: a write during the read makes the next look read again.
            self._runs_seen = self._runs_stamp()
            name = tree_name(skill) if skill is not None else ""
            store = self._store() if skill is not None else None
            if store is None:
                self.post_message(RunsLoaded([], [], {}, skill, name))
                return
            with store:
                runs = runs_of_skill(store.runs(), skill, name, self.ws.launch_dir)
                overviews = run_overviews(store, runs=runs, cache=self._overviews)
            counts = {o.run_id: o.trials for o in overviews}
            self.post_message(RunsLoaded(overviews, runs, counts, skill, name))

        self.run_worker(work, name="runs", group="runs", exclusive=True, thread=True, exit_on_error=False)

    def runs_switched(self) -> None:
        """Another skill is open: its runs replace the last one's, in both lists."""
        self.lift_switched()
        self.refresh_runs()

    def on_runs_loaded(self, message: RunsLoaded) -> None:
        if message.skill != self.current:
            return  # read for the skill shown before a switch; its own read follows
        self._runs = message
        if (runs := self.pane("RunsList")) is not None:
            runs.show(message.overviews)
        if (picker := self.pane("RunPicker")) is not None:
            picker.set_runs(message.runs, message.counts)
        self.lift_follow(message)

    def on_runs_list_highlighted(self, message: RunsList.Highlighted) -> None:
        message.stop()
        if (failures := self.pane("RunFailures")) is not None:
            failures.show(message.row)

    # --- the estimate -------------------------------------------------------------------

    def on_estimate_wanted(self, message: EstimateWanted) -> None:
        """The form changed: estimate the run it would start, in a thread (the store and
        evals.json are read), and show it beside the form's buttons."""
        message.stop()
        skill, overrides = self.current, dict(message.spec_overrides)
        if skill is None:
            return

        def work() -> None:
            from skillforge.trials.form_estimate import form_estimate

            settings, _err = self.ws.settings(skill)
            store = self._store()
            try:
                line, detail = form_estimate(skill, settings, store, overrides)
            finally:
                if store is not None:
                    store.close()
            self.app.call_from_thread(self._show_estimate, skill, line, detail)

        self.run_worker(work, name="estimate", group="trial-estimate", exclusive=True,
                        thread=True, exit_on_error=False)

    def _show_estimate(self, skill, line: str, detail: str) -> None:
        if skill == self.current and (form := self.pane("TrialConfigForm")) is not None:
            form.show_estimate(form_words(line), form_words(detail))

    # --- running trials -----------------------------------------------------------------

    def on_start_requested(self, message: StartRequested) -> None:
        message.stop()
        if self.current is None or self.runner is not None:
            return
        from sessions.store import RunStore
        from skillforge.screens.failures import classify
        from skillforge.trials.setup import prepare_runner
        from widgets.trials_grid import TrialsGrid

        form = self.query_one("TrialConfigForm")  # the Start button lives in the mounted form
        grid = self.query_one(TrialsGrid)
        settings, _err = self.ws.settings(self.current)
        self.remember_trial_form(message.spec_overrides)
        overrides = dict(message.spec_overrides)
        judge = overrides.pop("judge", True)
        try:
            runner = prepare_runner(settings, RunStore(self._state_dir()), skill_dir=self.current,
                                    overrides=overrides, judge=judge,
                                    on_event=lambda e: grid.post_message(TrialsGrid.Event(e)),
                                    # Listed in the grid (a toast each stacked over it for
                                    # seconds); posted, since a worker thread may warn.
                                    warn=lambda w: grid.post_message(TrialsGrid.Warned(w)))
        except Exception as exc:  # noqa: BLE001 - classified; only the unexpected is a bug
            self.trial_failed(classify(exc, "Starting the run", "configuration"), notify=True)
            return
        self.runner = runner
        grid.reset()
        form.set_running(True)

        async def work() -> None:
            from skillforge.providers import aclose

            try:
                await runner.run()
            finally:
                self.runner = None
                for client in {id(c): c for c in [runner.client, *runner.judges]}.values():
                    await aclose(client)

        self.run_worker(work(), name="trial run", group="trial", exclusive=True, exit_on_error=False)

    def trial_failed(self, failure, *, notify: bool = False) -> None:
        """The run could not start or stopped on an error: Start works again, and the form
        says why under its buttons."""
        from dataclasses import replace

        failure = replace(failure, message=form_words(failure.message))
        self.runner = None
        if notify:
            self.show_failure(failure)
        if (form := self.pane("TrialConfigForm")) is not None:
            form.set_running(False)
            form.show_problem(failure.message)
        self.refresh_runs()

    def on_cancel_requested(self, message: CancelRequested) -> None:
        message.stop()
        if self.runner is not None:
            self.runner.cancel()
            self.notify("Cancelling: running trials stop and their containers are removed.", timeout=4)

    def on_trials_grid_warned(self, message: TrialsGrid.Warned) -> None:
        message.stop()
        if (grid := self.pane("TrialsGrid")) is not None:
            if not grid.warnings:
                self.notify("The run has warnings: the Trials grid lists them.",
                            title="Trial run", severity="warning", timeout=4)
            grid.add_warning(message.text)

    def on_trials_grid_event(self, message: TrialsGrid.Event) -> None:
        message.stop()
        if (grid := self.pane("TrialsGrid")) is not None:
            grid.apply(message.event)

    def on_trials_grid_run_ended(self, message: TrialsGrid.RunEnded) -> None:
        message.stop()
        if (form := self.pane("TrialConfigForm")) is not None:
            form.set_running(False)
        if message.error:
            self.notify(message.error, title=f"Run {message.status}", severity="error", timeout=10)
        elif message.status == "stopped":
            self.notify("The run stopped at its cost cap (max $): the grid says what it spent; "
                        "the Lift tab shows what finished.", title="Run stopped",
                        severity="warning", timeout=8)
        self.refresh_runs()
        self.show_lift(message.run_id)
