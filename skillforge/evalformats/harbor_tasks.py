"""Harbor task folders read as eval cases (the other way is `skillforge export harbor`).

A task is `instruction.md` (the prompt), `task.toml` (`[task] name`, `description`) and
`tests/test.sh` (the verifier, which writes /logs/verifier/reward.txt); a dataset is a
folder of tasks. Read as: id = the task's name or folder, prompt = instruction.md,
notes = the description, grader = the verifier path. skillforge's own export writes one
task per case and condition; those fold back into one case per `extra.skillforge.case_id`.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from skillforge.evalformats.common import new_case, skill_name_of
from skillforge.evalformats.loss import Read
from skillforge.models.evals import EvalIssue, EvalSet

NAME = "harbor"


def _is_task(path: Path) -> bool:
    return (path / "instruction.md").is_file() and (path / "task.toml").is_file()


def task_dirs(path: Path) -> list[Path]:
    if _is_task(path):
        return [path]
    try:
        return sorted(p for p in path.iterdir() if p.is_dir() and _is_task(p))
    except OSError:
        return []


def detect(path: Path) -> bool:
    return bool(task_dirs(path))


def read(path: Path) -> Read:
    issues: list[EvalIssue] = []
    cases, seen = [], set()
    root = Path(path)
    for d in task_dirs(root):
        try:
            meta: dict[str, Any] = tomllib.loads((d / "task.toml").read_text("utf-8"))
            prompt = (d / "instruction.md").read_text("utf-8").strip("\n")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            issues.append(EvalIssue(pointer=str(d), message=f"{d}: cannot be read ({exc})"))
            continue
        task = meta.get("task") if isinstance(meta.get("task"), dict) else {}
        sf = (meta.get("metadata") or {}).get("skillforge") or {}
        cid = sf.get("case_id") or task.get("name") or d.name
        if str(cid) in seen:
            continue  # the same case exported for another condition
        seen.add(str(cid))
        values = {"id": cid, "prompt": prompt, "notes": task.get("description"),
                  "grader": (d / "tests" / "test.sh").relative_to(root).as_posix()
                  if (d / "tests" / "test.sh").is_file() and d != root else
                  ("tests/test.sh" if (d / "tests" / "test.sh").is_file() else None)}
        cases.append(new_case(values, {}))
    if not cases and not issues:
        issues.append(EvalIssue(pointer="", message=f"{path}: no Harbor task (instruction.md "
                                "and task.toml)"))
    return Read(EvalSet(skill_name=skill_name_of(Path(path)), cases=cases) if cases else None,
                issues, fmt=NAME)
