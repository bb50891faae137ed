"""The Evals tab's proposals: drafted cases or a case's refined fields, shown in place of the
form until the author accepts (part of) them or rejects them.

A mixin of `widgets.evals_pane.EvalsPane` (its `editor`, `set_status`, `_after_structural`).
Handlers are named by Textual's convention: a plain mixin's @on handlers are not collected.
"""

from __future__ import annotations

from skillforge.models.proposals import CaseDiff, Proposal
from widgets.case_list import CaseList
from widgets.evals_messages import ProposalAccepted, ProposalRejected
from widgets.proposal_view import ProposalView


class Proposing:
    """Show a proposal, apply what is accepted; mixed into EvalsPane."""

    def show_proposal(self, proposal: Proposal) -> None:
        """Drafted cases to accept or reject (replaces the form until answered)."""
        self.add_class("-proposing")
        self.query_one(ProposalView).show_proposal(proposal)
        self.set_status("Accept or reject the proposed cases (space toggles, a applies, "
                        "r rejects).")

    def show_diff(self, diff: CaseDiff) -> None:
        """Proposed edits of one case to accept or reject field by field."""
        self.add_class("-proposing")
        self.query_one(ProposalView).show_diff(diff)
        self.set_status("Accept or reject each edit (space toggles, a applies, r rejects).")

    def on_proposal_accepted(self, event: ProposalAccepted) -> None:
        # Not stopped: the app may log or notify; the set is changed here, once.
        self._end_proposal()
        try:
            message = self.editor.apply(event.proposal, accepted_ids=event.accepted_ids,
                                        verified_ids=event.verified_ids,
                                        accepted_fields=event.accepted_fields)
        except (KeyError, ValueError) as exc:
            self.set_status(f"Could not apply the proposal: {exc}", error=True)
            return
        self._after_structural(message)

    def on_proposal_rejected(self, event: ProposalRejected) -> None:
        self._end_proposal()
        self.set_status("Proposal rejected; nothing changed.")

    def _end_proposal(self) -> None:
        self.remove_class("-proposing")
        # The proposal had focus; keep it inside the pane so its keys (ctrl+z...) still work.
        self.query_one(CaseList).focus()
