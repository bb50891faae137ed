"""Keys typed in a burst reach the Evals tab's set before the action that follows them.

A key reaches the focused field first, and its edit reaches the pane as a message a moment
later; a key bound with priority (ctrl+s, ctrl+z, ctrl+y) is handled by the app before
either, and a case-list key's message used to be handled after the next key. Typing
`count-words` and ctrl+s at speed saved `count-word`; shift+↓ three times moved another
case. So an action that reads or replaces the set first lets the focused field take the
keys sent before it (`settle_typing`), applies what the form holds (`apply_form`), and drops
the form's messages posted before that (`is_stale`): they say nothing newer.

A mixin of `widgets.evals_pane.EvalsPane` (its `screen` and `apply_edit`).
"""

from __future__ import annotations

import asyncio
import contextlib

from widgets.case_form import CaseForm

# How long an action waits for the focused field to take the keys typed before it. The
# field only has to process keys already in its queue (under 10 ms at 200 keys a second in
# tests/tui/test_evals_bursts.py); the bound is for a field that never answers.
SETTLE_TIMEOUT_S = 1.0


class InFlightEdits:
    """Apply the form's pending edits before an action; mixed into EvalsPane."""

    _stale_seq = 0  # FieldEdited messages with a seq up to this were applied by apply_form

    async def settle_typing(self) -> None:
        """Wait until the focused field (if it is in this pane) has taken the keys sent
        before now, then apply the form; for actions bound with priority."""
        focused = self.screen.focused
        if focused is not None and self in focused.ancestors:
            done = asyncio.Event()
            focused.call_later(done.set)  # queued behind the keys already sent to it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), SETTLE_TIMEOUT_S)
        self.apply_form()

    def apply_form(self) -> None:
        """Put what the form's fields hold into the set now (the form's messages about them
        may still be on the way; they are stale from here)."""
        case, edits, self._stale_seq = self.query_one(CaseForm).take_edits()
        for field, (value, error) in edits.items():
            self.apply_edit(case, field, value, error, typed=True)

    def is_stale(self, event: CaseForm.FieldEdited) -> bool:
        """True for an edit `apply_form` has already put into the set (or superseded)."""
        return event.seq <= self._stale_seq
