"""`task.toml` of an exported Harbor task (Harbor's task schema "1.4"): the model and its
one load/save pair.

Only the keys skillforge sets are modelled, each with the meaning Harbor gives it; unknown
keys are refused so a typo here cannot produce a file Harbor silently reads differently.
`[metadata.skillforge]` is skillforge's own table (Harbor keeps `[metadata]` as free data and
never shows it to the agent): it maps a Harbor trial back to (case, condition).

Harbor reads `[environment] cpus` as a whole number; skillforge's fractional CPU limit is
rounded up and kept as asked in the metadata.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from skillforge.models.fileio import atomic_write_text
from skillforge.models.trial import Condition, WorkspacePolicy

TASK_TOML = "task.toml"
SCHEMA_VERSION = "1.4"
NetworkMode = Literal["no-network", "public", "allowlist"]
# Harbor's package-name rule for [task] name: org/name, no "..".
HARBOR_NAME_RE = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._-]*/[a-zA-Z0-9][a-zA-Z0-9._-]*$")


class TaskTomlError(ValueError):
    """A task.toml that is not one skillforge wrote; the message names the file and key."""


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskInfo(_Table):
    """[task]: the name Harbor reports trials under (org/name), a description, keywords."""

    name: str
    description: str = ""
    keywords: list[str] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _harbor_name(cls, value: str) -> str:
        if not HARBOR_NAME_RE.match(value) or ".." in value:
            raise ValueError(f"{value!r} is not a Harbor task name (org/name of letters, "
                             "digits, '.', '_' and '-')")
        return value


class SkillforgeMetadata(_Table):
    """[metadata.skillforge]: which paired trial this task is."""

    export_id: str
    skill: str
    skill_hash: str
    case_id: str
    condition: Condition
    graded: bool
    image: str
    workspace: WorkspacePolicy
    support_skills: list[str] = Field(default_factory=list)
    decoy_skills: list[str] = Field(default_factory=list)
    cpus: float
    pids: int
    max_turns: int
    skillforge_version: str
    # The Harbor environment the policies below were written for (absent before 0.25 exports).
    harbor_environment: str | None = None


class TaskMetadata(_Table):
    skillforge: SkillforgeMetadata


class PhaseTable(_Table):
    """[agent] and [verifier]: a time limit and, when set, the phase's network policy."""

    timeout_sec: float
    network_mode: NetworkMode | None = None


class EnvironmentTable(_Table):
    """[environment]: built from environment/Dockerfile (no docker_image: Harbor would then
    use the bare image and skip the Dockerfile that copies the case files in)."""

    cpus: int = Field(ge=1)
    memory_mb: int = Field(ge=1)
    network_mode: NetworkMode
    skills_dir: str
    workdir: str


class HarborTaskToml(_Table):
    """The whole task.toml skillforge writes for one (case, condition)."""

    schema_version: Literal["1.4"] = SCHEMA_VERSION
    task: TaskInfo
    metadata: TaskMetadata
    verifier: PhaseTable
    agent: PhaseTable
    environment: EnvironmentTable


def dumps_task_toml(task: HarborTaskToml) -> str:
    """The TOML text of a task (keys in model order, nothing unset written)."""
    return tomli_w.dumps(task.model_dump(mode="json", exclude_none=True))


def save_task_toml(task: HarborTaskToml, task_dir: Path) -> Path:
    """Write `task_dir/task.toml` atomically; returns its path."""
    path = Path(task_dir) / TASK_TOML
    atomic_write_text(path, dumps_task_toml(task))
    return path


def load_task_toml(path: Path) -> HarborTaskToml:
    """Read a task.toml skillforge wrote; TaskTomlError names the file and the bad key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskTomlError(f"{path}: cannot be read ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TaskTomlError(f"{path}: not valid TOML ({exc})") from exc
    try:
        return HarborTaskToml.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TaskTomlError(f"{path}: {where}: {first['msg']}; this task.toml was not written "
                            "by `skillforge export harbor` (or was edited)") from exc
