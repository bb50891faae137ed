"""Errored trials by side, and whether they fell on one side more than chance allows.

CONTRACTS.md section 8. A trial whose agent run did not complete (status `error`: the
sandbox or the harness failed before the agent took a turn, or its run broke off) is left
out of the lift and counted here; a grader failure after the agent ran is not left out (it
is a failed grade, 0) but counted too. Leaving errors out is only harmless when they strike
both sides alike: a skill that makes its own trials crash would otherwise drop exactly its
failures. So the excluded errors of the two sides are compared with Fisher's exact test, and
below ALPHA no `helps` verdict is given (skillforge.lift.compute) and `--gate` fails.
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
    the author stopped them) and test the excluded ones for one-sidedness."""
    side_of = dict(zip(conditions, SIDES, strict=True))
    out = ErrorSummary(trials={s: 0 for s in SIDES}, excluded={s: 0 for s in SIDES},
                       setup={s: 0 for s in SIDES}, grader_failed={s: 0 for s in SIDES},
                       contaminated={s: 0 for s in SIDES})
    for t in trials:
        side = side_of.get(t.condition)
        if side is None or t.status == "cancelled":
            continue
        out.trials[side] += 1
        if t.excluded:
            out.excluded[side] += 1
            out.setup[side] += t.error_stage == "setup"
            out.contaminated[side] += bool(t.contamination)
        elif t.grader_failed:
            out.grader_failed[side] += 1
    (ew, eb), (nw, nb) = (out.excluded[s] for s in SIDES), (out.trials[s] for s in SIDES)
    if ew + eb:
        out.p_value = fisher_p(ew, nw, eb, nb)
        if out.p_value < ALPHA and nw and nb and ew / nw != eb / nb:
            out.one_sided = "with" if ew / nw > eb / nb else "base"
    out.note = error_note(out, conditions)
    return out


def error_note(errors: ErrorSummary, conditions: tuple[str, str]) -> str:
    """The errors in one or two sentences ("" when there were none)."""
    names = dict(zip(SIDES, conditions, strict=True))
    said = []
    ew, eb = errors.excluded.get("with", 0), errors.excluded.get("base", 0)
    if ew + eb:
        said.append(f"Errored trials left out of the lift: {ew} {names['with']}, {eb} "
                    f"{names['base']} (Fisher's exact p = {errors.p_value:.3g}).")
    cw, cb = errors.contaminated.get("with", 0), errors.contaminated.get("base", 0)
    if cw + cb:
        said.append(f"Of them, contaminated (the harness's requests carried the target skill, "
                    f"which that side must not see): {cw} {names['with']}, {cb} "
                    f"{names['base']}; the trials' contamination field shows where.")
    if errors.one_sided:
        side = names[errors.one_sided]
        said.append(f"The errors fall on the {side} side more than chance allows, so no "
                    "'helps' verdict is given: leaving them out could hide exactly the trials "
                    f"that went wrong; look at why the {side} trials errored.")
    gw, gb = errors.grader_failed.get("with", 0), errors.grader_failed.get("base", 0)
    if gw + gb:
        said.append(f"Grader failures after the agent ran, counted as failed grades (0): {gw} "
                    f"{names['with']}, {gb} {names['base']}.")
    return " ".join(said)
