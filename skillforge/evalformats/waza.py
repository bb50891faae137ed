"""microsoft/waza eval suites: `eval.yaml` plus task files, read and written.

eval.yaml: `name`, `description`, `skill`, `version`, `config` (trials_per_task,
timeout_seconds, model, executor, ...), `graders` (applied to every task), `tasks` (task
file paths or globs, relative to eval.yaml). A task: `id`, `name`, `description`, `inputs`
(`prompt`, `files` as `{path}`), `tags`, `graders`. Sources: the microsoft/waza repository
(docs/GUIDE.md, docs/graders/*.md, examples/*/eval.yaml); see docs/evalformats.md.

Graders mapped onto skillforge's case: `skill_invocation` (required_skills: the expected
skill; forbidden_skills only: a negative case) and `trigger`; `tool_constraint` named
`expected-script`; `prompt` graders (LLM judge) are `expected_behavior`, and one named
`ground-truth` is `ground_truth`; `text`/`regex` patterns, `file` must_exist /
must_not_exist, other `tool_constraint` entries and `action_sequence` become `checks`.
Other kinds (code, diff, json_schema, behavior, script, ...) are kept as read under the
case's `waza_graders` and written back to waza only.
"""

from __future__ import annotations

import fnmatch
import glob
from pathlib import Path
from typing import Any

from skillforge.evalformats import yamlsuite as ys
from skillforge.evalformats.common import (
    JUDGE_PASS,
    SCRIPT_GRADER,
    SKILL_GRADER,
    escape,
    regex_check,
    safe_name,
    skill_name_of,
    unescape,
)
from skillforge.evalformats.loss import SET, Loss, Read
from skillforge.evalformats.yamlio import write_yaml
from skillforge.models.evals import EvalCase, EvalIssue, EvalSet

NAME = "waza"
TASK_KEYS = ("id", "description", "inputs", "tags", "graders", "prompt")
FILE = ys.FILE
SET_KEYS = ("name", "description", "version", "schemaVersion", "config", "metrics",
            "graders")


def detect(path: Path) -> bool:
    f = ys.spec_file(path)
    doc = ys.load_doc(f) if f else None
    return isinstance(doc, dict) and "tasks" in doc and "stimuli" not in doc


def read(path: Path) -> Read:
    f = ys.spec_file(Path(path))
    doc = ys.load_doc(f) if f else None
    if not isinstance(doc, dict) or not isinstance(doc.get("tasks"), list):
        return Read(None, [EvalIssue(pointer="", message=f"{path}: not a waza eval.yaml (a "
                                     "mapping with a tasks: list)")], fmt=NAME)
    issues: list[EvalIssue] = []
    skill = doc.get("skill") if isinstance(doc.get("skill"), str) else skill_name_of(f.parent)
    cases = []
    for entry in doc["tasks"]:
        if isinstance(entry, dict):
            tasks = [(entry, None)]
        else:
            matched = sorted(glob.glob(str(f.parent / str(entry))))
            if not matched:
                issues.append(EvalIssue(pointer=str(f), message=f"{f}: task pattern {entry!r} "
                                        "matches no file"))
            tasks = []
            for m in matched:
                task = ys.load_doc(Path(m))
                if not isinstance(task, dict):
                    issues.append(EvalIssue(pointer=m, message=f"{m}: not a YAML mapping"))
                    continue
                tasks.append((task, Path(m)))
        for task, tpath in tasks:
            case = _read_task(task, skill, tpath or f, issues)
            if case is not None:
                graders = [g for g in task.get("graders") or [] if isinstance(g, dict)]
                case._origin = {"fmt": NAME, "file": str(tpath) if tpath else None,
                                "patterns": list(doc["tasks"]), "skill": skill,
                                "graders": graders, "neg_skill": _forbidden(graders)}
                cases.append(case)
    evalset = EvalSet(skill_name=skill, cases=cases,
                      extra={k: doc[k] for k in SET_KEYS if k in doc})
    return Read(evalset, issues, fmt=NAME)


def _read_task(task: dict[str, Any], skill: str | None, where: Path,
               issues: list[EvalIssue]) -> EvalCase | None:
    inputs = task.get("inputs") if isinstance(task.get("inputs"), dict) else {}
    prompt = inputs.get("prompt") or task.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        issues.append(EvalIssue(pointer=str(where), message=f"{where}: task "
                                f"{task.get('id')!r} has no inputs.prompt"))
        return None
    values, extra = ys.case_start(task.get("id") or task.get("name") or where.stem, prompt,
                               task.get("description"), task.get("tags"), inputs.get("files"),
                               "path")
    # Task keys skillforge has no field for (name, expected, ...) ride along as extras.
    extra.update({k: v for k, v in task.items() if k not in TASK_KEYS})
    extra.update({f"inputs.{k}": v for k, v in inputs.items() if k not in ("prompt", "files")})
    return ys.finish_case(values, extra, task.get("graders"), _grader_to_fields, skill, NAME)


def _grader_to_fields(g: dict[str, Any], values: dict[str, Any], skill: str | None) -> bool:
    """Fold one waza grader into `values`; False when it has no skillforge meaning."""
    kind, name, cfg = ys.grader_parts(g)
    checks = values.setdefault("checks", [])
    if kind in ("skill_invocation", "trigger"):
        required, forbidden = cfg.get("required_skills") or [], cfg.get("forbidden_skills") or []
        if kind == "trigger":
            (required if cfg.get("should_trigger", True) else forbidden).append(
                cfg.get("skill") or skill)
        if len(required) == 1 and not forbidden and "expected_skill" not in values:
            values["expected_skill"] = required[0]
            return True
        if forbidden and not required and "expected_skill" not in values:
            ys.mark_negative(values)
            return True
        return False
    if kind == "prompt" and isinstance(cfg.get("prompt"), str):
        ys.judge_to_fields(name, cfg["prompt"].removesuffix(JUDGE_PASS), values)
        return True
    if kind == "tool_constraint":
        expect, reject = cfg.get("expect_tools") or [], cfg.get("reject_tools") or []
        if (name == SCRIPT_GRADER and len(expect) == 1 and not reject
                and unescape(str(expect[0].get("command_pattern", "")))):
            values["expected_script"] = unescape(expect[0]["command_pattern"])
            return True
        specs = [(s, None) for s in expect] + [(s, 0) for s in reject]
        if not all(isinstance(s, dict) and isinstance(s.get("tool"), str) for s, _ in specs):
            return False
        checks.extend(ys.tool_checks(specs, ("command_pattern", "path_pattern", "skill_pattern")))
        return bool(specs)
    if kind in ("text", "regex"):
        must = cfg.get("regex_match") or cfg.get("must_match") or []
        must_not = cfg.get("regex_not_match") or cfg.get("must_not_match") or []
        contains = cfg.get("contains") or []
        if not (must or must_not or contains) or set(cfg) - {
                "regex_match", "must_match", "regex_not_match", "must_not_match", "contains"}:
            return False
        checks.extend([regex_check(p) for p in must] + [regex_check(p, negate=True)
                                                          for p in must_not]
                      + [regex_check(escape(s)) for s in contains])
        return True
    if kind == "file" and set(cfg) <= {"must_exist", "must_not_exist"} and cfg:
        checks.extend([{"type": "file_exists", "path": p} for p in cfg.get("must_exist") or []]
                      + [{"type": "file_exists", "path": p, "exists": False}
                         for p in cfg.get("must_not_exist") or []])
        return True
    if kind == "action_sequence" and len(cfg.get("expected_actions") or []) == 2:
        before, after = cfg["expected_actions"]
        checks.append({"type": "tool_order", "before": before, "after": after})
        return True
    return False


def _forbidden(graders: list[dict[str, Any]]) -> str | None:
    """The skill a negative task's skill_invocation grader forbids, if one does."""
    for g in graders:
        cfg = g.get("config") if isinstance(g.get("config"), dict) else {}
        if g.get("type") == "skill_invocation" and cfg.get("forbidden_skills"):
            return cfg["forbidden_skills"][0]
    return None


# --- writing ---------------------------------------------------------------------------------

def _check_to_grader(check: dict[str, Any], i: int) -> dict[str, Any] | None:
    kind, name = check.get("type"), check.get("name") or f"check-{i + 1}"
    if kind == "regex" and check.get("target", "last_message") == "last_message":
        match = check.get("match", "contains")
        if match not in ("contains", "not_contains") or check.get("flags"):
            return None
        key = "regex_match" if match == "contains" else "regex_not_match"
        return {"type": "text", "name": name, "config": {key: [check["pattern"]]}}
    if kind == "file_exists":
        key = "must_exist" if check.get("exists", True) else "must_not_exist"
        return {"type": "file", "name": name, "config": {key: [check["path"]]}}
    if kind == "tool_used" and check.get("max") in (None, 0) and check.get("min", 1) in (0, 1):
        never = check.get("max") == 0
        if never != (check.get("min", 1) == 0):
            return None
        spec: dict[str, Any] = {"tool": check["tool"]}
        if check.get("input_match"):
            spec["command_pattern"] = check["input_match"]
        return {"type": "tool_constraint", "name": name,
                "config": {"reject_tools" if never else "expect_tools": [spec]}}
    if kind == "tool_order" and all(isinstance(check.get(k), str) for k in ("before", "after")):
        return {"type": "action_sequence", "name": name,
                "config": {"expected_actions": [check["before"], check["after"]],
                           "matching_mode": "in_order_match"}}
    return None


def task_document(case: EvalCase, evalset: EvalSet) -> tuple[dict[str, Any], list[Loss]]:
    task: dict[str, Any] = {"id": str(case.id)}
    if case.notes:
        task["description"] = case.notes
    inputs: dict[str, Any] = {"prompt": case.prompt}
    if case.files:
        inputs["files"] = [{"path": f} for f in case.files]
    inputs.update({k[7:]: v for k, v in case.extra.items() if k.startswith("inputs.")})
    task["inputs"] = inputs
    native = case.extra if case._origin.get("fmt") == NAME else {}
    task.update({k: v for k, v in native.items() if k not in ("tags", "waza_graders")
                 and not k.startswith("inputs.")})
    tags = ([case.kind] if case.kind else []) + list(case.extra.get("tags") or [])
    if tags:
        task["tags"] = tags
    graders, losses = ys.fields_to_graders(
        case, evalset, NAME, fold=_grader_to_fields,
        negative=lambda skill: {"type": "skill_invocation", "name": "skill-not-invoked",
                                "config": {"forbidden_skills": [skill]}},
        positive=lambda skill: {"type": "skill_invocation", "name": SKILL_GRADER,
                                "config": {"required_skills": [skill], "mode": "any_order",
                                           "allow_extra": True}},
        script=lambda pattern: {"type": "tool_constraint", "name": SCRIPT_GRADER, "config": {
            "expect_tools": [{"tool": "bash", "command_pattern": pattern}]}},
        judge=lambda name, text: {"type": "prompt", "name": name,
                                  "config": {"prompt": text + JUDGE_PASS}},
        check=_check_to_grader)
    if graders:
        task["graders"] = graders
    losses += ys.common_losses(case, "waza")
    return task, losses


def write(evalset: EvalSet, out: Path) -> list[Loss]:
    """`out/eval.yaml` and `out/tasks/<id>.yaml`, tasks listed in the set's order."""
    out = Path(out)
    doc, losses = ys.set_fields(evalset, SET_KEYS, NAME)
    doc.setdefault("name", f"{evalset.skill_name or 'skill'}-eval")
    if evalset.skill_name:
        doc["skill"] = evalset.skill_name
    if evalset.defaults:
        losses.append(Loss(SET, "defaults", "waza has its own config: settings"))
    names = []
    for case in evalset.cases:
        task, case_losses = task_document(case, evalset)
        losses += case_losses
        origin = case._origin.get("file") if case._origin.get("fmt") == NAME else None
        path = Path(origin) if origin else out / "tasks" / f"{safe_name(case.id)}.yaml"
        write_yaml(path, task)
        names.append(str(path.relative_to(out)) if path.is_relative_to(out) else str(path))
    patterns = next((c._origin.get("patterns") for c in evalset.cases
                     if c._origin.get("fmt") == NAME), None)
    # Saved in place: the author's task patterns stay when they still match every task.
    if patterns and all(isinstance(p, str) for p in patterns) and all(
            any(fnmatch.fnmatch(n, p) for p in patterns) for n in names):
        names = patterns
    doc["tasks"] = names
    order = ["name", "description", "skill", "version", "schemaVersion", "config", "metrics",
             "graders", "tasks"]
    write_yaml(out / FILE, {k: doc[k] for k in order if k in doc})
    return losses
