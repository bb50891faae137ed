"""The rubric judge as the workbench and CLI use it: clients from settings, one call to run.

Headless: the TUI runs `run_judge` in a worker and renders what it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skillforge.authoring.judge.rubric import cached_result, judge_skill
from skillforge.models.config import Settings
from skillforge.models.judge import JudgeEvent, JudgeResult
from skillforge.models.llm import ModelClient, ProviderNotConfigured
from skillforge.models.skill import Skill, load_skill
from skillforge.providers import aclose
from skillforge.providers.select import resolve_provider, select_provider


def judge_clients(settings: Settings, models: list[str] | None = None,
                  provider: str | None = None) -> list[ModelClient]:
    """One client per judge model ([judge] models, else the provider's model)."""
    wanted = list(models or settings.judge.models) or [None]
    return [select_provider(settings, m, provider) for m in wanted]


async def run_judge(skill_dir: Path, settings: Settings, *, use_cache: bool = True,
                    progress: Callable[[JudgeEvent], None] | None = None) -> JudgeResult:
    """Judge the skill at `skill_dir` with the configured judges; clients are always closed."""
    clients = judge_clients(settings)
    try:
        return await judge_skill(
            load_skill(skill_dir), clients, temperature=settings.provider.temperature,
            max_tokens=settings.provider.max_tokens, use_cache=use_cache, progress=progress,
        )
    finally:
        for c in clients:
            await aclose(c)


def last_judgment(skill: Skill, settings: Settings) -> JudgeResult | None:
    """The configured judges' verdict on this exact content if they gave one before (the
    disk cache; no request, no client), else None: what the workbench shows at start-up."""
    wanted = list(settings.judge.models) or [None]
    try:
        judges = [resolve_provider(settings, m) for m in wanted]
    except ProviderNotConfigured:
        return None
    return cached_result(skill, judges, settings.provider.temperature)
