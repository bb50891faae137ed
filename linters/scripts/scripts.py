"""Scripts rules (SF6xx): will the code a skill ships run when the agent calls it?

Here: which files are Python or shell scripts (by shebang, else by suffix) and SF601, which
parses Python scripts in process (fast phase). Every script of the skill counts, not only
those under `scripts/` (issue 36: `assets/install.sh` and `examples/setup` went unchecked),
except evaluation assets, which are never shown to the agent, templates the agent fills in
(`{{ name }} = 1`) and hidden or virtual-environment folders. SF602 (ruff) and SF603
(shellcheck) run the real tools as processes in the "external" phase
(`linters.external.external_linters`). A script whose package's nearest pyproject.toml
requires a newer Python than the one running is left to ruff's parser (its target is the
sandbox's Python): this one would reject that version's syntax. A script whose code holds
`{{NAME}}` slots is a template the agent fills in (`template_slots`, beside this): it is
parsed with each slot filled by a name, and said once to be a template. SF604 (`--help`
smoke run) belongs to the trials and is only catalogued.
"""

from __future__ import annotations

import ast
import hashlib
import sys
import threading
import tomllib
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from linters.scripts.template_slots import (
    Slot,
    code_slots,
    declared_template,
    filled_text,
)
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import Skill, SkillFile

PYTHON_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
# Shells shellcheck understands; a zsh or fish script would only get SC1071 "not supported".
SHELLS = frozenset({"sh", "bash", "dash", "ksh", "ash", "busybox"})
_PY_SHEBANG = rx(r"python|\buv\s+run\b")
# Jinja, Handlebars, ERB: a file the agent fills in before it is code.
_TEMPLATE = rx(r"\{\{|\{%|<%")
_NOT_SCRIPT_KINDS = frozenset({"skill_md", "doc", "eval"})
_VENV_DIRS = frozenset({"venv", "site-packages"})


# --- which files are scripts of which language -------------------------------------------


def shebang_interpreter(text: str) -> tuple[str, str] | None:
    """(interpreter name, whole shebang line) of a `#!` first line, looking through `env`."""
    if not text.startswith("#!"):
        return None
    line = text[2:].split("\n", 1)[0].strip()
    words = line.split()
    if not words:
        return None
    name = PurePosixPath(words[0]).name
    if name == "env":
        # `#!/usr/bin/env -S bash -e`, `#!/usr/bin/env VAR=1 python3`: skip options and
        # assignments to reach the program.
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        name = PurePosixPath(rest[0]).name if rest else ""
    return name, line


def _lintable(f: SkillFile) -> bool:
    return (f.present and not f.binary and f.text is not None
            and f.kind not in _NOT_SCRIPT_KINDS)


def _shipped_code(f: SkillFile) -> bool:
    """A script found outside `scripts/` is code the skill ships unless it is a template or
    lives in a hidden or virtual-environment folder (asked only of files that look like
    scripts: most files of a skill are not)."""
    if f.kind == "script":
        return True
    if any(part.startswith(".") or part in _VENV_DIRS for part in f.path.split("/")[:-1]):
        return False
    return _TEMPLATE.search(f.text or "") is None


def is_python_script(f: SkillFile) -> bool:
    """A file of the skill with a python shebang, or without one and named *.py."""
    if not _lintable(f):
        return False
    shebang = shebang_interpreter(f.text or "")
    if shebang is not None and shebang[0]:
        found = bool(_PY_SHEBANG.search(shebang[1]))
    else:
        found = f.suffix == ".py"
    return found and _shipped_code(f)


def is_shell_script(f: SkillFile) -> bool:
    """A file of the skill with an sh/bash/dash/ksh shebang, or without one and named
    *.sh/*.bash."""
    if not _lintable(f):
        return False
    shebang = shebang_interpreter(f.text or "")
    if shebang is not None and shebang[0]:
        found = shebang[0] in SHELLS
    else:
        found = f.suffix in (".sh", ".bash")
    return found and _shipped_code(f)


def python_scripts(skill: Skill) -> list[SkillFile]:
    return [f for f in skill.files if is_python_script(f)]


def shell_scripts(skill: Skill) -> list[SkillFile]:
    return [f for f in skill.files if is_shell_script(f)]


def has_scripts_to_lint(skill: Skill) -> bool:
    """Whether ruff or shellcheck has a script of the skill to check (the external phase)."""
    return any(is_python_script(f) or is_shell_script(f) for f in skill.files)


# --- SF601: Python syntax -------------------------------------------------------------------


@dataclass(frozen=True)
class SyntaxProblem:
    line: int
    column: int | None
    message: str
    context: str


_PARSED: OrderedDict[bytes, SyntaxProblem | None] = OrderedDict()
_PARSED_MAX = 1024
_parsed_lock = threading.Lock()


def syntax_problem(text: str) -> SyntaxProblem | None:
    """Where `ast.parse` rejects `text`, or None when it parses.

    Cached by the text's sha256 (not the text itself, which may be up to 1 MiB): parsing a
    large script takes tens of milliseconds, and live lint re-checks unchanged scripts.
    """
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    with _parsed_lock:
        if key in _PARSED:
            _PARSED.move_to_end(key)
            return _PARSED[key]
    problem = _parse(text)
    with _parsed_lock:
        _PARSED[key] = problem
        if len(_PARSED) > _PARSED_MAX:
            _PARSED.popitem(last=False)
    return problem


def _parse(text: str) -> SyntaxProblem | None:
    try:
        # Invalid escape sequences warn while parsing (SyntaxWarning on 3.12+): they would
        # reach the user's terminal as noise from skillforge itself.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        # NUL bytes are rejected before parsing and without a position (a SyntaxError on
        # current Pythons, a ValueError on older ones): point at the first one.
        nul = text.find("\0")
        lineno = getattr(exc, "lineno", None) or (text.count("\n", 0, nul) + 1 if nul >= 0 else 1)
        offset = getattr(exc, "offset", None)
        lines = text.splitlines()
        context = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        message = getattr(exc, "msg", None) or str(exc) or "invalid syntax"
        column = offset if offset and offset > 0 else None
        return SyntaxProblem(lineno, column, message, context.replace("\0", "").strip())
    except (RecursionError, MemoryError):
        # Pathologically nested code: not a syntax error we can point at.
        return None
    return None


_MINIMUM = rx(r"(?:>=|~=|==|>)\s*3\.(\d+)")


def required_python(skill: Skill, path: str) -> tuple[int, int] | None:
    """The lowest Python the package holding `path` supports, by the `requires-python` of the
    nearest pyproject.toml of the skill at or above the file's folder (`>=3.12` -> (3, 12));
    None when there is none or it says no lower bound."""
    parts = path.split("/")[:-1]
    for depth in range(len(parts), -1, -1):
        f = skill.file("/".join([*parts[:depth], "pyproject.toml"]))
        if f is None or not f.text:
            continue
        try:
            spec = tomllib.loads(f.text).get("project", {}).get("requires-python")
        except (tomllib.TOMLDecodeError, AttributeError):
            return None
        bounds = [int(m) for m in _MINIMUM.findall(spec)] if isinstance(spec, str) else []
        return (3, max(bounds)) if bounds else None
    return None


def python_syntax_problem(skill: Skill, f: SkillFile) -> SyntaxProblem | None:
    """`syntax_problem` of a script, unless its package requires a newer Python than this
    one: what this Python rejects may be that version's syntax (a PEP 695 `type` alias
    under `requires-python = ">=3.12"`), so ruff's parser judges it (SF602), not SF601.
    A template is parsed with its `{{NAME}}` (or, in a declared template, `<NAME>`) slots
    filled; the line shown is as written."""
    text = f.text or ""
    problem = syntax_problem(filled_text(text, f.path))
    if problem is None:
        return None  # the common case: no pyproject.toml is read
    required = required_python(skill, f.path)
    if required is not None and required > sys.version_info[:2]:
        return None
    if code_slots(text, f.path):
        lines = text.splitlines()
        if 0 < problem.line <= len(lines):
            problem = replace(problem, context=lines[problem.line - 1].replace("\0", "").strip())
    return problem


def _code_span(text: str, limit: int = 80) -> str:
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return f"`` {text} ``" if "`" in text else f"`{text}`"


@check("SF601")
def python_syntax(ctx: LintContext) -> Iterator[Finding]:
    """Report Python scripts that do not parse, with line, column and the offending line;
    say once of a template that it is one."""
    for f in python_scripts(ctx.skill):
        slots = code_slots(f.text or "", f.path)
        if slots:
            yield _template_note(ctx, f, slots)
        problem = python_syntax_problem(ctx.skill, f)
        if problem is None:
            continue
        where = f"line {problem.line}" + (f", column {problem.column}" if problem.column else "")
        shown = f", {_code_span(problem.context)}," if problem.context else ""
        filled = f" with its {len(slots)} {_kind(slots)} slots filled by names" if slots else ""
        yield ctx.finding(
            "SF601",
            f"Python {PYTHON_VERSION} cannot parse {where} of {f.path}{shown}{filled} "
            f"(SyntaxError: {problem.message}); fix the syntax, or the agent's first run of "
            "the script fails.",
            path=f.path,
            line=problem.line,
            column=problem.column,
        )


def _kind(slots: tuple[Slot, ...]) -> str:
    kinds = {"`<…>`" if s.angle else "`{{…}}`" for s in slots}
    return " and ".join(sorted(kinds))


def _template_note(ctx: LintContext, f: SkillFile, slots: tuple[Slot, ...]) -> Finding:
    """A template's one finding: info when the skill says it is one, else a warning that
    running it unfilled fails."""
    first, n = slots[0], len(slots)
    others = [o.text for o in ctx.skill.files if o is not f and o.text and not o.binary]
    what = (f"{f.path} is a template: its code holds {n} {_kind(slots)} slot{'s' if n != 1 else ''} "
            f"({_code_span(first.text)} on line {first.line}), so Python cannot run it as it "
            "is; it was checked with each slot filled by a name")
    if declared_template(f.path, slots, others):
        return ctx.finding("SF601", f"{what}.", path=f.path, line=first.line,
                           severity=Severity.info)
    return ctx.finding(
        "SF601", f"{what}. Nothing in the skill says so: if the agent runs it unfilled, it "
        "fails; name it `*_template.py`, or say in SKILL.md which slots to fill.",
        path=f.path, line=first.line, severity=Severity.warning)
