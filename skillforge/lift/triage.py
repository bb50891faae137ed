"""Negative-lift triage (CONTRACTS.md section 8): why did the skill make this case worse?

For each case with D(i, overall) < 0, the first class that fits, in this order:

1. `unstable`: a side has errored or timed-out attempts, or the spread between attempts
   (max - min of overall within one side) is larger than |D|: the difference is within the
   run-to-run noise, so nothing else can be concluded.
2. `never_discovered`: the with-skill activation rate is 0 (not for `negative` cases, where
   not activating the skill is the right behaviour).
3. `misused`: the skill was activated at least once, and the grader, accuracy,
   goal_accuracy or behavior_check fell (paired D < 0).
4. `overhead`: none of the grader, accuracy, goal_accuracy and behavior_check fell, but
   skill_efficiency did.
5. `unexplained`: none of the four fits (e.g. only security fell, or correctness fell while
   activation was never recorded). The contract lists four classes; a fifth, explicit class
   keeps a case from being forced into a wrong one, and the evidence says what was seen.

Activation unknown (no with-skill attempt recorded `activated`) fits neither
`never_discovered` nor `misused`.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.cases import CaseTrials
from skillforge.lift.stats import TIE_EPS, is_negative
from skillforge.models.lift import NegativeCase, TriageClass, TriageEvidence

CORRECTNESS_METRICS = ("grader", "accuracy", "goal_accuracy", "behavior_check")


def _fell(case: CaseTrials, metrics: Sequence[str]) -> list[str]:
    out = []
    for m in metrics:
        d = case.delta(m)
        if d is not None and is_negative(d):
            out.append(m)
    return out


def triage_case(case: CaseTrials) -> TriageEvidence | None:
    """Classify one case; None when its overall lift is not negative (or not paired)."""
    d = case.delta("overall")
    if d is None or not is_negative(d):
        return None
    failed = {"with": case.failed_attempts("with"), "base": case.failed_attempts("base")}
    spread = {"with": case.spread("with"), "base": case.spread("base")}
    rate = case.activation_rate()
    fell = _fell(case, CORRECTNESS_METRICS)
    eff_fell = bool(_fell(case, ("skill_efficiency",)))
    widest = max((s for s in spread.values() if s is not None), default=None)

    cls: TriageClass
    if any(failed.values()):
        cls = "unstable"
        sides = " and ".join(f"{n} {s}" for s, n in failed.items() if n)
        reason = f"errored or timed-out attempts ({sides})"
    elif widest is not None and widest > abs(d) + TIE_EPS:
        cls = "unstable"
        reason = f"attempts within a side differ by {widest:.3f}, more than |D| = {abs(d):.3f}"
    elif rate == 0 and case.kind != "negative":
        cls = "never_discovered"
        reason = "the skill was never activated in the with-skill attempts"
    elif rate is not None and rate > 0 and fell:
        cls = "misused"
        reason = f"the skill was activated and {', '.join(fell)} fell"
    elif not fell and eff_fell:
        cls = "overhead"
        reason = "correctness held but skill_efficiency fell"
    else:
        cls = "unexplained"
        reason = _unexplained_reason(case, rate, fell)
    return TriageEvidence(
        case_id=case.case_id,
        class_=cls,
        reason=reason,
        failed_attempts=failed,
        spread=spread,
        activation_rate=rate,
        fell=_fell(case, (*CORRECTNESS_METRICS, "security", "skill_execution", "skill_efficiency")),
    )


def _unexplained_reason(case: CaseTrials, rate: float | None, fell: list[str]) -> str:
    if fell and rate is None:
        return f"{', '.join(fell)} fell but skill activation was not recorded"
    others = _fell(case, ("security", "skill_execution"))
    if others:
        return f"only {', '.join(others)} fell; no triage class covers it"
    return "no triage class fits the recorded facts"


def triage(cases: Sequence[CaseTrials]) -> tuple[list[NegativeCase], list[TriageEvidence]]:
    """Negative cases (worst first) with their class, and the evidence behind each."""
    found = [(c, e) for c in cases if (e := triage_case(c)) is not None]
    found.sort(key=lambda ce: (ce[0].delta("overall") or 0.0, ce[0].case_id))
    negatives = [
        NegativeCase(case_id=c.case_id, delta=c.delta("overall") or 0.0, class_=e.class_)
        for c, e in found
    ]
    return negatives, [e for _, e in found]
