"""The workbench's Lift and Compare tabs: Skill Lift of a stored run (or the change between
two), and a case's trajectories side by side.

A mixin of WorkbenchScreen (handlers by naming convention). Store reads and the statistics
run in thread workers and come back as messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the tabs' widgets load on first use, not at start-up
    from skillforge.models.lift import LiftReport
    from widgets.compare_view import CompareClosed
    from widgets.lift_view import CompareRequested
    from widgets.run_picker import CompareRunsChosen, RunChosen
    from widgets.runs_list import RunsList
    from widgets.skill_table import SkillTable


class LiftReady(Message):
    def __init__(self, report: LiftReport | None = None, comparison=None, error: str | None = None,
                 seen: tuple | None = None) -> None:
        super().__init__()
        self.report, self.comparison, self.error = report, comparison, error
        self.seen = seen  # (status, trials) of the run the report was computed from


class CaseReady(Message):
    def __init__(self, case=None, report: LiftReport | None = None, error: str | None = None,
                 labels: tuple | None = None) -> None:
        super().__init__()
        self.case, self.report, self.error = case, report, error
        self.labels = labels  # (judgments of the case, author labels, progress): issue 19


class AgreementReady(Message):
    """The agreement view's data (a SkillAgreement), or why there is none (issue 19)."""

    def __init__(self, data=None, error: str | None = None) -> None:
        super().__init__()
        self.data, self.error = data, error


class HarvestDone(Message):
    """A harvest worker finished: the folders written and what harvest said, or why not."""

    def __init__(self, folders=(), messages=(), error: str | None = None) -> None:
        super().__init__()
        self.folders, self.messages, self.error = list(folders), list(messages), error


def _case_labels(store, run_id: str, case_id: str) -> tuple:
    """(this case's judgments, the author's labels, the run's (labelled, total) judgments)."""
    from skillforge.lift.calibration_run import label_progress, run_judgments

    judgments = run_judgments(store, run_id)
    author = store.author_values("trial")
    return ([j for j in judgments if j.case_id == case_id], author,
            label_progress(judgments, author))


class LiftTab:
    """Lift/Compare state and handlers; mixed into WorkbenchScreen."""

    lift_reports: dict[str, LiftReport]
    # The last of each, kept for tabs that mount later (they are filled on first visit).
    _lift: LiftReady | None = None
    _case: CaseReady | None = None
    # The run Lift shows (or computes), and its (status, trials) when it was computed.
    _lift_run: str | None = None
    _lift_seen: tuple | None = None

    def lift_sync(self) -> None:
        """Fill the Lift tab when it first mounts: the runs, and the last report asked for
        (or the newest run of the open skill: see lift_follow)."""
        if self._lift is not None:
            self.on_lift_ready(self._lift)
        if self._runs is not None:
            self.on_runs_loaded(self._runs)

    def lift_switched(self) -> None:
        """Another skill is open: the last one's lift goes; its newest run comes with its
        runs (lift_follow)."""
        self._lift_run = self._lift_seen = self._lift = None
        if (view := self.pane("LiftView")) is not None:
            view.show(None)

    def lift_follow(self, runs) -> None:
        """The open skill's runs were read (RunsLoaded). With no run asked for yet, show the
        newest (a description loop's trigger runs only when there is no other), or say that
        there is none and how to start one; recompute the lift shown when its run changed
        since (it was running, or another process added trials)."""
        view = self.pane("LiftView")
        if view is None:
            return
        if self._lift_run is None:
            if not runs.runs:
                import os

                path = os.path.relpath(self.current, self.ws.launch_dir) if self.current \
                    else "PATH"
                view.show_message(
                    f"No run of {runs.name or 'this skill'} yet. Start one in the Trials tab "
                    f"(4, then ctrl+r) or from a shell (skillforge trial {path}); it is "
                    "listed here as soon as it starts.")
                return
            own = [r for r in runs.runs if not (r.label or "").startswith("trigger:")]
            run_id = (own or runs.runs)[0].run_id
            if (picker := self.pane("RunPicker")) is not None:
                picker.select_run(run_id)
            self.show_lift(run_id)
            return
        run = next((r for r in runs.runs if r.run_id == self._lift_run), None)
        if run is None or self._lift_seen is None or view.comparison is not None:
            return  # not this skill's, still computing, or two runs compared
        count = runs.counts.get(run.run_id)  # None: too old to be summarised in the list
        if count is not None and (run.status, count) != self._lift_seen:
            self.show_lift(run.run_id)

    def compare_sync(self) -> None:
        view = self.pane("CompareView")
        if view is not None and self._case is not None:
            view.show_case(self._case.case, self._case.report)
            if self._case.labels is not None:
                view.show_labels(*self._case.labels)

    def lift_failed(self, failure) -> None:
        if (view := self.pane("LiftView")) is not None:
            view.show_message(failure.message.splitlines()[0], error=True)

    # --- lift ---------------------------------------------------------------------------

    def show_lift(self, run_id: str) -> None:
        self._lift_run, self._lift_seen = run_id, None  # seen: set when the lift is ready
        if (view := self.pane("LiftView")) is not None:
            view.show_message(f"computing Skill Lift for {run_id}…")

        def work() -> None:
            from skillforge.report.source import run_lift

            store = self._store()
            run = store.run(run_id) if store else None
            if run is None:
                self.post_message(LiftReady(error=f"no run {run_id!r} in the store"))
                return
            # The report's own computation: agreement, and Skill Mode's SkillCraft metrics;
            # "not calibrated" under the skill's own [judge] bar.
            trials = store.trials(run_id)
            self.post_message(LiftReady(report=run_lift(store, run, trials,
                                                        bar=self._calibration_bar()),
                                        seen=(run.status, len(trials))))

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
        if message.report is not None:
            self.lift_reports[message.report.run_id] = message.report
            if message.report.run_id != self._lift_run:
                return  # asked for before another run (or skill) was chosen
            self._lift_seen = message.seen
        self._lift = message
        view = self.pane("LiftView")
        if view is None:
            return
        if message.error:
            view.show_message(message.error, error=True)
        elif message.comparison is not None:
            view.show_comparison(message.comparison)
        else:
            view.show(message.report)
        if (panel := self.pane("LiftPanel")) is not None:
            panel.refresh_bindings()  # b (back) shows only during a comparison

    # --- agreement (issue 19) --------------------------------------------------------------

    def _calibration_bar(self):
        from skillforge.models.labels import CalibrationBar

        settings, _err = self.ws.settings(self.current)
        return CalibrationBar(min_kappa=settings.judge.calibration_kappa,
                              min_labels=settings.judge.calibration_min_labels)

    def on_agreement_requested(self, message) -> None:
        """a in the Lift tab: rank the judges of the run's skill by agreement with the
        author's labels, from the run store, in a worker."""
        message.stop()
        report = message.report
        settings, _err = self.ws.settings(self.current)
        bar, configured = self._calibration_bar(), list(settings.judge.models)

        def work() -> None:
            import sqlite3

            from skillforge.lift.calibration_rank import skill_agreement

            store = self._store()
            if store is None:
                self.post_message(AgreementReady(error="no run store yet: run a trial first"))
                return
            run = store.run(report.run_id) if report is not None else None
            skill = run.skill_name if run is not None else (
                self.current.name if self.current is not None else None)
            try:
                with store:
                    data = skill_agreement(store, skill, bar, configured=configured,
                                           report=report)
            except (OSError, sqlite3.Error) as exc:
                self.post_message(AgreementReady(error=f"the run store could not be read: "
                                                       f"{exc}"))
                return
            self.post_message(AgreementReady(data))

        self.run_worker(work, name="agreement", group="agreement", exclusive=True, thread=True,
                        exit_on_error=False)

    def on_agreement_ready(self, message: AgreementReady) -> None:
        if (view := self.pane("AgreementView")) is None:
            return
        if message.error:
            view.show_message(message.error, error=True)
        else:
            view.show(message.data)

    # --- compare ------------------------------------------------------------------------

    def on_compare_requested(self, message: CompareRequested) -> None:
        message.stop()
        run_id, case_id = message.run_id, message.case_id

        def work() -> None:
            from skillforge.trajectory.compare_data import load_case_attempts

            store = self._store()
            pair = getattr(message, "conditions", None)  # with_skill vs without:<part>
            try:
                case = load_case_attempts(store, run_id, case_id, *([pair] if pair else []))
            except (LookupError, AttributeError) as exc:
                self.post_message(CaseReady(error=str(exc)))
                return
            self.post_message(CaseReady(case=case, report=self.lift_reports.get(run_id),
                                        labels=_case_labels(store, run_id, case_id)))

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
            if message.labels is not None:
                view.show_labels(*message.labels)

    def on_compare_labels_label_entered(self, message) -> None:
        """y / o in Compare: store the author's labels, then show them (issue 19)."""
        message.stop()
        import sqlite3

        from sessions.store import RunStore

        try:
            with RunStore(self._state_dir()) as store:
                store.save_labels(message.labels)
        except (OSError, ValueError, sqlite3.Error) as exc:
            self.notify(f"The label was not stored: {exc}", severity="error")
            return
        if (view := self.pane("CompareView")) is not None:
            view.labels_stored(message.labels)

    async def on_compare_closed(self, message: CompareClosed) -> None:
        message.stop()
        await self.action_show_tab("lift-pane")

    # --- harvest (Skill Mode view) -------------------------------------------------------

    def on_skill_table_harvest_requested(self, message: SkillTable.HarvestRequested) -> None:
        """v in the per-skill table: harvest the skill next to the current skill, in a worker."""
        message.stop()
        if self.current is None:
            self.notify("Open a skill first: the harvested folder goes next to it.",
                        title="Harvest", severity="warning")
            return
        out_dir, run_id, name = self.current.parent, message.run_id, message.name
        self.notify(f"Harvesting {name} from run {run_id} into {out_dir}…", title="Harvest",
                    timeout=3)

        def work() -> None:
            from skillforge.authoring.harvest import HarvestError, harvest_skills

            store = self._store()
            if store is None:
                self.post_message(HarvestDone(error="no run store: run a trial first"))
                return
            try:
                with store:
                    result = harvest_skills(store, run_id, out_dir, names=[name])
            except (HarvestError, OSError) as exc:
                self.post_message(HarvestDone(error=str(exc)))
                return
            self.post_message(HarvestDone(result.folders, result.messages))

        self.run_worker(work, name="harvest", group="harvest", exclusive=True, thread=True,
                        exit_on_error=False)

    def on_harvest_done(self, message: HarvestDone) -> None:
        if message.error or not message.folders:
            self.notify(message.error or "nothing was harvested", title="Harvest",
                        severity="error", timeout=10)
            return
        self.notify("\n".join(message.messages), title="Harvested", timeout=8)
        self.open_harvested(message.folders[0].resolve())

    def open_harvested(self, folder) -> None:
        """Open a harvested folder as the app opens a skill: in the sidebar's list when the
        workbench shows a folder of skills that holds it, else a workbench on it (as
        `skillforge open FOLDER`), asking first when eval edits are unsaved."""
        if self.ws.rescan():
            self._skills_changed()
        if folder in self.ws.skills:
            self.request_switch(folder)
            return

        def reopen() -> None:
            from skillforge.workspace.live import Workspace

            app = self.app
            app.workspace = Workspace.open(folder, launch_dir=self.ws.launch_dir)
            app.switch_screen(app.make_workbench())

        self.guard(f"open {folder.name}", reopen)
