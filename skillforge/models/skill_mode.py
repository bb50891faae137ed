"""SkillCraft's Skill Mode (CONTRACTS.md section 6): the agent's own code skills and their trail.

In the `skill_mode` condition the built-in agent may save, list, read and execute code
skills while it works. They live in a `skill_cache.json` inside the trial's sandbox (the
`SkillCache` below, as JSON) and carry from one case of the run to the next, in the run's
case order, per attempt. After each skill-mode trial the run store keeps one
`SkillModeTrial`: the cache before and after the trial and what the skill tools did
(`SkillEvent`s). The SkillCraft metrics (`skillforge.lift.skillcraft`) and harvesting
(`skillforge.authoring.harvest`) read only these records.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

CACHE_VERSION = 1
SkillTool = Literal["save_skill", "execute_skill", "list_skills", "get_skill"]
SKILL_TOOLS: tuple[str, ...] = ("save_skill", "execute_skill", "list_skills", "get_skill")
# grow: the agent may save new skills (test-time skill evolution); static: execute only
# (SkillCraft's static reuse of an inherited cache).
CacheMode = Literal["grow", "static"]
# Why a skill tool call did not succeed (None when it did).
FailureKind = Literal[
    "syntax",          # save_skill: the script does not compile (verifier, before caching)
    "invalid",         # save_skill: bad name, parameters or arguments
    "static",          # save_skill in static-reuse mode
    "unknown_skill",   # execute_skill / get_skill: no skill of that name
    "exception",       # execute_skill: the script raised (traceback in detail)
    "no_result",       # execute_skill: the script set no `result`
    "quality",         # execute_skill: silent failure (over half the result's fields empty)
    "timeout",         # execute_skill: the script ran past its time limit
]


class SkillOrigin(BaseModel):
    """Where a cached skill was saved: the run, case and attempt of the trial."""

    run_id: str
    case_id: str
    attempt: int


class SkillStats(BaseModel):
    """SkillCraft's execution_stats: executions attempted and how many failed."""

    runs: int = 0
    failures: int = 0


class CachedSkill(BaseModel):
    """One entry of skill_cache.json (SkillCraft's fields plus where it came from)."""

    name: str
    description: str = ""
    # Parameter name -> description (or a JSON-schema fragment), as the agent gave them.
    parameters: dict[str, Any] = Field(default_factory=dict)
    script_code: str
    execution_stats: SkillStats = Field(default_factory=SkillStats)
    created_by: SkillOrigin | None = None


class SkillCache(BaseModel):
    """The whole skill_cache.json: skills by name."""

    version: int = CACHE_VERSION
    skills: dict[str, CachedSkill] = Field(default_factory=dict)


class SkillEvent(BaseModel):
    """One call of a skill tool during a trial, in order."""

    tool: SkillTool
    name: str | None = None
    ok: bool = True
    failure: FailureKind | None = None
    # The message the agent saw on failure (syntax error with line, traceback, ...).
    detail: str | None = None
    # For execute_skill: the arguments given.
    args: dict[str, Any] | None = None


class SkillModeTrial(BaseModel):
    """What the run store keeps for each `skill_mode` trial (one row per trial)."""

    run_id: str
    case_id: str
    attempt: int
    # Position of the case in the attempt's chain (0 = first case solved).
    seq: int
    mode: CacheMode = "grow"
    # The run whose cache this run started from (--skill-cache-from), if any.
    inherited_from: str | None = None
    cache_before: SkillCache = Field(default_factory=SkillCache)
    cache_after: SkillCache = Field(default_factory=SkillCache)
    events: list[SkillEvent] = Field(default_factory=list)
