"""Skill Mode chains: the `skill_mode` trials of one attempt, run in case order, one cache carried.

SkillCraft's test-time skill evolution: in an attempt, the `skill_mode` trials run one after
the other in the run's case order (RunSpec.case_ids, else evals.json's order), each starting
with the skill cache the previous one left. The first starts with an empty cache, or with
the final cache of another run (`--skill-cache-from RUN_ID`, cross-task transfer). A
resumed run continues each chain from the stored rows of the trials already done. Other
conditions run concurrently beside the chains, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sessions.store import RunStore
from skillforge.models.skill_mode import CacheMode, SkillCache, SkillModeTrial
from skillforge.models.trial import RunSpec

SKILL_MODE = "skill_mode"


class SkillChainError(ValueError):
    """The skill cache a run should start from cannot be had; the message says what to do."""


@dataclass
class SkillLink:
    """One trial's place in its chain: what it starts with and, once done, what it leaves."""

    seq: int
    cache_before: SkillCache
    mode: CacheMode = "grow"
    inherited_from: str | None = None
    cache_after: SkillCache | None = None

    def row(self, run_id: str, case_id: str, attempt: int, cache_after: SkillCache,
            events: list) -> SkillModeTrial:
        """The run store's record of this trial."""
        return SkillModeTrial(run_id=run_id, case_id=case_id, attempt=attempt, seq=self.seq,
                              mode=self.mode, inherited_from=self.inherited_from,
                              cache_before=self.cache_before, cache_after=cache_after,
                              events=events)


def initial_cache(spec: RunSpec, store: RunStore) -> SkillCache:
    """The cache every chain of the run starts from (empty unless --skill-cache-from)."""
    source = spec.skill_cache_from
    if not source or SKILL_MODE not in spec.conditions:
        return SkillCache()
    run = store.run(source)
    if run is None:
        raise SkillChainError(
            f"--skill-cache-from {source}: no run {source!r} in {store.db_path}; `skillforge "
            "report` lists the stored runs (use the id of a run that had the skill_mode "
            "condition, with the same --state-dir)")
    cache = store.final_skill_cache(source)
    if cache is None:
        conds = ", ".join(run.spec.conditions) if run.spec else "unknown conditions"
        raise SkillChainError(
            f"--skill-cache-from {source}: run {source!r} has no Skill Mode trials (it ran "
            f"{conds}); run a skill first with --conditions skill_mode, then pass that run's "
            "id, or drop --skill-cache-from")
    return cache


def chains(plans: Sequence, conditions: Sequence[str]) -> list[list]:
    """The skill_mode plans grouped by attempt, each list in the plans' (case) order."""
    if SKILL_MODE not in conditions:
        return []
    by_attempt: dict[int, list] = {}
    for plan in plans:
        if plan.condition == SKILL_MODE:
            by_attempt.setdefault(plan.attempt, []).append(plan)
    return [by_attempt[a] for a in sorted(by_attempt)]


def stored_rows(store: RunStore, run_id: str) -> dict[tuple[str, int], SkillModeTrial]:
    """{(case_id, attempt): row} of a run's stored Skill Mode trials (for a resume)."""
    return {(r.case_id, r.attempt): r for r in store.skill_mode_trials(run_id)}
