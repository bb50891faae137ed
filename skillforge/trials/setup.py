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
from skillforge.models.trial import RunSpec
from skillforge.providers import select_provider
from skillforge.providers.prices import price_table
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


def resumed_with(spec: RunSpec, overrides: Mapping[str, Any]) -> RunSpec:
    """A resumed run's spec with what a resume may change: --concurrency, --max-cost-usd
    (a run stopped at its cost cap is finished under a higher one)."""
    update = {k: overrides[k] for k in ("concurrency", "max_cost_usd")
              if overrides.get(k) is not None}
    return spec.model_copy(update=update) if update else spec


# A resume's flags and where the stored run keeps each value. Only --concurrency may change:
# anything else would mix trials of two designs in one run, silently.
RESUME_FLAGS: dict[str, tuple[str, Callable[[RunSpec], Any]]] = {
    "case_ids": ("--cases", lambda s: s.case_ids),
    "attempts": ("--attempts", lambda s: s.attempts),
    "conditions": ("--conditions", lambda s: s.conditions),
    "agent": ("--agent", lambda s: s.agent),
    "model": ("--model", lambda s: s.model),
    "provider": ("--provider", lambda s: s.provider),
    "sandbox": ("--sandbox", lambda s: s.sandbox),
    "image": ("--image", lambda s: s.image),
    "network": ("--network", lambda s: s.network),
    "timeout_sec": ("--timeout", lambda s: s.limits.timeout_sec),
    "max_turns": ("--max-turns", lambda s: s.limits.max_turns),
    "disk_mb": ("--disk-mb", lambda s: s.limits.disk_mb),
    "workspace": ("--workspace", lambda s: s.workspace),
    "baseline_version": ("--baseline-version", lambda s: s.baseline_version),
}


def resume_conflicts(spec: RunSpec, run_id: str, overrides: Mapping[str, Any]) -> None:
    """RunError naming every flag of a resume that contradicts the stored run, with the
    stored value; a flag that repeats the stored value is fine."""
    said = []
    for key, (flag, stored_of) in RESUME_FLAGS.items():
        given = overrides.get(key)
        if given is None or given == []:
            continue
        stored = stored_of(spec)
        same = set(given) == set(stored) if isinstance(given, list) and \
            isinstance(stored, list) else given == stored  # cases in another order: same
        if not same:
            shown = ",".join(map(str, stored)) if isinstance(stored, list) else stored
            asked = ",".join(map(str, given)) if isinstance(given, list) else given
            said.append(f"{flag} {asked} (the run has {shown})")
    if said:
        raise RunError(f"run {run_id} is resumed with its own settings, and only --concurrency "
                       f"may change; these contradict it: {'; '.join(said)}. Drop them, or "
                       "start a new run with them")


def judge_models_for(settings: Settings, spec: RunSpec,
                     judge_models: Sequence[str] = ()) -> list[str]:
    """The judge models of a new run: given, else [judge] models, else the agent's model."""
    return list(judge_models) or list(settings.judge.models) or [m for m in [spec.model] if m]


def judge_setting(spec: RunSpec, run_id: str, judge: bool | None,
                  judge_models: Sequence[str]) -> tuple[bool, list[str] | None]:
    """The judge setting a resume of run `run_id` keeps; flags that contradict it are refused.

    (judge, models); models None means "as for a new run" (a run stored before the spec
    recorded its judges: the flags decide, as they did then).
    """
    if spec.judge is None:
        return (judge is not False), (list(judge_models) or None)
    given = list(judge_models)
    if not spec.judge:
        if given:
            raise RunError(f"run {run_id} was started with --no-judge; a resume keeps that so "
                           "the run never mixes judged and unjudged trials. Drop "
                           f"--judge-model {' '.join(given)} to finish it unjudged, or start "
                           "a new run to have it judged")
        return False, []
    stored = ", ".join(spec.judge_models) or "the agent's model"
    if judge is False:
        raise RunError(f"run {run_id} is judged by {stored}; a resume keeps its judges so the "
                       "run never mixes judged and unjudged trials. Drop --no-judge to finish "
                       "it with them, or start a new run with --no-judge")
    if given and given != spec.judge_models:
        raise RunError(f"run {run_id} is judged by {stored}, not {', '.join(given)}; a resume "
                       "keeps its judges so all its trials are scored alike. Drop "
                       "--judge-model to finish it with them, or start a new run with the "
                       "other judges")
    return True, list(spec.judge_models)


def prepare_runner(settings: Settings, store: RunStore, *, skill_dir: Path | None = None,
                   overrides: Mapping[str, Any] | None = None, resume: str | None = None,
                   judge: bool | None = None, judge_models: Sequence[str] = (),
                   on_event: Callable[[TrialEvent], None] | None = None,
                   warn: Callable[[str], None] | None = None, fresh: bool = False
                   ) -> TrialRunner:
    """A runner for a new run of `skill_dir` (settings < evals defaults < overrides), or
    for finishing the stored run `resume` (its spec; only `concurrency` and
    `max_cost_usd` may change).

    `judge` None means the default: judged for a new run, the stored setting for a resume.
    A resume whose `judge` / `judge_models` contradict the run's own raises RunError.
    `fresh`: run every trial, reusing none from earlier runs (skillforge.trials.cache).
    """
    models: list[str] | None = None
    if resume:
        spec = resumed_with(resumable_spec(store, resume), overrides or {})
        resume_conflicts(spec, resume, overrides or {})
        if skill_dir is not None and Path(spec.skill_path).resolve() != skill_dir.resolve():
            raise RunError(f"run {resume} is a run of {spec.skill_path}, not {skill_dir}; "
                           "resume it without the PATH, or start a new run of this skill")
        judge, models = judge_setting(spec, resume, judge, judge_models)
    elif skill_dir is not None:
        spec = build_run_spec(skill_dir, settings, overrides, warn=warn)
        judge = judge is not False
    else:
        raise RunError("give the skill folder to run, or a run id to resume")
    client = select_provider(settings, spec.model, spec.provider)
    if spec.model is None:
        # Record which model the provider's default turned out to be.
        spec = spec.model_copy(update={"model": client.model, "provider": client.name})
    if models is None:
        models = judge_models_for(settings, spec, judge_models) if judge else []
    judges = [select_provider(settings, m, spec.provider) for m in models]
    if not resume:
        spec = spec.model_copy(update={"judge": judge, "judge_models": models})
    return TrialRunner(spec, client=client, store=store, judges=judges, resume=resume,
                       on_event=on_event, warn=warn, max_tokens=settings.provider.max_tokens,
                       fresh=fresh, prices=price_table(settings.provider.prices))
