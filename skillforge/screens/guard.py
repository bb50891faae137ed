"""Nothing the author typed is lost by a key: quitting or switching skill with unsaved
eval edits asks first (save, discard or cancel).

A mixin of WorkbenchScreen. `guard(doing, then)` runs `then` at once when nothing is
unsaved; otherwise it asks, and `then` runs after a successful save or a discard. A save
that cannot happen (a case is invalid, the file changed on disk) says why and does not go
on: the edits stay on screen.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path

from skillforge.models.evals import EVALS_PATH
from skillforge.screens.unsaved import UnsavedChanges


class UnsavedGuard:
    """Ask before unsaved edits go; mixed into WorkbenchScreen."""

    _after_save: Callable[[], object] | None = None

    def unsaved_edits(self) -> str | None:
        """What is unsaved, as a sentence, or None."""
        pane = self.pane("EvalsPane")
        if pane is None:
            return None
        pane.apply_form()  # keys typed just before q count as edits
        if not pane.dirty:
            return None
        skill = self.current.name if self.current is not None else "this skill"
        return f"{EVALS_PATH} of {skill} has unsaved edits"

    def guard(self, doing: str, then: Callable[[], object]) -> None:
        """Run `then` (e.g. quit), asking first when edits are unsaved."""
        if isinstance(self.app.screen, UnsavedChanges):
            return  # already asking (q pressed again while the question is up)
        what = self.unsaved_edits()
        if what is None:
            self._run(then)
            return

        def answered(choice: str | None) -> None:
            if choice == "discard":
                self._run(then)
            elif choice == "save":
                self._save_then(then)

        self.app.push_screen(UnsavedChanges(what, doing), answered)

    def request_switch(self, path: Path) -> None:
        """Switch skill (sidebar, n/p, palette), asking first when edits are unsaved."""
        if path == self.current or path not in self.ws.skills:
            return
        name = self.results[path].skill.display_name if path in self.results else path.name
        self.guard(f"switch to {name}", lambda: self.switch_skill(path))

    def _save_then(self, then: Callable[[], object]) -> None:
        pane = self.pane("EvalsPane")
        blocker = pane.editor.save_blocker()
        if blocker is not None:
            self.run_worker(self.action_show_tab("evals-pane"), group="guard")
            pane.save()  # shows the problem and selects the case that has it
            self.notify(f"{blocker} Fix it, or choose Discard.",
                        title="Unsaved changes", severity="error", timeout=8)
            return
        self._after_save = then
        pane.save()

    def saved_then_continue(self, ok: bool, why: str = "") -> None:
        """Called by the Evals tab after a save: go on with what the save was for."""
        then, self._after_save = self._after_save, None
        if then is None:
            return
        if ok:
            self._run(then)
        else:
            self.run_worker(self.action_show_tab("evals-pane"), group="guard")
            self.notify(f"Not saved: {why}", title="Unsaved changes", severity="error",
                        timeout=8)

    def _run(self, then: Callable[[], object]) -> None:
        result = then()
        if inspect.isawaitable(result):
            self.run_worker(result, group="guard")
