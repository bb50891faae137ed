"""Harvest, the cases: `evals/evals.json` seeded from the cases that created and reused a skill.

Each case is the run skill's own entry, copied as the author wrote it (field names, unknown
fields and order kept), then pointed at the harvested skill: `expected_skill` is its name,
`expected_script` its script, expected behaviours that name the old skill or its scripts are
replaced by one about the harvested script, and `notes` says where the case came from. A case
the old skill had as negative is positive here (the agent used the skill there). The files and
grader scripts the cases name are copied from the old skill's folder, so the harvested folder
can be tried at once (`skillforge trial DIR --conditions with_skill,baseline`).
"""

from __future__ import annotations

import copy
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from skillforge.models.evals import ALIASES, EVALS_PATH

_BEHAVIOR_KEYS = ALIASES["expected_behavior"]


class SourceEvalsError(ValueError):
    """The run's skill has no readable evals.json; the message names the file."""


@dataclass
class SeededEvals:
    """The new evals.json text, the skill files it needs copied, and what was left out."""

    text: str
    case_ids: list[str]
    files: list[str] = field(default_factory=list)  # relative to the old skill's folder
    messages: list[str] = field(default_factory=list)


def load_source_evals(skill_dir: Path) -> Any:
    """The run's skill's evals.json as JSON (a dict with `evals`, or a bare list)."""
    path = skill_dir / EVALS_PATH
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise SourceEvalsError(f"{path}: no such file; the run's skill folder has no "
                               "evals.json to copy cases from") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceEvalsError(f"{path}: cannot read it ({exc}); fix the file, or check it "
                               f"with `skillforge evals validate {path}`") from None
    cases = data if isinstance(data, list) else data.get("evals") if isinstance(data, dict) \
        else None
    if not isinstance(cases, list):
        raise SourceEvalsError(f"{path}: no \"evals\" list of cases; check it with "
                               f"`skillforge evals validate {path}`")
    return data


def source_cases(data: Any) -> dict[str, dict[str, Any]]:
    """Case id (as text) -> the raw case object."""
    cases = data if isinstance(data, list) else data.get("evals", [])
    return {str(c["id"]): c for c in cases if isinstance(c, dict) and "id" in c}


def prompts_of(data: Any) -> dict[str, str]:
    """Case id -> its task text (`prompt` or its alias `question`)."""
    out = {}
    for cid, case in source_cases(data).items():
        prompt = next((case[k] for k in ALIASES["prompt"] if isinstance(case.get(k), str)), None)
        if prompt:
            out[cid] = prompt
    return out


def _names_old_skill(text: str, old_name: str | None, old_scripts: set[str]) -> bool:
    low = text.lower()
    if old_name and (old_name.lower() in low or old_name.replace("-", " ").lower() in low):
        return True
    return any(s.lower() in low for s in old_scripts)


def _retarget(case: dict[str, Any], name: str, script: str, old_name: str | None,
              old_scripts: set[str], note: str) -> dict[str, Any]:
    out = copy.deepcopy(case)
    if out.get("kind") == "negative":
        out["kind"] = "implicit"
    if out.get("should_trigger") is False:
        out["should_trigger"] = True
    out["expected_skill"] = name
    out["expected_script"] = script
    key = next((k for k in _BEHAVIOR_KEYS if k in out), "expected_behavior")
    kept = [b for b in out.get(key) or [] if isinstance(b, str)
            and not _names_old_skill(b, old_name, old_scripts)]
    out[key] = [f"Runs {script} instead of writing the same code again", *kept]
    old_note = out.get("notes")
    out["notes"] = f"{old_note} | {note}" if isinstance(old_note, str) and old_note else note
    return out


def _skill_files(case: dict[str, Any], skill_dir: Path) -> list[str]:
    """Files of the old skill a case names: its `files` and the paths in its `grader`."""
    named = [f for f in case.get("files") or [] if isinstance(f, str)]
    grader = case.get("grader")
    if isinstance(grader, str):
        try:
            named += shlex.split(grader)
        except ValueError:
            named += grader.split()
    out = []
    root = skill_dir.resolve()
    for rel in named:
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts:
            continue
        path = (skill_dir / rel).resolve()
        if path.is_file() and path.is_relative_to(root):
            out.append(pure.as_posix())
    return out


def seed_evals(data: Any, *, skill_dir: Path, name: str, script: str, run_id: str,
               created_case: str | None, reused: list[str], old_name: str | None,
               old_scripts: set[str]) -> SeededEvals:
    """The harvested skill's evals.json from the run skill's cases (see the module docstring)."""
    cases = source_cases(data)
    chosen = ([created_case] if created_case else []) + [c for c in reused if c != created_case]
    out_cases: list[dict[str, Any]] = []
    files: list[str] = []
    messages: list[str] = []
    for cid in chosen:
        raw = cases.get(cid)
        if raw is None:
            messages.append(f"case {cid!r} is no longer in {skill_dir / EVALS_PATH}; it is "
                            "not in the harvested evals.json")
            continue
        role = "created the skill" if cid == created_case else "reused the skill"
        note = f"seeded by skillforge harvest from run {run_id} (this case {role})"
        out_cases.append(_retarget(raw, name, script, old_name, old_scripts, note))
        files += [f for f in _skill_files(raw, skill_dir) if f not in files]
    doc: dict[str, Any] = {"skill_name": name, "evals": out_cases}
    if isinstance(data, dict) and isinstance(data.get("defaults"), dict):
        doc["defaults"] = data["defaults"]
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return SeededEvals(text=text, case_ids=[str(c["id"]) for c in out_cases], files=files,
                       messages=messages)
