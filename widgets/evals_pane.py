"""The Evals tab: the cases of evals.json, a form for the selected one, and what to do next.

The pane edits a working copy of the `EvalSet` it is given (`load`); files are the app's:
saving posts `SaveRequested(evalset)` and the app answers with `saved(...)` or `conflict(...)`.
Every change (field edits, add/delete/move, accepted proposals, a reload) is undoable:
ctrl+z restores the previous snapshot of the whole set. Typing in one field within two
seconds is one step of undo.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button

from skillforge.models.evals import EVALS_PATH, EvalCase, EvalIssue, EvalSet
from skillforge.models.evals_io import EvalsFile
from skillforge.models.findings import Finding
from widgets.case_form import CaseForm
from widgets.case_list import CaseList
from widgets.evals_bars import ConflictBar, DraftBar, EvalFindings
from widgets.evals_checks import CaseProblems
from widgets.evals_conflict import ConflictHandling
from widgets.evals_editor import EvalsEditor
from widgets.evals_inflight import InFlightEdits
from widgets.evals_proposing import Proposing
from widgets.evals_messages import (
    DraftRequested,
    OverwriteRequested,
    RefineRequested,
    SaveRequested,
)
from widgets.evals_status import EvalsTopBar, FileIssues, StatusLine
from widgets.proposal_view import ProposalView


class EvalsPane(InFlightEdits, Proposing, ConflictHandling, Vertical):
    """Edit the evaluation assets of a skill: cases, validation, undo, save, proposals."""

    HELP = """## Evals
The cases of `evals/evals.json`. Pick a case on the left; edit it on the right, where each
field shows its problem as you type. **Ctrl+S** saves (only when every case is valid),
**Ctrl+Z** / **Ctrl+Y** undo / redo any change, **Ctrl+N** adds a case (**a**, **d**,
**Shift+↑/↓** in the list add, delete, move), **Ctrl+O** edits the focused field in
`$EDITOR`. **Ctrl+G** drafts new cases with the configured model, **Ctrl+R** refines the
selected case from a trajectory; **Ctrl+K** drafts trigger queries (5 that should open the
skill, 5 near misses that should not) for `skillforge optimize-description`; each shows a
proposal you accept or reject piece by piece, and nothing is written until you save. ● in the title means unsaved changes.
"""
    DEFAULT_CSS = """
    EvalsPane { height: 1fr; }
    EvalsPane #evals-top { height: 1; padding: 0 1; }
    EvalsPane #evals-title { width: 1fr; text-style: bold; }
    EvalsPane #evals-top Button { margin-left: 1; width: auto; min-width: 8; }
    EvalsPane #evals-file-issues { color: $text-error; padding: 0 1; height: auto; display: none; }
    EvalsPane #evals-body { height: 1fr; }
    EvalsPane CaseList { width: 26; }
    EvalsPane ProposalView { display: none; }
    EvalsPane.-proposing ProposalView { display: block; }
    EvalsPane.-proposing CaseForm { display: none; }
    EvalsPane #evals-status { height: 1; padding: 0 1; color: $foreground-muted; }
    EvalsPane #evals-status.-error { color: $text-error; }
    """
    BINDINGS = [
        # The case list's keys, bound here so that each acts on the set at once: as the
        # list's own messages they arrived after the next key of a burst (issue 37).
        Binding("a", "list_add", "Add", id="evals.add_case"),
        Binding("d,delete", "list_delete", "Delete", id="evals.delete_case"),
        Binding("shift+up", "list_move(-1)", "Move case up", id="evals.move_up", show=False),
        Binding("shift+down", "list_move(1)", "Move case down", id="evals.move_down",
                show=False),
        Binding("ctrl+s", "save", "Save", id="evals.save", priority=True),
        Binding("ctrl+z", "undo", "Undo", id="evals.undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", id="evals.redo", priority=True),
        Binding("ctrl+n", "add_case", "New case", id="evals.new_case"),
        Binding("ctrl+g", "draft", "Draft", id="evals.draft"),
        Binding("ctrl+r", "refine", "Refine", id="evals.refine"),
        Binding("ctrl+k", "draft_triggers", "Triggers", id="evals.draft_triggers"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.path: Path | None = None
        self.file_issues: list[EvalIssue] = []
        self.editor = EvalsEditor()
        self._saving: EvalSet | None = None  # what a save in flight writes
        self._new_file = False
        self._list_sig: list | None = None
        self._pending_load: tuple[EvalsFile, bool] | None = None
        self._pending_findings: list[Finding] = []

    def compose(self) -> ComposeResult:
        yield EvalsTopBar(id="evals-top")
        yield ConflictBar(id="evals-conflict")
        yield DraftBar(id="evals-draftbar")
        yield FileIssues(id="evals-file-issues")
        with Horizontal(id="evals-body"):
            yield CaseList(id="evals-cases")
            yield CaseForm(id="evals-form")
            yield ProposalView(id="evals-proposal")
        yield EvalFindings(id="evals-findings")
        yield StatusLine(id="evals-status")

    def on_mount(self) -> None:
        self.query_one(EvalFindings).show(self._pending_findings)
        if self._pending_load is not None:
            evals_file, keep_undo = self._pending_load
            self._pending_load = None
            self._load(evals_file, keep_undo)
        else:
            self._render_all()

    # --- what the app calls ---------------------------------------------------------------

    @property
    def evalset(self) -> EvalSet | None:
        """The set as edited so far (the pane's working copy; do not mutate it)."""
        return self.editor.working

    @property
    def dirty(self) -> bool:
        """True when there are edits that are not saved."""
        return self.editor.dirty

    @property
    def selected_case(self) -> EvalCase | None:
        return self.editor.selected_case

    @property
    def problems(self) -> list[CaseProblems]:
        return list(self.editor.problems)

    def load(self, evals_file: EvalsFile, *, keep_undo: bool = False) -> None:
        """Edit the set `evals_file` holds. `keep_undo=True` (a reload after a conflict)
        keeps the current edits one ctrl+z away instead of dropping them."""
        if not self.is_mounted:
            self._pending_load = (evals_file, keep_undo)  # applied on mount
            return
        self._load(evals_file, keep_undo)

    def _load(self, evals_file: EvalsFile, keep_undo: bool) -> None:
        self.apply_form()  # what was typed is part of the edits kept (or discarded)
        self.path = evals_file.path
        self.file_issues = list(evals_file.issues)
        self._new_file = evals_file.text is None
        self.editor.load(evals_file.evalset, keep_undo=keep_undo)
        self._keep_mine = False
        self.query_one(ConflictBar).hide()
        self._render_all()
        if keep_undo:
            self.set_status("Reloaded from disk; ctrl+z brings your edits back.")

    def saved(self, ok: bool, error: str | None = None) -> None:
        """The app's answer to SaveRequested / OverwriteRequested."""
        if ok:
            if self._saving is not None:
                self.editor.mark_saved(self._saving)
            self._new_file = False
            self._keep_mine = False
            self.query_one(ConflictBar).hide()
            self.set_status(f"Saved {self.file_label}.")
        else:
            self.set_status(f"Not saved: {error or 'unknown error'}", error=True)
        self._saving = None
        self._render_title()

    def set_field_text(self, field: str, text: str, case_id: str | int | None = None) -> None:
        """Text back from $EDITOR for `field` of `case_id` (default: the selected case)."""
        self.call_later(self._set_field_text, field, text, case_id)

    def show_findings(self, findings: list[Finding]) -> None:
        """The latest lint findings of the skill; the evals ones are shown."""
        if not self.is_mounted:
            self._pending_findings = list(findings)
            return
        self.query_one(EvalFindings).show(findings)

    def set_status(self, text: str, *, error: bool = False) -> None:
        self.query_one(StatusLine).say(text, error=error)

    @property
    def file_label(self) -> str:  # what the cases are saved to, as the author names it
        path = self.path
        if path is None or path.name == "evals.json":
            return EVALS_PATH
        return "evals/ (plugin-eval case folders)" if path.is_dir() else f"evals/{path.name}"

    @property
    def status_text(self) -> str:
        return self.query_one(StatusLine).text

    # --- rendering ------------------------------------------------------------------------

    def _render_all(self) -> None:
        self._list_sig = None
        self._refresh_views()
        self.query_one(FileIssues).show(self.file_issues, parsed=self.editor.working is not None)
        self._reload_form()

    def _reload_form(self) -> None:
        """Show the selected case in the form, once the messages queued now are handled;
        until then the form's fields no longer edit the set."""
        self.query_one(CaseForm).release()
        self.call_later(self._render_form)

    def _refresh_views(self) -> None:
        """After a change: the list's badges, the form's problems, the title."""
        self._render_list()
        self._render_problems()
        self._render_title()

    def _render_list(self) -> None:
        ed = self.editor
        sig = [(str(c.id), c.kind, bool(p)) for c, p in zip(ed.cases, ed.problems, strict=True)]
        cases = self.query_one(CaseList)
        if sig != self._list_sig:
            self._list_sig = sig
            cases.show(ed.cases, ed.problems, ed.selected)
        else:
            cases.select_quietly(ed.selected)  # the same rows: only the highlight moves

    async def _render_form(self) -> None:
        if self.editor.working is None:
            empty = ("Nothing to edit here until evals.json parses: fix it in your editor "
                     "(its problems are listed above); the form fills in when it is saved.")
        elif not self.editor.cases:
            empty = "No cases yet: add one with a (or ctrl+n)."
        else:
            empty = ""
        await self.query_one(CaseForm).load(self.editor.selected_case, empty)
        self._render_problems()

    def _render_problems(self) -> None:
        ed = self.editor
        case = ed.selected_case
        if case is not None:
            problems = ed.problems[ed.selected] if ed.selected < len(ed.problems) else None
            self.query_one(CaseForm).show_problems(problems, ed.unconverted_for(case))

    def _render_title(self) -> None:
        self.query_one(EvalsTopBar).show(self.editor, new_file=self._new_file)

    def _select(self, index: int | None) -> None:
        if index == self.editor.selected:
            return
        self.apply_form()  # what was typed belongs to the case the form shows
        if self.editor.select(index):
            self._render_list()
            self._reload_form()

    def _list_row(self) -> int | None:
        """The case highlighted in the list, selected (its own message may still be on the
        way): the row the author sees is the one a key acts on."""
        if (row := self.query_one(CaseList).highlighted) is not None:
            self._select(row)
        return self.editor.selected

    async def _set_field_text(self, field: str, text: str, case_id: str | int | None) -> None:
        if case_id is not None:
            index = self.editor.index_of(case_id)
            if index is None:
                self.set_status(f"Case {case_id!r} is gone; the edited text was not applied.",
                                error=True)
                return
            if self.editor.select(index):
                self._render_list()
                await self._render_form()
        if self.editor.selected_case is not None:
            await self.query_one(CaseForm).set_field_text(field, text)

    # --- events ---------------------------------------------------------------------------

    def apply_edit(self, case: EvalCase | None, field: str, value, error: str | None,
                   typed: bool) -> None:
        """An edit of `field` of `case` made in the form (by a message or `apply_form`)."""
        if case is not None and self.editor.edit_field(case, field, value, error, typed):
            self._refresh_views()
            if field == "id" and (shown := self.editor.selected_case) is not None:
                self.query_one(CaseForm).show_case_title(shown)

    @on(CaseForm.FieldEdited)
    def _field_edited(self, event: CaseForm.FieldEdited) -> None:
        event.stop()
        if not self.is_stale(event):
            self.apply_edit(event.case, event.field, event.value, event.error, event.typed)

    @on(CaseList.CaseHighlighted)
    def _case_highlighted(self, event: CaseList.CaseHighlighted) -> None:
        event.stop()
        # The row highlighted now, not the one the message names: keys may have moved on.
        self._list_row()

    @on(EvalFindings.LineChosen)
    def _line_chosen(self, event: EvalFindings.LineChosen) -> None:
        event.stop()
        before = [i for i, c in enumerate(self.editor.cases)
                  if c.line is not None and c.line <= event.line]
        if before:
            self._select(before[-1])
            self.query_one(CaseList).focus()

    def _after_structural(self, message: str) -> None:
        self._refresh_views()
        self._reload_form()
        self.set_status(message)

    # --- actions --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("list_"):  # a, d, shift+↑↓: keys of the case list only
            return isinstance(self.screen.focused, CaseList)
        return True

    def action_list_add(self) -> None:
        self.action_add_case()

    def action_list_delete(self) -> None:
        index = self._list_row()
        case = self.editor.delete_case(index) if index is not None else None
        if case is not None:
            self._after_structural(f"Deleted case {case.id!r} (ctrl+z undoes).")

    def action_list_move(self, step: int) -> None:
        index = self._list_row()
        if index is not None and self.editor.move_case(index, step):
            self._refresh_views()

    def action_add_case(self) -> None:
        self._list_row()
        if self.editor.add_case() is None:
            self.set_status("Fix evals.json first: it does not parse.", error=True)
            return
        self._after_structural("Added a case: write its prompt (ctrl+z undoes).")
        self.call_later(lambda: self.query_one("#field-prompt").focus())

    async def action_undo(self) -> None:
        await self.settle_typing()  # what was typed just before is undone with the rest
        self._restored(self.editor.undo(), "Undone.", "Nothing to undo.")

    async def action_redo(self) -> None:
        await self.settle_typing()
        self._restored(self.editor.redo(), "Redone.", "Nothing to redo.")

    def _restored(self, ok: bool, done: str, nothing: str) -> None:
        if ok:
            self._render_all()
        self.set_status(done if ok else nothing)

    async def action_save(self) -> None:
        await self.settle_typing()  # every key typed before ctrl+s is saved
        self.save()

    def save(self) -> None:
        """Save the set as the form shows it, or say why it cannot be saved."""
        self.apply_form()
        blocker = self.editor.save_blocker()
        if blocker is not None:
            self.set_status(blocker, error=True)
            bad = self.editor.first_bad()
            if bad is not None:
                self._select(bad)
            return
        assert self.editor.working is not None
        self._saving = self.editor.working.model_copy(deep=True)
        self.set_status("Saving…")
        copy = self.editor.working.model_copy(deep=True)
        self.post_message(OverwriteRequested(copy) if self._keep_mine else SaveRequested(copy))

    def action_draft(self) -> None:
        self.query_one(DraftBar).show()

    def action_draft_triggers(self) -> None:
        self.post_message(DraftRequested(["trigger"], 5))
        self.set_status("Drafting 5 trigger queries and 5 near misses…")

    def action_refine(self) -> None:
        case = self.editor.selected_case
        if case is None:
            self.set_status("Select a case to refine first.", error=True)
            return
        self.post_message(RefineRequested(case.id))
        self.set_status(f"Refining case {case.id!r}: choose a trajectory…")

    @on(DraftBar.Submitted)
    def _draft_submitted(self, event: DraftBar.Submitted) -> None:
        event.stop()
        self.post_message(DraftRequested(event.kinds, event.count))
        self.set_status(f"Drafting {event.count} case(s) of each of {', '.join(event.kinds)}…")

    @on(Button.Pressed)
    def _button_pressed(self, event: Button.Pressed) -> None:
        # The top bar's mouse shortcuts; other buttons (the bars') are theirs to handle.
        action = {"evals-save": self.save, "evals-draft": self.action_draft,
                  "evals-refine": self.action_refine}.get(event.button.id or "")
        if action is not None:
            action()
