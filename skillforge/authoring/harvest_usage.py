"""Harvest, the trail: where a cached skill was made and reused, from the Skill Mode rows.

Pure functions over `SkillModeTrial` records (skillforge.models.skill_mode): which case
created a skill, which later cases executed it, how often its executions succeeded, and the
arguments of a real execution to show as the example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skillforge.models.skill_mode import CachedSkill, SkillEvent, SkillModeTrial


@dataclass(frozen=True)
class Execution:
    """One `execute_skill` call of the skill, with the case it happened in."""

    case_id: str
    ok: bool
    args: dict[str, Any]
    failure: str | None = None


@dataclass
class SkillUsage:
    """What the run's records say about one cached skill."""

    skill: CachedSkill
    run_id: str
    attempt: int | None = None
    created_run: str | None = None
    created_case: str | None = None
    executions: list[Execution] = field(default_factory=list)

    @property
    def inherited(self) -> bool:
        """Saved in another run and brought in with --skill-cache-from."""
        return self.created_run is not None and self.created_run != self.run_id

    @property
    def reused_cases(self) -> list[str]:
        """Cases other than the creating one that executed the skill, in order."""
        seen: dict[str, None] = {}
        for ex in self.executions:
            if ex.case_id != self.created_case or self.inherited:
                seen.setdefault(ex.case_id, None)
        return list(seen)

    @property
    def cases(self) -> list[str]:
        """The creating case (when it is of this run) then the reusing ones."""
        first = [self.created_case] if self.created_case and not self.inherited else []
        return first + [c for c in self.reused_cases if c not in first]

    @property
    def runs(self) -> int:
        if self.executions:
            return len(self.executions)
        return self.skill.execution_stats.runs

    @property
    def successes(self) -> int:
        if self.executions:
            return sum(1 for ex in self.executions if ex.ok)
        stats = self.skill.execution_stats
        return max(0, stats.runs - stats.failures)

    @property
    def exec_rate(self) -> float | None:
        """Successful executions / attempted ones (SkillCraft's Exec rate), None if never run."""
        return self.successes / self.runs if self.runs else None

    @property
    def example(self) -> Execution | None:
        """A successful recorded execution, preferring one from a case that reused the skill."""
        ok = [ex for ex in self.executions if ex.ok]
        reused = [ex for ex in ok if ex.case_id in self.reused_cases]
        return (reused or ok or [None])[0]


def _executions(trials: list[SkillModeTrial], name: str) -> list[Execution]:
    out = []
    for trial in trials:
        for ev in trial.events:
            if _is_execution_of(ev, name):
                out.append(Execution(trial.case_id, ev.ok, dict(ev.args or {}), ev.failure))
    return out


def _is_execution_of(ev: SkillEvent, name: str) -> bool:
    return ev.tool == "execute_skill" and ev.name == name


def chain_of(trials: list[SkillModeTrial], attempt: int | None) -> list[SkillModeTrial]:
    """The trials of one attempt's chain in order (attempt None: the highest that has rows,
    the one `RunStore.final_skill_cache` reads)."""
    if not trials:
        return []
    chosen = attempt if attempt is not None else max(t.attempt for t in trials)
    return sorted((t for t in trials if t.attempt == chosen), key=lambda t: (t.seq, t.case_id))


def usage_of(skill: CachedSkill, chain: list[SkillModeTrial], run_id: str) -> SkillUsage:
    """The usage of `skill` along one chain of skill-mode trials."""
    created_run = skill.created_by.run_id if skill.created_by else None
    created_case = skill.created_by.case_id if skill.created_by else None
    if created_case is None:
        # Older or hand-made caches: the first trial whose cache gained the skill.
        for trial in chain:
            if skill.name in trial.cache_after.skills and \
                    skill.name not in trial.cache_before.skills:
                created_run, created_case = run_id, trial.case_id
                break
    return SkillUsage(skill=skill, run_id=run_id,
                      attempt=chain[0].attempt if chain else None,
                      created_run=created_run, created_case=created_case,
                      executions=_executions(chain, skill.name))
