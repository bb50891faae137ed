"""The eval cases a run takes, and the error a run raises when it cannot start or go on.

Apart from skillforge.trials.run (which re-exports both) so the estimate, the dry run and
the Trials form read the cases without the run's machinery.
"""

from __future__ import annotations

from pathlib import Path

from skillforge.evalformats.registry import read as read_cases
from skillforge.evalformats.registry import skill_cases
from skillforge.models.evals import EvalCase
from skillforge.models.trial import RunSpec


class RunError(RuntimeError):
    """A run cannot start or go on (bad spec, unknown run, no sandbox); the message says why."""


def load_cases(spec: RunSpec) -> list[EvalCase]:
    """The cases of the spec (all of evals/evals.json when `case_ids` is empty)."""
    root = Path(spec.skill_path)
    if root.name == "SKILL.md":
        root = root.parent
    found = skill_cases(root)
    if found is None:
        path = root / "evals" / "evals.json"
        raise RunError(f"{path} does not exist; a trial needs eval cases (run `skillforge "
                       "evals draft` or write evals/evals.json, or keep the cases as waza or "
                       "vally evals/eval.yaml or plugin-eval folders under evals/)")
    path, fmt = found
    got = read_cases(path, fmt)
    evalset, issues = got.evalset, got.issues
    if evalset is None or issues:
        first = issues[0] if issues else None
        where = f"{path}:{first.line}" if first and first.line else str(path)
        raise RunError(f"{where}: {first.message if first else 'cannot be read'}; fix it "
                       "(`skillforge evals validate` lists every problem)")
    if not spec.case_ids:
        if not evalset.cases:
            raise RunError(f"{path} has no cases; add at least one")
        return list(evalset.cases)
    known = {str(c.id): c for c in evalset.cases}
    missing = [cid for cid in spec.case_ids if cid not in known]
    if missing:
        raise RunError(f"unknown case id(s) {', '.join(missing)} in {path}; known: "
                       f"{', '.join(known)}")
    return [known[cid] for cid in spec.case_ids]
