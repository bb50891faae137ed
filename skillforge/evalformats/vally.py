"""microsoft/vally eval specs (`eval.yaml` with `stimuli`) and experiment files, read and written.

eval.yaml: `name`, `description`, `version`, `type`, `environment` (skills, files as
`{src, dest}`, commands), `config` (runs, timeout, model, judge_model, executor),
`stimuli` (each: `name`, `prompt`, `graders` of `{type, config}`, `constraints`,
`environment`), `scoring`. An experiment file (`vally experiment run`) names `evals` and
either `variants` (with `vary` and `baseline`) or a `matrix`. Sources: microsoft.github.io/vally
(reference/eval-spec, reference/graders, reference/experiment-file); the grader catalog
names the graders but its pages found did not give every grader's config keys, so the keys
of `skill-invocation`, `tool-calls` and `prompt` written here are assumptions
(docs/evalformats.md says which).

Mapping: `skill-invocation` is expected_skill (`invoked: false`: a negative case);
`tool-calls` named `expected-script` is expected_script; `prompt` graders are
expected_behavior (one named `ground-truth` is ground_truth); output-matches /
output-not-matches / output-contains, file-exists / file-not-exists, file-matches and other
`tool-calls` become checks; stimulus `environment.files` are files and its `commands` the
case's setup_script. Other graders are kept under the case's `vally_graders`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skillforge.evalformats import yamlsuite as ys
from skillforge.evalformats.common import (
    SCRIPT_GRADER,
    SKILL_GRADER,
    escape,
    regex_check,
    skill_name_of,
    unescape,
)
from skillforge.evalformats.loss import Loss, Read
from skillforge.evalformats.yamlio import write_yaml
from skillforge.models.evals import EvalCase, EvalIssue, EvalSet

NAME = "vally"
FILE = ys.FILE
EXPERIMENT = "experiment.yaml"
SET_KEYS = ("name", "description", "version", "type", "environment", "config", "scoring")


def is_experiment(doc: Any) -> bool:
    return isinstance(doc, dict) and "evals" in doc and ("variants" in doc or "matrix" in doc)


def detect(path: Path) -> bool:
    f = ys.spec_file(path)
    doc = ys.load_doc(f) if f else None
    return isinstance(doc, dict) and ("stimuli" in doc or is_experiment(doc))


def read(path: Path) -> Read:
    f = ys.spec_file(Path(path))
    doc = ys.load_doc(f) if f else None
    if is_experiment(doc):
        return _read_experiment(f, doc)
    if not isinstance(doc, dict) or not isinstance(doc.get("stimuli"), list):
        return Read(None, [EvalIssue(pointer="", message=f"{path}: not a vally eval spec (a "
                                     "mapping with a stimuli: list)")], fmt=NAME)
    issues: list[EvalIssue] = []
    skill = skill_name_of(f.parent) or _env_skill(doc)
    cases = []
    for i, stim in enumerate(doc["stimuli"]):
        case = _read_stimulus(stim, i, f, skill, issues) if isinstance(stim, dict) else None
        if case is not None:
            graders = [g for g in stim.get("graders") or [] if isinstance(g, dict)]
            case._origin = {"fmt": NAME, "file": str(f), "skill": skill, "graders": graders,
                            "neg_skill": next((g["config"]["skills"][0] for g in graders
                                               if g.get("type") == "skill-invocation"
                                               and isinstance(g.get("config"), dict)
                                               and g["config"].get("invoked") is False
                                               and g["config"].get("skills")), None)}
            cases.append(case)
    evalset = EvalSet(skill_name=skill, cases=cases,
                      extra={k: doc[k] for k in SET_KEYS if k in doc})
    evalset._unreadable = len(doc["stimuli"]) - len(cases)
    return Read(evalset, issues, fmt=NAME)


def _env_skill(doc: dict[str, Any]) -> str | None:
    """The skill an eval spec loads, when it loads exactly one (`environment.skills`)."""
    env = doc.get("environment") if isinstance(doc.get("environment"), dict) else {}
    skills = [s for s in env.get("skills") or [] if isinstance(s, str)]
    if len(skills) != 1:
        return None
    path = Path(skills[0])
    return path.parent.name if path.name == "SKILL.md" else path.name


def _read_experiment(f: Path, doc: dict[str, Any]) -> Read:
    """The cases of every eval an experiment names; the experiment itself is kept."""
    merged: EvalSet | None = None
    issues: list[EvalIssue] = []
    for pattern in doc.get("evals") or []:
        for spec in sorted(f.parent.glob(str(pattern))):
            got = read(spec)
            issues += got.issues
            if got.evalset is not None:
                merged = got.evalset if merged is None else merged
                if got.evalset is not merged:
                    merged.cases.extend(got.evalset.cases)
    if merged is None:
        return Read(None, issues or [EvalIssue(pointer=str(f), message=f"{f}: its evals: "
                                               "match no vally eval spec")], fmt=NAME)
    merged.extra["vally_experiment"] = doc
    return Read(merged, issues, fmt=NAME)


def _read_stimulus(stim: dict[str, Any], i: int, f: Path, skill: str | None,
                   issues: list[EvalIssue]) -> EvalCase | None:
    prompt = stim.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        issues.append(EvalIssue(pointer=f"{f}#/stimuli/{i}", message=f"{f}: stimulus "
                                f"{i + 1} has no prompt"))
        return None
    env = stim.get("environment") if isinstance(stim.get("environment"), dict) else {}
    values, extra = ys.case_start(stim.get("name") or f"stimulus-{i + 1}", prompt,
                               stim.get("description"), stim.get("tags"), env.get("files"),
                               "src")
    commands = env.get("commands")
    if isinstance(commands, list) and commands:
        extra["setup_script"] = "\n".join(str(c) for c in commands)
    if stim.get("constraints"):
        extra["constraints"] = stim["constraints"]
    return ys.finish_case(values, extra, stim.get("graders"), _grader_to_fields, skill, NAME)


def _grader_to_fields(g: dict[str, Any], values: dict[str, Any], skill: str | None) -> bool:
    kind, name, cfg = ys.grader_parts(g)
    checks = values.setdefault("checks", [])
    if kind == "skill-invocation" and "expected_skill" not in values:
        skills = cfg.get("skills") or ([cfg["skill"]] if cfg.get("skill") else [skill])
        if cfg.get("invoked") is False:
            ys.mark_negative(values)
        elif len(skills) == 1:
            values["expected_skill"] = skills[0]
        else:
            return False
        return True
    if kind == "prompt" and isinstance(cfg.get("rubric"), str):
        ys.judge_to_fields(name, cfg["rubric"], values)
        return True
    if kind == "tool-calls":
        required, forbidden = cfg.get("required") or [], cfg.get("forbidden") or []
        specs = [(s, None) for s in required] + [(s, 0) for s in forbidden]
        if not specs or not all(isinstance(s, (str, dict)) for s, _ in specs):
            return False
        if name == SCRIPT_GRADER and len(required) == 1 and isinstance(required[0], dict) \
                and unescape(str(required[0].get("command_pattern", ""))):
            values["expected_script"] = unescape(required[0]["command_pattern"])
            return True
        checks.extend(ys.tool_checks(specs))
        return True
    simple = {"output-matches": ("pattern", False), "output-not-matches": ("pattern", True),
              "output-contains": ("substring", False),
              "output-not-contains": ("substring", True)}
    if kind in simple and isinstance(cfg.get(simple[kind][0]), str):
        key, negate = simple[kind]
        pattern = cfg[key] if key == "pattern" else escape(cfg[key])
        checks.append(regex_check(pattern, negate=negate))
        return True
    if kind in ("file-exists", "file-not-exists") and isinstance(cfg.get("path"), str):
        check = {"type": "file_exists", "path": cfg["path"]}
        if kind == "file-not-exists":
            check["exists"] = False
        checks.append(check)
        return True
    if kind in ("file-matches", "file-not-matches") and isinstance(cfg.get("pattern"), str) \
            and isinstance(cfg.get("path"), str):
        checks.append(regex_check(cfg["pattern"], negate=kind == "file-not-matches",
                                  target={"source": "file", "path": cfg["path"]}))
        return True
    return False


# --- writing ---------------------------------------------------------------------------------

def _check_to_grader(check: dict[str, Any], _i: int = 0) -> dict[str, Any] | None:
    kind = check.get("type")
    out: dict[str, Any] | None = None
    if kind == "regex" and not check.get("flags"):
        match, target = check.get("match", "contains"), check.get("target", "last_message")
        negate = match == "not_contains"
        if match not in ("contains", "not_contains"):
            return None
        if target == "last_message":
            out = {"type": "output-not-matches" if negate else "output-matches",
                   "config": {"pattern": check["pattern"]}}
        elif isinstance(target, dict):
            out = {"type": "file-not-matches" if negate else "file-matches",
                   "config": {"path": target["path"], "pattern": check["pattern"]}}
    elif kind == "file_exists":
        out = {"type": "file-exists" if check.get("exists", True) else "file-not-exists",
               "config": {"path": check["path"]}}
    elif kind == "tool_used" and (check.get("min", 1), check.get("max")) in ((1, None), (0, 0)):
        spec: Any = check["tool"]
        if check.get("input_match"):
            spec = {"tool": check["tool"], "command_pattern": check["input_match"]}
        out = {"type": "tool-calls",
               "config": {"forbidden" if check.get("max") == 0 else "required": [spec]}}
    if out is not None and check.get("name"):
        out = {"type": out["type"], "name": check["name"], "config": out["config"]}
    return out


def stimulus_document(case: EvalCase, evalset: EvalSet) -> tuple[dict[str, Any], list[Loss]]:
    stim: dict[str, Any] = {"name": str(case.id)}
    if case.notes:
        stim["description"] = case.notes
    stim["prompt"] = case.prompt
    tags = ([case.kind] if case.kind else []) + list(case.extra.get("tags") or [])
    if tags:
        stim["tags"] = tags
    env: dict[str, Any] = {}
    if case.files:
        env["files"] = [{"src": f, "dest": Path(f).name} for f in case.files]
    if case.extra.get("setup_script"):
        env["commands"] = [str(case.extra["setup_script"])]
    if env:
        stim["environment"] = env
    graders, losses = ys.fields_to_graders(
        case, evalset, NAME, fold=_grader_to_fields,
        negative=lambda skill: {"type": "skill-invocation", "name": "skill-not-invoked",
                                "config": {"skills": [skill], "invoked": False}},
        positive=lambda skill: {"type": "skill-invocation", "name": SKILL_GRADER,
                                "config": {"skills": [skill]}},
        script=lambda pattern: {"type": "tool-calls", "name": SCRIPT_GRADER, "config": {
            "required": [{"tool": "bash", "command_pattern": pattern}]}},
        judge=lambda name, text: {"type": "prompt", "name": name, "config": {"rubric": text}},
        check=_check_to_grader)
    if case.extra.get("constraints"):
        stim["constraints"] = case.extra["constraints"]
    stim["graders"] = graders
    losses += [x for x in ys.common_losses(case, "vally")
               if x.field not in ("setup_script", "constraints")]
    return stim, losses


def write(evalset: EvalSet, out: Path) -> list[Loss]:
    """`out/eval.yaml` (and `out/experiment.yaml` when the set came from an experiment)."""
    out = Path(out)
    doc, losses = ys.set_fields(evalset, SET_KEYS, NAME, also=("vally_experiment",))
    origin = next((c._origin.get("file") for c in evalset.cases
                   if c._origin.get("fmt") == NAME), None)
    if not origin:  # a new file gets a name; a file saved in place keeps what it had
        doc.setdefault("name", f"{evalset.skill_name or 'skill'}-eval")
    stimuli = []
    for case in evalset.cases:
        stim, case_losses = stimulus_document(case, evalset)
        stimuli.append(stim)
        losses += case_losses
    doc["stimuli"] = stimuli
    target = Path(origin) if origin else out / FILE
    write_yaml(target, doc)
    if "vally_experiment" in evalset.extra and not origin:
        write_yaml(out / EXPERIMENT, evalset.extra["vally_experiment"])
    return losses
