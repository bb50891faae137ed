"""Errored trials by side, how each was counted, and whether they fell on one side.

CONTRACTS.md section 8. Three kinds (skillforge.models.trial.ErrorCause):

- infrastructure (before the agent's first turn, the model provider failing, Docker going
  away) and contaminated baselines: left out of the lift and counted here;
- a run that broke off for any other cause (the harness CLI crashed, the container stopped
  under the agent's own commands): a failed trial, counted as a failure (pass false,
  outcome metrics 0; skillforge.lift.cases.fail_closed);
- a grader failure after the agent ran: a failed grade (0), counted.

Errors are one-sided, and then no `helps` verdict is given (skillforge.lift.compute) and
`--gate` fails, when

- failed runs happened on one side only: a skill whose own trials crash is a regression to
  look at, however few the trials (4 of 12 with-skill crashes against none gives Fisher's
  p = 0.093, which no test at 5% could flag; counted as failures they lower the pass rate,
  and the gate says why); or
- the errored trials (left out and failed runs together) differ between the sides by more
  than chance allows (Fisher's exact test, p < ALPHA): left out, they could hide exactly the
  trials that went wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillforge.lift.proportions import fisher_p
from skillforge.lift.stats import ALPHA
from skillforge.models.verdicts import ErrorSummary
from skillforge.models.trial import TrialRecord

SIDES = ("with", "base")


def error_summary(trials: Sequence[TrialRecord], conditions: tuple[str, str]) -> ErrorSummary:
    """Count the compared trials' errors by side (cancelled trials are not counted at all:
    the author stopped them) and test them for one-sidedness."""
    side_of = dict(zip(conditions, SIDES, strict=True))
    out = ErrorSummary(**{name: {s: 0 for s in SIDES} for name in (
        "trials", "excluded", "setup", "failed_runs", "grader_failed", "contaminated")})
    for t in trials:
        side = side_of.get(t.condition)
        if side is None or t.status == "cancelled":
            continue
        out.trials[side] += 1
        if t.excluded:
            out.excluded[side] += 1
            out.setup[side] += t.error_stage == "setup"
            out.contaminated[side] += bool(t.contamination)
        elif t.failed_run:
            out.failed_runs[side] += 1
        elif t.grader_failed:
            out.grader_failed[side] += 1
    errored = [out.excluded[s] + out.failed_runs[s] for s in SIDES]
    (ew, eb), (nw, nb) = errored, (out.trials[s] for s in SIDES)
    if ew + eb:
        out.p_value = fisher_p(ew, nw, eb, nb)
        if out.p_value < ALPHA and nw and nb and ew / nw != eb / nb:
            out.one_sided = "with" if ew / nw > eb / nb else "base"
    fw, fb = (out.failed_runs[s] for s in SIDES)
    if out.one_sided is None and bool(fw) != bool(fb):
        out.one_sided = "with" if fw else "base"
    out.note = error_note(out, conditions)
    return out


def error_note(errors: ErrorSummary, conditions: tuple[str, str]) -> str:
    """The errors in a few sentences: each kind by side and how it was counted ("" when
    there were none)."""
    names = dict(zip(SIDES, conditions, strict=True))

    def by_side(counts: dict[str, int]) -> tuple[int, str]:
        w, b = counts.get("with", 0), counts.get("base", 0)
        return w + b, f"{w} {names['with']}, {b} {names['base']}"

    said = []
    total, sides = by_side(errors.excluded)
    if total:
        setup, _ = by_side(errors.setup)
        said.append(f"{total} errored trial(s) left out of the lift (infrastructure: {setup} "
                    f"before the agent's first turn, {total - setup} during its run, the "
                    f"model provider or Docker failing): {sides}.")
    total, sides = by_side(errors.contaminated)
    if total:
        said.append(f"Of them, contaminated (the harness's requests carried the target skill, "
                    f"which that side must not see): {sides}; the trials' contamination "
                    "field shows where.")
    total, sides = by_side(errors.failed_runs)
    if total:
        said.append(f"{total} errored trial(s) whose agent run broke off, counted as failed "
                    f"trials (pass false, outcome metrics 0): {sides}.")
    total, sides = by_side(errors.grader_failed)
    if total:
        said.append(f"{total} grader failure(s) after the agent ran, counted as failed "
                    f"grades (0): {sides}.")
    if said and errors.p_value is not None:
        said.append(f"Errored trials between the sides: Fisher's exact p = "
                    f"{errors.p_value:.3g}.")
    if errors.one_sided:
        side = names[errors.one_sided]
        said.append(f"The errors fall on the {side} side (runs that broke off on one side "
                    "only, or more errors than chance allows), so no 'helps' verdict is "
                    f"given and --gate fails; look at why the {side} trials errored.")
    return " ".join(said)
