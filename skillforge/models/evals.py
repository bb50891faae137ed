"""Evaluation assets: `evals/evals.json` (CONTRACTS.md section 4).

Reads the canonical shape and the aliases used by Anthropic's skill-creator
(`expected_output`, `expectations`, `assertions`) and by ACES/NVIDIA SkillEvaluator
(`question`, `ground_truth`, `expected_behavior`, `should_trigger`, a bare script name in
`expected_script`). The author's field names, key order and unknown fields are remembered
so a rewrite changes only what was edited. Parsing returns errors (the file cannot be used
as written) apart from warnings (`EvalSet.warnings`). Writing back (`dumps_evals`, `save_evals`,
`EvalsFile`) and the editing helpers live in skillforge.models.evals_io (importable here).
"""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from skillforge.models.checks import checks_problems
from skillforge.models.jsonpos import json_lines, line_for

EVALS_PATH = "evals/evals.json"
KINDS = ("explicit", "implicit", "contextual", "negative")
CaseKind = Literal["explicit", "implicit", "contextual", "negative"]

# canonical name -> every name accepted for it, canonical first
ALIASES: dict[str, tuple[str, ...]] = {
    "prompt": ("prompt", "question"),
    "ground_truth": ("ground_truth", "expected_output"),
    "expected_behavior": ("expected_behavior", "expectations", "assertions"),
}
CASE_FIELDS = (
    "id", "kind", "prompt", "files", "expected_skill", "expected_script", "ground_truth",
    "expected_behavior", "grader", "notes", "reference_turns", "should_trigger", "checks",
)
ALIAS_TO_CANON = {alias: canon for canon, names in ALIASES.items() for alias in names}
LIST_FIELDS = ("files", "expected_behavior")
KNOWN_CASE_KEYS = tuple(dict.fromkeys([*CASE_FIELDS, *ALIAS_TO_CANON]))
# difflib ratio above which an unknown key is taken for a misspelt known one. Measured on
# keys met in the wild: typos score 0.88-0.97 (expected_ouput, promt, expectation, file),
# deliberate extras at most 0.84 (question_id), most below 0.6 (difficulty, tags, source).
TYPO_CUTOFF = 0.85


class EvalIssue(BaseModel):
    """A problem in evals.json: where (JSON pointer and line) and what to do."""

    pointer: str
    line: int | None = None
    message: str


class EvalCase(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    id: str | int
    kind: CaseKind | None = None
    prompt: str
    files: list[str] = Field(default_factory=list)
    expected_skill: str | None = None
    expected_script: str | None = None
    ground_truth: str | None = None
    expected_behavior: list[str] = Field(default_factory=list)
    grader: str | None = None
    notes: str | None = None
    reference_turns: int | None = None
    should_trigger: bool | None = None  # NVIDIA SkillEvaluator's (and trigger evals') flag
    # Deterministic graders on trajectory facts (skillforge.models.checks).
    checks: list[dict[str, Any]] = Field(default_factory=list)
    # Round-trip memory: unknown fields, the names the author used, and key order.
    extra: dict[str, Any] = Field(default_factory=dict)
    field_names: dict[str, str] = Field(default_factory=dict)
    key_order: list[str] = Field(default_factory=list)
    line: int | None = None
    # The object as read (None for a new case) and its index in the file's list.
    _raw: dict[str, Any] | None = PrivateAttr(default=None)
    _index: int | None = PrivateAttr(default=None)
    # Where a case read from another format came from (skillforge.evalformats).
    _origin: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def is_negative(self) -> bool:
        """Whether the skill must not be used; every "is this case negative" asks this.

        `kind` decides when given. Without it, NVIDIA SkillEvaluator's `should_trigger:
        false`, or an `expected_skill` written as null, makes a case negative; a case that
        leaves `expected_skill` out (skill-creator's) is positive."""
        if self.kind is not None:
            return self.kind == "negative"
        if self.should_trigger is not None:
            return not self.should_trigger
        return self.expected_skill is None and "expected_skill" in self.field_names

    @property
    def effective_kind(self) -> str:
        """`kind`, else negative or explicit (skill-creator files hold positive cases)."""
        return self.kind or ("negative" if self.is_negative else "explicit")


class EvalSet(BaseModel):
    skill_name: str | None = None
    cases: list[EvalCase] = Field(default_factory=list)
    defaults: dict[str, Any] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(default_factory=dict)
    key_order: list[str] = Field(default_factory=list)
    indent: int | str | None = 2
    # What was read: the text, its JSON, its sha256, and cases that failed to parse.
    _text: str | None = PrivateAttr(default=None)
    _doc: Any = PrivateAttr(default=None)
    _sha: str | None = PrivateAttr(default=None)
    _unreadable: int = PrivateAttr(default=0)
    _warnings: list[EvalIssue] = PrivateAttr(default_factory=list)

    @property
    def warnings(self) -> list[EvalIssue]:
        """What looked wrong in the text read but does not stop the set being used."""
        return self._warnings

    @property
    def source_sha256(self) -> str | None:
        """sha256 of the text this set was parsed from (None for a set built in code)."""
        return self._sha

    def case(self, case_id: str | int) -> EvalCase | None:
        return next((c for c in self.cases if str(c.id) == str(case_id)), None)


class EvalsInvalidError(ValueError):
    """The set would not validate once written; nothing was written."""

    def __init__(self, path: Path | None, issues: list[EvalIssue]) -> None:
        where = f"{path}: " if path else ""
        first = issues[0].message if issues else "invalid"
        super().__init__(f"{where}not saved: {first}" + (f" (and {len(issues) - 1} more)"
                                                          if len(issues) > 1 else ""))
        self.issues = issues


def _detect_indent(text: str) -> int | str:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) != len(line):
            ws = line[: len(line) - len(stripped)]
            return "\t" if ws.startswith("\t") else len(ws)
    return 2


def parsed_list(val: Any) -> Any:
    """files / expected_behavior as read: {"text": t} items are t (a string is not a list)."""
    if isinstance(val, list):
        return [v["text"] if isinstance(v, dict) and isinstance(v.get("text"), str) else v
                for v in val]
    return val


def parsed_value(canon: str, val: Any) -> Any:
    """The value a field holds after parsing, given its raw JSON value."""
    if canon in LIST_FIELDS:
        return parsed_list(val)
    if canon == "ground_truth" and isinstance(val, (int, float, list, dict)):
        return json.dumps(val, ensure_ascii=False)
    return val


def expected_script_paths(script: str) -> tuple[str, ...]:
    """The paths in the skill an `expected_script` (relative to the skill) may name.

    NVIDIA SkillEvaluator files name a script by its bare file name (`calc.py`): that is the
    skill's scripts/calc.py, or calc.py at its root. Any other path names only itself."""
    return (script, f"scripts/{script}") if script and "/" not in script else (script,)


def _nearest_key(key: str) -> str | None:
    found = difflib.get_close_matches(key.lower(), KNOWN_CASE_KEYS, n=1, cutoff=TYPO_CUTOFF)
    return found[0] if found else None


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class _CaseReader:
    """Reads one raw case: its values by canonical name, with errors and warnings."""

    def __init__(self, raw: dict[str, Any], index: int, lines: dict[str, int],
                 issues: list[EvalIssue], warnings: list[EvalIssue]) -> None:
        self.ptr, self.lines = f"/evals/{index}", lines
        self.index, self.issues, self.warnings = index, issues, warnings
        self.values: dict[str, Any] = {}
        self.names: dict[str, str] = {}
        self.extra: dict[str, Any] = {}
        self.ok = True
        for key, val in raw.items():
            canon = ALIAS_TO_CANON.get(key, key)
            if canon not in CASE_FIELDS:
                self.extra[key] = val
            elif canon in self.values:
                self.error(key, f"case {index + 1} sets {canon!r} twice (as "
                           f"{self.names[canon]!r} and {key!r}); keep one")
            else:
                self.values[canon], self.names[canon] = val, key
        self.label = f"case {self.values.get('id', index + 1)!r}"

    def where(self, key: str | None = None) -> tuple[str, int | None]:
        ptr = f"{self.ptr}/{key}" if key is not None else self.ptr
        return ptr, line_for(self.lines, ptr)

    def error(self, key: str | None, message: str) -> None:
        ptr, line = self.where(key)
        self.issues.append(EvalIssue(pointer=ptr, line=line, message=message))
        self.ok = False

    def warn(self, key: str | None, message: str) -> None:
        ptr, line = self.where(key)
        self.warnings.append(EvalIssue(pointer=ptr, line=line, message=message))

    def name(self, canon: str) -> str:
        return self.names.get(canon, canon)

    def unknown_keys(self) -> None:
        for key in self.extra:
            near = _nearest_key(key)
            if near is not None:
                self.warn(key.replace("~", "~0").replace("/", "~1"), f"{self.label} has an unknown key {key!r}, which skillforge "
                          f"keeps but ignores; did you mean {near!r}? Rename it")

    def lists(self) -> None:
        for canon in LIST_FIELDS:
            val, name = self.values.get(canon), self.name(canon)
            if val is None:
                continue
            if isinstance(val, str):
                self.error(name, f"{self.label}: {name!r} is a string but must be a list of "
                           f"strings; write \"{name}\": [{json.dumps(_short(val))}]")
                continue
            if not isinstance(val, list):
                self.error(name, f"{self.label}: {name!r} must be a list of strings")
                continue
            items = parsed_list(val)
            for j, item in enumerate(items):
                if not isinstance(item, str):
                    self.error(f"{name}/{j}", f"{self.label}: item {j + 1} of {name!r} must "
                               "be a string")
            self.values[canon] = items

    def scalars(self) -> None:
        for canon in ("expected_skill", "expected_script", "ground_truth", "grader", "notes"):
            val = self.values.get(canon)
            if val is None or isinstance(val, str):
                continue
            if canon == "ground_truth" and isinstance(val, (int, float, list, dict)):
                self.values[canon] = json.dumps(val, ensure_ascii=False)
            else:
                self.error(self.name(canon), f"{self.label}: {self.name(canon)!r} must be a "
                           "string or null")
        rt = self.values.get("reference_turns")
        if rt is not None and (not isinstance(rt, int) or isinstance(rt, bool) or rt < 1):
            self.error("reference_turns", f"{self.label}: \"reference_turns\" must be a "
                       "positive integer")
        for sub, problem in checks_problems(self.values.get("checks")):
            self.error(f"checks{sub}", f"{self.label}: {problem}")
        trig = self.values.get("should_trigger")
        if trig is not None and not isinstance(trig, bool):
            self.error("should_trigger", f"{self.label}: \"should_trigger\" must be true, "
                       "false or null")

    def kind(self) -> None:
        kind = self.values.get("kind")
        if kind is not None and kind not in KINDS:
            self.error("kind", f"{self.label}: kind {kind!r} is not one of {', '.join(KINDS)}")

    def negative(self) -> None:
        kind, trig = self.values.get("kind"), self.values.get("should_trigger")
        if kind == "negative" and self.values.get("expected_skill"):
            self.error(self.name("expected_skill"), f"{self.label} is negative (the skill "
                       "must not be used) but names an expected_skill; set it to null")
        elif kind in KINDS and isinstance(trig, bool) and trig == (kind == "negative"):
            self.warn("should_trigger", f"{self.label}: kind {kind!r} and should_trigger "
                      f"{str(trig).lower()} disagree; kind decides, so remove one")


def _case_from_raw(raw: Any, index: int, lines: dict[str, int], issues: list[EvalIssue],
                   warnings: list[EvalIssue]) -> EvalCase | None:
    if not isinstance(raw, dict):
        ptr = f"/evals/{index}"
        issues.append(EvalIssue(pointer=ptr, line=line_for(lines, ptr), message=f"case "
                                f"{index + 1} is a {type(raw).__name__}, not an object; "
                                "write it as {\"id\": ..., \"prompt\": ...}"))
        return None
    r = _CaseReader(raw, index, lines, issues, warnings)
    case_id = r.values.get("id")
    if "id" not in r.values:
        r.error(None, f"case {index + 1} has no \"id\"; add a unique string or number")
    elif not isinstance(case_id, (str, int)) or isinstance(case_id, bool):
        r.error("id", f"case {index + 1}: \"id\" must be a string or an integer")
    prompt = r.values.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        r.error(r.name("prompt"), f"{r.label} needs a non-empty \"prompt\" (the task given "
                "to the agent)")
    r.kind()
    r.unknown_keys()
    r.lists()
    r.scalars()
    r.negative()
    if not r.ok:
        return None
    case = EvalCase(**r.values, extra=r.extra, field_names=r.names,
                    key_order=list(raw.keys()), line=r.where()[1])
    case._raw, case._index = raw, index
    return case


def parse_evals(text: str) -> tuple[EvalSet | None, list[EvalIssue]]:
    """Parse evals.json text. Never raises; problems come back as issues with lines."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [EvalIssue(pointer="", line=exc.lineno, message=f"not valid JSON: "
                                f"{exc.msg} (line {exc.lineno}, column {exc.colno})")]
    except RecursionError:
        return None, [EvalIssue(pointer="", line=1, message="JSON nested too deeply")]
    lines = json_lines(text)
    issues: list[EvalIssue] = []
    doc = data
    if isinstance(data, list):
        # A bare list of cases: accepted, written back as a list.
        data = {"evals": data}
    if not isinstance(data, dict):
        return None, [EvalIssue(pointer="", line=1, message="evals.json must be an object "
                                "like {\"skill_name\": ..., \"evals\": [...]}")]
    raw_cases = data.get("evals")
    if not isinstance(raw_cases, list):
        return None, [EvalIssue(pointer="/evals", line=line_for(lines, "/evals"),
                                message="evals.json needs an \"evals\" list of cases")]
    cases = []
    warnings: list[EvalIssue] = []
    for i, raw in enumerate(raw_cases):
        case = _case_from_raw(raw, i, lines, issues, warnings)
        if case is not None:
            cases.append(case)
    seen: dict[str, int] = {}
    for i, case in enumerate(cases):
        key = str(case.id)
        if key in seen:
            issues.append(EvalIssue(pointer=f"/evals/{i}/id", line=case.line,
                                    message=f"case id {case.id!r} is used twice; ids must "
                                    "be unique"))
        seen[key] = i
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        issues.append(EvalIssue(pointer="/defaults", line=line_for(lines, "/defaults"),
                                message="\"defaults\" must be an object of [trial] settings"))
        defaults = {}
    skill_name = data.get("skill_name")
    extra = {k: v for k, v in data.items() if k not in ("skill_name", "evals", "defaults")}
    evalset = EvalSet(
        skill_name=skill_name if isinstance(skill_name, str) else None,
        cases=cases,
        defaults=defaults,
        extra=extra,
        key_order=list(doc.keys()) if isinstance(doc, dict) else [],
        indent=_detect_indent(text),
    )
    evalset._text, evalset._doc = text, doc
    evalset._sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    evalset._unreadable = len(raw_cases) - len(cases)
    evalset._warnings = warnings
    return evalset, issues


def load_evals(path: Path) -> tuple[EvalSet | None, list[EvalIssue]]:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [EvalIssue(pointer="", line=None, message=f"cannot read {path}: {exc}")]
    return parse_evals(text)


# The writer and the editing helpers moved to evals_io, which builds on the models above.
# `from skillforge.models.evals import EvalsFile` keeps working: those names are looked up
# there on first use (an import at the top would be circular).
_IN_EVALS_IO = frozenset({
    "ConflictError", "EvalsFile", "add_case", "dumps_evals", "evals_document", "move_case",
    "new_case", "remove_case", "save_evals", "set_field", "style_names", "unique_case_id",
})


def __getattr__(name: str) -> Any:
    if name in _IN_EVALS_IO:
        from skillforge.models import evals_io

        return getattr(evals_io, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:  # noqa: D103
    return sorted([*globals(), *_IN_EVALS_IO])
