"""The workbench's Evals tab: load, save and edit a skill's cases; draft and refine cases.

A mixin of WorkbenchScreen (handlers by naming convention). Files are written only on the
author's explicit save, atomically, through EvalsFile (which refuses to overwrite a file
changed on disk unless the author chooses to). Cases kept as waza or vally eval.yaml or as
plugin-eval folders are edited in place and saved in their own format
(skillforge.evalformats.casefile).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from skillforge.evalformats.casefile import open_cases
from skillforge.evalformats.registry import skill_cases
from skillforge.models.evals import EVALS_PATH
from skillforge.models.evals_io import ConflictError, EvalsFile

if TYPE_CHECKING:  # the Evals tab's widgets load with the tab (first visit)
    from widgets.evals_messages import (
        DiffRequested,
        DraftRequested,
        EditExternally,
        OverwriteRequested,
        RefineRequested,
        ReloadRequested,
        SaveRequested,
    )


class EvalsProposalReady(Message):
    """A drafting or refining call ended: a proposal, a diff, or why not (`error` for a
    problem found before asking, `failure` for a classified failure of the call)."""

    def __init__(self, proposal=None, diff=None, error: str | None = None,
                 failure=None) -> None:
        super().__init__()
        self.proposal, self.diff, self.error, self.failure = proposal, diff, error, failure


class EvalsTab:
    """Evals state and handlers; mixed into WorkbenchScreen."""

    evals_file: EvalsFile | None = None

    def evals_path(self) -> Path | None:
        """Where the current skill's cases live: evals/evals.json, or the waza/vally
        eval.yaml or plugin-eval case folders when that is what the skill has."""
        if self.current is None:
            return None
        found = skill_cases(self.current)
        return found[0] if found is not None else self.current / EVALS_PATH

    def _open_cases(self) -> EvalsFile:
        return open_cases(self.current)

    def evals_load(self) -> None:
        path = self.evals_path()
        if path is None:
            return
        self.evals_file = self._open_cases()
        if (pane := self.pane("EvalsPane")) is not None:
            pane.load(self.evals_file)
        self.trials_load()  # the run form lists the cases

    def evals_sync(self) -> None:
        """Fill the Evals tab when it first mounts: the file and the live SF31x findings."""
        pane = self.pane("EvalsPane")
        if pane is None:
            return
        if self.evals_file is None:
            self.evals_load()
        else:
            pane.load(self.evals_file)
        result = self.results.get(self.current) if self.current else None
        if result is not None:
            pane.show_findings(result.report.findings)
    def evals_after_lint(self, result) -> None:
        """Live lint finished for the current skill: findings, and a changed file on disk."""
        pane = self.pane("EvalsPane")
        if pane is not None:
            pane.show_findings(result.report.findings)
        if self.evals_file is None or self.evals_file.path != self.evals_path():
            self.evals_load()
        elif pane is None:
            if self.evals_file.changed_on_disk():
                self.evals_file = self._open_cases()
                self.trials_cases_changed()
        elif self.evals_file.changed_on_disk():
            fresh = self._open_cases()
            pane.apply_form()  # a key typed a moment ago is an unsaved edit too
            # With unsaved edits, keep the file as loaded: saving then meets the conflict
            # check instead of silently overwriting the other editor's change.
            if not pane.dirty:
                self.evals_file = fresh
                self.trials_cases_changed()
            pane.file_changed_on_disk(fresh)

    # --- saving -------------------------------------------------------------------------

    def _save(self, evalset, overwrite: bool) -> None:
        pane = self.pane("EvalsPane")
        if self.evals_file is None:
            self.evals_load()
        try:
            self.evals_file.save(evalset, overwrite=overwrite)
        except ConflictError as exc:
            pane.conflict(str(exc))
            self.saved_then_continue(False, f"{exc} Reload, overwrite or view the difference.")
        except (ValueError, OSError) as exc:
            pane.saved(False, str(exc))
            self.saved_then_continue(False, str(exc))
        else:
            pane.saved(True)
            self.trials_cases_changed()
            self.saved_then_continue(True)

    def on_save_requested(self, message: SaveRequested) -> None:
        message.stop()
        self._save(message.evalset, overwrite=False)

    def on_overwrite_requested(self, message: OverwriteRequested) -> None:
        message.stop()
        self._save(message.evalset, overwrite=True)

    def on_reload_requested(self, message: ReloadRequested) -> None:
        message.stop()
        path = self.evals_path()
        if path is not None:
            self.evals_file = self._open_cases()
            self.pane("EvalsPane").load(self.evals_file, keep_undo=True)
            self.trials_cases_changed()

    def on_diff_requested(self, message: DiffRequested) -> None:
        """Show the file on disk against the author's edits."""
        message.stop()
        from skillforge.models.evals_io import dumps_evals
        from skillforge.screens.diff_view import DiffScreen

        path = self.evals_path()
        try:
            if path is not None and path.name != "evals.json":  # another format: as JSON
                disk = dumps_evals(self._open_cases().evalset or message.evalset)
            else:
                disk = path.read_text("utf-8") if path is not None else ""
        except (OSError, UnicodeDecodeError) as exc:
            disk = f"(cannot read {EVALS_PATH}: {exc})"
        self.app.push_screen(DiffScreen(f"{EVALS_PATH}: on disk → your edits", disk,
                                        dumps_evals(message.evalset), "on disk", "your edits"))

    def on_edit_externally(self, message: EditExternally) -> None:
        message.stop()
        from skillforge.screens.editor import editor_command

        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False, encoding="utf-8") as fh:
            fh.write(message.text)
            tmp = Path(fh.name)
        try:
            with self.app.suspend():
                subprocess.run(editor_command(tmp, None), check=False)
            text = tmp.read_text("utf-8")
        except Exception as exc:  # noqa: BLE001 - SuspendNotSupported, no editor...
            self.notify(f"Could not open $EDITOR: {exc}", severity="warning")
            return
        finally:
            tmp.unlink(missing_ok=True)
        self.pane("EvalsPane").set_field_text(message.field, text.rstrip("\n"), case_id=message.case_id)

    # --- drafting and refining (model calls in workers) ---------------------------------

    async def _ask_model(self, call, doing: str) -> None:
        """Run `call(settings, client)` with the configured provider and post what it returns
        (an EvalsProposalReady); a failure is classified (no provider: configuration; an
        answer that does not fit: model output...) and posted there too."""
        from skillforge.providers import aclose
        from skillforge.providers.select import select_provider
        from skillforge.screens.failures import classify

        settings, _err = self.ws.settings(self.current)
        try:
            client = select_provider(settings)
        except Exception as exc:  # noqa: BLE001 - classified: configuration, or a bug
            self.post_message(EvalsProposalReady(failure=classify(exc, doing, "configuration")))
            return
        try:
            self.post_message(await call(settings, client))
        except Exception as exc:  # noqa: BLE001 - classified; only the unexpected is a bug
            self.post_message(EvalsProposalReady(failure=classify(exc, doing, "model output")))
        finally:
            await aclose(client)

    def evals_model_failed(self, failure) -> None:
        """Drafting or refining failed outside `_ask_model`: the status line says so."""
        if (pane := self.pane("EvalsPane")) is not None:
            pane.set_status(failure.message.splitlines()[0], error=True)

    def on_draft_requested(self, message: DraftRequested) -> None:
        message.stop()
        path = self.current
        pane = self.pane("EvalsPane")
        pane.set_status(f"drafting {message.count} case(s) per kind…")
        existing = self.evals_file.evalset if self.evals_file else None

        async def draft(settings, client) -> EvalsProposalReady:
            from skillforge.authoring.drafting import draft_cases
            from skillforge.models.skill import load_skill

            if message.kinds == ["trigger"]:  # trigger queries (issue 21)
                from skillforge.authoring.trigger_drafting import draft_triggers

                proposal = await draft_triggers(load_skill(path), client, count=message.count,
                                                existing=existing,
                                                max_tokens=settings.provider.max_tokens,
                                                temperature=settings.provider.temperature)
                return EvalsProposalReady(proposal=proposal)
            proposal = await draft_cases(load_skill(path), client, kinds=message.kinds,
                                         count=message.count, existing=existing,
                                         max_tokens=settings.provider.max_tokens,
                                         temperature=settings.provider.temperature)
            return EvalsProposalReady(proposal=proposal)

        self.run_worker(self._ask_model(draft, "Drafting cases"), name="draft", group="evals-model", exclusive=True, exit_on_error=False)

    def on_refine_requested(self, message: RefineRequested) -> None:
        message.stop()
        from sessions.store import RunStore

        settings, _err = self.ws.settings(self.current)
        state = self.ws.launch_dir / settings.state_dir
        records = RunStore(state).trajectories() if (state / "skillforge.db").exists() else []

        def picked(choice: str | None) -> None:
            if choice:
                self._refine(message.case_id, choice, state)

        from skillforge.screens.trajectory_picker import TrajectoryPicker

        self.app.push_screen(TrajectoryPicker(records, str(message.case_id)), picked)

    def _refine(self, case_id, choice: str, state: Path) -> None:
        path = self.current
        pane = self.pane("EvalsPane")
        pane.set_status(f"asking the model to refine case {case_id!r}…")
        evalset = self.evals_file.evalset if self.evals_file else None
        case = evalset.case(case_id) if evalset else None
        if case is None:
            pane.set_status(f"case {case_id!r} is not in the saved file; save first", error=True)
            return

        async def work() -> None:
            from sessions.importers import import_trajectory
            from sessions.store import RunStore
            from skillforge.models.skill import load_skill
            from skillforge.authoring.refining import refine_case

            try:
                if choice.startswith("store:"):
                    traj = RunStore(state).load(choice.removeprefix("store:"))
                else:
                    traj = import_trajectory(os.path.expanduser(choice)).trajectory
            except Exception as exc:  # noqa: BLE001 - any unreadable trace is the author's to fix
                self.post_message(EvalsProposalReady(error=f"cannot read that trajectory: {exc}"))
                return

            async def refine(settings, client) -> EvalsProposalReady:
                diff = await refine_case(load_skill(path), case, traj, client,
                                         max_tokens=settings.provider.max_tokens,
                                         temperature=settings.provider.temperature)
                return EvalsProposalReady(diff=diff)

            await self._ask_model(refine, f"Refining case {case_id!r}")

        self.run_worker(work(), name="refine", group="evals-model", exclusive=True, exit_on_error=False)

    def on_evals_proposal_ready(self, message: EvalsProposalReady) -> None:
        pane = self.pane("EvalsPane")
        if message.failure is not None:
            pane.set_status(message.failure.message.replace("\n", " "), error=True)
            self.show_failure(message.failure)
        elif message.error:
            pane.set_status(message.error, error=True)
        elif message.proposal is not None:
            pane.show_proposal(message.proposal)
        elif message.diff is not None:
            pane.show_diff(message.diff)
