"""Scripted agents for the verdict fixtures (tests/fixtures/verdict/): each obeys the skill
under test, as a model that follows instructions would, so the run shows what the skill does
to the grade.

- uniform-harm: with the skill the agent adds up the numbers, then runs the skill's
  finalize step, which overwrites the answer with 0; without it, the right total.
- grader-crash: with the skill, on odd sets the skill's "unsure" rule makes the agent write
  `n/a`, which the strict grader cannot read (it crashes); on even sets the right total.
  Without it, right on odd sets, off by one on even sets but set 2.
- routing-only: with the skill the agent reads it, runs its greeting (on sets 3 and 6 it
  also tries a file that is not there), then writes the right total, as without it.
"""

from __future__ import annotations

import re

from tests.llm_server import Request
from tests.trials.scripted_agent import Move, ScriptedAgent, answer, bash, read, write

SUM = ("python3 -c \"print(sum(int(l) for l in open('numbers.txt') if l.strip()))\" "
       "> /workspace/answer.txt")
SET = re.compile(r"\(set (\d+)\)")


def total(k: int) -> int:
    """The right answer of set k: the numbers 1 .. k + 2."""
    return sum(range(1, k + 3))


def case_of(req: Request) -> str | None:
    first = next((m for m in req.messages if m.get("role") == "user"), None)
    found = SET.search(str(first.get("content"))) if first else None
    return f"sum-{found.group(1)}" if found else None


def _skill(name: str) -> str:
    return f"/skills/{name}/SKILL.md"


def _right(k: int) -> list[Move]:
    return [bash(SUM), answer(f"The total is {total(k)}.")]


def uniform_harm(cases: int = 8) -> ScriptedAgent:
    name = "uniform-harm"
    finalize = f"sh /skills/{name}/scripts/finalize.sh /workspace/answer.txt"
    return ScriptedAgent(
        with_skill={f"sum-{k}": [read(_skill(name)), bash(SUM), bash(finalize),
                                 answer("Done, in the house format.")]
                    for k in range(1, cases + 1)},
        baseline={f"sum-{k}": _right(k) for k in range(1, cases + 1)},
        skill_md=_skill(name), case_finder=case_of)


def grader_crash(cases: int = 12) -> ScriptedAgent:
    name = "grader-crash"
    check = f"sh /skills/{name}/scripts/check.sh"
    with_skill: dict[str, list[Move]] = {}
    baseline: dict[str, list[Move]] = {}
    for k in range(1, cases + 1):
        if k % 2:
            with_skill[f"sum-{k}"] = [read(_skill(name)), bash(check),
                                      write("/workspace/answer.txt", "n/a"),
                                      answer("Unsure, so n/a.")]
            baseline[f"sum-{k}"] = _right(k)
        else:
            with_skill[f"sum-{k}"] = [read(_skill(name)), *_right(k)]
            baseline[f"sum-{k}"] = _right(k) if k == 2 else [
                write("/workspace/answer.txt", str(total(k) + 1)), answer("Done.")]
    return ScriptedAgent(with_skill=with_skill, baseline=baseline, skill_md=_skill(name),
                         case_finder=case_of)


def routing_only(cases: int = 8) -> ScriptedAgent:
    name = "routing-only"
    hello = f"sh /skills/{name}/scripts/hello.sh"
    with_skill = {}
    for k in range(1, cases + 1):
        extra = [bash("cat notes.txt")] if k in (3, 6) else []
        with_skill[f"sum-{k}"] = [read(_skill(name)), bash(hello), *extra, *_right(k)]
    return ScriptedAgent(with_skill=with_skill,
                         baseline={f"sum-{k}": _right(k) for k in range(1, cases + 1)},
                         skill_md=_skill(name), case_finder=case_of)


def sparse_on_failure() -> ScriptedAgent:
    """grader-crash's skill, but on set 1 the agent also leaves a 200 MiB sparse file (a hole
    costs its own disk nothing) that the grading container cannot take, after a wrong answer."""
    name = "grader-crash"
    return ScriptedAgent(
        with_skill={"sum-1": [read(_skill(name)), write("/workspace/answer.txt", "0"),
                              bash("truncate -s 200M /workspace/big"), answer("Done.")]},
        baseline={"sum-1": _right(1)}, skill_md=_skill(name), case_finder=case_of)
