"""`skillforge import harbor JOB_DIR`: a Harbor job's trials into the run store.

Each trial folder is mapped back to (case, condition) through the exported dataset's
manifest (skillforge-dataset.json), found with `--dataset DIR` or from the dataset and task
paths in the job's config.json and the trials' result.json. Attempts are numbered per
(case, condition) in the order the trials started. The trials of one dataset run by one
agent and model become one run (engine "harbor"); a job that ran several agents or models
gives one run each, since pooling them would mix what is being compared.

A trial folder that cannot be used (no result.json: it never finished; a result.json that
is not Harbor's; a task that is not in the dataset) is skipped and counted with its reason;
it never stops the import. Importing the same job again replaces its runs' trials.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from sessions.store import RunStore
from skillforge.harbor.manifest import (
    MANIFEST_NAME,
    DatasetManifest,
    ManifestError,
    ManifestTask,
    load_manifest,
)
from skillforge.harbor.results import (
    CONFIG_JSON,
    RESULT_JSON,
    HarborFileError,
    JobConfig,
    TrialResult,
    load_job_config,
    load_job_result,
    load_trial_result,
)
from skillforge.harbor.trial_record import build_trial
from skillforge.models.trial import RunRecord, TrialRecord


class HarborImportError(ValueError):
    """The job cannot be imported at all; the message says what is missing and the fix."""


class SkippedTrial(BaseModel):
    trial: str
    reason: str


class ImportedRun(BaseModel):
    run_id: str
    replaced: bool
    skill: str
    agent: str
    model: str | None
    trials: int
    statuses: dict[str, int]
    graded_trials: int
    cases: int
    cases_without_trials: list[str] = Field(default_factory=list)
    attempts: int
    notes: dict[str, int] = Field(default_factory=dict)  # note -> trials it applies to


class HarborImport(BaseModel):
    job_dir: str
    job_id: str
    job_name: str | None
    datasets: list[str]
    runs: list[ImportedRun] = Field(default_factory=list)
    skipped: list[SkippedTrial] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    @property
    def skipped_reasons(self) -> dict[str, int]:
        return dict(Counter(_reason_kind(s.reason) for s in self.skipped))


def _reason_kind(reason: str) -> str:
    return reason.split(":", 1)[0]


def _trial_dirs(job_dir: Path) -> list[Path]:
    return sorted(p for p in job_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


def _dataset_candidates(job_dir: Path, config: JobConfig | None,
                        results: list[TrialResult]) -> list[Path]:
    """Folders that may hold the manifest, from the paths Harbor recorded (best first)."""
    raw: list[str] = []
    if config is not None:
        raw += [d.path for d in config.datasets if d.path]
        raw += [str(Path(t.path).parent) for t in config.tasks if t.path]
    raw += [str(Path(r.config.task.path).parent) for r in results
            if r.config and r.config.task and r.config.task.path]
    # Relative paths are relative to where `harbor run` was started: usually the folder
    # holding jobs/, i.e. two levels above the job folder.
    bases = [Path.cwd(), job_dir.resolve().parent.parent, job_dir.resolve().parent]
    out: list[Path] = []
    for entry in dict.fromkeys(raw):
        p = Path(entry).expanduser()
        for cand in [p] if p.is_absolute() else [b / p for b in bases]:
            if (cand / MANIFEST_NAME).is_file() and cand.resolve() not in out:
                out.append(cand.resolve())
    return out


def _manifests(job_dir: Path, config: JobConfig | None, results: list[TrialResult],
               dataset_dirs: list[Path]) -> dict[str, tuple[Path, DatasetManifest]]:
    """{Harbor task name: (dataset folder, manifest)} over every dataset found."""
    folders = [Path(d) for d in dataset_dirs] or _dataset_candidates(job_dir, config, results)
    if not folders:
        raise HarborImportError(
            f"cannot find the skillforge dataset this job ran ({job_dir / CONFIG_JSON} names "
            "no dataset folder that still holds skillforge-dataset.json); pass the folder "
            "`skillforge export harbor` wrote with --dataset DIR")
    by_task: dict[str, tuple[Path, DatasetManifest]] = {}
    for folder in folders:
        try:
            manifest = load_manifest(folder)
        except ManifestError as exc:
            raise HarborImportError(str(exc)) from exc
        for name in manifest.task_by_name():
            by_task.setdefault(name, (folder, manifest))
    return by_task


def model_name(result: TrialResult) -> str | None:
    """The model as `harbor run -m` named it: provider/name when Harbor split it."""
    info = result.agent_info.model_info
    if info is None:
        return None
    if info.provider and "/" not in info.name:
        return f"{info.provider}/{info.name}"
    return info.name


def _run_id(stamp: datetime, *parts: str | None) -> str:
    digest = hashlib.sha256("|".join(p or "" for p in parts).encode()).hexdigest()[:6]
    return f"harbor-{stamp.astimezone(UTC):%Y%m%dT%H%M%S}-{digest}"


_Entry = tuple[Path, TrialResult, DatasetManifest, ManifestTask]


def import_harbor_job(job_dir: Path | str, store: RunStore, *,
                      dataset_dirs: list[Path] | None = None) -> HarborImport:
    """Import every usable trial of a Harbor job folder; HarborImportError when none can be."""
    job_dir = Path(job_dir)
    if not job_dir.is_dir():
        raise HarborImportError(f"{job_dir}: no such folder; give a Harbor job folder such as "
                                "jobs/2026-01-31__10-00-00")
    warnings: list[str] = []
    config = job_result = None
    try:
        config = load_job_config(job_dir / CONFIG_JSON)
    except HarborFileError as exc:
        warnings.append(f"{exc} (the job's own config is not needed to import its trials)")
    try:
        job_result = load_job_result(job_dir / RESULT_JSON)
    except HarborFileError as exc:
        warnings.append(f"{exc} (the job may still be running; only finished trials import)")
    skipped: list[SkippedTrial] = []
    found: list[tuple[Path, TrialResult]] = []
    for trial_dir in _trial_dirs(job_dir):
        path = trial_dir / RESULT_JSON
        if not path.is_file():
            skipped.append(SkippedTrial(trial=trial_dir.name, reason="no result.json: the "
                                        "trial did not finish"))
            continue
        try:
            found.append((trial_dir, load_trial_result(path)))
        except HarborFileError as exc:
            skipped.append(SkippedTrial(trial=trial_dir.name, reason=f"bad result.json: {exc}"))
    if not found and not skipped:
        raise HarborImportError(f"{job_dir} holds no trial folders; is it a Harbor job folder "
                                "(jobs/<job name>)?")
    by_task = _manifests(job_dir, config, [r for _, r in found], dataset_dirs or [])
    entries: list[_Entry] = []
    for trial_dir, result in found:
        hit = by_task.get(result.task_name)
        if hit is None:
            skipped.append(SkippedTrial(trial=trial_dir.name, reason=(
                f"unknown task: {result.task_name!r} is not a task of the skillforge "
                "dataset(s) given")))
            continue
        if result.step_results:
            skipped.append(SkippedTrial(trial=trial_dir.name, reason=(
                "multi-step trial: skillforge exports single-step tasks only")))
            continue
        manifest = hit[1]
        entries.append((trial_dir, result, manifest, manifest.task_by_name()[result.task_name]))
    for manifest in {e[2].export_id: e[2] for e in entries}.values():
        if manifest.network_asked is False and manifest.spec.network:
            warnings.append(f"the trials of export {manifest.export_id} had network: it was "
                            f"written for Harbor's {manifest.harbor_environment} environment, "
                            "which cannot enforce no-network (the run is stored with network "
                            "on)")
    job_id = job_result.id if job_result else (config.job_name if config and config.job_name
                                               else job_dir.name)
    report = HarborImport(job_dir=str(job_dir), job_id=job_id,
                          job_name=config.job_name if config else None,
                          datasets=sorted({str(f) for f, _ in by_task.values()}),
                          skipped=skipped, warnings=warnings)
    groups: dict[tuple[str, str, str | None], list[_Entry]] = defaultdict(list)
    for entry in entries:
        groups[(entry[2].export_id, entry[1].agent_info.name,
                model_name(entry[1]))].append(entry)
    started = job_result.started_at if job_result and job_result.started_at else None
    for (export_id, agent, model), items in sorted(groups.items(),
                                                   key=lambda kv: (kv[0][0], kv[0][1],
                                                                   kv[0][2] or "")):
        stamp = started or min((r.started_at for _, r, _, _ in items if r.started_at),
                               default=datetime.now(UTC))
        run_id = _run_id(stamp, job_id, export_id, agent, model)
        report.runs.append(_import_group(store, run_id, items, agent, model, config, job_dir,
                                         report.skipped))
    return report


def _attempts(items: list[_Entry]) -> list[tuple[int, _Entry]]:
    """Number the trials of each (case, condition) 1, 2, ... in the order they started."""
    by_pair: dict[tuple[str, str], list[_Entry]] = defaultdict(list)
    for item in items:
        by_pair[(item[3].case_id, item[3].condition)].append(item)
    far = datetime.max.replace(tzinfo=UTC)
    out: list[tuple[int, _Entry]] = []
    for pair in sorted(by_pair):
        ordered = sorted(by_pair[pair], key=lambda e: (_aware(e[1].started_at) or far,
                                                       e[1].trial_name))
        out += [(i, e) for i, e in enumerate(ordered, start=1)]
    return out


def _aware(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _import_group(store: RunStore, run_id: str, items: list[_Entry], agent: str,
                  model: str | None, config: JobConfig | None, job_dir: Path,
                  skipped: list[SkippedTrial]) -> ImportedRun:
    manifest = items[0][2]
    numbered = _attempts(items)
    attempts = max(i for i, _ in numbered)
    spec = manifest.spec.model_copy(update={"agent": agent, "model": model,
                                            "attempts": attempts})
    existing = store.run(run_id)
    if existing is None:
        label = f"harbor job {config.job_name if config and config.job_name else job_dir.name}"
        store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC),
                                   skill_name=manifest.skill, skill_path=manifest.skill_path,
                                   skill_hash=manifest.skill_hash, spec=spec, engine="harbor",
                                   status="running", label=label))
    records: list[TrialRecord] = []
    notes: Counter[str] = Counter()
    for attempt, (trial_dir, result, _manifest, task) in numbered:
        case = manifest.case(task.case_id)
        if case is None:  # the manifest lists a task of a case it does not hold: damaged
            notes[f"case {task.case_id!r} missing from {MANIFEST_NAME}"] += 1
            continue
        try:
            built = build_trial(trial_dir, result, run_id=run_id, case=case,
                                condition=task.condition, attempt=attempt,
                                target_skill=manifest.skill, graded=task.graded)
        except Exception as exc:  # noqa: BLE001 - one bad trial must not stop the import
            skipped.append(SkippedTrial(trial=trial_dir.name, reason=(
                f"not importable: {type(exc).__name__}: {exc}")))
            continue
        records.append(built.save(store, notes))
    store.finish_run(run_id, "finished")
    seen_cases = {r.case_id for r in records}
    return ImportedRun(
        run_id=run_id, replaced=existing is not None, skill=manifest.skill, agent=agent,
        model=model, trials=len(records), statuses=dict(Counter(r.status for r in records)),
        graded_trials=sum(1 for r in records if r.grader is not None),
        cases=len(manifest.cases),
        cases_without_trials=[c for c in spec.case_ids if c not in seen_cases],
        attempts=attempts, notes=dict(notes))
