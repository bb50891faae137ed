"""Checks run by Harbor's own interpreter (Python >= 3.12, `harbor` installed): this file
imports Harbor, never skillforge. Each command prints one JSON document.

    harbor_checks.py version
    harbor_checks.py environment-types        the names `harbor run -e` takes
    harbor_checks.py tasks TASK_DIR...        load each task as `harbor run` does
    harbor_checks.py trajectories FILE...     validate ATIF files with Harbor's models
    harbor_checks.py job JOB_DIR              validate a job folder's JSON files
    harbor_checks.py build-job SPECS JOB_DIR  write a job folder's JSON files through
                                              Harbor's models (SPECS: a JSON file)
"""

from __future__ import annotations

import json
import sys
import tomllib
import types
import typing
from pathlib import Path
from typing import Any


def _model_in(annotation: Any) -> type | None:
    """The pydantic model an annotation holds (optional, union or list of it), if any."""
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, list):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def unknown_keys(data: dict[str, Any], model: type, prefix: str = "") -> list[str]:
    """Keys that `model` does not define, at any depth (pydantic would silently drop them:
    Harbor's models ignore unknown keys, so a misspelt key would pass validation)."""
    out = []
    for key, value in data.items():
        field = model.model_fields.get(key)
        if field is None:
            out.append(prefix + key)
            continue
        sub = _model_in(field.annotation)
        if sub is None:
            continue
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            if isinstance(item, dict):
                where = f"{prefix}{key}[{i}]." if isinstance(value, list) else f"{prefix}{key}."
                out += unknown_keys(item, sub, where)
    return out


def check_tasks(dirs: list[str]) -> dict[str, Any]:
    from harbor.models.task.config import TaskConfig
    from harbor.models.task.task import Task

    out: dict[str, Any] = {}
    for d in dirs:
        entry: dict[str, Any] = {}
        try:
            raw = tomllib.loads((Path(d) / "task.toml").read_text())
            entry["unknown_keys"] = unknown_keys(raw, TaskConfig)
            task = Task(d)
            cfg = task.config
            entry.update({
                "ok": True, "valid_dir": Task.is_valid_dir(d), "name": task.name,
                "instruction": task.instruction,
                "schema_version": cfg.schema_version,
                "metadata": cfg.metadata,
                "verifier_timeout_sec": cfg.verifier.timeout_sec,
                "verifier_network_mode": cfg.verifier.network_mode.value
                if cfg.verifier.network_mode else None,
                "agent_timeout_sec": cfg.agent.timeout_sec,
                "agent_network_mode": cfg.agent.network_mode.value
                if cfg.agent.network_mode else None,
                "env_network_mode": cfg.environment.network_mode.value,
                "cpus": cfg.environment.cpus, "memory_mb": cfg.environment.memory_mb,
                "skills_dir": cfg.environment.skills_dir, "workdir": cfg.environment.workdir,
                "docker_image": cfg.environment.docker_image,
                "test_script": str(task.paths.discovered_test_path),
            })
        except Exception as exc:  # noqa: BLE001 - reported to the test
            entry.update({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
        out[d] = entry
    return out


def check_trajectories(files: list[str]) -> dict[str, Any]:
    from harbor.models.trajectories import Trajectory
    from harbor.utils.trajectory_validator import TrajectoryValidator

    out: dict[str, Any] = {}
    for f in files:
        entry: dict[str, Any] = {}
        try:
            traj = Trajectory.model_validate(json.loads(Path(f).read_text()))
            entry.update({"ok": True, "steps": len(traj.steps),
                          "schema_version": traj.schema_version})
        except Exception as exc:  # noqa: BLE001
            entry.update({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
        validator = TrajectoryValidator()
        entry["validator_ok"] = bool(validator.validate(Path(f)))
        entry["validator_errors"] = list(validator.errors)
        out[f] = entry
    return out


def check_job(job_dir: str) -> dict[str, Any]:
    from harbor.models.job.config import JobConfig
    from harbor.models.job.result import JobResult
    from harbor.models.trial.result import TrialResult

    job = Path(job_dir)
    out: dict[str, Any] = {"trials": {}}
    for name, model in (("config.json", JobConfig), ("result.json", JobResult)):
        try:
            text = (job / name).read_text()
            model.model_validate_json(text)
            out[name] = {"ok": True, "unknown_keys": unknown_keys(json.loads(text), model)}
        except Exception as exc:  # noqa: BLE001
            out[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    for trial in sorted(p for p in job.iterdir() if p.is_dir()):
        path = trial / "result.json"
        if not path.is_file():
            continue
        try:
            text = path.read_text()
            result = TrialResult.model_validate_json(text)
            out["trials"][trial.name] = {
                "ok": True, "task_name": result.task_name,
                "unknown_keys": unknown_keys(json.loads(text), TrialResult),
                "rewards": result.verifier_result.rewards if result.verifier_result else None,
                "exception": result.exception_info.exception_type
                if result.exception_info else None,
            }
        except Exception as exc:  # noqa: BLE001
            out["trials"][trial.name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return out


def build_job(specs_path: str, job_dir: str) -> dict[str, Any]:
    """config.json, result.json and each trial's result.json, through Harbor's models."""
    from datetime import datetime

    from harbor.models.agent.context import AgentContext
    from harbor.models.job.config import DatasetConfig, JobConfig
    from harbor.models.job.result import JobResult, JobStats
    from harbor.models.task.id import LocalTaskId
    from harbor.models.trial.config import AgentConfig, TaskConfig, TrialConfig
    from harbor.models.trial.result import (
        AgentInfo,
        ExceptionInfo,
        ModelInfo,
        TimingInfo,
        TrialResult,
    )
    from harbor.models.verifier.result import VerifierResult

    doc = json.loads(Path(specs_path).read_text())
    job = Path(job_dir)
    ts = datetime.fromisoformat
    results = []
    for spec in doc["trials"]:
        t = {k: ts(v) for k, v in spec["times"].items()}
        exc = None
        if spec["exception"]:
            exc = ExceptionInfo(exception_type=spec["exception"][0],
                                exception_message=spec["exception"][1],
                                exception_traceback="Traceback (most recent call last): ...",
                                occurred_at=t["agent_end"])
        ctx = None
        if any(spec[k] is not None for k in ("n_input_tokens", "n_output_tokens", "cost_usd")):
            ctx = AgentContext(n_input_tokens=spec["n_input_tokens"],
                               n_cache_tokens=spec["n_cache_tokens"],
                               n_output_tokens=spec["n_output_tokens"],
                               cost_usd=spec["cost_usd"])
        model = spec["model"]
        result = TrialResult(
            id=spec["id"], task_name=spec["task_name"], trial_name=spec["trial_name"],
            trial_uri=(job / spec["trial_name"]).as_uri(),
            task_id=LocalTaskId(path=Path(spec["task_path"])),
            source=Path(spec["task_path"]).parent.name, task_checksum="0" * 64,
            config=TrialConfig(task=TaskConfig(path=Path(spec["task_path"])),
                               trial_name=spec["trial_name"], trials_dir=job,
                               agent=AgentConfig(name=spec["agent"], model_name=model),
                               job_id=doc["job_id"]),
            agent_info=AgentInfo(name=spec["agent"], version=spec["agent_version"],
                                 model_info=ModelInfo(name=model.split("/")[-1],
                                                      provider=spec["provider"])
                                 if model else None),
            agent_result=ctx,
            verifier_result=VerifierResult(rewards=spec["rewards"])
            if spec["rewards"] is not None else None,
            exception_info=exc, started_at=t["started_at"], finished_at=t["finished_at"],
            environment_setup=TimingInfo(started_at=t["started_at"], finished_at=t["env_end"]),
            agent_setup=TimingInfo(started_at=t["env_end"], finished_at=t["agent_setup_end"]),
            agent_execution=TimingInfo(started_at=t["agent_start"], finished_at=t["agent_end"]),
            verifier=TimingInfo(started_at=t["agent_end"], finished_at=t["verifier_end"]),
        )
        (job / spec["trial_name"]).mkdir(parents=True, exist_ok=True)
        (job / spec["trial_name"] / "result.json").write_text(result.model_dump_json(indent=4))
        results.append(result)
    agents = list(dict.fromkeys((s["agent"], s["model"]) for s in doc["trials"]))
    config = JobConfig(job_name=job.name, n_attempts=doc["attempts"],
                       agents=[AgentConfig(name=a, model_name=m) for a, m in agents],
                       datasets=[DatasetConfig(path=Path(doc["dataset"]))])
    (job / "config.json").write_text(config.model_dump_json(indent=4))
    stats = JobStats.from_trial_results(results)
    ends = [r.finished_at for r in results if r.finished_at]
    job_result = JobResult(id=doc["job_id"], started_at=ts(doc["started_at"]),
                           finished_at=max(ends), n_total_trials=len(results), stats=stats)
    (job / "result.json").write_text(job_result.model_dump_json(indent=4))
    return {"ok": True, "trials": len(results)}


def main(argv: list[str]) -> int:
    cmd, args = argv[0], argv[1:]
    if cmd == "version":
        import importlib.metadata

        doc: Any = {"harbor": importlib.metadata.version("harbor"),
                    "python": sys.version.split()[0]}
    elif cmd == "environment-types":
        from harbor.models.environment_type import EnvironmentType

        doc = sorted(e.value for e in EnvironmentType)
    elif cmd == "tasks":
        doc = check_tasks(args)
    elif cmd == "trajectories":
        doc = check_trajectories(args)
    elif cmd == "job":
        doc = check_job(args[0])
    elif cmd == "build-job":
        doc = build_job(args[0], args[1])
    else:
        print(f"unknown command {cmd!r}", file=sys.stderr)
        return 2
    print(json.dumps(doc, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
