"""Reliability rules about evaluation assets (SF313-SF316): `evals/evals.json`.

Evals are how an author learns whether the skill helps an agent at all (CONTRACTS.md
section 4). These rules check that the file exists, parses, has enough cases, and that
the scripts and files the cases name are really in the skill. `evals_file_findings` runs
SF314-SF316 on any evals file (`skillforge evals validate FILE`), not only the skill's own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from linters.text.compiled_regex import rx
from linters.text.paths.outside_home import below_own_folder
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding, Severity
from skillforge.models.jsonpos import json_lines, line_for

if TYPE_CHECKING:
    from skillforge.models.evals import EvalCase, EvalIssue, EvalSet

# skillforge.models.evals.EVALS_PATH (a test holds them equal): the evals models load only
# for a skill that has the file, not on every lint (they bring pydantic, ~0.1 s to import).
EVALS_PATH = "evals/evals.json"

MIN_CASES = 3
# Absolute paths and URLs are the grader's or the container's business, not the skill's.
_NOT_LOCAL = ("/", "~", "http://", "https://")
_PATHISH = rx(r"(?:^|\s)((?:\./)?(?:evals|scripts)/[^\s\"']+)")


# Cases kept in another runner's format count too (skillforge.evalformats reads them): a
# waza or vally evals/eval.yaml, or Claude Code plugin-eval folders evals/<case>/.
_OTHER_CASES = rx(r"^evals/(?:eval\.ya?ml|[^/]+/(?:prompt\.md|case\.yaml))$")


@check("SF313")
def evals_missing(ctx: LintContext) -> Iterator[Finding]:
    """A skill ships `evals/evals.json` so its effect can be measured."""
    if ctx.skill.skill_md is None or ctx.skill.exists(EVALS_PATH) or any(
            _OTHER_CASES.match(f.path) for f in ctx.skill.files):
        return
    yield ctx.finding(
        "SF313",
        f"The skill has no {EVALS_PATH}; add at least {MIN_CASES} realistic cases (run "
        "`skillforge evals init`, or write {\"skill_name\": ..., \"evals\": [...]}) so you can "
        "measure whether it helps.",
        path=None,
    )


def _own_evals(ctx: LintContext) -> str | None:
    f = ctx.skill.file(EVALS_PATH)
    if f is None or f.is_dir or not f.present:
        return None
    return f.text


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _parsed(ctx: LintContext, text: str) -> tuple[EvalSet | None, list[EvalIssue]]:
    from skillforge.models.evals import parse_evals

    return ctx.memo(("evals", text), lambda: parse_evals(text))


@check("SF314", "SF315")
def evals_content(ctx: LintContext) -> Iterator[Finding]:
    """evals.json parses, validates, and holds enough cases to mean something."""
    f = ctx.skill.file(EVALS_PATH)
    if f is None:
        return
    if f.present and not f.is_dir and f.text is None:
        yield ctx.finding("SF315", f"{EVALS_PATH} cannot be read as UTF-8 text; re-save it "
                          "as UTF-8 JSON.", path=EVALS_PATH)
        return
    text = _own_evals(ctx)
    if text is not None:
        yield from _content(ctx, text, EVALS_PATH)


def evals_file_findings(ctx: LintContext, text: str, path: str, *,
                        check_paths: bool = True) -> list[Finding]:
    """SF314-SF316 on the text of an evals file shown as `path`; `check_paths=False` when
    no skill surrounds the file, so the paths its cases name cannot be checked. Asked about
    one file (`skillforge evals validate`), a case skillforge cannot run is an error even in
    valid JSON: the question is whether skillforge can run it."""
    found = list(_content(ctx, text, path, strict=True))
    if check_paths:
        found += _paths(ctx, text, path)
    return found


def _content(ctx: LintContext, text: str, path: str, strict: bool = False) -> Iterator[Finding]:
    evals, issues = _parsed(ctx, text)
    # Not JSON at all: nothing can read it (an error). JSON of another runner's shape (cases
    # keyed by `name`, assertions as objects) is a format of its own (issue 36): a warning
    # that skillforge cannot run it as written.
    broken = strict or not _is_json(text)
    for issue in issues:
        msg = issue.message.rstrip(". ")
        where = f" at {issue.pointer}" if issue.pointer else ""
        yield ctx.finding("SF315", f"{path} does not validate{where}: {msg}.", path=path,
                          line=issue.line, severity=None if broken else Severity.warning)
    if evals is None:
        return
    for warning in evals.warnings:
        yield ctx.finding("SF315", f"{path} at {warning.pointer}: {warning.message}.",
                          path=path, line=warning.line, severity=Severity.warning)
    written = _raw_case_count(text)
    if written < MIN_CASES:
        yield ctx.finding(
            "SF314",
            f"{path} has {written} case{'s' if written != 1 else ''}; write at least "
            f"{MIN_CASES} (mix explicit, implicit and one negative case) so a result is more "
            "than an anecdote.",
            path=path,
            line=line_for(json_lines(text), "/evals") if written else 1,
        )


def _raw_case_count(text: str) -> int:
    """Cases as written, valid or not (invalid ones are SF315's business, not SF314's)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return 0
    cases = data.get("evals") if isinstance(data, dict) else data
    return len(cases) if isinstance(cases, list) else 0


def _case_paths(case: EvalCase, index: int) -> Iterator[tuple[str, str, str]]:
    """(JSON pointer, field label, path) for every path a case relies on."""
    base = f"/evals/{index}"
    if case.expected_script:
        name = case.field_names.get("expected_script", "expected_script")
        yield f"{base}/{name}", "expected_script", case.expected_script
    name = case.field_names.get("files", "files")
    for j, path in enumerate(case.files):
        yield f"{base}/{name}/{j}", "files", path
    if case.grader:
        grader = case.grader.strip()
        if " " not in grader and "/" in grader:
            yield f"{base}/grader", "grader", grader
        else:
            for m in _PATHISH.finditer(grader):
                yield f"{base}/grader", "grader", m.group(1)


def _normalise(path: str, skill_name: str | None) -> str:
    path = path.strip()
    for prefix in ("{baseDir}/", "${SKILL_DIR}/", "$SKILL_DIR/"):
        path = path.removeprefix(prefix)
    if skill_name and path.startswith(f"/skills/{skill_name}/"):
        path = path[len(f"/skills/{skill_name}/"):]
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


@check("SF316")
def eval_paths(ctx: LintContext) -> Iterator[Finding]:
    """Every script and file an eval case names is in the skill."""
    text = _own_evals(ctx)
    if text is not None:
        yield from _paths(ctx, text, EVALS_PATH)


def _paths(ctx: LintContext, text: str, evals_path: str) -> Iterator[Finding]:
    evals, _issues = _parsed(ctx, text)
    if evals is None:
        return
    from skillforge.models.evals import expected_script_paths

    lines = json_lines(text)
    positions = _case_positions(text)
    missing: dict[str, tuple[str, list[str], int | None, tuple[str, ...], str | None]] = {}
    for case in evals.cases:
        index = positions.get(str(case.id))
        if index is None:
            continue
        for pointer, label, raw in _case_paths(case, index):
            path = _normalise(raw, ctx.skill.name)
            if not path or path.startswith(_NOT_LOCAL):
                continue
            wanted = expected_script_paths(path) if label == "expected_script" else (path,)
            if any(ctx.skill.exists(p) for p in wanted):
                continue
            line = line_for(lines, pointer) or case.line
            entry = missing.setdefault(raw, (label, [], line, wanted,
                                             _below_own_folder(ctx, path, label)))
            entry[1].append(repr(case.id))
    for raw, (label, cases, line, wanted, rel) in missing.items():
        who = f"Eval case {cases[0]}" if len(cases) == 1 else f"Eval cases {', '.join(cases)}"
        names = f"{who} name{'s' if len(cases) == 1 else ''} {label} {raw!r}"
        looked = f" (looked for {' and '.join(wanted)})" if len(wanted) > 1 else ""
        beside = None if rel is not None else _beside_skill(ctx, raw)
        if rel is not None:
            # Written from the repository's root (`skills/<this>/evals/x.md`): the file is
            # there, at a path a runner started in the skill folder does not find.
            said = (f"{names}, written from the repository's root; write {rel!r}, the path "
                    "from the skill folder, where eval runners resolve it.")
        elif beside is not None:
            # `../other-skill/SKILL.md`: there in the repository, not in an installed copy.
            said = (f"{names}, outside the skill folder ({beside}): present in the "
                    "repository but not in an installed copy of the skill; copy it into the "
                    "skill if the eval needs it.")
        elif (made := _made_by_setup(ctx, text, raw)) is not None:
            # `"fixture_setup": "evals/make.sh"`, which builds it: made before the cases run.
            key, script = made
            said = (f"{names}, which is not in the skill; the evals' {key!r} script "
                    f"`{script}` names it, so it is made before the cases run: check that "
                    "the script really creates it.")
        else:
            yield ctx.finding(
                "SF316",
                f"{names}, which is not in the skill{looked}; add it or fix the path (paths "
                "are relative to the skill folder, e.g. \"evals/files/sales.csv\").",
                path=evals_path, line=line)
            continue
        yield ctx.finding("SF316", said, path=evals_path, line=line, severity=Severity.warning)


# A top-level key of the evals file that names the script making the cases' inputs.
_SETUP_KEY = rx(r"setup|fixture|prepare|generate|before", re.IGNORECASE)


def _made_by_setup(ctx: LintContext, text: str, raw: str) -> tuple[str, str] | None:
    """(key, script) when a top-level `key` of the evals file names a script of the skill
    (`"fixture_setup": "evals/make_fixtures.sh"`) whose text names `raw`'s last part."""
    leaf = raw.strip().rstrip("/").rsplit("/", 1)[-1]
    if len(leaf) < 3:
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    for key, value in (data.items() if isinstance(data, dict) else ()):
        if not (isinstance(value, str) and _SETUP_KEY.search(key)):
            continue
        script = ctx.skill.file(_normalise(value, ctx.skill.name))
        if script is not None and script.text and re.search(
                rf"(?<![\w.-]){re.escape(leaf)}(?![\w-])", script.text):
            return key, script.path
    return None


def _below_own_folder(ctx: LintContext, path: str, label: str) -> str | None:
    """The skill-relative path of `path` written from above the skill folder
    (`skills/<name>/evals/x.md`), when the skill has that file; else None."""
    from skillforge.models.evals import expected_script_paths

    def has(rel: str) -> bool:
        wanted = expected_script_paths(rel) if label == "expected_script" else (rel,)
        return any(ctx.skill.exists(p) for p in wanted)

    return below_own_folder(path, ctx.skill.root.name, has)


def _beside_skill(ctx: LintContext, raw: str) -> str | None:
    """What holds `raw`, a path climbing out of the skill folder (`../other/SKILL.md`), when
    the file is there on disk: a sibling skill, or the folders above; else None."""
    path = raw.strip()
    while path.startswith("./"):
        path = path[2:]
    if not path.startswith("../"):
        return None
    root = ctx.skill.root
    try:
        target, home = (root / path).resolve(), root.resolve()
        if not target.is_file() or target.is_relative_to(home):
            return None
        if not target.is_relative_to(home.parent):
            return "a folder above the skill"
        rel = target.relative_to(home.parent)
    except OSError:
        return None
    if len(rel.parts) > 1 and (home.parent / rel.parts[0] / "SKILL.md").is_file():
        return f"a file of the sibling skill `{rel.parts[0]}`"
    return "a folder above the skill"


def _case_positions(text: str) -> dict[str, int]:
    """Case id -> index in the written list, so pointers survive skipped invalid cases."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return {}
    cases = data.get("evals") if isinstance(data, dict) else data
    out: dict[str, int] = {}
    for i, raw in enumerate(cases if isinstance(cases, list) else []):
        if isinstance(raw, dict) and "id" in raw:
            out.setdefault(str(raw["id"]), i)
    return out
