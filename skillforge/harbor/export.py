"""`skillforge export harbor`: a run's paired trials as a Harbor dataset, one task per
(case, condition).

    DIR/<skill>__<case>__<condition>/
        instruction.md          the case prompt only (self_generated: the notes instruction,
                                then the prompt, as the built-in agent is told)
        task.toml               schema 1.4; [metadata.skillforge] names the trial
        environment/Dockerfile  FROM the trial image; copies workspace/ and skills/ in
        environment/workspace/  the case's files (what /workspace starts with)
        environment/skills/     the skills this condition may see (Harbor's skills_dir)
        tests/test.sh           the grader bridge (uploaded by Harbor after the agent stops)
        tests/grader/           the grader and its folder (never in the environment)
    DIR/README.md               the `harbor run` commands, and the way back
    DIR/skillforge-dataset.json the manifest `skillforge import harbor` reads

What goes into a task's environment is exactly what `skillforge.trials.staging.stage_trial` puts in
a local sandbox, so the same refusals apply: evals/ is never staged, and a baseline that
would show the target's name, description or a copy of one of its files is refused.
The dataset is built in a temporary folder beside DIR and moved into place at the end.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import tarfile
import tempfile
import uuid
from datetime import UTC, datetime
from math import ceil
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field

from skillforge import __version__
from skillforge.agent.loop import task_message
from skillforge.models.fileio import atomic_write_text
from skillforge.harbor.manifest import (
    MANIFEST_NAME,
    DatasetManifest,
    ManifestTask,
    case_snapshot,
    save_manifest,
)
from skillforge.harbor.environments import (
    DEFAULT_ENVIRONMENT,
    ENVIRONMENTS,
    NetworkPlan,
    network_notice,
    network_plan,
)
from skillforge.harbor.readme import render_readme
from skillforge.harbor.task_model import (
    EnvironmentTable,
    HarborTaskToml,
    PhaseTable,
    SkillforgeMetadata,
    TaskInfo,
    TaskMetadata,
    save_task_toml,
)
from skillforge.harbor.verifier_script import grader_bundle, render_test_sh
from skillforge.evalformats.registry import read as read_cases
from skillforge.evalformats.registry import skill_cases
from skillforge.models.evals import EvalCase
from skillforge.models.skill import load_skill
from skillforge.models.trial import Condition, RunSpec
from skillforge.sandbox.base import SKILLS_DIR, WORKSPACE
from skillforge.sandbox.grading import DEFAULT_GRADER_TIMEOUT_S
from skillforge.trials.run import RunError, plan_parts
from skillforge.trials.staging import SkillSet, StagingError, load_skill_set, stage_trial

README_NAME = "README.md"
_SLUG_BAD = re.compile(r"[^A-Za-z0-9._-]+")


SKILL_MODE_REFUSAL = (
    "Skill Mode runs only with skillforge's built-in agent (skillforge trial --conditions "
    "skill_mode); Harbor's agents have no skill tools (save_skill, execute_skill). Drop "
    "skill_mode from the exported conditions (--conditions with_skill,baseline)")


class ExportError(ValueError):
    """The dataset cannot be written; the message names the file or setting and the fix."""


class ExportedTask(BaseModel):
    folder: str
    name: str
    case_id: str
    condition: Condition
    graded: bool
    skills: list[str] = Field(default_factory=list)  # skill names under /skills
    workspace_files: list[str] = Field(default_factory=list)


class ExportResult(BaseModel):
    dataset_dir: str
    manifest: DatasetManifest
    tasks: list[ExportedTask]
    ungraded: list[str] = Field(default_factory=list)  # case ids without a grader
    replaced: bool = False
    # Set when the trial settings asked for no network and the chosen Harbor environment
    # cannot enforce it: the sentence to show the user (the README says it too).
    network_notice: str | None = None


def case_slug(case_id: str) -> str:
    """A folder- and Harbor-name-safe form of a case id; changed ids get a short hash."""
    slug = _SLUG_BAD.sub("-", case_id).replace("__", "-").strip("._-")[:60] or "case"
    return slug if slug == case_id else f"{slug}-{hashlib.sha256(case_id.encode()).hexdigest()[:6]}"


def condition_slug(condition: str) -> str:
    """A folder- and Harbor-name-safe form of a condition: `without:reference:references/a.md`
    becomes `without-reference-references-a.md-<hash>` (the manifest keeps the real one)."""
    slug = _SLUG_BAD.sub("-", condition).replace("__", "-").strip("._-")[:80] or "condition"
    return slug if slug == condition else \
        f"{slug}-{hashlib.sha256(condition.encode()).hexdigest()[:6]}"


def task_identity(skill: str, case_id: str, condition: str) -> tuple[str, str]:
    """(folder name, Harbor task name) of one (case, condition)."""
    slug, cond = case_slug(case_id), condition_slug(condition)
    return f"{skill}__{slug}__{cond}", f"{skill}/{slug}__{cond}"


def select_cases(skill_root: Path, case_ids: list[str]) -> list[EvalCase]:
    """The cases to export (all when `case_ids` is empty); ExportError names what is wrong."""
    found = skill_cases(skill_root)
    if found is None:
        path = skill_root / "evals" / "evals.json"
        raise ExportError(f"{path} does not exist: a Harbor dataset is built from the skill's "
                          "eval cases; add some with `skillforge evals draft` or by hand")
    path = found[0]
    got = read_cases(*found)
    evals, issues = got.evalset, got.issues
    if evals is None or issues:
        first = issues[0] if issues else None
        where = f" (line {first.line})" if first and first.line else ""
        raise ExportError(f"{path}{where}: {first.message if first else 'cannot be read'}; "
                          f"fix it first (`skillforge evals validate {skill_root}`)")
    if not evals.cases:
        raise ExportError(f"{path} has no cases; add at least one")
    if not case_ids:
        return list(evals.cases)
    known = {str(c.id): c for c in evals.cases}
    missing = [c for c in case_ids if c not in known]
    if missing:
        raise ExportError(f"no case {', '.join(map(repr, missing))} in {path}; its cases are "
                          + ", ".join(known))
    return [known[c] for c in dict.fromkeys(case_ids)]


def _task_toml(spec: RunSpec, net: NetworkPlan, skills: SkillSet, skill_hash: str,
               export_id: str, case: EvalCase, condition: Condition,
               name: str) -> HarborTaskToml:
    lim = spec.limits
    kind = case.effective_kind
    return HarborTaskToml(
        task=TaskInfo(name=name, description=(f"skillforge paired trial: case {case.id} "
                                              f"({kind}) of {skills.target.name}, "
                                              f"condition {condition}"),
                      keywords=["skillforge", skills.target.name, condition, kind]),
        metadata=TaskMetadata(skillforge=SkillforgeMetadata(
            export_id=export_id, skill=skills.target.name, skill_hash=skill_hash,
            case_id=str(case.id), condition=condition, graded=bool(case.grader),
            image=spec.image, workspace=spec.workspace,
            support_skills=[t.name for t in skills.support],
            decoy_skills=[t.name for t in skills.decoys], cpus=lim.cpus, pids=lim.pids,
            max_turns=lim.max_turns, skillforge_version=__version__,
            harbor_environment=net.harbor_environment)),
        verifier=PhaseTable(timeout_sec=float(DEFAULT_GRADER_TIMEOUT_S),
                            network_mode=net.phases),
        agent=PhaseTable(timeout_sec=float(lim.timeout_sec), network_mode=net.phases),
        environment=EnvironmentTable(cpus=max(1, ceil(lim.cpus)), memory_mb=lim.memory_mb,
                                     network_mode=net.environment, skills_dir=SKILLS_DIR,
                                     workdir=WORKSPACE),
    )


def _dockerfile(image: str, has_files: bool, has_skills: bool) -> str:
    # Neutral on purpose: nothing here names the case, the condition or a skill.
    lines = [
        "# Generated by `skillforge export harbor`; do not edit (export again).",
        "# Build context: this folder. workspace/ is what /workspace starts with; skills/",
        "# holds the skills this task may see (task.toml [environment] skills_dir).",
        f"FROM {image}",
    ]
    if has_files:
        lines.append(f"COPY workspace/ {WORKSPACE}/")
    if has_skills:
        lines.append(f"COPY skills/ {SKILLS_DIR}/")
    lines += [
        (f"RUN mkdir -p {WORKSPACE} {SKILLS_DIR} && chmod -R a+rwX {WORKSPACE} "
        f"&& chmod -R a+rX,go-w {SKILLS_DIR}"),
        f"WORKDIR {WORKSPACE}",
    ]
    return "\n".join(lines) + "\n"


def _extract(archive: bytes, routes: dict[str, Path]) -> list[str]:
    """Write a staging tar's files under the folder its top-level name routes to."""
    written: list[str] = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar:
            top, _, rest = member.name.strip("/").partition("/")
            if member.isdir():
                continue
            rel = PurePosixPath(rest)
            if top not in routes or not rest or ".." in rel.parts:
                raise ExportError(f"unexpected path /{member.name} in a staged trial; this is "
                                  "a bug in skillforge, please report it")
            dest = routes[top].joinpath(*rel.parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            if member.issym():
                os.symlink(member.linkname, dest)
            elif member.isfile():
                fh = tar.extractfile(member)
                dest.write_bytes(fh.read() if fh else b"")
                dest.chmod(0o755 if member.mode & 0o111 else 0o644)
            written.append(f"{top}/{rest}")
    return written


def _write_task(task_dir: Path, spec: RunSpec, skills: SkillSet, case: EvalCase,
                condition: Condition, toml: HarborTaskToml) -> ExportedTask:
    try:
        stage = stage_trial(case, condition, spec, skills, skills_dir=SKILLS_DIR)
    except StagingError as exc:
        raise ExportError(str(exc)) from exc
    env = task_dir / "environment"
    (env / "workspace").mkdir(parents=True)
    (env / "skills").mkdir()
    written = _extract(stage.archive, {"workspace": env / "workspace", "skills": env / "skills"})
    has_files = any(w.startswith("workspace/") for w in written)
    has_skills = any(w.startswith("skills/") for w in written)
    for sub, present in (("workspace", has_files), ("skills", has_skills)):
        if not present:
            (env / sub).rmdir()
    atomic_write_text(env / "Dockerfile", _dockerfile(spec.image, has_files, has_skills))
    atomic_write_text(task_dir / "instruction.md", task_message(stage, case.prompt).rstrip()
                      + "\n")
    tests = task_dir / "tests"
    tests.mkdir()
    command, workdir = None, WORKSPACE
    if case.grader:
        archive, command, workdir = grader_bundle(skills.root, case.grader)
        _extract(archive, {"grader": tests / "grader"})
    test_sh = tests / "test.sh"
    atomic_write_text(test_sh, render_test_sh(str(case.id), case.grader, command, workdir))
    test_sh.chmod(0o755)
    save_task_toml(toml, task_dir)
    return ExportedTask(folder=task_dir.name, name=toml.task.name, case_id=str(case.id),
                        condition=condition, graded=bool(case.grader),
                        skills=[s.name for s in stage.skills],
                        workspace_files=stage.workspace_files)


def _is_previous_export(path: Path) -> bool:
    return (path / MANIFEST_NAME).is_file()


def export_harbor(spec: RunSpec, out_dir: Path | str, *, force: bool = False,
                  shown_dir: str | None = None,
                  environment: str = DEFAULT_ENVIRONMENT) -> ExportResult:
    """Write the Harbor dataset for `spec` to `out_dir`; ExportError on bad input.

    `environment` is the Harbor environment the tasks will run on (`harbor run -e`): it
    decides the network policies written (skillforge.harbor.environments). An existing
    non-empty `out_dir` is replaced only when it is an earlier export and `force` is set.
    `shown_dir` is how the README names the folder (default: as given).
    """
    if environment not in ENVIRONMENTS:
        raise ExportError(f"unknown Harbor environment {environment!r}; use one of "
                          + ", ".join(sorted(ENVIRONMENTS)))
    if "skill_mode" in spec.conditions:
        raise ExportError(SKILL_MODE_REFUSAL)
    net = network_plan(environment, spec.network)
    out = Path(out_dir)
    replaced = any(out.iterdir()) if out.is_dir() else out.exists()
    if replaced and not (out.is_dir() and _is_previous_export(out)):
        raise ExportError(f"{out} exists and is not an earlier `skillforge export harbor` "
                          "folder; choose a new or empty folder")
    if replaced and not force:
        raise ExportError(f"{out} holds an earlier export; add --force to replace it")
    try:
        skills = load_skill_set(spec)
        spec = plan_parts(spec, skills)  # without:<part> tasks: the parts and their costs
    except (StagingError, RunError) as exc:
        raise ExportError(str(exc)) from exc
    cases = select_cases(skills.root, spec.case_ids)
    # spec.network says what the trials will have, which is more than was asked when the
    # environment cannot turn the network off (the manifest keeps what was asked).
    spec = spec.model_copy(update={"case_ids": [str(c.id) for c in cases],
                                   "skill_path": str(skills.root.resolve()),
                                   "network": net.has_network})
    skill_hash = load_skill(skills.root).content_hash()
    export_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        tasks: list[ExportedTask] = []
        for case in cases:
            for condition in spec.conditions:
                folder, name = task_identity(skills.target.name, str(case.id), condition)
                toml = _task_toml(spec, net, skills, skill_hash, export_id, case, condition,
                                  name)
                tasks.append(_write_task(tmp / folder, spec, skills, case, condition, toml))
        manifest = DatasetManifest(
            export_id=export_id, created_at=datetime.now(UTC), skillforge_version=__version__,
            skill=skills.target.name, skill_path=spec.skill_path, skill_hash=skill_hash,
            spec=spec, harbor_environment=environment, network_asked=net.asked_network,
            cases=[case_snapshot(c) for c in cases],
            tasks=[ManifestTask(folder=t.folder, name=t.name, case_id=t.case_id,
                                condition=t.condition, graded=t.graded) for t in tasks])
        save_manifest(manifest, tmp)
        ungraded = [str(c.id) for c in cases if not c.grader]
        atomic_write_text(tmp / README_NAME, render_readme(manifest, shown_dir or str(out),
                                                           ungraded, net))
        _swap_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ExportResult(dataset_dir=str(out), manifest=manifest, tasks=tasks,
                        ungraded=ungraded, replaced=replaced,
                        network_notice=network_notice(net))


def _swap_into_place(new: Path, out: Path) -> None:
    """Move the finished dataset to `out`, replacing an earlier export there."""
    new.chmod(0o755)
    if not out.exists():
        new.rename(out)
        return
    old = out.with_name(f".{out.name}.old-{uuid.uuid4().hex[:6]}")
    out.rename(old)
    new.rename(out)
    shutil.rmtree(old, ignore_errors=True)
