"""What one trial's sandbox starts with: the visible skills, the workspace and the archive.

Built by skillforge.trials.staging; read by the agent loop (its system prompt lists the
visible skills) and the external harnesses.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from skillforge.models.skill_mode import CacheMode
from skillforge.models.trial import Condition

Role = Literal["target", "support", "decoy", "previous_version"]


class VisibleSkill(BaseModel):
    """A skill the agent can see: what its system prompt lists (name, description, path)."""

    name: str
    description: str
    path: str
    role: Role


class SkillSummary(BaseModel):
    """A cached Skill Mode skill as the system prompt lists it."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)


class SkillModeStage(BaseModel):
    """The `skill_mode` condition's part of a stage: the cache mode and the skills cached."""

    mode: CacheMode = "grow"
    inherited_from: str | None = None
    skills: list[SkillSummary] = Field(default_factory=list)


class TrialStage(BaseModel):
    """Everything one trial's sandbox starts with, as one tar to extract at "/"."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    case_id: str
    condition: Condition
    skills: list[VisibleSkill] = Field(default_factory=list)
    workspace_files: list[str] = Field(default_factory=list)
    instruction: str | None = None
    paths: list[str] = Field(default_factory=list)
    archive: bytes = Field(default=b"", repr=False)
    # Set for `skill_mode` trials (by the trial runner, which knows the carried cache).
    skill_mode: SkillModeStage | None = None
