"""Messages the evals widgets post for the app to act on (the widgets never touch files).

Handler names follow Textual's rule: `SaveRequested` -> `on_save_requested`, and so on.
"""

from __future__ import annotations

from textual.message import Message

from skillforge.models.evals import EvalSet


class SaveRequested(Message):
    """The author pressed save: write `evalset` (a snapshot) through `EvalsFile.save`, then
    call `EvalsPane.saved(ok, error)`, or `EvalsPane.conflict(message)` on ConflictError."""

    def __init__(self, evalset: EvalSet) -> None:
        super().__init__()
        self.evalset = evalset


class ReloadRequested(Message):
    """After a conflict the author chose to take the file as it is on disk: load it and
    call `EvalsPane.load(evals_file, keep_undo=True)` (their edits stay one undo away)."""


class OverwriteRequested(Message):
    """After a conflict the author chose to keep their version: save `evalset` with
    `overwrite=True`, then call `EvalsPane.saved(ok, error)`."""

    def __init__(self, evalset: EvalSet) -> None:
        super().__init__()
        self.evalset = evalset


class DiffRequested(Message):
    """The author wants to see how `evalset` (their edits) differs from the file on disk:
    the app shows the two side by side as a diff; nothing changes."""

    def __init__(self, evalset: EvalSet) -> None:
        super().__init__()
        self.evalset = evalset


class EditExternally(Message):
    """Open `text` (field `field` of case `case_id`) in $EDITOR; when the editor closes,
    call `EvalsPane.set_field_text(field, new_text, case_id=case_id)`. List fields come
    one item per line."""

    def __init__(self, field: str, text: str, case_id: str | int | None) -> None:
        super().__init__()
        self.field = field
        self.text = text
        self.case_id = case_id


class DraftRequested(Message):
    """Ask the model for `count` new cases of each of `kinds`; show the result with
    `EvalsPane.show_proposal(proposal)`."""

    def __init__(self, kinds: list[str], count: int) -> None:
        super().__init__()
        self.kinds = kinds
        self.count = count


class RefineRequested(Message):
    """Refine case `case_id` from a trajectory the app lets the author choose; show the
    result with `EvalsPane.show_diff(diff)`."""

    def __init__(self, case_id: str | int) -> None:
        super().__init__()
        self.case_id = case_id


class ProposalAccepted(Message):
    """The author accepted part of a proposal. For drafted cases `accepted_ids` lists the
    accepted case ids and `verified_ids` the cases whose session-derived ground truth they
    vouched for; for a case diff `accepted_fields` lists the accepted fields of `case_id`.
    `EvalsPane` applies it to the set being edited itself (undoable); the app need not."""

    def __init__(self, proposal: object, *, accepted_ids: list[str | int] | None = None,
                 verified_ids: list[str | int] | None = None,
                 accepted_fields: list[str] | None = None,
                 case_id: str | int | None = None) -> None:
        super().__init__()
        self.proposal = proposal
        self.accepted_ids = accepted_ids
        self.verified_ids = verified_ids or []
        self.accepted_fields = accepted_fields
        self.case_id = case_id


class ProposalRejected(Message):
    """The author rejected a whole proposal; nothing changes."""

    def __init__(self, proposal: object) -> None:
        super().__init__()
        self.proposal = proposal
