"""The deterministic metrics of one trial (CONTRACTS.md section 7); `overall` is derived by
skillforge.lift.cases.trial_overall from the outcome metrics.

`deterministic_metrics(trajectory, case, target_skill=..., condition=...)` scores
`security` (skillforge.metrics.security), `skill_execution` and `skill_efficiency` from the
facts skillforge.trajectory.facts reads off the trajectory. Every clause of every formula is
explained in `DeterministicResult.details[metric]`, which the run store keeps as evidence.

Decisions where the contract leaves room (each one tested in tests/metrics/):

- The expected skill of a positive case is its `expected_skill`, or the target skill when
  the case names none (skill-creator files do not); a negative case expects no skill.
- A skill is activated at its first piece of activation evidence (reading its SKILL.md, or a
  harness skill tool naming it); names compare case-insensitively, and a `plugin:` prefix
  (Claude Code's `Skill` tool) is ignored.
- The target is withheld in every condition but `with_skill` (`baseline`,
  `self_generated`: a skill the agent writes for itself is not the target), so there the
  activation check scores 0 as the contract says of baseline. A "version delta" run stages
  an earlier version of the target in `baseline`: its caller passes `target_staged=True`.
- skill_execution, positive cases, 2 or 3 checks: (1) the expected skill was activated,
  always false when the target is withheld; (2) only when `expected_script` is declared: a
  shell command ran that script of the expected skill (whatever its exit code; the exit
  codes are in the details; a bare file name, NVIDIA SkillEvaluator's `calc.py`, names
  scripts/calc.py or calc.py); (3) the first activation of the expected skill came no later
  than the first run of any skill's script and the first file write. An activation in the
  same tool call as the first run or write counts as before (a call's order inside is
  unknown; reading first is the norm). Never activated (so always when withheld): (3)
  fails. Nothing run or written: (3) holds when the skill was activated.
- skill_efficiency (a) routing precision counts distinct activated skills: reading the
  right SKILL.md twice is one activation, not a better score. Nothing activated: 1 when no
  skill was expected, else 0. (b) productive calls: a call with no result counts as without
  error (as trajectory_facts.error_free_share); with no tool call at all (b) is left out of
  the mean rather than invented. (c) budget: turns = agent steps (copied context excluded);
  no agent step gives 1.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import Any

from sessions.atif import Trajectory
from skillforge.trajectory import facts as facts
from skillforge.metrics.security import security_scan
from skillforge.models.evals import EvalCase, expected_script_paths
from skillforge.models.metrics import DEFAULT_REFERENCE_TURNS, DeterministicResult
from skillforge.models.trial import stages_target

DEFAULT_WORKDIR = "/workspace"


def deterministic_metrics(trajectory: Trajectory, case: EvalCase, *, target_skill: str,
                          condition: str, skills_dirs: Sequence[str] = ("/skills",),
                          workdir: str | None = None,
                          target_staged: bool | None = None) -> DeterministicResult:
    """security, skill_execution and skill_efficiency of one trial, with their evidence.

    `workdir`: the agent's working directory (default: the trajectory's `extra.cwd` when an
    imported trace records one, else /workspace). `target_staged`: whether the target skill
    was in the container (default: in `with_skill` and its `without:<part>` ablations)."""
    acts = facts.skill_activations(trajectory, skills_dirs)
    runs = facts.script_runs(trajectory, skills_dirs)
    writes = facts.file_writes(trajectory)
    target = _norm(target_skill)
    expected = expected_skill(case, target_skill)
    security = security_scan(trajectory, workdir=workdir or trajectory_workdir(trajectory),
                             skills_dirs=skills_dirs)
    staged = stages_target(condition) if target_staged is None else target_staged
    execution, exec_details = _skill_execution(case, condition, staged, target, expected, acts,
                                               runs, writes, skills_dirs)
    efficiency, eff_details = _skill_efficiency(trajectory, case, expected, acts)
    target_runs = [r for r in runs if _norm(r.skill_name) == target]
    return DeterministicResult(
        security=security.score, skill_execution=execution, skill_efficiency=efficiency,
        activated=any(_norm(a.skill_name) == target for a in acts),
        script_runs=len(target_runs), script_runs_ok=sum(1 for r in target_runs if r.ok),
        security_findings=security.findings,
        details={"security": security.details, "skill_execution": exec_details,
                 "skill_efficiency": eff_details},
    )


def expected_skill(case: EvalCase, target_skill: str) -> str | None:
    """The skill a case expects: none for a negative case, else its own or the target."""
    if case.is_negative:
        return None
    return _norm(case.expected_skill or target_skill)


def trajectory_workdir(trajectory: Trajectory) -> str:
    cwd = (trajectory.extra or {}).get("cwd")
    return cwd if isinstance(cwd, str) and cwd.startswith("/") else DEFAULT_WORKDIR


def _norm(name: str) -> str:
    return name.strip().rsplit(":", 1)[-1].lower()


def _first_activation(acts: Sequence[facts.Activation], skill: str | None) -> int | None:
    return next((a.order for a in acts if _norm(a.skill_name) == skill), None)


def _script_in_skill(path: str, skill: str, skills_dirs: Sequence[str]) -> str:
    """`expected_script` as a path inside the skill folder ("./scripts/x.py" -> scripts/x.py)."""
    hit = facts.skill_path(path, skills_dirs)
    if hit is not None:
        return hit[1]
    p = posixpath.normpath(path.strip().removeprefix("./"))
    return p[len(skill) + 1:] if p.startswith(skill + "/") else p


def _skill_execution(case: EvalCase, condition: str, staged: bool, target: str,
                     expected: str | None,
                     acts: Sequence[facts.Activation], runs: Sequence[facts.ScriptRun],
                     writes: Sequence[facts.FileWrite],
                     skills_dirs: Sequence[str]) -> tuple[float, dict[str, Any]]:
    activated = list(dict.fromkeys(_norm(a.skill_name) for a in acts))
    if case.is_negative:
        used = target in activated
        return (0.0 if used else 1.0), {
            "case_kind": "negative", "condition": condition, "target_skill": target,
            "activated_skills": activated,
            "checks": [{"check": "target skill not activated", "holds": not used,
                        "why": (f"{target} was activated" if used else
                                f"{target} was never activated")}],
        }
    assert expected is not None
    first_act = _first_activation(acts, expected)
    checks: list[dict[str, Any]] = []
    withheld = not staged
    if withheld:
        why = f"{condition}: the target skill is withheld, so the activation check scores 0"
    elif first_act is not None:
        act = next(a for a in acts if a.order == first_act)
        why = f"activated at step {act.step_id} ({act.how})"
    else:
        why = f"no activation evidence for {expected}"
    checks.append({"check": "expected skill activated",
                   "holds": first_act is not None and not withheld, "why": why})
    if case.expected_script:
        script = _script_in_skill(case.expected_script, expected, skills_dirs)
        paths = expected_script_paths(script)  # a bare "calc.py" is scripts/calc.py too
        hits = [r for r in runs if _norm(r.skill_name) == expected and r.script in paths]
        checks.append({
            "check": f"expected script {script} run", "holds": bool(hits),
            "why": (f"run at step(s) {', '.join(str(r.step_id) for r in hits)} (exit codes "
                    f"{', '.join(str(r.exit_code) for r in hits)})" if hits else
                    f"no command ran {' or '.join(f'{expected}/{p}' for p in paths)}"),
        })
    effects = [(r.order, r.step_id, f"script run {r.skill_name}/{r.script}") for r in runs]
    effects += [(w.order, w.step_id, f"file write {w.path}") for w in writes]
    first_effect = min(effects) if effects else None
    if first_act is None or withheld:
        holds, why = False, "never activated, so not activated before acting"
    elif first_effect is None:
        holds, why = True, "activated; no script run or file write followed"
    else:
        holds = first_act <= first_effect[0]
        act = next(a for a in acts if a.order == first_act)
        why = (f"activated at step {act.step_id}, first {first_effect[2]} at step "
               f"{first_effect[1]}")
    checks.append({"check": "activated before the first script run or file write",
                   "holds": holds, "why": why})
    value = sum(1 for c in checks if c["holds"]) / len(checks)
    return value, {"case_kind": case.effective_kind, "condition": condition,
                   "expected_skill": expected, "activated_skills": activated,
                   "checks": checks}


def _skill_efficiency(trajectory: Trajectory, case: EvalCase, expected: str | None,
                      acts: Sequence[facts.Activation]) -> tuple[float, dict[str, Any]]:
    activated = list(dict.fromkeys(_norm(a.skill_name) for a in acts))
    if not activated:
        routing = 1.0 if expected is None else 0.0
        routing_why = ("nothing activated and nothing expected" if expected is None else
                       f"{expected} expected, nothing activated")
    else:
        hits = 1 if expected in activated else 0
        routing = hits / len(activated)
        routing_why = f"{hits} of {len(activated)} activated skill(s) expected"
    outcomes = facts.call_outcomes(trajectory)
    errors = [o for o in outcomes if o.error]
    productive = (len(outcomes) - len(errors)) / len(outcomes) if outcomes else None
    turns = sum(1 for s in trajectory.steps if s.source == "agent" and not s.is_copied_context)
    reference = case.reference_turns or DEFAULT_REFERENCE_TURNS
    budget = 1.0 if turns == 0 else min(1.0, reference / turns)
    parts = [v for v in (routing, productive, budget) if v is not None]
    return sum(parts) / len(parts), {
        "routing_precision": {"value": routing, "expected_skill": expected,
                              "activated_skills": activated, "why": routing_why},
        "productive_calls": {
            "value": productive, "tool_calls": len(outcomes), "errored": len(errors),
            "errors": [{"step_id": o.step_id, "tool": o.function_name, "why": o.reason}
                       for o in errors[:20]],
            "why": ("no tool calls: left out of the mean" if productive is None else
                    f"{len(outcomes) - len(errors)} of {len(outcomes)} calls without error"),
        },
        "budget": {"value": budget, "turns": turns, "reference_turns": reference,
                   "reference_from": "case" if case.reference_turns else "default"},
        "parts_averaged": len(parts),
    }
