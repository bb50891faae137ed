"""evals.json in its three dialects: skillforge's own, Anthropic skill-creator's, NVIDIA
SkillEvaluator's (CONTRACTS.md section 4; skillforge.models.evals reads all three).

skill-creator: `{skill_name, evals: [{id, prompt, expected_output, files, expectations}]}`,
positive cases only. NVIDIA SkillEvaluator: `question`, `ground_truth`,
`expected_behavior`, `expected_skill`, `expected_script`, `should_trigger`, `files`.
Writing a dialect keeps only the fields it has and reports the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skillforge.evalformats.loss import SET, Loss, Read
from skillforge.models.evals import EvalCase, EvalSet, load_evals
from skillforge.models.evals_io import dumps_evals
from skillforge.models.fileio import atomic_write_text

FILE = "evals.json"
DIALECTS = ("skillforge", "skill-creator", "nvidia")
# dialect -> (canonical field -> the name written); fields absent are not carried
FIELDS: dict[str, dict[str, str]] = {
    "skill-creator": {"id": "id", "prompt": "prompt", "ground_truth": "expected_output",
                      "files": "files", "expected_behavior": "expectations"},
    "nvidia": {"id": "id", "prompt": "question", "files": "files",
               "expected_skill": "expected_skill", "expected_script": "expected_script",
               "should_trigger": "should_trigger", "ground_truth": "ground_truth",
               "expected_behavior": "expected_behavior"},
}
WHY = {"kind": "no such field; the kind is not carried",
       "grader": "no bring-your-own grader field", "checks": "no deterministic checks",
       "notes": "no notes field", "reference_turns": "no such field",
       "expected_skill": "cases never name the skill",
       "expected_script": "no expected_script field", "should_trigger": "no such field"}


def json_file(path: Path) -> Path | None:
    for cand in (path, path / FILE, path / "evals" / FILE):
        if cand.is_file() and cand.suffix == ".json":
            return cand
    return None


def dialect_of(evalset: EvalSet) -> str:
    """Which dialect a set read from evals.json is written in, by the names it uses."""
    names = {n for c in evalset.cases for n in c.field_names.values()}
    if "question" in names or ("should_trigger" in names and "kind" not in names):
        return "nvidia"
    if names & {"expected_output", "expectations"} and "kind" not in names:
        return "skill-creator"
    return "skillforge"


def read(path: Path) -> Read:
    f = json_file(Path(path))
    if f is None:
        from skillforge.models.evals import EvalIssue

        return Read(None, [EvalIssue(pointer="", message=f"{path}: no evals.json")])
    evalset, issues = load_evals(f)
    return Read(evalset, issues, fmt=dialect_of(evalset) if evalset else "skillforge")


def _dialect_case(case: EvalCase, dialect: str) -> tuple[dict[str, Any], list[Loss]]:
    cid, fields, losses = str(case.id), FIELDS[dialect], []
    doc: dict[str, Any] = {}
    negative = case.is_negative
    for canon, name in fields.items():
        value = getattr(case, canon)
        if canon == "should_trigger" and value is None and negative:
            value = False
        if value not in (None, []):
            doc[name] = value
    if dialect == "nvidia" and negative and "expected_skill" not in doc:
        doc["expected_skill"] = None
    for canon in ("kind", "grader", "checks", "notes", "reference_turns", "expected_skill",
                  "expected_script", "should_trigger"):
        value = getattr(case, canon)
        if canon in fields or value in (None, []):
            continue
        if canon == "kind" and dialect == "nvidia" and value in ("negative", "explicit"):
            continue  # nvidia: should_trigger says negative; explicit is the default
        losses.append(Loss(cid, canon, f"{dialect}: {WHY[canon]}"))
    if dialect == "skill-creator" and negative:
        losses.append(Loss(cid, "kind", "skill-creator cases are all positive; this negative "
                           "case is written as a positive one"))
    for key in case.extra:
        losses.append(Loss(cid, key, f"no {dialect} field"))
    return doc, losses


def write(evalset: EvalSet, out: Path, dialect: str = "skillforge") -> list[Loss]:
    """`out/evals.json` (or `out` itself when it ends in .json) in `dialect`."""
    out = Path(out)
    path = out if out.suffix == ".json" else out / FILE
    if dialect == "skillforge":
        fresh = EvalSet(skill_name=evalset.skill_name, defaults=evalset.defaults,
                        extra=evalset.extra)
        for c in evalset.cases:
            copy = c.model_copy(deep=True)
            if copy.is_negative and copy.kind is None:
                copy.kind = "negative"
            copy.field_names, copy.key_order = {}, []
            if copy.is_negative:
                copy.field_names["expected_skill"] = "expected_skill"
            fresh.cases.append(copy)
        from skillforge.models.evals_io import add_case

        cases, fresh.cases = fresh.cases, []
        for c in cases:
            add_case(fresh, c)
        atomic_write_text(path, dumps_evals(fresh))
        return []
    losses: list[Loss] = []
    docs = []
    for case in evalset.cases:
        doc, case_losses = _dialect_case(case, dialect)
        docs.append(doc)
        losses += case_losses
    for key in evalset.extra:
        losses.append(Loss(SET, key, f"no {dialect} field"))
    if evalset.defaults:
        losses.append(Loss(SET, "defaults", f"no {dialect} field"))
    import json

    text = json.dumps({"skill_name": evalset.skill_name, "evals": docs}, indent=2,
                      ensure_ascii=False)
    atomic_write_text(path, text + "\n")
    return losses
