"""Deterministic checks of an eval case: the `checks` list of evals.json (CONTRACTS.md 4).

skillforge's vocabulary for graders that other runners write and that can be decided from
a trajectory's facts (skillforge.metrics.checks scores them). It is Claude Code
plugin-eval's, because that is the most specific of the formats read (waza's and vally's
deterministic graders map onto it, skillforge.evalformats):

- `tool_used`: `tool` (name), optional `input_match` (regex over the JSON-encoded input),
  `min` (default 1), `max` (default none). `min: 0, max: 0` says "never called".
- `tool_order`: `before` and `after`, each a tool name or `{tool, input_match}`: the first
  call matching `before` comes before the first matching `after`.
- `file_exists`: `path` (a glob, relative to the workspace), `exists` (default true).
- `regex`: `pattern`, optional `flags` (`i`, `m`, `s`), `match` (`contains`,
  `not_contains`, `count:N`), `target` (`last_message`, `trace`, `files`, or
  `{source: file, path}`).
- `baseline`: kept as read; judged against a reference transcript by the runner that wrote
  it, so skillforge scores it as unknown.

Every check may carry `name`, `weight` (default 1) and `arm`. Unknown keys are kept.
"""

from __future__ import annotations

import re
from typing import Any

CHECK_TYPES = ("tool_used", "tool_order", "file_exists", "regex", "baseline")
REGEX_TARGETS = ("last_message", "trace", "files")
_MATCH = re.compile(r"^(contains|not_contains|count:\d+)$")


def checks_problems(checks: Any) -> list[tuple[str, str]]:
    """(JSON pointer suffix, message) for each problem of a case's `checks` value."""
    if checks is None:
        return []
    if not isinstance(checks, list):
        return [("", "\"checks\" must be a list of objects")]
    return [(f"/{j}", f"check {j + 1} {problem}") for j, item in enumerate(checks)
            if (problem := check_problem(item))]


def check_problem(check: Any) -> str | None:
    """Why `check` is not a usable check (a phrase to follow "check N"), or None."""
    if not isinstance(check, dict):
        return "must be an object such as {\"type\": \"tool_used\", \"tool\": \"Skill\"}"
    kind = check.get("type")
    if kind not in CHECK_TYPES:
        return f"has type {kind!r}; use one of {', '.join(CHECK_TYPES)}"
    weight = check.get("weight", 1)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
        return "has a weight that is not a number >= 0"
    if kind == "tool_used":
        if not isinstance(check.get("tool"), str) or not check["tool"]:
            return "(tool_used) needs a \"tool\" name"
        for key in ("min", "max"):
            val = check.get(key)
            if val is not None and (isinstance(val, bool) or not isinstance(val, int)
                                    or val < 0):
                return f"(tool_used) has a {key!r} that is not a whole number >= 0"
        return _regex_problem(check.get("input_match"), "input_match")
    if kind == "tool_order":
        for key in ("before", "after"):
            spec = check.get(key)
            tool = spec.get("tool") if isinstance(spec, dict) else spec
            if not isinstance(tool, str) or not tool:
                return f"(tool_order) needs {key!r}: a tool name or {{tool, input_match}}"
        return None
    if kind == "file_exists":
        if not isinstance(check.get("path"), str) or not check["path"]:
            return "(file_exists) needs a \"path\" (a glob in the workspace)"
        return None
    if kind == "regex":
        problem = _regex_problem(check.get("pattern"), "pattern", required=True)
        if problem:
            return problem
        if not _MATCH.match(str(check.get("match", "contains"))):
            return "(regex) has a match that is not contains, not_contains or count:N"
        target = check.get("target", "last_message")
        if isinstance(target, dict):
            if target.get("source") != "file" or not isinstance(target.get("path"), str):
                return "(regex) has a target object that is not {source: file, path}"
        elif target not in REGEX_TARGETS:
            return f"(regex) has target {target!r}; use {', '.join(REGEX_TARGETS)}"
    return None


def _regex_problem(pattern: Any, key: str, *, required: bool = False) -> str | None:
    if pattern is None and not required:
        return None
    if not isinstance(pattern, str):
        return f"needs {key!r} as a regular expression string"
    try:
        re.compile(js_pattern(pattern))
    except re.error as exc:
        return f"has {key!r} that is not a valid regular expression ({exc})"
    return None


def js_pattern(pattern: str) -> str:
    """A JavaScript regex (plugin-eval's) as Python reads it: `(?<name>` becomes `(?P<name>`."""
    return re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern)


def flags_of(flags: str | None) -> int:
    """JavaScript regex flags as Python's re flags (g, u and y have no effect here)."""
    out = 0
    for ch in flags or "":
        out |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}.get(ch, 0)
    return out
