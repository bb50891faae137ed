"""Trial conditions (CONTRACTS.md section 6): the names a run's conditions may take.

Apart from `skillforge.models.trial` so that the configuration models (`[trial]
conditions`), which every `skillforge lint` validates, do not build the trial records.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import StringConstraints

from skillforge.models.parts import ABLATED_CONDITION_PATTERN, is_ablated

BaseCondition = Literal["with_skill", "baseline", "self_generated", "skill_mode"]
BASE_CONDITIONS: tuple[str, ...] = ("with_skill", "baseline", "self_generated", "skill_mode")
# `without:<part id>` (skillforge.models.parts): the target with one part removed.
AblatedCondition = Annotated[str, StringConstraints(pattern=ABLATED_CONDITION_PATTERN)]
Condition = Union[BaseCondition, AblatedCondition]  # noqa: UP007 - a pydantic union of types


def is_condition(text: str) -> bool:
    """True for a condition name: one of BASE_CONDITIONS or a `without:<part id>`."""
    return text in BASE_CONDITIONS or is_ablated(text)


def stages_target(condition: str) -> bool:
    """Whether the target skill is in the trial's sandbox: `with_skill` and its ablations."""
    return condition == "with_skill" or is_ablated(condition)
