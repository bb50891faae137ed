"""The workbench's Trials, Lift and Compare tabs: run paired trials, read Skill Lift,
open a case's trajectories side by side.

A mixin of WorkbenchScreen (handlers by naming convention). The run itself is an async
worker on the app's loop (the runner's cancel is not thread-safe); store reads and the
statistics run in thread workers and come back as messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the tabs' widgets and the run store load on first use, not at start-up
    from sessions.store import RunStore
    from skillforge.models.lift import LiftReport
    from widgets.compare_view import CompareClosed
    from widgets.lift_view import CompareRequested
    from widgets.run_picker import CompareRunsChosen, RunChosen
    from widgets.runs_list import RunsList
    from widgets.trial_config_form import CancelRequested, StartRequested
    from widgets.trials_grid import TrialsGrid


class RunsLoaded(Message):
    def __init__(self, overviews: list, runs: list, counts: dict) -> None:
        super().__init__()
        self.overviews, self.runs, self.counts = overviews, runs, counts


class LiftReady(Message):
    def __init__(self, report: LiftReport | None = None, comparison=None, error: str | None = None) -> None:
        super().__init__()
        self.report, self.comparison, self.error = report, comparison, error


class CaseReady(Message):
    def __init__(self, case=None, report: LiftReport | None = None, error: str | None = None) -> None:
        super().__init__()
        self.case, self.report, self.error = case, report, error


class TrialsTab:
    """Trials/Lift/Compare state and handlers; mixed into WorkbenchScreen."""

    runner = None
    lift_reports: dict[str, LiftReport]
    # The last of each, kept for tabs that mount later (they are filled on first visit).
    _runs: RunsLoaded | None = None
    _lift: LiftReady | None = None
    _case: CaseReady | None = None

    def trials_init(self) -> None:
        self.lift_reports = {}
        self.trials_load()
        self.refresh_runs()

    def _state_dir(self) -> Path:
        settings, _err = self.ws.settings(self.current)
        return self.ws.launch_dir / settings.state_dir

    def _store(self) -> RunStore | None:
        """The run store, or None before the first run (opening the UI creates nothing)."""
        from sessions.store import RunStore  # the store loads on first use, not at start-up

        state = self._state_dir()
        return RunStore(state) if (state / "skillforge.db").exists() else None

    def trials_load(self) -> None:
        """Fill the run form with the current skill's cases and the [trial] settings."""
        if self.current is None:
            return
        settings, _err = self.ws.settings(self.current)
        evalset = self.evals_file.evalset if getattr(self, "evals_file", None) else None
        cases = [str(c.id) for c in evalset.cases] if evalset else []
        if (form := self.pane("TrialConfigForm")) is not None:
            form.load(cases, settings.trial.model_dump())

    def trials_sync(self) -> None:
        """Fill the Trials tab when it first mounts."""
        self.trials_load()
        if self._runs is not None:
            self.on_runs_loaded(self._runs)

    def lift_sync(self) -> None:
        """Fill the Lift tab when it first mounts: the runs, and the last report asked for."""
        if self._runs is not None:
            self.on_runs_loaded(self._runs)
        if self._lift is not None:
            self.on_lift_ready(self._lift)

    def compare_sync(self) -> None:
        view = self.pane("CompareView")
        if view is not None and self._case is not None:
            view.show_case(self._case.case, self._case.report)

    # --- past runs ----------------------------------------------------------------------

    def refresh_runs(self) -> None:
        def work() -> None:
            store = self._store()
            if store is None:
                self.post_message(RunsLoaded([], [], {}))
                return
            from skillforge.trials.history import run_overviews

            overviews = run_overviews(store)
            runs = store.runs()
            counts = {o.run_id: o.trials for o in overviews}
            self.post_message(RunsLoaded(overviews, runs, counts))

        self.run_worker(work, name="runs", group="runs", exclusive=True, thread=True, exit_on_error=False)

    def on_runs_loaded(self, message: RunsLoaded) -> None:
        self._runs = message
        if (runs := self.pane("RunsList")) is not None:
            runs.show(message.overviews)
        if (picker := self.pane("RunPicker")) is not None:
            picker.set_runs(message.runs, message.counts)

    # --- running trials -----------------------------------------------------------------

    def on_start_requested(self, message: StartRequested) -> None:
        message.stop()
        if self.current is None or self.runner is not None:
            return
        from sessions.store import RunStore
        from skillforge.models.llm import ProviderNotConfigured
        from skillforge.trials.setup import prepare_runner
        from widgets.trials_grid import TrialsGrid

        form = self.query_one("TrialConfigForm")  # the Start button lives in the mounted form
        grid = self.query_one(TrialsGrid)
        settings, _err = self.ws.settings(self.current)
        state = self._state_dir()
        try:
            runner = prepare_runner(settings, RunStore(state), skill_dir=self.current,
                                    overrides=message.spec_overrides,
                                    on_event=lambda e: grid.post_message(TrialsGrid.Event(e)),
                                    warn=lambda w: self.notify(w, severity="warning"))
        except ProviderNotConfigured as exc:
            self.notify(str(exc), title="No LLM provider", severity="error", timeout=12)
            return
        except (ValueError, OSError) as exc:
            self.notify(str(exc), title="Cannot start the run", severity="error", timeout=10)
            return
        self.runner = runner
        grid.reset()
        form.set_running(True)

        async def work() -> None:
            try:
                await runner.run()
            finally:
                self.runner = None

        self.run_worker(work(), name="trial run", group="trial", exclusive=True, exit_on_error=False)

    def on_cancel_requested(self, message: CancelRequested) -> None:
        message.stop()
        if self.runner is not None:
            self.runner.cancel()
            self.notify("Cancelling: running trials stop and their containers are removed.", timeout=4)

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
        self.refresh_runs()
        self.show_lift(message.run_id)

    # --- lift ---------------------------------------------------------------------------

    def show_lift(self, run_id: str) -> None:
        if (view := self.pane("LiftView")) is not None:
            view.show_message(f"computing Skill Lift for {run_id}…")

        def work() -> None:
            from skillforge.lift.compute import lift_for_run
            from skillforge.lift.agreement import run_agreement

            store = self._store()
            run = store.run(run_id) if store else None
            if run is None:
                self.post_message(LiftReady(error=f"no run {run_id!r} in the store"))
                return
            agreement = run_agreement(store.metrics(run_id))
            self.post_message(LiftReady(report=lift_for_run(run, store.trials(run_id),
                                                            judge_agreement=agreement)))

        self.run_worker(work, name="lift", group="lift", exclusive=True, thread=True, exit_on_error=False)

    async def on_runs_list_selected(self, message: RunsList.Selected) -> None:
        message.stop()
        await self.action_show_tab("lift-pane")
        self.show_lift(message.run_id)

    def on_run_chosen(self, message: RunChosen) -> None:
        message.stop()
        self.show_lift(message.run_id)

    def on_compare_runs_chosen(self, message: CompareRunsChosen) -> None:
        message.stop()

        def work() -> None:
            from skillforge.lift.compute import lift_for_run
            from skillforge.lift.compare import compare_reports

            store = self._store()
            reports = []
            for rid in (message.run_a, message.run_b):
                run = store.run(rid) if store else None
                if run is None:
                    self.post_message(LiftReady(error=f"no run {rid!r} in the store"))
                    return
                reports.append(lift_for_run(run, store.trials(rid)))
            self.post_message(LiftReady(comparison=compare_reports(*reports)))

        self.run_worker(work, name="compare runs", group="lift", exclusive=True, thread=True,
                        exit_on_error=False)

    def on_lift_ready(self, message: LiftReady) -> None:
        self._lift = message
        if message.report is not None:
            self.lift_reports[message.report.run_id] = message.report
        view = self.pane("LiftView")
        if view is None:
            return
        if message.error:
            view.show_message(message.error, error=True)
        elif message.comparison is not None:
            view.show_comparison(message.comparison)
        else:
            view.show(message.report)

    # --- compare ------------------------------------------------------------------------

    def on_compare_requested(self, message: CompareRequested) -> None:
        message.stop()
        run_id, case_id = message.run_id, message.case_id

        def work() -> None:
            from skillforge.trajectory.compare_data import load_case_attempts

            store = self._store()
            try:
                case = load_case_attempts(store, run_id, case_id)
            except (LookupError, AttributeError) as exc:
                self.post_message(CaseReady(error=str(exc)))
                return
            self.post_message(CaseReady(case=case, report=self.lift_reports.get(run_id)))

        self.run_worker(work, name="compare", group="compare", exclusive=True, thread=True,
                        exit_on_error=False)

    async def on_case_ready(self, message: CaseReady) -> None:
        if message.error:
            self.notify(message.error, title="Compare", severity="warning")
            return
        self._case = message
        fresh = "compare-pane" not in self._mounted_tabs
        await self.action_show_tab("compare-pane")
        if not fresh and (view := self.pane("CompareView")) is not None:
            view.show_case(message.case, message.report)  # a fresh tab got it from compare_sync

    async def on_compare_closed(self, message: CompareClosed) -> None:
        message.stop()
        await self.action_show_tab("lift-pane")
