"""The estimate the workbench's Trials form shows before a run starts, from its values.

    line, detail = form_estimate(skill_dir, settings, store_or_None, form_overrides)

The same figures as `skillforge trial --dry-run` (skillforge.trials.estimate): the form's
overrides layered over the settings as a run would (skillforge.trials.config), the agent's
and the judge's calls, the trials the cache would reuse at 0 (skillforge.trials.
reuse_preview), the source of the per-trial figures. Never raises for a value the author
can fix: the line then says what stops the estimate. Run it in a thread: it reads the store
and asks Docker for the image's id.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.providers.prices import PriceTableError, price_table
from skillforge.trials.config import TrialConfigError, build_run_spec
from skillforge.trials.estimate import estimate_run
from skillforge.trials.reuse_preview import reused_keys
from skillforge.trials.run import RunError, load_cases

# Form fields that are not spec overrides, or that choose things the estimate does not need.
NOT_SPEC = ("judge", "decoys")


def form_estimate(skill_dir: Path, settings: Settings, store: RunStore | None,
                  overrides: Mapping[str, Any]) -> tuple[str, str]:
    """(one line, where its figures come from) for the form's current values."""
    judged = overrides.get("judge", True) is not False
    try:
        spec = build_run_spec(skill_dir, settings,
                              {k: v for k, v in overrides.items() if k not in NOT_SPEC})
        n_cases = len(load_cases(spec))
        prices = price_table(settings.provider.prices)
    except (TrialConfigError, RunError, PriceTableError) as exc:
        return "no estimate: " + str(exc).splitlines()[0], str(exc)
    if spec.model is None and settings.provider.model:
        spec = spec.model_copy(update={"model": settings.provider.model})
    models = list(settings.judge.models)
    reused, why = asyncio.run(reused_keys(
        settings, store, skill_dir, {k: v for k, v in overrides.items() if k != "judge"},
        judged=judged))
    est = estimate_run(spec, n_cases, store, skill_dir.resolve().name, prices, judged=judged,
                       judge_model=next(iter(models), None), judges=max(1, len(models)),
                       reused=reused)
    if why:
        est.notes.append(why)
    return est.brief(spec.max_cost_usd)
