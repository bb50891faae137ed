"""Which trials of a run not yet started the trial cache would reuse (they count 0 in the
estimate before the run: `skillforge trial --dry-run`, the Trials form).

    keys, note = await reused_keys(settings, store, skill_dir, overrides, judged=True)

The same keys a run computes (skillforge.trials.cache: the clients the run would use, the
image's id, the staged trees), looked up the same way. Looking needs what the run needs to
key its trials (a configured provider, for --sandbox docker the image): without it `keys`
is empty and `note` says the reuse was not looked up, so the estimate counts every trial.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.trials.estimate import TrialKey


async def reused_keys(settings: Settings, store: RunStore | None, skill_dir: Path,
                      overrides: Mapping[str, Any], *, judged: bool = True,
                      judge_models: Sequence[str] = (), fresh: bool = False
                      ) -> tuple[set[TrialKey], str | None]:
    """(keys of the trials the cache would reuse, why none were looked up or None)."""
    if fresh or store is None:
        return set(), None
    from skillforge.providers import aclose
    from skillforge.trials.cache import keyed_plans, reusable
    from skillforge.trials.run import load_cases, plan_parts, plan_trials
    from skillforge.trials.setup import prepare_runner
    from skillforge.trials.staging import load_skill_set

    try:
        runner = prepare_runner(settings, store, skill_dir=skill_dir, overrides=overrides,
                                judge=judged, judge_models=judge_models)
    except Exception as exc:  # noqa: BLE001 - no provider, a bad setting: the run says so
        return set(), f"reused trials not looked up ({_first(exc)}): every trial counted"
    try:
        spec = runner.spec
        skills = load_skill_set(spec)
        spec = plan_parts(spec, skills)
        plans = await keyed_plans(plan_trials(spec, load_cases(spec)), spec, skills,
                                  client=runner.client, judges=runner.judges,
                                  max_tokens=runner.max_tokens)
        return set(reusable(store, plans, runner.run_id)), None
    except Exception as exc:  # noqa: BLE001 - no Docker, no image: the run says so
        return set(), f"reused trials not looked up ({_first(exc)}): every trial counted"
    finally:
        for client in {id(c): c for c in [runner.client, *runner.judges]}.values():
            await aclose(client)


def _first(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:160] if text else type(exc).__name__
