"""The rule catalogue and the checks that implement it.

Rule metadata (id, category, severity, title, explanation, fixed example, subject) lives in
`catalogue/<category>.toml` beside this file: one source for `--list-rules`, `--explain`, SARIF and the
scores. Check functions register here with `@check("SF1xx", ...)` when their module is imported
(`linters.rules` imports them all); a test asserts that every catalogued rule has a check and
fixtures, and that no check names an unknown rule.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from skillforge.models.findings import Finding, Rule

if TYPE_CHECKING:
    from linters.context import LintContext

CATALOGUE_DIR = Path(__file__).with_name("catalogue")

CheckFn = Callable[["LintContext"], Iterable[Finding]]

_CHECKS: dict[str, tuple[tuple[str, ...], CheckFn]] = {}


@cache
def catalogue() -> dict[str, Rule]:
    """Every rule, by id, in id order."""
    rules: dict[str, Rule] = {}
    for path in sorted(CATALOGUE_DIR.glob("*.toml")):
        for rid, fields in tomllib.loads(path.read_text("utf-8")).items():
            if rid in rules:
                raise ValueError(f"{path.name}: rule {rid} is already defined")
            rules[rid] = Rule(id=rid, **{k: v.strip() if isinstance(v, str) else v
                                          for k, v in fields.items()})
    return dict(sorted(rules.items()))


def rule(rule_id: str) -> Rule:
    try:
        return catalogue()[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule {rule_id!r}; see `skillforge lint --list-rules`") from None


def check(*rule_ids: str) -> Callable[[CheckFn], CheckFn]:
    """Register a check that may report findings for `rule_ids`."""

    def deco(fn: CheckFn) -> CheckFn:
        _CHECKS[f"{fn.__module__}.{fn.__qualname__}"] = (rule_ids, fn)
        return fn

    return deco


def registered() -> list[tuple[tuple[str, ...], CheckFn]]:
    """The checks registered so far; `linters.rules.checks()` imports every rule module first."""
    return list(_CHECKS.values())
