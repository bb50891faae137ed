"""Everything a run needs before it starts: the spec, the model clients, the runner.

One path for the CLI and the TUI:

    runner = prepare_runner(settings, RunStore(settings.state_dir), skill_dir=path,
                            overrides=form_values, on_event=grid_callback)
    await runner.run()        # in an async worker; runner.cancel() from the Cancel button

Raises `TrialConfigError` (a setting is wrong), `RunError` (no such run to resume) and
`ProviderNotConfigured` / `PriceTableError` (no usable model); each message says what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.llm import ModelClient
from skillforge.models.trial import RunSpec
from skillforge.providers import select_provider
from skillforge.trials.config import build_run_spec
from skillforge.trials.events import TrialEvent
from skillforge.trials.run import RunError, TrialRunner


def resumable_spec(store: RunStore, run_id: str, concurrency: int | None = None) -> RunSpec:
    """The stored spec of a local run to resume (optionally with another concurrency)."""
    run = store.run(run_id)
    if run is None:
        known = ", ".join(r.run_id for r in store.runs()[:5]) or "none yet"
        raise RunError(f"no run {run_id!r} in {store.db_path} (latest: {known}); check "
                       "--state-dir")
    if run.spec is None or run.engine != "local":
        raise RunError(f"run {run_id} was not run by `skillforge trial` (engine "
                       f"{run.engine}); only local runs can be resumed")
    if not Path(run.spec.skill_path).exists():
        raise RunError(f"run {run_id} used the skill at {run.spec.skill_path}, which no "
                       "longer exists")
    return run.spec.model_copy(update={"concurrency": concurrency}) if concurrency \
        else run.spec


def select_clients(settings: Settings, spec: RunSpec, *, judge: bool = True,
                   judge_models: Sequence[str] = ()) -> tuple[ModelClient, list[ModelClient]]:
    """The agent's client and the judges' (judge models: given, else [judge] models, else
    the agent's model)."""
    client = select_provider(settings, spec.model, spec.provider)
    judges: list[ModelClient] = []
    if judge:
        wanted = list(judge_models) or list(settings.judge.models) or [spec.model]
        judges = [select_provider(settings, m, spec.provider) for m in wanted]
    return client, judges


def prepare_runner(settings: Settings, store: RunStore, *, skill_dir: Path | None = None,
                   overrides: Mapping[str, Any] | None = None, resume: str | None = None,
                   judge: bool = True, judge_models: Sequence[str] = (),
                   on_event: Callable[[TrialEvent], None] | None = None,
                   warn: Callable[[str], None] | None = None) -> TrialRunner:
    """A runner for a new run of `skill_dir` (settings < evals defaults < overrides), or
    for finishing the stored run `resume` (its spec; only `concurrency` may change)."""
    if resume:
        spec = resumable_spec(store, resume, (overrides or {}).get("concurrency"))
    elif skill_dir is not None:
        spec = build_run_spec(skill_dir, settings, overrides, warn=warn)
    else:
        raise RunError("give the skill folder to run, or a run id to resume")
    client, judges = select_clients(settings, spec, judge=judge, judge_models=judge_models)
    if spec.model is None:
        # Record which model the provider's default turned out to be.
        spec = spec.model_copy(update={"model": client.model, "provider": client.name})
    return TrialRunner(spec, client=client, store=store, judges=judges, resume=resume,
                       on_event=on_event, warn=warn, max_tokens=settings.provider.max_tokens)
