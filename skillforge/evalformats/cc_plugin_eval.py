"""Claude Code `claude plugin eval` case folders, read and written.

A suite is the plugin's `evals/` folder; each case is a sub-folder holding `prompt.md`
(YAML frontmatter: schema_version, name, description, tags, runs, max_turns, ...; the body
is the prompt) with `graders/<name>.md` (frontmatter `type` and its keys; an `llm` grader's
body is its criteria), or `case.yaml` (`execution.prompt`, `graders:` list), or both; a
`case.yaml` beside `prompt.md` may name `context.scaffold_script` (e.g. `fixture.sh`).
Grader types: regex, tool_used, tool_order, file_exists, llm (a judge, 2 of 3 votes),
baseline. Sources: code.claude.com/docs/en/plugin-evals and the case folders of public
plugins that use it (see docs/evalformats.md).

Mapping to skillforge's case (skillforge.evalformats.common):
`tool_used` on `Skill` is the skill-execution fact (`expected_skill`; `max: 0` makes the
case negative), a `tool_used` on `Bash` named `expected-script` is `expected_script`,
`llm` graders are `expected_behavior` (judged, behavior_check, with `judge_votes: 3` so the
judge's majority of three decides each, as plugin-eval's does), `expected_outcome` is
`ground_truth`, a kind among `tags` is `kind`, `description` is `notes`; regex,
tool_order, file_exists and baseline graders are `checks`. Run settings (runs, max_turns,
timeout_seconds, model, allowed_tools, ...) are kept as the case's extra fields.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from skillforge.evalformats.common import (
    NO_SKILL_GRADER,
    SCRIPT_GRADER,
    SKILL_GRADER,
    escape,
    kind_from_tags,
    new_case,
    safe_name,
    skill_from_match,
    skill_name_of,
    skill_target,
    unescape,
)
from skillforge.evalformats.loss import Loss, Read
from skillforge.evalformats.yamlio import (
    YAMLError,
    load_yaml,
    split_frontmatter,
    write_markdown,
    write_text,
    write_yaml,
)
from skillforge.models.evals import EvalCase, EvalIssue, EvalSet

NAME = "cc-plugin-eval"
SCHEMA_VERSION = "1.1"
EXECUTION_KEYS = ("max_turns", "timeout_seconds", "model", "allowed_tools",
                  "append_system_prompt", "env")
TOP_KEYS = ("runs", "plugins")
CONTEXT_KEYS = ("history_file", "add_dirs")
KNOWN_EXTRA = (*TOP_KEYS, *EXECUTION_KEYS, *CONTEXT_KEYS, "tags", "setup_script",
               "judge_votes")
LLM_VOTES = 3  # plugin-eval's judge passes an llm grader in 2 of 3 votes
SCAFFOLD = "fixture.sh"


def is_case_dir(path: Path) -> bool:
    return (path / "prompt.md").is_file() or (path / "case.yaml").is_file()


def case_dirs(path: Path) -> list[Path]:
    """The case folders at `path`: a case, an evals/ folder, or a plugin or skill holding one."""
    if is_case_dir(path):
        return [path]
    if (path / "evals").is_dir() and not any(is_case_dir(p) for p in _subdirs(path)):
        path = path / "evals"
    return [p for p in _subdirs(path) if is_case_dir(p)]


def _subdirs(path: Path) -> list[Path]:
    try:
        return sorted(p for p in path.iterdir() if p.is_dir())
    except OSError:
        return []


def detect(path: Path) -> bool:
    return path.is_dir() and bool(case_dirs(path))


# --- reading ---------------------------------------------------------------------------------

def read(path: Path) -> Read:
    """Every case folder at `path` as one EvalSet; problems name the file."""
    path = Path(path)
    dirs = case_dirs(path)
    issues: list[EvalIssue] = []
    if not dirs:
        return Read(None, [EvalIssue(pointer="", message=f"{path} holds no plugin-eval case "
                                     "(a folder with prompt.md or case.yaml)")], fmt=NAME)
    skill = skill_name_of(path)
    cases = []
    for d in dirs:
        case = _read_case(d, skill, issues)
        if case is not None:
            cases.append(case)
    if skill is None:  # outside a skill folder: the skill the cases' Skill graders name
        named = {skill_from_match(c._origin["names"].get("skill", {}).get("input_match"), None)
                 for c in cases} - {None}
        skill = named.pop() if len(named) == 1 else None
    evalset = EvalSet(skill_name=skill, cases=cases)
    evalset._unreadable = len(dirs) - len(cases)
    return Read(evalset, issues, fmt=NAME)


def _natural(path: Path) -> list[Any]:
    """behavior-2 before behavior-10."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", path.stem)]


def _load(path: Path, issues: list[EvalIssue]) -> tuple[dict[str, Any], str] | None:
    try:
        text = path.read_text("utf-8")
        if path.suffix == ".md":
            return split_frontmatter(text)
        data = load_yaml(text) or {}
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        issues.append(EvalIssue(pointer=str(path), message=f"{path}: cannot be read as "
                                f"{'Markdown with YAML frontmatter' if path.suffix == '.md' else 'YAML'}"
                                f" ({str(exc).splitlines()[0] if str(exc) else exc}); fix it"))
        return None
    if not isinstance(data, dict):
        issues.append(EvalIssue(pointer=str(path), message=f"{path} must be a YAML mapping"))
        return None
    return data, ""


def _read_case(d: Path, skill: str | None, issues: list[EvalIssue]) -> EvalCase | None:
    doc: dict[str, Any] = {}
    layout = "case.yaml"
    prompt = None
    if (d / "case.yaml").is_file():
        got = _load(d / "case.yaml", issues)
        if got is None:
            return None
        doc = got[0]
    if (d / "prompt.md").is_file():
        got = _load(d / "prompt.md", issues)
        if got is None:
            return None
        meta, body = got
        doc = {**doc, **{k: v for k, v in meta.items() if k != "execution"},
               "execution": {**(doc.get("execution") or {}), **(meta.get("execution") or {}),
                             **{k: meta[k] for k in EXECUTION_KEYS if k in meta}}}
        prompt, layout = body.strip("\n"), "prompt.md"
    execution = doc.get("execution") if isinstance(doc.get("execution"), dict) else {}
    prompt = prompt if prompt else execution.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        issues.append(EvalIssue(pointer=str(d), message=f"{d}: the case has no prompt; write "
                                "it as the body of prompt.md or as execution.prompt"))
        return None
    graders = [g for g in (doc.get("graders") or []) if isinstance(g, dict)]
    grader_files: list[str] = []
    gdir = d / "graders"
    for gpath in sorted(gdir.glob("*.md"), key=_natural) if gdir.is_dir() else []:
        got = _load(gpath, issues)
        if got is None:
            return None
        meta, body = got
        # A file name the writer made up for an unnamed grader (its type, maybe numbered)
        # names nothing: reading it back as a name would add one.
        auto = re.fullmatch(rf"{re.escape(str(meta.get('type')))}(-\d+)*", gpath.stem)
        g = {**({} if auto else {"name": gpath.stem}), **meta}
        if g.get("type") == "llm" and body.strip():
            g["criteria"] = body.strip("\n")
        graders.append(g)
        grader_files.append(gpath.name)
    if not graders:
        issues.append(EvalIssue(pointer=str(d), message=f"{d}: a plugin-eval case needs at "
                                "least one grader (graders/*.md or graders: in case.yaml)"))
    kind, tags = kind_from_tags(doc.get("tags"))
    values: dict[str, Any] = {"id": doc.get("name") or d.name, "kind": kind, "prompt": prompt,
                              "notes": doc.get("description"),
                              "ground_truth": doc.get("expected_outcome")}
    extra: dict[str, Any] = {}
    if tags:
        extra["tags"] = tags
    for key in TOP_KEYS:
        if key in doc:
            extra[key] = doc[key]
    for key in EXECUTION_KEYS:
        if key in execution:
            extra[key] = execution[key]
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    for key in CONTEXT_KEYS:
        if key in context:
            extra[key] = context[key]
    script = context.get("scaffold_script")
    if isinstance(script, str):
        try:
            extra["setup_script"] = (d / script).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            issues.append(EvalIssue(pointer=str(d / "case.yaml"), message=f"{d}: scaffold "
                                    f"script {script!r} cannot be read ({exc})"))
    names = _graders_to_fields(graders, values, skill)
    if values.get("expected_behavior"):
        extra["judge_votes"] = LLM_VOTES  # behavior_check takes the same majority
    case = new_case(values, extra)
    case._origin = {"fmt": NAME, "dir": str(d), "layout": layout, "names": names,
                    "schema_version": doc.get("schema_version"),
                    "graders": [g for g in graders if g.get("name") is None
                                or g["name"] not in [f[:-3] for f in grader_files]],
                    "grader_files": grader_files, "scaffold": script or SCAFFOLD}
    return case


def _graders_to_fields(graders: list[dict[str, Any]], values: dict[str, Any],
                       skill: str | None) -> dict[str, Any]:
    """Fill `values` from the graders; returns the names and settings of the mapped ones."""
    behavior, checks, llm_names = [], [], []
    names: dict[str, Any] = {}
    for g in graders:
        kind, tool = g.get("type"), g.get("tool")
        if kind == "tool_used" and tool == "Skill" and "skill" not in names:
            names["skill"] = g
            if g.get("max") == 0:
                values["kind"] = values.get("kind") or "negative"
                values["expected_skill"] = None
            else:
                values["expected_skill"] = skill_from_match(g.get("input_match"), skill)
        elif (kind == "tool_used" and g.get("name") == SCRIPT_GRADER
              and unescape(str(g.get("input_match", ""))) and "script" not in names):
            names["script"] = g
            values["expected_script"] = unescape(g["input_match"])
        elif kind == "llm":
            text = g.get("criteria") or g.get("rubric") or g.get("prompt")
            if isinstance(text, str) and text.strip():
                behavior.append(text)
                llm_names.append(g)
            else:
                checks.append(g)
        else:
            checks.append(g)
    values["expected_behavior"], values["checks"] = behavior, checks
    names["llm"] = llm_names
    return names


# --- writing ---------------------------------------------------------------------------------

def case_document(case: EvalCase, evalset: EvalSet) -> tuple[dict[str, Any],
                                                             list[dict[str, Any]], list[Loss]]:
    """(case.yaml-style document without graders, graders, what could not be carried)."""
    cid, losses = str(case.id), []
    origin = case._origin if case._origin.get("fmt") == NAME else {}
    names = origin.get("names", {})
    version = origin.get("schema_version", SCHEMA_VERSION) if origin else SCHEMA_VERSION
    doc: dict[str, Any] = {"schema_version": version} if version is not None else {}
    doc["name"] = cid
    if case.notes:
        doc["description"] = case.notes
    tags = ([case.kind] if case.kind else []) + list(case.extra.get("tags") or [])
    if tags:
        doc["tags"] = tags
    for key in TOP_KEYS:
        if key in case.extra:
            doc[key] = case.extra[key]
    execution = {"prompt": case.prompt}
    execution.update({k: case.extra[k] for k in EXECUTION_KEYS if k in case.extra})
    doc["execution"] = execution
    context = {k: case.extra[k] for k in CONTEXT_KEYS if k in case.extra}
    if "setup_script" in case.extra:
        context["scaffold_script"] = origin.get("scaffold", SCAFFOLD)
    if context:
        doc["context"] = context
    if case.ground_truth:
        doc["expected_outcome"] = case.ground_truth
    graders: list[dict[str, Any]] = []
    # A negative case forbids the skill its file named, else the set's skill.
    target = skill_from_match(names.get("skill", {}).get("input_match"),
                              None) if case.is_negative else None
    target = target or skill_target(case, evalset)
    if case.is_negative and target:
        graders.append({**names.get("skill", {}), "type": "tool_used",
                        "name": names.get("skill", {}).get("name", NO_SKILL_GRADER),
                        "tool": "Skill", "input_match": escape(target), "min": 0, "max": 0})
    elif case.expected_skill:
        g = {k: v for k, v in names.get("skill", {}).items() if k not in ("min", "max")}
        graders.append({**g, "type": "tool_used", "name": g.get("name", SKILL_GRADER),
                        "tool": "Skill", "input_match": escape(case.expected_skill)})
    if case.is_negative and not target:
        losses.append(Loss(cid, "kind", "negative, but no skill is named to forbid"))
    if case.should_trigger is not None:
        losses.append(Loss(cid, "should_trigger", "written as the Skill grader, not as a flag"))
    if case.expected_script:
        graders.append({**names.get("script", {}), "type": "tool_used", "name": SCRIPT_GRADER,
                        "tool": "Bash", "input_match": escape(case.expected_script)})
    llm_names = names.get("llm", [])
    for i, text in enumerate(case.expected_behavior):
        old = llm_names[i] if i < len(llm_names) else {}
        graders.append({**{k: v for k, v in old.items() if k not in ("criteria", "rubric",
                                                                      "prompt")},
                        "type": "llm", "name": old.get("name", f"behavior-{i + 1}"),
                        "criteria": text})
    graders.extend(dict(c) for c in case.checks)
    if case.files:
        losses.append(Loss(cid, "files", "plugin-eval cases have no input files; copy them "
                           "into the workspace from a fixture.sh"))
    if case.grader:
        losses.append(Loss(cid, "grader", "plugin-eval runs no command or script grader"))
    if case.reference_turns is not None:
        losses.append(Loss(cid, "reference_turns", "no plugin-eval field"))
    for key in case.extra:
        if key not in KNOWN_EXTRA:
            losses.append(Loss(cid, key, "no plugin-eval field"))
    if not graders:
        losses.append(Loss(cid, "graders", "the case has nothing to grade by, which "
                           "plugin-eval refuses; add a check or an expected behaviour"))
    return doc, graders, losses


def write(evalset: EvalSet, out: Path) -> list[Loss]:
    """Write every case as `out/<case>/`; returns what could not be carried over."""
    out, losses = Path(out), []
    for case in evalset.cases:
        losses.extend(write_case(case, evalset, out / safe_name(case.id)))
    return losses


def write_case(case: EvalCase, evalset: EvalSet, d: Path) -> list[Loss]:
    doc, graders, losses = case_document(case, evalset)
    origin = case._origin if case._origin.get("fmt") == NAME else {}
    if origin.get("layout", "prompt.md") == "case.yaml":
        write_yaml(d / "case.yaml", {**doc, "graders": _in_read_order(
            graders, origin.get("graders", []))})
        for name in origin.get("grader_files", []):
            _remove(d / "graders" / name)
    else:
        execution = dict(doc.pop("execution"))
        prompt = execution.pop("prompt")
        context = doc.pop("context", None)
        meta = {**doc, **execution}
        write_markdown(d / "prompt.md", meta, prompt)
        if context:
            write_yaml(d / "case.yaml", {"context": context})
        elif (d / "case.yaml").is_file() and origin:
            _remove(d / "case.yaml")
        written = set()
        for g in graders:
            name = safe_name(g.get("name") or g.get("type"), "grader")
            base, n = name, 2
            while name in written:
                name, n = f"{base}-{n}", n + 1
            written.add(name)
            meta = {k: v for k, v in g.items() if k not in ("name", "criteria")}
            body = g.get("criteria", "") if g.get("type") == "llm" else ""
            write_markdown(d / "graders" / f"{name}.md", meta, body)
        for stale in set(origin.get("grader_files", [])) - {f"{n}.md" for n in written}:
            _remove(d / "graders" / stale)
    if "setup_script" in case.extra:
        write_text(d / origin.get("scaffold", SCAFFOLD), str(case.extra["setup_script"]))
    return losses


def _in_read_order(graders: list[dict[str, Any]],
                   read: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Graders in the order case.yaml listed them (new ones last), so a save that changes
    nothing else leaves the list as it was."""
    def position(g: dict[str, Any]) -> int:
        for i, old in enumerate(read):
            if old == g or (g.get("name") and old.get("name") == g.get("name")):
                return i
        return len(read)

    return sorted(graders, key=position)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


