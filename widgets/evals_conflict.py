"""The Evals tab's answer to a file that changed on disk under unsaved edits: reload it,
keep mine (the next save writes over it, on purpose), or view the difference first.

A mixin of `widgets.evals_pane.EvalsPane` (its attributes: `editor`, `path`, `dirty`,
`load`, `set_status`, `_saving`).
"""

from __future__ import annotations

from skillforge.models.evals import EVALS_PATH
from skillforge.models.evals_io import EvalsFile
from widgets.evals_bars import ConflictBar
from widgets.evals_messages import DiffRequested, OverwriteRequested, ReloadRequested


class ConflictHandling:
    """Reload / keep mine / view the difference; mixed into EvalsPane."""

    _keep_mine = False  # the author chose their edits over a change on disk

    def file_changed_on_disk(self, evals_file: EvalsFile) -> None:
        """The file changed outside: reload it when nothing is unsaved, else ask."""
        if not self.dirty:
            self.load(evals_file)
            self.set_status("evals.json changed on disk; reloaded.")
        else:
            self.conflict(f"{EVALS_PATH} changed on disk and you have unsaved edits.",
                          mode="changed")

    def conflict(self, message: str, *, mode: str = "save") -> None:
        """The file changed on disk under unsaved edits (mode "changed": noticed while
        editing; "save": saving found it): offer reload, keep mine, view the difference."""
        if self.path is not None:
            message = message.replace(str(self.path), EVALS_PATH)  # the long path says less
        self.query_one(ConflictBar).show(message, mode)
        mine = "keep yours" if mode == "changed" else "overwrite it with yours"
        self.set_status(f"Choose: reload the file from disk, {mine}, or view the difference.",
                        error=True)

    # Named by Textual's convention, not @on: a plain mixin's @on handlers are not collected.
    def on_conflict_bar_chosen(self, event: ConflictBar.Chosen) -> None:
        event.stop()
        if event.choice == "diff":
            if self.editor.working is not None:
                self.post_message(DiffRequested(self.editor.working.model_copy(deep=True)))
            return  # the question stays until answered
        if event.choice == "reload":
            self.post_message(ReloadRequested())
        elif event.choice == "keep":
            self._keep_mine = True
            self.set_status("Keeping your edits: ctrl+s writes them over the file on disk.")
        elif self.editor.working is not None:
            self._saving = self.editor.working.model_copy(deep=True)
            self.post_message(OverwriteRequested(self.editor.working.model_copy(deep=True)))
        self.query_one(ConflictBar).hide()
