"""Harvest: turn the skills an agent saved in Skill Mode into authored Agent Skills folders.

`harvest_skills(store, run_id, out_dir, names)` reads a run's Skill Mode records (the final
`skill_cache.json` and the per-trial events, skillforge.models.skill_mode) and the run's skill's
evals.json, and writes one folder per chosen skill:

    out_dir/<name>/SKILL.md             valid name, a description from what it did and where
    out_dir/<name>/scripts/<name>.py    the agent's code as a command (harvest_script)
    out_dir/<name>/evals/evals.json     the cases that created and reused it (harvest_evals)
    out_dir/<name>/evals/files/...      the files and graders those cases name, copied

The folder's files are built in memory first (`plan_harvest`, pure), then written by
`write_folder`: into a temporary folder beside the target, renamed into place at the end, and
never over an existing folder (an author's files are never overwritten).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillforge.authoring.harvest_doc import description_for, skill_md, skill_name_for
from skillforge.authoring.harvest_evals import (
    SeededEvals,
    SourceEvalsError,
    load_source_evals,
    prompts_of,
    seed_evals,
)
from skillforge.authoring.harvest_script import script_text
from skillforge.authoring.harvest_usage import SkillUsage, chain_of, usage_of
from skillforge.models.fileio import atomic_write_bytes
from skillforge.models.skill_mode import SkillCache, SkillModeTrial

if TYPE_CHECKING:
    from sessions.store import RunStore

SCRIPT_MODE = 0o755
FILE_MODE = 0o644


class HarvestError(ValueError):
    """Nothing was harvested; the message says why and what to do."""


@dataclass
class HarvestResult:
    """The folders written and what to tell the author (one line each)."""

    folders: list[Path] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


@dataclass
class HarvestPlan:
    """One harvested skill, in memory: relative path -> (bytes, mode)."""

    name: str
    cache_name: str
    files: dict[str, tuple[bytes, int]]
    eval_cases: list[str]
    messages: list[str] = field(default_factory=list)


@dataclass
class RunSource:
    """What harvesting reads about the run's own skill: its folder, name and evals.json."""

    skill_dir: Path | None = None
    skill_name: str | None = None
    evals: Any = None
    problem: str | None = None  # why there are no cases to copy

    @property
    def prompts(self) -> dict[str, str]:
        return prompts_of(self.evals) if self.evals is not None else {}

    def old_scripts(self) -> set[str]:
        if self.skill_dir is None or not (self.skill_dir / "scripts").is_dir():
            return set()
        return {f"scripts/{p.name}" for p in (self.skill_dir / "scripts").iterdir()}


def read_run_source(skill_path: str | None) -> RunSource:
    """The run's skill folder and evals (a problem message instead when it cannot be read)."""
    if not skill_path:
        return RunSource(problem="the run records no skill folder, so no cases to copy")
    skill_dir = Path(skill_path)
    try:
        evals = load_source_evals(skill_dir)
    except SourceEvalsError as exc:
        return RunSource(skill_dir=skill_dir, skill_name=skill_dir.name, problem=str(exc))
    name = evals.get("skill_name") if isinstance(evals, dict) else None
    return RunSource(skill_dir=skill_dir, skill_name=name if isinstance(name, str)
                     else skill_dir.name, evals=evals)


def script_docstring(name: str, usage: SkillUsage) -> str:
    origin = (f"case {usage.created_case} of run {usage.created_run}" if usage.created_case
              else f"run {usage.run_id}")
    return (f"{name}: the code an agent saved as the skill {usage.skill.name!r}\n"
            f"({origin}), made into a command by `skillforge harvest`.\n\n"
            "Arguments: one option per parameter, or --args-json with one JSON object.\n"
            "The tools the code calls through call_tool (bash, read_file, write_file) run on\n"
            "this machine. The code between the `skill code` markers is the agent's, as saved;\n"
            "its `result` is printed as JSON. Usage: python3 scripts/" + name + ".py --help")


def plan_harvest(usage: SkillUsage, name: str, source: RunSource) -> HarvestPlan:
    """Every file of the harvested folder, in memory (no disk writes)."""
    script = f"scripts/{name}.py"
    prompts = source.prompts
    messages: list[str] = []
    if name != usage.skill.name:
        messages.append(f"{usage.skill.name!r} is named {name!r} (the Agent Skills spec allows "
                        "lowercase letters, digits and hyphens, at most 64 characters)")
    description = description_for(usage, prompts, source.skill_name)
    example = usage.example.args if usage.example else None
    files: dict[str, tuple[bytes, int]] = {
        "SKILL.md": (skill_md(name, usage, description, prompts, source.skill_name).encode(),
                     FILE_MODE),
        script: (script_text(usage.skill, prog=script, docstring=script_docstring(name, usage),
                             example=example).encode(), SCRIPT_MODE),
    }
    if source.evals is not None and source.skill_dir is not None:
        seeded = seed_evals(source.evals, skill_dir=source.skill_dir, name=name, script=script,
                            run_id=usage.run_id, created_case=None if usage.inherited
                            else usage.created_case, reused=usage.reused_cases,
                            old_name=source.skill_name, old_scripts=source.old_scripts())
        for rel in seeded.files:
            path = source.skill_dir / rel
            mode = SCRIPT_MODE if os.access(path, os.X_OK) else FILE_MODE
            files[rel] = (path.read_bytes(), mode)
        messages += seeded.messages
    else:
        seeded = SeededEvals(text='{\n  "skill_name": "' + name + '",\n  "evals": []\n}\n',
                             case_ids=[])
        messages.append(f"evals/evals.json has no cases: {source.problem}")
    files["evals/evals.json"] = (seeded.text.encode(), FILE_MODE)
    if 0 < len(seeded.case_ids) < 3:
        messages.append(f"evals/evals.json has {len(seeded.case_ids)} case(s) (the cases that "
                        "created and reused the skill); add more, including one where it must "
                        "not be used")
    return HarvestPlan(name=name, cache_name=usage.skill.name, files=files,
                       eval_cases=seeded.case_ids, messages=messages)


def choose_skills(cache: SkillCache, names: list[str] | None, run_id: str) -> list[str]:
    """The cache names to harvest (all by default); an unknown name is an error."""
    available = sorted(cache.skills)
    if not names:
        return available
    unknown = [n for n in names if n not in cache.skills]
    if unknown:
        raise HarvestError(f"run {run_id} has no skill named {', '.join(map(repr, unknown))}; "
                           f"its skills are: {', '.join(available)}")
    return list(dict.fromkeys(names))


def folder_names(cache_names: list[str]) -> dict[str, str]:
    """Cache name -> folder name, made valid and unique."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for raw in cache_names:
        base = name = skill_name_for(raw)
        n = 2
        while name in used:
            suffix = f"-{n}"
            name, n = base[:64 - len(suffix)].rstrip("-") + suffix, n + 1
        used.add(name)
        out[raw] = name
    return out


def plan_run(run_id: str, trials: list[SkillModeTrial], cache: SkillCache | None,
             source: RunSource, names: list[str] | None = None) -> list[HarvestPlan]:
    """The plans of the chosen skills of a run (pure: records in, files in memory out)."""
    if not trials:
        raise HarvestError(f"run {run_id} has no skill_mode trials, so no skills to harvest; "
                           "harvest a run made with `--conditions skill_mode,...`")
    if cache is None or not cache.skills:
        raise HarvestError(f"the agent saved no skill in run {run_id} (its final skill cache "
                           "is empty); nothing to harvest")
    chosen = choose_skills(cache, names, run_id)
    chain = chain_of(trials, None)
    folders = folder_names(chosen)
    return [plan_harvest(usage_of(cache.skills[raw], chain, run_id), folders[raw], source)
            for raw in chosen]


def write_folder(plan: HarvestPlan, out_dir: Path) -> Path:
    """Write one planned folder under out_dir: built beside it, renamed into place."""
    target = out_dir / plan.name
    if target.exists():
        raise HarvestError(_exists(target))
    out_dir.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{plan.name}.harvest-", dir=out_dir))
    try:
        for rel, (data, mode) in plan.files.items():
            path = temp / rel
            atomic_write_bytes(path, data)
            os.chmod(path, mode)
        os.chmod(temp, 0o755)
        if target.exists():
            raise HarvestError(_exists(target))
        os.rename(temp, target)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return target


def _exists(target: Path) -> str:
    return (f"{target} already exists; harvest never overwrites a folder: choose another -o "
            "or remove it")


def harvest_skills(store: RunStore, run_id: str, out_dir: Path,
                   names: list[str] | None = None) -> HarvestResult:
    """Harvest the chosen skills (default: every skill of the run's final cache) of a run
    into `out_dir/<name>/` folders. Raises HarvestError (nothing written) for an unknown run,
    a run without skill-mode trials, an empty cache, an unknown skill name or a folder that
    already exists."""
    out_dir = Path(out_dir)
    run = store.run(run_id)
    if run is None:
        raise HarvestError(f"no run {run_id!r} in the run store {store.state_dir}; check the "
                           "id (the workbench's run list shows them) or the store folder "
                           "(--state-dir)")
    skill_path = run.spec.skill_path if run.spec else run.skill_path
    plans = plan_run(run_id, store.skill_mode_trials(run_id), store.final_skill_cache(run_id),
                     read_run_source(skill_path), names)
    taken = [out_dir / p.name for p in plans if (out_dir / p.name).exists()]
    if taken:
        raise HarvestError(_exists(taken[0]) if len(taken) == 1 else
                           f"{', '.join(map(str, taken))} already exist; harvest never "
                           "overwrites a folder: choose another -o or remove them")
    result = HarvestResult()
    for plan in plans:
        folder = write_folder(plan, out_dir)
        result.folders.append(folder)
        result.messages.append(f"wrote {folder} from the skill {plan.cache_name!r} (SKILL.md, "
                               f"scripts/{plan.name}.py, evals/evals.json with "
                               f"{len(plan.eval_cases)} case(s))")
        result.messages += [f"{plan.name}: {m}" for m in plan.messages]
    return result
