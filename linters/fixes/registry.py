"""Which rules can fix, and the function that works out each fix.

A fixer is registered with `@fixer("SF118")`; it receives the loaded skill and one finding
of that rule and returns the fixes for it (none when the finding is of a kind it cannot
fix, say a frontmatter key whose value is a nested mapping). Fixers are pure: they read the
skill's files as loaded, never the disk, and never change anything. Whether a rule can fix
and how safe that is are written in the catalogue (`fix` and `fix_summary` in
`linters/catalogue/*.toml`); tests/linters/test_fix_registry.py checks the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix
from skillforge.models.skill import Skill

FixerFn = Callable[[Skill, Finding], list[Fix]]

_FIXERS: dict[str, FixerFn] = {}


def fixer(rule_id: str) -> Callable[[FixerFn], FixerFn]:
    """Register the function that fixes findings of `rule_id` (one per rule)."""

    def deco(fn: FixerFn) -> FixerFn:
        if rule_id in _FIXERS:
            raise ValueError(f"{rule_id} already has a fixer: {_FIXERS[rule_id].__qualname__}")
        _FIXERS[rule_id] = fn
        return fn

    return deco


def fixers() -> dict[str, FixerFn]:
    """Every registered fixer, by rule id."""
    _import_fixer_modules()
    return dict(_FIXERS)


@cache
def _import_fixer_modules() -> None:
    # Importing a fix module registers its fixers; each family is named here.
    from linters.fixes import (  # noqa: F401
        encoding,
        frontmatter_keys,
        frontmatter_values,
        junk,
        links,
        toc,
    )
