"""A small Skill Mode run with hand-computable SkillCraft figures, shared by the lift,
report and TUI tests.

Four ungraded cases, one attempt (1) per side:

| case | Skill overall | Base overall | tokens S/B | turns S/B | calls S/B | cost S/B  |
|------|---------------|--------------|------------|-----------|-----------|-----------|
| c1   | 0.95          | 0.92         | 200 / 400  | 4 / 8     | 6 / 12    | .01 / .02 |
| c2   | 1.00          | 0.90         | 400 / 400  | 6 / 4     | 6 / 6     | .05 / .02 |
| c3   | 0.95          | 0.70         | 100 / 100  | 1 / 1     | 1 / 1     | .01 / .01 |
| c4   | 0.50          | 0.95         | 100 / 100  | 1 / 1     | 1 / 1     | .01 / .01 |

Success (>= 0.9): Skill c1 c2 c3 = 3/4, Base c1 c2 c4 = 3/4; both solved: c1, c2.
Pass (overall >= 0.6): Skill 3/4, Base 4/4. Efficiency over c1, c2: tokens 300 vs 400
(-25%), turns 5 vs 6 (-1/6), tool calls 6 vs 9 (-1/3), cost 0.03 vs 0.02 (+50%).

Skill-tool events of the chain (attempt 1), in case order:
c1: save parse ok, save bad (syntax), execute parse ok
c2: execute parse ok, execute parse (quality), save fmt ok
c3: execute parse ok, execute fmt (exception), execute nope (unknown_skill)
c4: list_skills, get_skill parse
Exec rate 3/6; parse: 4 executions, 3 ok, reused in c2 c3; fmt: 1 execution, 0 ok, reused
in c3; reuse rate (4 + 1) / 2 = 2.5.
"""

from __future__ import annotations

from skillforge.models.skill_mode import (
    CachedSkill,
    SkillCache,
    SkillEvent,
    SkillModeTrial,
    SkillOrigin,
)
from skillforge.models.trial import TrialRecord
from tests.lift.builders import trial

RUN = "run-sm"
ROWS = {  # case: (skill overall, base overall, tokens, turns, calls, cost) per side
    "c1": ((0.95, 200, 4, 6, 0.01), (0.92, 400, 8, 12, 0.02)),
    "c2": ((1.00, 400, 6, 6, 0.05), (0.90, 400, 4, 6, 0.02)),
    "c3": ((0.95, 100, 1, 1, 0.01), (0.70, 100, 1, 1, 0.01)),
    "c4": ((0.50, 100, 1, 1, 0.01), (0.95, 100, 1, 1, 0.01)),
}


def sm(case: str, attempt: int = 1, **kw) -> TrialRecord:
    """A skill_mode trial record (built as `with_skill`, then relabelled, so it does not
    depend on the order in which the condition and these tests were added)."""
    return trial(case, "with_skill", attempt, **kw).model_copy(update={"condition": "skill_mode"})


def records(run_id: str = RUN) -> list[TrialRecord]:
    out = []
    for case, (s, b) in ROWS.items():
        for side, (overall, tokens, turns, calls, cost) in (("skill", s), ("base", b)):
            fields = dict(overall=overall, tokens_in=tokens // 2, tokens_out=tokens - tokens // 2,
                          turns=turns, tool_calls=calls, cost_usd=cost, run_id=run_id)
            out.append(sm(case, **fields) if side == "skill" else
                       trial(case, "baseline", 1, **fields))
    return out


def skill(name: str, case: str, run_id: str = RUN, attempt: int = 1) -> CachedSkill:
    return CachedSkill(name=name, description=f"{name} things", script_code="result = 1",
                       created_by=SkillOrigin(run_id=run_id, case_id=case, attempt=attempt))


def cache(*skills: CachedSkill) -> SkillCache:
    return SkillCache(skills={s.name: s for s in skills})


def ev(tool: str, name: str | None = None, failure: str | None = None) -> SkillEvent:
    return SkillEvent(tool=tool, name=name, ok=failure is None, failure=failure)  # type: ignore[arg-type]


def chain(run_id: str = RUN, attempt: int = 1) -> list[SkillModeTrial]:
    parse, fmt = skill("parse", "c1", run_id, attempt), skill("fmt", "c2", run_id, attempt)
    steps = [
        ("c1", cache(), cache(parse),
         [ev("save_skill", "parse"), ev("save_skill", "bad", "syntax"),
          ev("execute_skill", "parse")]),
        ("c2", cache(parse), cache(parse, fmt),
         [ev("execute_skill", "parse"), ev("execute_skill", "parse", "quality"),
          ev("save_skill", "fmt")]),
        ("c3", cache(parse, fmt), cache(parse, fmt),
         [ev("execute_skill", "parse"), ev("execute_skill", "fmt", "exception"),
          ev("execute_skill", "nope", "unknown_skill")]),
        ("c4", cache(parse, fmt), cache(parse, fmt),
         [ev("list_skills"), ev("get_skill", "parse")]),
    ]
    return [SkillModeTrial(run_id=run_id, case_id=c, attempt=attempt, seq=i, cache_before=b,
                           cache_after=a, events=events)
            for i, (c, b, a, events) in enumerate(steps)]


def inherited_chain(run_id: str = "run-static", source: str = RUN) -> list[SkillModeTrial]:
    """A static-reuse run starting from RUN's cache: parse executed in c1 and c2; a save
    refused (static)."""
    parse = skill("parse", "c1", source)
    return [
        SkillModeTrial(run_id=run_id, case_id="c1", attempt=1, seq=0, mode="static",
                       inherited_from=source, cache_before=cache(parse), cache_after=cache(parse),
                       events=[ev("execute_skill", "parse")]),
        SkillModeTrial(run_id=run_id, case_id="c2", attempt=1, seq=1, mode="static",
                       inherited_from=source, cache_before=cache(parse), cache_after=cache(parse),
                       events=[ev("save_skill", "new", "static"), ev("execute_skill", "parse")]),
    ]
