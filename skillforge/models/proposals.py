"""What drafting and refining propose for evals.json, before an author accepts any of it.

`skillforge.authoring.drafting` returns a `Proposal` (new cases); `skillforge.authoring.refining` returns a
`CaseDiff` (field-by-field edits of one case, each with its old and new value, a rationale
and where it came from). Nothing here touches a file: the author accepts some of it and the
evals model (`skillforge.models.evals`) writes the result.

The models at the end are what the model must answer (DraftAnswer, RefineAnswer,
SessionCase): validated with pydantic before anything else reads the answer.

Non-circularity: a ground truth taken from the session under review (the agent's own answer
or its outputs) is never accepted by default. Such a change carries `from_agent=True`, the
warning `FROM_AGENT_WARNING` and starts with `accepted=False`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skillforge.models.evals import CaseKind, EvalCase, new_case
from skillforge.models.structured_ask import keyed_items

ChangeSource = Literal["model", "trajectory"]
# The fields refining may change; `kind`, `files` and `grader` stay the author's business.
EDITABLE_FIELDS: tuple[str, ...] = ("prompt", "ground_truth", "expected_behavior",
                                    "expected_script")
FROM_AGENT_WARNING = "taken from the agent's own answer — verify before accepting"
UNVERIFIED_NOTE = ("ground_truth UNVERIFIED: taken from the agent's own session, not checked "
                   "by the author")


class ProposalError(RuntimeError):
    """The model gave no usable answer, even after one retry; the message says what to try."""

    def __init__(self, message: str, *, model: str | None = None) -> None:
        super().__init__(message)
        self.model = model


class ModelCall(BaseModel):
    """Which model answered, and what asking it cost."""

    provider: str
    model: str
    attempts: int = 1
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    # The server reported no token counts: skillforge counted or estimated them.
    tokens_estimated: bool = False
    cost_usd: float | None = None
    request_ids: list[str] = Field(default_factory=list)
    # What the prompt builder cut to fit the model's context window.
    left_out: list[str] = Field(default_factory=list)


class ProposedCase(BaseModel):
    """A case the model proposes, already checked against the skill (ids, files, script)."""

    id: str | int
    kind: CaseKind
    prompt: str
    ground_truth: str | None = None
    expected_behavior: list[str] = Field(default_factory=list)
    expected_script: str | None = None
    files: list[str] = Field(default_factory=list)
    expected_skill: str | None = None
    rationale: str = ""
    notes: str | None = None
    # Set when the ground truth comes from a session's own answer (case_from_trajectory).
    ground_truth_unverified: bool = False
    ground_truth_warning: str | None = None
    overlap: float | None = None
    # What was removed from the model's answer, and why ("files: 'x.csv' is not in the skill").
    dropped: list[str] = Field(default_factory=list)
    # A trigger query (skillforge.authoring.trigger_drafting): whether it should open the skill.
    should_trigger: bool | None = None

    def to_eval_case(self, *, with_ground_truth: bool = True) -> EvalCase:
        """This proposal as a new evals.json case (`with_ground_truth=False` leaves it unset)."""
        gt = self.ground_truth if with_ground_truth else None
        return new_case(self.id, self.prompt, kind=self.kind, files=list(self.files),
                        expected_skill=self.expected_skill,
                        expected_script=self.expected_script, ground_truth=gt,
                        expected_behavior=list(self.expected_behavior), notes=self.notes,
                        **({"should_trigger": self.should_trigger}
                           if self.should_trigger is not None else {}))


class Proposal(BaseModel):
    """New cases proposed for a skill; `merge_proposal` adds the accepted ones to a set."""

    skill_name: str
    cases: list[ProposedCase] = Field(default_factory=list)
    requested: dict[str, int] = Field(default_factory=dict)  # kind -> cases asked for
    source: str = "skill"  # "skill", or the session a case was made from
    warnings: list[str] = Field(default_factory=list)
    call: ModelCall

    @property
    def ids(self) -> list[str | int]:
        return [c.id for c in self.cases]

    def case(self, case_id: str | int) -> ProposedCase | None:
        return next((c for c in self.cases if str(c.id) == str(case_id)), None)


class FieldChange(BaseModel):
    """One field of a case: its old and new value, why, and whether it starts accepted."""

    field: str  # canonical name (prompt, ground_truth, expected_behavior, expected_script)
    name: str  # the name the author's file uses for it (e.g. expected_output)
    old: Any = None
    new: Any = None
    rationale: str = ""
    source: ChangeSource = "model"
    evidence_steps: list[int] = Field(default_factory=list)
    # Non-circularity: the new value repeats the agent's answer or outputs.
    from_agent: bool = False
    model_said_trajectory: bool = False
    overlap: float | None = None  # share of the new value's own words found in the session
    matched: str | None = None  # where ("the final answer", "a file written at step 7")
    warning: str | None = None
    accepted: bool = True  # the starting state; the author flips it


class CaseDiff(BaseModel):
    """Proposed edits to one case from what an agent did; apply with `apply_diff`."""

    case_id: str | int
    trajectory: str  # which session this was read from
    observations: str = ""  # the model's short account of the agent's run against the case
    changes: list[FieldChange] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    call: ModelCall

    def change(self, field: str) -> FieldChange | None:
        return next((c for c in self.changes if c.field == field or c.name == field), None)

    def default_accepted(self) -> list[str]:
        """The fields that start accepted (everything but agent-derived ground truth)."""
        return [c.field for c in self.changes if c.accepted]


# --- what the model answers (validated before anything else reads it) ----------------------

class DraftItem(BaseModel):
    """One case as the model answers it (before it is checked against the skill)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: Literal["explicit", "implicit", "contextual", "negative"]
    prompt: str
    ground_truth: str
    expected_behavior: list[str]
    expected_script: str | None
    files: list[str]
    rationale: str

    @field_validator("prompt", "ground_truth")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be empty")
        return v.strip()

    @field_validator("expected_behavior")
    @classmethod
    def _two_to_four(cls, v: list[str]) -> list[str]:
        items = [s.strip() for s in v if s.strip()]
        if not 2 <= len(items) <= 4:
            raise ValueError(f"give 2 to 4 checkable assertions, not {len(items)}")
        return items


class DraftAnswer(BaseModel):
    """`cases` as a list, or keyed by kind (what the drafting schema asks for)."""

    model_config = ConfigDict(extra="forbid")

    cases: list[DraftItem]

    @field_validator("cases", mode="before")
    @classmethod
    def _by_kind(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        out: list[Any] = []
        for items in v.values():
            out.extend(items if isinstance(items, list) else [items])
        return out


class Edit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    field: Literal["prompt", "ground_truth", "expected_behavior", "expected_script"]
    value: str | list[str] | None
    rationale: str
    source: Literal["model", "trajectory"]
    evidence_steps: list[int]

    @model_validator(mode="after")
    def _fits(self) -> Edit:
        v = self.value
        if self.field in ("prompt", "ground_truth") and not (isinstance(v, str) and v.strip()):
            raise ValueError(f"{self.field}: value must be non-empty text")
        if self.field == "expected_behavior":
            items = [s.strip() for s in v if s.strip()] if isinstance(v, list) else []
            if not 1 <= len(items) <= 6:
                raise ValueError("expected_behavior: value must be the full new list of 1 to 6 "
                                 "assertions")
            self.value = items
        if self.field == "expected_script" and isinstance(v, list):
            raise ValueError("expected_script: value must be a script path or null")
        return self


class RefineAnswer(BaseModel):
    """`edits` as a list, or keyed by field with null for no edit (what the refining
    schema asks for)."""

    model_config = ConfigDict(extra="forbid")

    observations: str
    edits: list[Edit]

    @field_validator("edits", mode="before")
    @classmethod
    def _by_field(cls, v: Any) -> Any:
        return keyed_items(v, "field")

    @model_validator(mode="after")
    def _once(self) -> RefineAnswer:
        fields = [e.field for e in self.edits]
        twice = sorted({f for f in fields if fields.count(f) > 1})
        if twice:
            raise ValueError(f"edit each field at most once (twice: {', '.join(twice)})")
        return self


class SessionCase(DraftItem):
    ground_truth_source: Literal["model", "trajectory"]
