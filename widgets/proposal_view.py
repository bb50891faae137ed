"""What drafting or refining proposes, to accept or reject piece by piece.

Drafted cases (`skillforge.models.proposals.Proposal`): one entry per case, all starting
accepted. A case whose ground truth was taken from the agent's own session gets a second
entry, "keep its ground truth", that starts unaccepted and is flagged.

A case diff (`CaseDiff`, from refining): one entry per field, old -> new with the rationale
and the steps it relied on. A change taken from the agent's own answer starts unaccepted and
carries the warning. Space toggles an entry, **a** applies the accepted ones
(`ProposalAccepted`), **r** or Escape rejects everything (`ProposalRejected`). Each entry is
a check mark with its full text (a diff spans several lines, which a SelectionList cannot show).
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Button, Static

from skillforge.models.proposals import (
    FROM_AGENT_WARNING,
    CaseDiff,
    FieldChange,
    Proposal,
    ProposedCase,
)
from widgets.evals_messages import ProposalAccepted, ProposalRejected

WARN = "bold yellow"


def _value_lines(value: Any) -> list[str]:
    if value is None:
        return ["(not set)"]
    if isinstance(value, list):
        return [f"• {item}" for item in value] or ["(empty list)"]
    if isinstance(value, str):
        return value.splitlines() or [""]
    return [json.dumps(value, ensure_ascii=False)]


def change_text(change: FieldChange) -> Text:
    """One field change as the author reads it: name, flag, old, new, why."""
    text = Text()
    text.append(change.field, style="bold")
    if change.name and change.name != change.field:
        text.append(f" (as {change.name!r})", style="dim")
    if change.from_agent:
        text.append(f"  ⚠ {change.warning or FROM_AGENT_WARNING}", style=WARN)
    elif change.warning:
        text.append(f"  ⚠ {change.warning}", style=WARN)
    old, new = change.old, change.new
    if isinstance(old, list) and isinstance(new, list):
        for item in old:
            mark, style = ("  ", "dim") if item in new else ("- ", "red")
            text.append(f"\n  {mark}{item}", style=style)
        for item in new:
            if item not in old:
                text.append(f"\n  + {item}", style="green")
    else:
        for line in _value_lines(old):
            text.append(f"\n  - {line}", style="red")
        for line in _value_lines(new):
            text.append(f"\n  + {line}", style="green")
    if change.rationale:
        text.append(f"\n  why: {change.rationale}", style="italic")
    if change.evidence_steps:
        text.append(f"  (steps {', '.join(map(str, change.evidence_steps))})", style="dim")
    return text


def case_text(case: ProposedCase) -> Text:
    """A proposed case in a few lines: kind, id, prompt, what it expects, why."""
    text = Text()
    text.append(f"[{case.kind}] ", style="dim")
    text.append(str(case.id), style="bold")
    text.append(f"\n  {case.prompt}")
    if case.should_trigger is not None:
        text.append("\n  should open the skill" if case.should_trigger
                    else "\n  should NOT open the skill (near miss)", style="bold")
    if case.ground_truth:
        text.append(f"\n  ground truth: {case.ground_truth}")
        if case.ground_truth_unverified:
            text.append(f"\n  ⚠ {case.ground_truth_warning or FROM_AGENT_WARNING}", style=WARN)
    expects = []
    if case.expected_script:
        expects.append(f"runs {case.expected_script}")
    if case.files:
        expects.append(f"files: {', '.join(case.files)}")
    if case.expected_behavior:
        expects.append(f"{len(case.expected_behavior)} behaviour checks")
    if expects:
        text.append(f"\n  {' · '.join(expects)}", style="dim")
    if case.rationale:
        text.append(f"\n  why: {case.rationale}", style="italic")
    for note in case.dropped:
        text.append(f"\n  dropped: {note}", style="dim yellow")
    return text


class ProposalEntry(Static, can_focus=True):
    """One thing to accept or not: a check mark and what it is, on as many lines as needed.

    Space, Enter or a click toggles it.
    """

    DEFAULT_CSS = """
    ProposalEntry { height: auto; margin-bottom: 1; padding: 0 1; }
    ProposalEntry:focus { background: $boost; }
    ProposalEntry.-flagged { border-left: thick $warning; padding-left: 0; }
    """
    BINDINGS = [Binding("space,enter", "toggle", "Accept or not", id="proposal.toggle",
                        show=False)]

    accepted: reactive[bool] = reactive(True)

    def __init__(self, value: str, text: Text, accepted: bool, *, flagged: bool = False) -> None:
        super().__init__(classes="-flagged" if flagged else "")
        self.value = value
        self._text = text
        self.set_reactive(ProposalEntry.accepted, accepted)

    @property
    def text(self) -> str:
        return self._text.plain

    def render(self) -> Text:
        mark = Text("[x] " if self.accepted else "[ ] ",
                    style="bold green" if self.accepted else "dim")
        body = self._text.copy()
        body.stylize("" if self.accepted else "dim")
        # Continuation lines start under the text, not under the mark.
        return Text("\n    ").join([mark + line if i == 0 else line
                                     for i, line in enumerate(body.split("\n"))])

    def action_toggle(self) -> None:
        self.accepted = not self.accepted

    def on_click(self) -> None:
        self.focus()
        self.action_toggle()


class ProposalView(Vertical):
    """Accept or reject proposed cases, or a proposed case diff field by field."""

    HELP = """## Proposal
What the model proposes. **Space** toggles the focused entry, **↑/↓** move between entries;
**a** applies the accepted entries to the cases being edited (ctrl+z undoes it; nothing is
written until you save); **r** or **Escape** rejects the whole proposal. Entries flagged ⚠
(with a bar on the left) were taken from the agent's own answer: they start unaccepted,
because grading an agent against its own answer proves nothing. Accept them only after
checking them yourself.
"""
    DEFAULT_CSS = """
    ProposalView { height: 1fr; border: round $warning; padding: 0 1; }
    ProposalView #proposal-head { height: auto; max-height: 6; margin-bottom: 1; }
    ProposalView #proposal-items { height: 1fr; }
    ProposalView #proposal-buttons { height: 1; margin-top: 1; }
    ProposalView #proposal-buttons Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("a", "accept", "Apply accepted", id="proposal.accept"),
        Binding("r,escape", "reject", "Reject all", id="proposal.reject"),
        Binding("down", "move(1)", "Next entry", id="proposal.next", show=False),
        Binding("up", "move(-1)", "Previous entry", id="proposal.previous", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Proposal"
        self.proposal: Proposal | CaseDiff | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="proposal-head")
        yield VerticalScroll(id="proposal-items")
        with Horizontal(id="proposal-buttons"):
            yield Button("Apply accepted (a)", variant="primary", compact=True, id="proposal-apply")
            yield Button("Reject all (r)", variant="error", compact=True, id="proposal-reject")

    @property
    def entries(self) -> list[ProposalEntry]:
        return list(self.query(ProposalEntry))

    def entry(self, value: str) -> ProposalEntry:
        """The entry for `case:<id>`, `verify:<id>` or `field:<name>`."""
        return next(e for e in self.entries if e.value == value)

    def show_proposal(self, proposal: Proposal) -> None:
        """Drafted cases, each accepted to start with; session ground truths are not."""
        self.proposal = proposal
        head = Text()
        head.append(f"{len(proposal.cases)} proposed case(s)", style="bold")
        head.append(f" from {proposal.call.model}" if proposal.call else "", style="dim")
        if proposal.source != "skill":
            head.append(f" · made from {proposal.source}", style="dim")
        for warning in proposal.warnings:
            head.append(f"\n⚠ {warning}", style=WARN)
        self.query_one("#proposal-head", Static).update(head)
        entries = []
        for case in proposal.cases:
            entries.append(ProposalEntry(f"case:{case.id}", case_text(case), True))
            if case.ground_truth_unverified and case.ground_truth:
                keep = Text(f"keep the ground truth of {case.id!r} as the answer to grade "
                            "against\n", style="bold")
                keep.append(f"⚠ {FROM_AGENT_WARNING}", style=WARN)
                entries.append(ProposalEntry(f"verify:{case.id}", keep, False, flagged=True))
        self._fill(entries)
        self.border_title = "Proposed cases"

    def show_diff(self, diff: CaseDiff) -> None:
        """Field-by-field edits of one case; agent-derived changes start unaccepted."""
        self.proposal = diff
        head = Text()
        head.append(f"Refine case {diff.case_id!r}", style="bold")
        head.append(f" from {diff.trajectory}", style="dim")
        if diff.observations:
            head.append(f"\n{diff.observations}", style="italic")
        for warning in diff.warnings:
            head.append(f"\n⚠ {warning}", style=WARN)
        self.query_one("#proposal-head", Static).update(head)
        self._fill([ProposalEntry(f"field:{c.field}", change_text(c),
                                  c.accepted and not c.from_agent, flagged=c.from_agent)
                    for c in diff.changes])
        self.border_title = "Proposed edits"

    def _fill(self, entries: list[ProposalEntry]) -> None:
        items = self.query_one("#proposal-items", VerticalScroll)
        items.remove_children()
        items.mount_all(entries)
        items.scroll_home(animate=False)
        self.call_after_refresh(self._focus_first)

    def _focus_first(self) -> None:
        entries = self.entries
        if entries:
            entries[0].focus()

    def action_move(self, step: int) -> None:
        entries = self.entries
        focused = self.screen.focused
        if not entries:
            return
        i = entries.index(focused) + step if focused in entries else 0
        entry = entries[max(0, min(i, len(entries) - 1))]
        entry.focus()
        entry.scroll_visible(animate=False)

    # --- answers --------------------------------------------------------------------------

    @property
    def accepted_values(self) -> list[str]:
        return [e.value for e in self.entries if e.accepted]

    def _ids(self, prefix: str) -> list[str | int]:
        wanted = {v.removeprefix(prefix) for v in self.accepted_values if v.startswith(prefix)}
        if isinstance(self.proposal, Proposal):
            return [c.id for c in self.proposal.cases if str(c.id) in wanted]
        return sorted(wanted)

    def action_accept(self) -> None:
        proposal = self.proposal
        if proposal is None:
            return
        if isinstance(proposal, CaseDiff):
            fields = [c.field for c in proposal.changes if f"field:{c.field}" in self.accepted_values]
            if not fields:
                self.notify("Nothing accepted: toggle entries with Space, or press r to reject.",
                            severity="warning")
                return
            self.post_message(ProposalAccepted(proposal, accepted_fields=fields,
                                               case_id=proposal.case_id))
            return
        ids = self._ids("case:")
        if not ids:
            self.notify("Nothing accepted: toggle entries with Space, or press r to reject.",
                        severity="warning")
            return
        verified = [i for i in self._ids("verify:") if str(i) in {str(x) for x in ids}]
        self.post_message(ProposalAccepted(proposal, accepted_ids=ids, verified_ids=verified))

    def action_reject(self) -> None:
        if self.proposal is not None:
            self.post_message(ProposalRejected(self.proposal))

    @on(Button.Pressed, "#proposal-apply")
    def _apply_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_accept()

    @on(Button.Pressed, "#proposal-reject")
    def _reject_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_reject()
