"""The state of the evals editor, without any UI: the working set, the selection, undo,
the problems of each case, and every change an author can make (pure; no Textual).

`EvalsPane` renders this and turns keys and clicks into calls to it; tests can drive it
directly. The set it edits is a copy: the file's `EvalsFile` is never touched.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from skillforge.authoring.drafting import merge_proposal, verify_ground_truth
from skillforge.models.evals import EvalCase, EvalSet
from skillforge.models.evals_io import add_case, new_case, set_field, unique_case_id
from skillforge.models.proposals import CaseDiff, Proposal
from skillforge.authoring.refining import apply_diff
from widgets.evals_checks import CaseProblems, check_evalset
from widgets.evals_history import EditHistory


class EvalsEditor:
    """What is being edited, and the operations on it (each one undoable)."""

    def __init__(self) -> None:
        self.working: EvalSet | None = None
        self.selected: int | None = None
        self.history = EditHistory()
        # The set as the file on disk holds it (as loaded or last saved): "unsaved" means
        # the working set differs from it, however the working set got here.
        self.on_disk: EvalSet | None = None
        self._differs: tuple[int, bool] | None = None  # (history version, differs)
        self.problems: list[CaseProblems] = []
        # Text that could not become a field's value: (id(case), field) -> why.
        self.unconverted: dict[tuple[int, str], str] = {}

    # --- reading --------------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        """True when the set as edited is not what the file on disk holds (or a field holds
        text that could not become a value yet)."""
        if self.unconverted:
            return True
        version = self.history.version
        if self._differs is None or self._differs[0] != version:
            self._differs = (version, _content(self.working) != _content(self.on_disk))
        return self._differs[1]

    def mark_saved(self, evalset: EvalSet) -> None:
        """`evalset` (a copy of the set as it was when saving began) is now on disk."""
        self.on_disk = evalset.model_copy(deep=True)
        self._differs = None

    @property
    def cases(self) -> list[EvalCase]:
        return self.working.cases if self.working is not None else []

    @property
    def selected_case(self) -> EvalCase | None:
        if self.selected is None or not 0 <= self.selected < len(self.cases):
            return None
        return self.cases[self.selected]

    def index_of(self, case_id: str | int) -> int | None:
        return next((i for i, c in enumerate(self.cases) if str(c.id) == str(case_id)), None)

    def unconverted_for(self, case: EvalCase) -> dict[str, str]:
        return {f: m for (cid, f), m in self.unconverted.items() if cid == id(case)}

    def save_blocker(self) -> str | None:
        """Why the set cannot be saved as it is (None: it can)."""
        if self.working is None:
            return "Nothing to save: evals.json did not parse."
        if self.unconverted:
            return f"Not saved: {next(iter(self.unconverted.values()))}"
        bad = [i for i, p in enumerate(self.problems) if p]
        if bad:
            case = self.cases[bad[0]]
            return (f"Not saved: case {case.id!r}: {self.problems[bad[0]].first()} "
                    f"({len(bad)} case(s) marked ⚠)")
        return None

    def first_bad(self) -> int | None:
        return next((i for i, p in enumerate(self.problems) if p), None)

    # --- changes --------------------------------------------------------------------------

    def load(self, evalset: EvalSet | None, *, keep_undo: bool = False) -> None:
        """Edit a copy of `evalset`; `keep_undo` keeps the current set one undo away."""
        kept = self.working if keep_undo else None
        self.history.reset(kept, self.selected)
        self.working = evalset.model_copy(deep=True) if evalset is not None else None
        self.on_disk = evalset.model_copy(deep=True) if evalset is not None else None
        self._differs = None
        count = len(self.cases)
        if not (keep_undo and self.selected is not None and self.selected < count):
            self.selected = 0 if count else None
        self.unconverted.clear()
        self.revalidate()

    def revalidate(self) -> None:
        self.problems = check_evalset(self.working) if self.working is not None else []

    def select(self, index: int | None) -> bool:
        """Select a case; True when the selection changed."""
        if index == self.selected:
            return False
        self.selected = index
        self.history.end_group()
        return True

    def _before(self, group: Any = None) -> None:
        assert self.working is not None
        self.history.checkpoint(self.working, self.selected, group)

    def _after(self) -> None:
        self.history.changed()
        self.revalidate()

    def edit_field(self, case: EvalCase, field: str, value: Any, error: str | None = None,
                   typed: bool = False) -> bool:
        """Apply a form edit to `case`; False when nothing changed (or the case is gone)."""
        if self.working is None or not any(c is case for c in self.cases):
            return False  # an edit of a case that undo or a reload replaced meanwhile
        key = (id(case), field)
        if error:
            self.unconverted[key] = error
            return True
        had = self.unconverted.pop(key, None) is not None
        current = getattr(case, field)
        if current == value and type(current) is type(value):
            return had
        self._before(key if typed else None)
        try:
            set_field(case, field, value)
        except ValidationError as exc:
            self.unconverted[key] = f"{field}: {exc.errors()[0]['msg']}"
        self._after()
        return True

    def add_case(self) -> int | None:
        """A new case after the selected one (its prompt still to write); its index."""
        if self.working is None:
            return None
        self._before()
        index = self.selected + 1 if self.selected is not None else len(self.cases)
        add_case(self.working, new_case(unique_case_id(self.working, "new-case"), ""), index)
        self.selected = index
        self._after()
        return index

    def delete_case(self, index: int) -> EvalCase | None:
        if not 0 <= index < len(self.cases):
            return None
        self._before()
        case = self.cases.pop(index)  # by position: two cases may share an id
        self.selected = min(index, len(self.cases) - 1) if self.cases else None
        self._after()
        return case

    def move_case(self, index: int, step: int) -> bool:
        target = index + step
        if not (0 <= index < len(self.cases) and 0 <= target < len(self.cases)):
            return False
        self._before()
        self.cases.insert(target, self.cases.pop(index))
        self.selected = target
        self._after()
        return True

    def undo(self) -> bool:
        return self._restore(self.history.undo)

    def redo(self) -> bool:
        return self._restore(self.history.redo)

    def _restore(self, step) -> bool:
        snap = step(self.working, self.selected) if self.working is not None else None
        if snap is None:
            return False
        self.working, self.selected = snap.evalset, snap.selected
        self.unconverted.clear()
        self.revalidate()
        return True

    def apply(self, proposal: Proposal | CaseDiff, *, accepted_ids: list | None = None,
              verified_ids: list | None = None, accepted_fields: list[str] | None = None) -> str:
        """Apply the accepted part of a proposal; what was done. KeyError/ValueError when it
        cannot be applied (nothing changes then)."""
        if self.working is None:
            raise ValueError("evals.json did not parse; fix it first")
        changed, index, message = apply_accepted(self.working, proposal, accepted_ids,
                                                 verified_ids or [], accepted_fields)
        self._before()
        self.working = changed
        self.selected = min(index, len(changed.cases) - 1) if changed.cases else None
        self._after()
        return message


def _content(evalset: EvalSet | None) -> dict | None:
    """What a set says, for comparing: every field but where each case was read (`line`)."""
    if evalset is None:
        return None
    return evalset.model_dump(exclude={"cases": {"__all__": {"line"}}})


def apply_accepted(evalset: EvalSet, proposal: Proposal | CaseDiff, accepted_ids: list | None,
                   verified_ids: list, accepted_fields: list[str] | None
                   ) -> tuple[EvalSet, int, str]:
    """A copy of `evalset` with the accepted part of a proposal applied (drafting's
    `merge_proposal`, refining's `apply_diff`), the index of the case to show, and what
    was done."""
    if isinstance(proposal, Proposal) and accepted_ids:
        for case_id in verified_ids:
            proposal = verify_ground_truth(proposal, case_id)
        merged = merge_proposal(evalset, proposal, accepted_ids)
        return merged, len(evalset.cases), (f"Added {len(accepted_ids)} case(s) "
                                            "(ctrl+z undoes; ctrl+s saves).")
    if isinstance(proposal, CaseDiff) and accepted_fields:
        index = next((i for i, c in enumerate(evalset.cases)
                      if str(c.id) == str(proposal.case_id)), None)
        if index is None:
            raise KeyError(f"case {proposal.case_id!r} is no longer in the set")
        out = evalset.model_copy(deep=True)
        out.cases[index] = apply_diff(out.cases[index], proposal, accepted_fields)
        return out, index, (f"Applied {', '.join(accepted_fields)} to case "
                            f"{proposal.case_id!r} (ctrl+z undoes; ctrl+s saves).")
    raise ValueError("nothing was accepted")
