"""SkillCraft's Coding Verifier for Skill Mode: checks before a skill enters the cache, and after it runs.

Before caching: the name is a slug, the parameters a mapping, and the script compiles
(`compile()` parses, it runs nothing); a syntax error comes back with its line number and
the lines around it. After an execution: the runner's JSON line is read, and a result that
is mostly empty is a silent failure (`quality_problems`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
MAX_SCRIPT_CHARS = 60_000
CONTEXT_LINES = 2
# Values that say nothing: a result made mostly of these is a silent failure.
EMPTY_WORDS = frozenset({"", "unknown", "n/a", "na", "none", "null", "nan", "-"})


class SkillInputError(ValueError):
    """A skill tool's argument is wrong; the message says what and how to fix it."""


def check_name(name: Any) -> str:
    """The skill's name, or SkillInputError when it is not a slug."""
    if not isinstance(name, str) or not NAME_RE.match(name.strip()):
        raise SkillInputError(
            f"the skill name {name!r} is not valid: use 1-64 letters, digits, '_' or '-', "
            "starting with a letter (for example summarize_csv)")
    return name.strip()


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise SkillInputError(f"`{what}` must be a JSON object, got {value[:80]!r}") \
                from None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return {v: "" for v in value}
    if not isinstance(value, dict):
        raise SkillInputError(f"`{what}` must be an object of name -> description, got "
                              f"{type(value).__name__}")
    return {str(k): v for k, v in value.items()}


def check_parameters(value: Any) -> dict[str, Any]:
    """save_skill's `parameters`: {name: description}; a list of names is accepted."""
    return _mapping(value, "parameters")


def check_args(value: Any) -> dict[str, Any]:
    """execute_skill's `args`: a JSON object (or its text)."""
    args = _mapping(value, "args")
    try:
        json.dumps(args)
    except (TypeError, ValueError) as exc:
        raise SkillInputError(f"`args` must be plain JSON values: {exc}") from None
    return args


def syntax_problem(code: str, name: str) -> str | None:
    """None when `code` compiles, else the error with its line, column and context."""
    if len(code) > MAX_SCRIPT_CHARS:
        return f"the script is {len(code)} characters; a skill takes at most {MAX_SCRIPT_CHARS}"
    try:
        compile(code, f"<skill {name}>", "exec")
    except SyntaxError as exc:
        line = exc.lineno or 1
        lines = code.splitlines() or [""]
        lo, hi = max(1, line - CONTEXT_LINES), min(len(lines), line + CONTEXT_LINES)
        shown = []
        for n in range(lo, hi + 1):
            shown.append(f"{'>' if n == line else ' '} {n:>3} | {lines[n - 1]}")
            if n == line and exc.offset:
                shown.append(" " * (8 + exc.offset) + "^")
        where = f"line {line}" + (f", column {exc.offset}" if exc.offset else "")
        return f"{type(exc).__name__}: {exc.msg} at {where}:\n" + "\n".join(shown)
    except ValueError as exc:  # e.g. a NUL byte in the source
        return f"the script cannot be compiled: {exc}"
    return None


def _empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return value == 0
    if isinstance(value, str):
        return value.strip().lower() in EMPTY_WORDS
    if isinstance(value, (list, dict, tuple)):
        return len(value) == 0
    return False


def result_fields(result: Any) -> list[tuple[str, Any]]:
    """(field name, value) pairs the quality check weighs: dict values, list items' fields."""
    if isinstance(result, dict):
        return [(str(k), v) for k, v in result.items()]
    if isinstance(result, list):
        out: list[tuple[str, Any]] = []
        for i, item in enumerate(result):
            if isinstance(item, dict):
                out += [(f"[{i}].{k}", v) for k, v in item.items()]
            else:
                out.append((f"[{i}]", item))
        return out
    return [("result", result)]


def quality_problems(result: Any) -> list[str]:
    """The fields that make `result` a silent failure (empty when it is fine).

    A failure: `result` itself empty, or over half of its fields (at least two) empty,
    None, "Unknown"/"N/A" or 0. A single scalar only fails when it is None or empty text.
    """
    if _empty(result) and not isinstance(result, (int, float)):
        return ["result"]
    fields = result_fields(result)
    if len(fields) < 2:
        return []
    bad = [name for name, value in fields if _empty(value)]
    return bad if len(bad) * 2 > len(fields) else []


@dataclass
class RunnerOutput:
    """The runner's JSON line, read back on the host."""

    ok: bool
    has_result: bool
    result: Any = None
    error: str | None = None
    traceback: str | None = None
    stdout: str = ""
    truncated: bool = False


def parse_runner_output(stdout: str, marker: str) -> RunnerOutput | None:
    """The last marker line of the runner's stdout; None when there is none."""
    at = stdout.rfind(marker)
    if at < 0:
        return None
    line = stdout[at + len(marker):].split("\n", 1)[0]
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return RunnerOutput(ok=bool(data.get("ok")), has_result=bool(data.get("has_result")),
                        result=data.get("result"), error=data.get("error"),
                        traceback=data.get("traceback"), stdout=data.get("stdout") or "",
                        truncated=bool(data.get("truncated")))
