"""`skillforge-dataset.json`: what an exported Harbor dataset holds, for the way back.

Written at the top of the dataset folder (Harbor loads only the task folders below it, and
never uploads this file into an environment). `skillforge import harbor` reads it to map
each Harbor task name to its (case, condition), to rebuild the run's spec (cases, pass
threshold) and to score trials against the cases exactly as they were exported, even when
the skill has changed since.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from skillforge.harbor.results import validated
from skillforge.models.fileio import atomic_write_text
from skillforge.models.evals import CASE_FIELDS, EvalCase
from skillforge.models.trial import Condition, RunSpec

MANIFEST_NAME = "skillforge-dataset.json"
MANIFEST_FORMAT = "skillforge-harbor-dataset"


class ManifestError(ValueError):
    """A dataset manifest that cannot be used; the message names the file and the fix."""


class ManifestTask(BaseModel):
    """One exported task: its folder, its Harbor task name and the trial it stands for."""

    folder: str
    name: str
    case_id: str
    condition: Condition
    graded: bool


class DatasetManifest(BaseModel):
    format: Literal["skillforge-harbor-dataset"] = MANIFEST_FORMAT
    version: int = 1
    export_id: str
    created_at: datetime
    skillforge_version: str
    skill: str
    skill_path: str
    skill_hash: str
    spec: RunSpec  # spec.network: whether the trials can reach the network (see below)
    # The Harbor environment the dataset was written for, and the network the trial
    # settings asked for; spec.network differs from it when that environment cannot
    # enforce no-network (skillforge.harbor.environments).
    harbor_environment: str = "docker"
    network_asked: bool | None = None
    # The exported cases, canonical fields only (ground truth included: this file stays on
    # the host), so imported trials are scored against what was run.
    cases: list[dict[str, Any]] = Field(default_factory=list)
    tasks: list[ManifestTask] = Field(default_factory=list)

    def case(self, case_id: str) -> EvalCase | None:
        """The exported case with this id, as an EvalCase."""
        for raw in self.cases:
            if str(raw.get("id")) == case_id:
                return EvalCase.model_validate(raw)
        return None

    def task_by_name(self) -> dict[str, ManifestTask]:
        return {t.name: t for t in self.tasks}


def case_snapshot(case: EvalCase) -> dict[str, Any]:
    """The canonical fields of a case, for the manifest."""
    return case.model_dump(mode="json", include=set(CASE_FIELDS))


def save_manifest(manifest: DatasetManifest, dataset_dir: Path) -> Path:
    path = Path(dataset_dir) / MANIFEST_NAME
    atomic_write_text(path, manifest.model_dump_json(indent=2) + "\n")
    return path


def load_manifest(path: Path) -> DatasetManifest:
    """Read a dataset manifest (a file, or the dataset folder holding one)."""
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST_NAME
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError as exc:
        raise ManifestError(f"{path} does not exist: is {path.parent} a folder written by "
                            "`skillforge export harbor`?") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: cannot be read ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{path}: not valid JSON at line {exc.lineno}, column "
                            f"{exc.colno}: {exc.msg}; export the dataset again") from exc
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise ManifestError(f"{path} is not a skillforge dataset manifest (no \"format\": "
                            f"\"{MANIFEST_FORMAT}\")")
    return validated(DatasetManifest, data, lambda where, msg: ManifestError(
        f"{path}: /{where}: {msg}; export the dataset again with this version of skillforge"))
