"""SkillCraft's metrics of a Skill Mode run, beside the lift (CONTRACTS.md section 8).

Pure: the run store hands over the run's `TrialRecord`s and its `SkillModeTrial` rows; this
module compares the `skill_mode` condition ("Skill") with `baseline` ("Base") and returns a
`SkillcraftReport` for `lift.json`'s `extra.skillcraft`.

What counts, exactly:

- **Score** of a trial: the grader reward when the case has a grader (as for the pass rule),
  else `overall`. A trial **succeeds** when it is `ok` and its score is >= 0.9 (SkillCraft's
  rule). Success rate per side: the mean over *all* cases of the mean success over the
  side's attempts (errored and missing attempts count as failures, the fixed denominator of
  the pass rate). skillforge's own pass rate (`lift.pass_rates.pass_rate`) is shown beside it.
- A case is **solved** on a side when at least one of its attempts there succeeds.
- **Efficiency**: over the cases solved on both sides; for each such case and side a
  resource is averaged over the side's *succeeding* attempts, then over the cases; Diff =
  (Skill - Base) / Base (`stats.relative_diff`; negative = Skill Mode saves). Tokens are
  tokens_in + tokens_out; attempts without a cost are skipped for cost only.
- **Exec rate** = `execute_skill` calls that succeeded (`ok`, i.e. the script ran, set a
  `result` and passed the quality check) / all `execute_skill` calls, pooled over every
  skill-mode trial of the run (every case and every attempt chain). A call naming an unknown
  skill is an attempt that failed.
- **Reuse rate** = invocations per saved skill: `execute_skill` calls (successful or not)
  naming a skill saved in this run, divided by the number of skills saved in this run. Each
  attempt is its own chain with its own cache, so a name saved in two chains is two skills;
  the figure pools all chains. Skills the run inherited (`--skill-cache-from`) are counted
  apart, as `inherited_reuse_rate` (their invocations / their number).
- **Per-skill table**: one row per skill and chain: the trial that saved it first (or, for
  an inherited skill, where its own run saved it), the cases of the chain that executed it
  other than the creating one ("reused in"), its executions, exec rate and failures by kind.
- **Rejections**: failed skill-tool calls by failure kind (syntax, quality, ...), pooled.

The per-metric Skill Lift of skill_mode over baseline is `compute_lift` itself with
`conditions=("skill_mode", "baseline")`: the same intervals and verdict rules as the lift.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from skillforge.lift.cases import (
    REWARD_EPS,
    CaseTrials,
    group_cases,
    natural_key,
    select_trials,
    trial_grader,
    trial_overall,
)
from skillforge.lift.compute import DEFAULT_CONDITIONS, compute_lift
from skillforge.lift.pass_rates import RESOURCES, pass_rate
from skillforge.lift.stats import mean, relative_diff
from skillforge.models.lift import CiMethod, LiftReport
from skillforge.models.skill_mode import SkillModeTrial
from skillforge.models.skillcraft import (
    BASELINE,
    SKILL_MODE,
    SUCCESS_THRESHOLD,
    EfficiencyRow,
    SideRates,
    SkillcraftEfficiency,
    SkillcraftReport,
    SkillLiftRow,
    SkillOriginRow,
    SkillRow,
)
from skillforge.models.trial import RunRecord, TrialRecord

CONDITIONS: tuple[str, str] = (SKILL_MODE, BASELINE)
EFFICIENCY_RESOURCES: tuple[str, ...] = ("tokens", "cost_usd", "turns", "tool_calls")
SIDES = {"skill": "with", "base": "base"}  # SkillCraft's side -> CaseTrials' side


def trial_score(trial: TrialRecord, graded: bool) -> float | None:
    """The grader reward for a graded case, else overall."""
    return trial_grader(trial) if graded else trial_overall(trial)


def trial_succeeds(trial: TrialRecord, graded: bool,
                   threshold: float = SUCCESS_THRESHOLD) -> bool:
    """SkillCraft's success: an ok trial whose score is >= threshold (float noise allowed)."""
    if trial.status != "ok":
        return False
    score = trial_score(trial, graded)
    return score is not None and score >= threshold - REWARD_EPS


def _succeeding(case: CaseTrials, side: str, threshold: float) -> list[TrialRecord]:
    return [t for t in case.side(side) if trial_succeeds(t, case.graded, threshold)]


def success_rate(cases: Sequence[CaseTrials], side: str,
                 threshold: float = SUCCESS_THRESHOLD) -> float | None:
    """Mean over all cases of the mean success over attempts; None if the side never ran."""
    if not any(c.side(side) for c in cases):
        return None
    per_case = []
    for c in cases:
        flags = [trial_succeeds(t, c.graded, threshold) for t in c.side(side)]
        per_case.append(mean([1.0 if f else 0.0 for f in flags]) or 0.0)
    return mean(per_case)


def efficiency_both_solved(cases: Sequence[CaseTrials],
                           threshold: float = SUCCESS_THRESHOLD) -> SkillcraftEfficiency:
    """Tokens, cost, turns and tool calls over the cases both sides solved (see module doc)."""
    both = []
    for case in cases:
        skill, base = _succeeding(case, "with", threshold), _succeeding(case, "base", threshold)
        if skill and base:
            both.append((case.case_id, skill, base))
    rows: dict[str, EfficiencyRow] = {}
    for name in EFFICIENCY_RESOURCES:
        get = RESOURCES[name]
        ss: list[float] = []
        bs: list[float] = []
        for _, s_trials, b_trials in both:
            s = mean([v for v in map(get, s_trials) if v is not None])
            b = mean([v for v in map(get, b_trials) if v is not None])
            if s is not None and b is not None:
                ss.append(s)
                bs.append(b)
        ms, mb = mean(ss), mean(bs)
        rows[name] = EfficiencyRow(skill=ms, base=mb, diff=relative_diff(ms, mb), n=len(ss))
    return SkillcraftEfficiency(n_cases=len(both), cases=[cid for cid, _, _ in both], **rows)


def _origin(run_id: str | None, case_id: str | None, attempt: int | None) -> SkillOriginRow:
    return SkillOriginRow(run_id=run_id, case_id=case_id, attempt=attempt)


def skill_rows(rows: Sequence[SkillModeTrial]) -> list[SkillRow]:
    """The per-skill table: one row per (attempt chain, skill name), by name then attempt."""
    chains: dict[int, list[SkillModeTrial]] = {}
    for r in rows:
        chains.setdefault(r.attempt, []).append(r)
    out: list[SkillRow] = []
    for attempt, chain in sorted(chains.items()):
        chain.sort(key=lambda r: (r.seq, natural_key(r.case_id)))
        table: dict[str, SkillRow] = {}
        creator: dict[str, str | None] = {}
        first = chain[0]
        for name, cached in first.cache_before.skills.items():
            # Inherited: saved by another run. (A chain whose first stored trial is not its
            # first case may start with skills of its own run: those are not inherited.)
            origin = cached.created_by
            inherited = (origin.run_id != first.run_id) if origin \
                else first.inherited_from is not None
            table[name] = SkillRow(
                name=name, attempt=attempt, inherited=inherited,
                inherited_from=first.inherited_from if inherited else None,
                created_by=_origin(origin.run_id, origin.case_id, origin.attempt) if origin
                else _origin(first.inherited_from, None, None),
                description=cached.description)
            creator[name] = None if inherited or origin is None else origin.case_id
        for trial in chain:
            for event in trial.events:
                name = event.name
                if name is None:
                    continue
                if event.tool == "save_skill" and event.ok:
                    if name not in table:
                        table[name] = SkillRow(
                            name=name, attempt=attempt,
                            created_by=_origin(trial.run_id, trial.case_id, trial.attempt))
                        creator[name] = trial.case_id
                    table[name].saves += 1
                elif event.tool == "execute_skill":
                    row = table.get(name)
                    cached = trial.cache_before.skills.get(name) or \
                        trial.cache_after.skills.get(name)
                    if row is None and cached is not None:
                        # In the cache without a recorded save event: its origin says where.
                        origin = cached.created_by
                        row = table[name] = SkillRow(
                            name=name, attempt=attempt,
                            created_by=_origin(origin.run_id, origin.case_id, origin.attempt)
                            if origin else SkillOriginRow())
                        creator[name] = origin.case_id if origin else None
                    if row is None:
                        continue  # an unknown skill: an exec attempt, but of no saved skill
                    row.executions += 1
                    if event.ok:
                        row.executions_ok += 1
                    else:
                        kind = event.failure or "unspecified"
                        row.failures[kind] = row.failures.get(kind, 0) + 1
                    if trial.case_id != creator.get(name) and trial.case_id not in row.reused_in:
                        row.reused_in.append(trial.case_id)
            for name, cached in trial.cache_after.skills.items():
                if name not in table:  # in the cache without a recorded save event
                    origin = cached.created_by
                    table[name] = SkillRow(
                        name=name, attempt=attempt,
                        created_by=_origin(origin.run_id, origin.case_id, origin.attempt)
                        if origin else _origin(trial.run_id, trial.case_id, trial.attempt))
                    creator[name] = origin.case_id if origin else trial.case_id
                table[name].description = cached.description or table[name].description
        for row in table.values():
            row.exec_rate = row.executions_ok / row.executions if row.executions else None
        out.extend(table.values())
    return sorted(out, key=lambda r: (r.name, r.attempt))


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def compute_skillcraft(
    trials: Iterable[TrialRecord],
    skill_mode_trials: Sequence[SkillModeTrial],
    *,
    case_ids: Iterable[str] | None = None,
    graded_cases: Iterable[str] | None = None,
    pass_threshold: float = 0.6,
    ci: CiMethod | None = None,
    **lift_options,
) -> SkillcraftReport | None:
    """SkillCraft's metrics of a run, or None when it has no skill-mode trial at all.

    `ci` and `lift_options` go to `compute_lift` for the per-metric lift (None: its default
    interval, as the main lift)."""
    selected = select_trials(trials, CONDITIONS)
    if not skill_mode_trials and not any(t.condition == SKILL_MODE for t in selected):
        return None
    case_ids = list(case_ids) if case_ids is not None else None
    graded_cases = list(graded_cases) if graded_cases is not None else None
    cases = group_cases(selected, CONDITIONS, case_ids, graded_cases)
    if ci is not None:
        lift_options["ci"] = ci
    lift = compute_lift(selected, conditions=CONDITIONS, case_ids=case_ids,
                        graded_cases=graded_cases, pass_threshold=pass_threshold,
                        **lift_options)
    events = [e for r in skill_mode_trials for e in r.events]
    executions = [e for e in events if e.tool == "execute_skill"]
    skills = skill_rows(skill_mode_trials)
    saved = [s for s in skills if not s.inherited]
    inherited = [s for s in skills if s.inherited]
    invocations = sum(s.executions for s in saved)
    inherited_calls = sum(s.executions for s in inherited)
    return SkillcraftReport(
        n_cases=len(cases),
        success=SideRates(skill=success_rate(cases, "with"), base=success_rate(cases, "base")),
        pass_rate=SideRates(skill=pass_rate(cases, "with", pass_threshold),
                            base=pass_rate(cases, "base", pass_threshold)),
        pass_threshold=pass_threshold,
        solved={side: [c.case_id for c in cases if _succeeding(c, key, SUCCESS_THRESHOLD)]
                for side, key in SIDES.items()},
        exec_rate=_rate(sum(1 for e in executions if e.ok), len(executions)),
        executions=len(executions),
        executions_ok=sum(1 for e in executions if e.ok),
        reuse_rate=_rate(invocations, len(saved)),
        skills_saved=len(saved),
        invocations=invocations,
        inherited_reuse_rate=_rate(inherited_calls, len(inherited)),
        skills_inherited=len(inherited),
        inherited_invocations=inherited_calls,
        inherited_from=sorted({r.inherited_from for r in skill_mode_trials if r.inherited_from}),
        modes=sorted({r.mode for r in skill_mode_trials}),
        efficiency=efficiency_both_solved(cases),
        skills=skills,
        rejections=dict(sorted(Counter(e.failure or "unspecified"
                                       for e in events if not e.ok).items())),
        tool_calls=dict(sorted(Counter(e.tool for e in events).items())),
        lift={m: SkillLiftRow(skill=row.with_, base=row.base, lift=row.lift, ci_low=row.ci_low,
                              ci_high=row.ci_high, n=row.n, positive_share=row.positive_share,
                              verdict=row.verdict)
              for m, row in lift.metrics.items()},
        trials=len(selected),
        skill_mode_rows=len(skill_mode_trials),
    )


def lift_conditions(trials: Iterable[TrialRecord]) -> tuple[str, str]:
    """The pair a run's main lift compares: with_skill vs baseline, or skill_mode vs baseline
    for a run that has skill-mode trials and no with_skill trial."""
    present = {t.condition for t in trials}
    if "with_skill" not in present and SKILL_MODE in present:
        return CONDITIONS
    return DEFAULT_CONDITIONS


def skillcraft_for_run(run: RunRecord, trials: Iterable[TrialRecord],
                       skill_mode_trials: Sequence[SkillModeTrial], *,
                       ci: CiMethod | None = None, **options) -> SkillcraftReport | None:
    """compute_skillcraft with the run's planned cases and pass threshold."""
    spec = run.spec
    return compute_skillcraft(
        trials, skill_mode_trials, ci=ci,
        case_ids=(spec.case_ids or None) if spec else None,
        pass_threshold=spec.pass_threshold if spec else 0.6, **options)


def attach_skillcraft(report: LiftReport, skillcraft: SkillcraftReport | None) -> LiftReport:
    """The report with `extra.skillcraft` set (left absent when None)."""
    report.extra.skillcraft = skillcraft
    return report
