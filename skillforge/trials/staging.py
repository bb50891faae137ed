"""What goes into a trial's sandbox for (case, condition, RunSpec) (CONTRACTS.md section 6).

A trial sandbox holds `/workspace` (the case's files, by base name), `/skills/<name>/` for
each visible skill (root-owned, read-only to the agent, never `evals/`), `/logs/` and the
agent's home. Conditions differ only in the target skill:

- `with_skill`: the target is staged;
- `baseline`: the target is absent: no file, name or description of it in the sandbox or
  in the skills list (checked: staging fails if a support/decoy skill or a case file would
  leak it). With `baseline_version` set, the earlier version stands in for the target;
- `self_generated`: no target; the agent is first asked to write its own notes;
- `skill_mode`: staged like `baseline` (no target anywhere, and no earlier version of it
  either: the agent builds its own code skills with the Skill Mode tools instead);
- `without:<part>`: the target with one part removed (skillforge.trials.ablation), staged
  exactly as `with_skill` otherwise.

Workspace policy: `isolated` stages only the target (with_skill) and nothing else;
`group` adds the support and decoy skills, in every condition.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from skillforge.models.evals import EvalCase
from skillforge.models.stage import Role, TrialStage, VisibleSkill
from skillforge.models.parts import part_of
from skillforge.models.trial import Condition, RunSpec, stages_target
from skillforge.sandbox.archive import TarBuilder
from skillforge.sandbox.base import (
    AGENT_GID,
    AGENT_UID,
    SKILLS_DIR,
    WORKSPACE,
    SandboxSpec,
)
from skillforge.sandbox.skill_tree import (
    EXCLUDED_DIRS,
    EXCLUDED_SUFFIXES,
    SkillTree,
    SkillTreeError,
    TreeEntry,
    read_skill_tree,
    read_skill_version,
)

# Time the sandbox lives beyond the agent's budget: the grader runs after the agent stops.
GRADER_BUDGET_S = 120
TEARDOWN_MARGIN_S = 30
SELF_NOTES_PATH = "/home/agent/notes/SKILL.md"
SELF_GENERATED_INSTRUCTION = (
    "Before you work on the task, write your own skill for it: create "
    f"{SELF_NOTES_PATH} with a short description of when it applies, then the concrete "
    "steps, commands and checks you would follow for tasks like this one. Keep it under "
    "60 lines. Then solve the task, following your notes."
)
_CASE_SKIP = EXCLUDED_DIRS - {"evals"}
# Target files smaller than this are too generic (an empty __init__.py) to count as a leak.
MIN_HASHED_BYTES = 64

class StagingError(ValueError):
    """A trial cannot be staged; the message names the file or setting and the fix."""


@dataclass
class SkillSet:
    """The skills of a run, read once and reused by every trial."""

    root: Path
    target: SkillTree
    support: list[SkillTree] = field(default_factory=list)
    decoys: list[SkillTree] = field(default_factory=list)
    previous: SkillTree | None = None
    # `without:<part>` trees, built once per part (skillforge.trials.ablation).
    ablated: dict[str, SkillTree] = field(default_factory=dict)

    def target_for(self, condition: str) -> SkillTree:
        """The target as `condition` stages it: whole, or without one part."""
        part = part_of(condition)
        if part is None:
            return self.target
        if part not in self.ablated:
            from skillforge.trials.ablation import AblationError, ablated_tree

            try:
                self.ablated[part] = ablated_tree(self.target, part)
            except AblationError as exc:
                raise StagingError(str(exc)) from exc
        return self.ablated[part]


def _read(path: str | Path, what: str) -> SkillTree:
    try:
        return read_skill_tree(path)
    except SkillTreeError as exc:
        raise StagingError(f"{what}: {exc}") from exc


def load_skill_set(spec: RunSpec) -> SkillSet:
    """Read the target, support, decoy and (version-delta) previous skills of a run."""
    root = Path(spec.skill_path)
    if root.name == "SKILL.md":
        root = root.parent
    target = _read(root, "the skill under test")
    support = [_read(p, "support skill") for p in spec.support_skills]
    decoys = [_read(p, "decoy skill") for p in spec.decoy_skills]
    previous = None
    if spec.baseline_version:
        try:
            previous = read_skill_version(root, spec.baseline_version)
        except SkillTreeError as exc:
            raise StagingError(str(exc)) from exc
    seen = {target.name: str(root)}
    for tree in [*support, *decoys]:
        if tree.name in seen:
            raise StagingError(f"two skills are named {tree.name!r} ({seen[tree.name]} and "
                               f"{tree.source}); support and decoy skills need names of "
                               "their own")
        seen[tree.name] = tree.source
    return SkillSet(root=root, target=target, support=support, decoys=decoys,
                    previous=previous)


def visible_trees(skills: SkillSet, condition: Condition,
                  policy: str) -> list[tuple[SkillTree, Role]]:
    """The skills staged for a condition under a workspace policy, in a fixed order."""
    out: list[tuple[SkillTree, Role]] = []
    if stages_target(condition):
        out.append((skills.target_for(condition), "target"))
    elif condition == "baseline" and skills.previous is not None:
        out.append((skills.previous, "previous_version"))
    if policy == "group":
        out += [(t, "support") for t in skills.support] + [(t, "decoy") for t in skills.decoys]
    return sorted(out, key=lambda item: item[0].name)


def _case_entries(root: Path, case: EvalCase) -> dict[str, TreeEntry]:
    """{base-name relative path: entry} of the case's files (folders copied whole)."""
    out: dict[str, TreeEntry] = {}
    base = root.resolve()
    for rel in case.files:
        where = f"case {case.id!r} file {rel!r}"
        if PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
            raise StagingError(f"{where}: give a path relative to the skill folder, without "
                               "'..' (for example evals/files/data.csv)")
        src = (root / rel).resolve()
        if base not in src.parents:
            raise StagingError(f"{where} resolves outside the skill folder; copy it into "
                               "evals/files/")
        if not src.exists():
            raise StagingError(f"{where} does not exist; add it under {root} or remove it "
                               "from evals/evals.json")
        name = src.name
        if src.is_dir():
            tree = read_tree_files(src)
            items = {f"{name}/{k}": v for k, v in tree.items()}
        else:
            items = {name: TreeEntry(data=src.read_bytes(),
                                     executable=bool(src.stat().st_mode & 0o111))}
        for key, entry in items.items():
            if key in out:
                raise StagingError(f"{where}: two case files are both called {key!r} in "
                                   "/workspace; rename one")
            out[key] = entry
    return out


def read_tree_files(folder: Path) -> dict[str, TreeEntry]:
    """Every file under `folder` (VCS and cache folders skipped), as tree entries."""
    files: dict[str, TreeEntry] = {}
    for path in sorted(folder.rglob("*")):
        rel = PurePosixPath(path.relative_to(folder).as_posix())
        if path.is_symlink() or not path.is_file():
            continue
        if any(part in _CASE_SKIP for part in rel.parts) or rel.name.endswith(EXCLUDED_SUFFIXES):
            continue
        files[str(rel)] = TreeEntry(data=path.read_bytes(),
                                    executable=bool(path.stat().st_mode & 0o111))
    return files


def stage_trial(case: EvalCase, condition: Condition, spec: RunSpec,
                skills: SkillSet | None = None, skills_dir: str = SKILLS_DIR) -> TrialStage:
    """Build the trial's archive and skills list; refuse anything that would leak the target.

    `skills_dir` is where skills go: /skills for the built-in agent, or an external
    harness's own folder (e.g. /home/agent/.claude/skills).
    """
    skills = skills or load_skill_set(spec)
    trees = visible_trees(skills, condition, spec.workspace)
    builder = TarBuilder()
    visible: list[VisibleSkill] = []
    for tree, role in trees:
        dest = f"{skills_dir.rstrip('/')}/{tree.name}"
        builder.add_tree(dest, tree)
        visible.append(VisibleSkill(name=tree.name, description=tree.description,
                                    path=f"{dest}/SKILL.md", role=role))
    case_files = _case_entries(skills.root, case)
    for rel, entry in sorted(case_files.items()):
        builder.add_file(f"{WORKSPACE}/{rel}", entry.data, AGENT_UID, AGENT_GID,
                         0o755 if entry.executable else 0o644)
    instruction = SELF_GENERATED_INSTRUCTION if condition == "self_generated" else None
    stage = TrialStage(
        case_id=str(case.id), condition=condition, skills=visible,
        workspace_files=sorted({f"{WORKSPACE}/{k.split('/')[0]}" for k in case_files}),
        instruction=instruction, paths=list(builder.paths),
    )
    if not stages_target(condition):
        leaks = find_leaks(skills.target, trees, case_files, stage)
        if leaks:
            raise StagingError(
                f"the {condition} condition of case {case.id!r} would show the skill under "
                f"test ({skills.target.name}): " + "; ".join(leaks[:5])
                + ". Remove the mention, or use workspace = \"isolated\"."
            )
    stage.archive = builder.getvalue()
    return stage


def _name_pattern(name: str) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![A-Za-z0-9_-])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_-])",
                      re.IGNORECASE)


def find_leaks(target: SkillTree, trees: list[tuple[SkillTree, Role]],
               case_files: dict[str, TreeEntry], stage: TrialStage) -> list[str]:
    """Where the target's name, description or file contents would appear (empty = none)."""
    name_re = _name_pattern(target.name)
    # A very short description ("CSV tool") would match ordinary text.
    desc = target.description.encode() if len(target.description) >= 20 else b""
    hashes = {hashlib.sha256(e.data).hexdigest(): rel for rel, e in target.files.items()
              if e.link is None and len(e.data) >= MIN_HASHED_BYTES}
    leaks: list[str] = []

    def scan(where: str, data: bytes) -> None:
        if name_re.search(data):
            leaks.append(f"{where} names it")
        elif desc and desc in data:
            leaks.append(f"{where} holds its description")
        digest = hashlib.sha256(data).hexdigest()
        if digest in hashes:
            leaks.append(f"{where} is a copy of its {hashes[digest]}")

    for tree, role in trees:
        if role == "previous_version":
            continue  # version delta: the earlier version of the target is meant to be seen
        for rel, entry in tree.files.items():
            scan(f"{role} skill {tree.name} file {rel}", entry.link.encode() if entry.link
                 else entry.data)
    for rel, entry in case_files.items():
        scan(f"case file {rel}", entry.data)
    for skill in stage.skills:
        if skill.role != "previous_version":
            scan(f"the skills list entry {skill.name}", f"{skill.name}\n{skill.description}"
                 .encode())
    if stage.instruction:
        scan("the instruction", stage.instruction.encode())
    return leaks


def sandbox_spec(spec: RunSpec, run_id: str | None = None,
                 labels: dict[str, str] | None = None) -> SandboxSpec:
    """The sandbox for one trial of `spec`: its limits, plus time for grading and teardown."""
    lim = spec.limits
    return SandboxSpec(
        image=spec.image, network=spec.network, cpus=lim.cpus, memory_mb=lim.memory_mb,
        pids=lim.pids, timeout_sec=lim.timeout_sec + GRADER_BUDGET_S + TEARDOWN_MARGIN_S,
        disk_mb=lim.disk_mb,
        run_id=run_id, labels=dict(labels or {}),
    )
