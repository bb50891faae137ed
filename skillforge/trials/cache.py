"""The trial cache: a trial whose inputs did not change is not run again.

A trial's key is the SHA-256 of everything the trial sees, and of everything its stored
record depends on (the fields are listed in `KEY_FIELDS` and in docs/trial-cache.md):

    plans = await keyed_plans(plans, spec, skills, client=..., judges=..., max_tokens=...)
    found = reusable(store, plans, run_id)          # {trial key: stored record to reuse}
    record = adopt(store, run_id, found[key])      # stored as a trial of this run

A new run looks up each planned trial's key among the trials of every run in the store and
reuses the newest one whose outcome is usable (not an infrastructure error, not cancelled,
not a contaminated baseline: whatever the lift leaves out), instead of running it. The copy
becomes an ordinary trial of the new run (the statistics do not tell them apart) that says
where it came from (`reused_from`, the run that executed it). `--fresh` runs everything.

A baseline's key holds no byte of the target skill (only its name, which the metrics use),
so an edit of SKILL.md runs only the conditions that stage the target; an edit of one case
runs only that case. `skill_mode` trials carry a skill cache from case to case, so they are
never reused. Bump `TRIAL_LOOP_VERSION` whenever the built-in agent loop, its tools, the
staging, the grading or the deterministic metrics change what a trial records.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sessions.store import MetricEvidence, RunStore
from skillforge.models.evals import EvalCase
from skillforge.models.llm import ModelClient
from skillforge.models.trial import RunSpec, TrialRecord
from skillforge.sandbox.skill_tree import SkillTree, TreeEntry
from skillforge.trials.events import TrialKey
from skillforge.trials.runner import TrialPlan
from skillforge.trials.staging import (
    SkillSet,
    StagingError,
    _case_entries,
    read_tree_files,
    visible_trees,
)

# skillforge's part of every trial: the built-in agent loop and its tools, staging, the
# grader's launcher and the deterministic metrics. Bump it when any of them changes what a
# trial records, so no stored trial of the old code is reused.
TRIAL_LOOP_VERSION = 1
# Conditions never reused: their trials depend on the trials before them in the run.
UNCACHED_CONDITIONS = ("skill_mode",)
# The key's fields, as the docs and `skillforge trial --help` list them.
KEY_FIELDS: tuple[str, ...] = (
    "skills: each staged skill's role, name and files (a baseline stages no target)",
    "target name (the metrics name it in every condition)",
    "condition and attempt index",
    "case: id, kind, prompt, files (their bytes), expected skill/script, ground truth, "
    "expected behaviour, reference turns, grader and every file of its folder",
    "harness (agent) and its CLI's version",
    "model, provider, base URL, temperature, max tokens",
    "judge models and rubric version (or none)",
    "sandbox and image id, network, workspace policy, limits (turns, timeout, cpus, "
    "memory, pids, disk)",
    "version-delta flag, skillforge's trial loop version",
)
# Case fields a trial does not see and its record does not depend on.
CASE_UNSEEN = ("notes", "extra", "field_names", "key_order", "line")


def digest(value: Any) -> str:
    """SHA-256 of a JSON-able value, with sorted keys (the same value, the same digest)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _files_digest(files: dict[str, TreeEntry]) -> str:
    return digest({rel: [hashlib.sha256(e.data).hexdigest(), e.executable, e.link]
                   for rel, e in files.items()})


def tree_digest(tree: SkillTree) -> str:
    """A staged skill's name, description and every file (bytes, mode, link target)."""
    return digest([tree.name, tree.description, _files_digest(tree.files)])


def grader_files(root: Path, grader: str | None) -> str | None:
    """Digest of what the grader sees beside the workspace (skillforge.sandbox.grading):
    a grader file's whole folder, or for a command the skill's evals/ folder (less
    evals.json: each case's own part of it is in its key)."""
    if not grader:
        return None
    candidate = (root / grader.strip()).resolve()
    if root.resolve() in candidate.parents and candidate.is_file():
        return _files_digest(read_tree_files(candidate.parent))
    evals = root / "evals"
    files = read_tree_files(evals) if evals.is_dir() else {}
    files.pop("evals.json", None)
    return _files_digest(files)


def case_fields(root: Path, case: EvalCase) -> dict[str, Any] | None:
    """The key's case part; None when the case cannot be staged (the trial says why)."""
    data = case.model_dump(mode="json", exclude=set(CASE_UNSEEN))
    data["effective_kind"], data["is_negative"] = case.effective_kind, case.is_negative
    try:
        files = _case_entries(root, case)
    except StagingError:
        return None
    return {"case": data, "files": _files_digest(files),
            "grader_files": grader_files(root, case.grader)}


def _client_fields(client: ModelClient | None, max_tokens: int | None) -> dict[str, Any]:
    options = getattr(client, "options", None)
    return {"provider": getattr(client, "name", None), "model": getattr(client, "model", None),
            "base_url": getattr(options, "base_url", None),
            "temperature": getattr(options, "temperature", None),
            "max_tokens": max_tokens or getattr(options, "max_tokens", None)}


def run_fields(spec: RunSpec, client: ModelClient, judges: Sequence[ModelClient] = (), *,
               max_tokens: int | None = None, image_id: str | None = None,
               harness_version: str | None = None) -> dict[str, Any]:
    """The key's part that every trial of a run shares."""
    from skillforge.metrics.judged_prompts import RUBRIC_VERSION

    return {
        "loop": TRIAL_LOOP_VERSION,
        "harness": {"agent": spec.agent, "cli": spec.harness_cli if spec.agent != "builtin"
                    else None, "version": harness_version},
        "model": _client_fields(client, max_tokens),
        "judges": {"models": [_client_fields(j, None) for j in judges],
                   "rubric": RUBRIC_VERSION} if judges else None,
        "sandbox": spec.sandbox, "image": image_id or spec.image, "network": spec.network,
        "workspace": spec.workspace, "limits": spec.limits.model_dump(mode="json"),
        "version_delta": bool(spec.baseline_version),
    }


def trial_key(run: dict[str, Any], skills: SkillSet, spec: RunSpec, case: dict[str, Any] | None,
              condition: str, attempt: int) -> str | None:
    """A trial's key, or None when it is never reused (skill_mode, an unstageable case)."""
    if case is None or condition in UNCACHED_CONDITIONS:
        return None
    try:
        trees = visible_trees(skills, condition, spec.workspace)
    except StagingError:
        return None
    return digest({"run": run, "case": case, "condition": condition, "attempt": attempt,
                   "target_name": skills.target.name,
                   "skills": [[role, tree.name, tree_digest(tree)] for tree, role in trees]})


async def image_id(spec: RunSpec) -> str | None:
    """The Docker image's id (the same tag may name another image tomorrow); None: local."""
    if spec.sandbox != "docker":
        return None
    from skillforge.sandbox.docker_client import executor, get_client

    def probe() -> str:
        return str(get_client().api.inspect_image(spec.image)["Id"])

    return await asyncio.get_running_loop().run_in_executor(executor(), probe)


async def harness_version(spec: RunSpec) -> str | None:
    """The external harness CLI's version when skillforge layers its own binary onto the
    image (else the image id covers it); None for the built-in agent."""
    if spec.agent == "builtin":
        return None
    from skillforge.harnesses import get_harness
    from skillforge.harnesses.image import cli_binary, cli_version

    binary = cli_binary(get_harness(spec.agent), spec.harness_cli)
    return None if binary is None else await asyncio.to_thread(cli_version, binary)


async def keyed_plans(plans: Sequence[TrialPlan], spec: RunSpec, skills: SkillSet, *,
                      client: ModelClient, judges: Sequence[ModelClient] = (),
                      max_tokens: int | None = None) -> list[TrialPlan]:
    """The plans with their cache keys set."""
    run = run_fields(spec, client, judges, max_tokens=max_tokens,
                     image_id=await image_id(spec), harness_version=await harness_version(spec))
    cases: dict[str, dict[str, Any] | None] = {}
    out = []
    for plan in plans:
        cid = str(plan.case.id)
        if cid not in cases:
            cases[cid] = case_fields(skills.root, plan.case)
        key = trial_key(run, skills, spec, cases[cid], plan.condition, plan.attempt)
        out.append(replace(plan, cache_key=key))
    return out


def reusable(store: RunStore, plans: Sequence[TrialPlan], run_id: str
             ) -> dict[TrialKey, TrialRecord]:
    """{trial key: the newest stored trial of another run with the plan's cache key and a
    usable outcome}, for the plans that have one."""
    wanted = {p.cache_key: p.key for p in plans if p.cache_key}
    found: dict[TrialKey, TrialRecord] = {}
    for rec in store.trials_by_cache_key(list(wanted), exclude_run=run_id):
        key = wanted[rec.cache_key]  # type: ignore[index]
        if key not in found and not rec.excluded:
            found[key] = rec
    return found


def adopt(store: RunStore, run_id: str, source: TrialRecord) -> TrialRecord:
    """Store `source` as a trial of run `run_id`, with its metric evidence; the copy names
    the run that executed it (its trajectory stays where that run stored it)."""
    record = source.model_copy(update={"run_id": run_id,
                                       "reused_from": source.reused_from or source.run_id})
    evidence = {m.metric: MetricEvidence(evidence=m.evidence, judge_model=m.judge_model,
                                         rubric_version=m.rubric_version)
                for m in store.metrics(source.run_id, source.key)}
    store.upsert_trial(record, evidence)
    return record

