"""What the two YAML grader-list formats (vally, waza) share: finding and loading the spec
file, the opening fields of a case, judge and tool-call graders folded into case fields, and
the case fields written back as a list of graders. Each format passes in its own grader
spellings; the mapping between skillforge's fields and a grader list is written once here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from skillforge.evalformats.common import (
    TRUTH_GRADER,
    escape,
    kind_from_tags,
    new_case,
    reconcile,
    skill_target,
    truth_of,
    truth_rubric,
)
from skillforge.evalformats.loss import SET, Loss
from skillforge.evalformats.yamlio import YAMLError, load_yaml
from skillforge.models.evals import EvalCase, EvalSet

FILE = "eval.yaml"
Grader = dict[str, Any]
Fold = Callable[[Grader, dict[str, Any], "str | None"], bool]


def load_doc(path: Path) -> Any:
    """The YAML document at `path`, or None when it cannot be read or parsed."""
    try:
        return load_yaml(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return None


def spec_file(path: Path) -> Path | None:
    """`path` itself when it is a YAML file, else its `eval.yaml` or `evals/eval.yaml`."""
    for cand in (path, path / FILE, path / "evals" / FILE):
        if cand.is_file() and cand.suffix in (".yaml", ".yml"):
            return cand
    return None


def case_start(cid: Any, prompt: str, notes: Any, tags: Any, files: Any,
               src_key: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(values, extra) every read case opens with: id, kind (from tags), prompt, notes and
    the file paths (a file given as a mapping names its path under `src_key`)."""
    kind, rest = kind_from_tags(tags)
    paths = [f.get(src_key) if isinstance(f, dict) else f for f in files or []]
    values: dict[str, Any] = {"id": cid, "kind": kind, "prompt": prompt, "notes": notes,
                              "files": [p for p in paths if isinstance(p, str)]}
    return values, ({"tags": rest} if rest else {})


def finish_case(values: dict[str, Any], extra: dict[str, Any], graders: Any, fold: Fold,
                skill: str | None, fmt: str) -> EvalCase:
    """The case once its graders are folded into `values`; those with no skillforge meaning
    are kept under the extra `<fmt>_graders`."""
    kept = [g for g in graders or [] if isinstance(g, dict) and not fold(g, values, skill)]
    if kept:
        extra[f"{fmt}_graders"] = kept
    return new_case(values, extra)


def grader_parts(g: Grader) -> tuple[Any, Any, dict[str, Any]]:
    """(type, name, config mapping) of a grader."""
    return g.get("type"), g.get("name"), g.get("config") if isinstance(g.get("config"),
                                                                         dict) else {}


def mark_negative(values: dict[str, Any]) -> None:
    """A grader forbidding the skill: the case is a negative one with no expected skill."""
    values["kind"] = values.get("kind") or "negative"
    values["expected_skill"] = None


def judge_to_fields(name: Any, text: str, values: dict[str, Any]) -> None:
    """A judge grader's text: the ground truth when it is the truth grader, else a behaviour."""
    if name == TRUTH_GRADER and truth_of(text) is not None:
        values["ground_truth"] = truth_of(text)
    else:
        values.setdefault("expected_behavior", []).append(text)


def tool_checks(specs: Iterable[tuple[Any, int | None]],
                pattern_keys: tuple[str, ...] = ("command_pattern",)) -> list[dict[str, Any]]:
    """`tool_used` checks for (tool spec, max) pairs; max 0 means the tool must not be used.
    A spec is a tool name or a mapping with `tool` and the first set of `pattern_keys`."""
    out = []
    for spec, mx in specs:
        spec = {"tool": spec} if isinstance(spec, str) else spec
        check: dict[str, Any] = {"type": "tool_used", "tool": spec.get("tool")}
        pattern = next((spec[k] for k in pattern_keys if spec.get(k)), None)
        if pattern:
            check["input_match"] = pattern
        if mx == 0:
            check.update({"min": 0, "max": 0})
        out.append(check)
    return out


def meaning(fold: Fold, g: Grader, skill: str | None) -> str:
    """What grader `g` says in skillforge's terms, comparable across spellings."""
    values: dict[str, Any] = {}
    known = fold(g, values, skill)
    return json.dumps(values if known else g, sort_keys=True, default=str)


def fields_to_graders(case: EvalCase, evalset: EvalSet, fmt: str, *, fold: Fold,
                      negative: Callable[[str], Grader], positive: Callable[[str], Grader],
                      script: Callable[[str], Grader], judge: Callable[[str, str], Grader],
                      check: Callable[[dict[str, Any], int], Grader | None],
                      ) -> tuple[list[Grader], list[Loss]]:
    """The case's graders in format `fmt` and the checks it has no grader for.

    `negative(skill)`, `positive(skill)`, `script(pattern)`, `judge(name, text)` and
    `check(check, i)` spell one grader each. Graders kept from a read (`<fmt>_graders`)
    follow; a case read from this format gets its original graders back where they mean
    the same (`common.reconcile`)."""
    cid, losses = str(case.id), []
    graders: list[Grader] = []
    target = (case._origin.get("neg_skill") if case.is_negative else None) or skill_target(
        case, evalset)
    if case.is_negative and target:
        graders.append(negative(target))
    elif case.expected_skill:
        graders.append(positive(case.expected_skill))
    if case.expected_script:
        graders.append(script(escape(case.expected_script)))
    if case.ground_truth:
        graders.append(judge(TRUTH_GRADER, truth_rubric(case.ground_truth)))
    for i, text in enumerate(case.expected_behavior):
        graders.append(judge(f"behavior-{i + 1}", text))
    for i, c in enumerate(case.checks):
        g = check(c, i)
        if g is None:
            losses.append(Loss(cid, "checks", f"check {i + 1} ({c.get('type')}) has no "
                               f"{fmt} grader"))
        else:
            graders.append(g)
    graders.extend(case.extra.get(f"{fmt}_graders") or [])
    if case._origin.get("fmt") == fmt:
        skill = case._origin.get("skill")
        graders = reconcile(graders, case._origin.get("graders", []),
                            lambda g: meaning(fold, g, skill))
    return graders, losses


def set_fields(evalset: EvalSet, keys: tuple[str, ...], fmt: str,
               also: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[Loss]]:
    """The set-level `keys` kept from a read, and a loss for every other set extra."""
    doc = {k: evalset.extra[k] for k in keys if k in evalset.extra}
    losses = [Loss(SET, key, f"no {fmt} eval.yaml field") for key in evalset.extra
              if key not in (*keys, *also)]
    return doc, losses


def common_losses(case: EvalCase, fmt: str) -> list[Loss]:
    """What a case loses in any grader-list format: the reward-file grader, reference turns,
    the trigger flag (written as the skill grader) and extras with no field."""
    cid, out = str(case.id), []
    if case.grader:
        out.append(Loss(cid, "grader", f"skillforge's reward-file grader has no {fmt} "
                        "equivalent"))
    if case.reference_turns is not None:
        out.append(Loss(cid, "reference_turns", f"no {fmt} field"))
    if case.should_trigger is not None:
        out.append(Loss(cid, "should_trigger", "written as the skill grader, not as a flag"))
    for key in case.extra:
        if key != "tags" and key != f"{fmt}_graders":
            out.append(Loss(cid, key, f"no {fmt} field"))
    return out
