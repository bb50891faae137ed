"""What a conversion could not carry over: one `Loss` per case and field."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skillforge.models.evals import EvalIssue, EvalSet

SET = "(set)"  # the case id of a loss that concerns the whole set


@dataclass(frozen=True, order=True)
class Loss:
    case_id: str
    field: str
    reason: str

    def line(self) -> str:
        where = "the set" if self.case_id == SET else f"case {self.case_id}"
        return f"{where}: {self.field}: {self.reason}"


@dataclass
class Read:
    """A format read: the set (None when unusable), problems, and what it could not hold."""

    evalset: EvalSet | None
    issues: list[EvalIssue] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)
    fmt: str = ""


def present(value: Any) -> bool:
    """Whether a case value says something (empty lists and None say nothing)."""
    return value not in (None, [], {}, "")
