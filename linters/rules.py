"""Every module that holds rules: imported on the first `checks()`, so their checks register.

A rule module registers its checks (`@registry.check`) when it is imported. This is the one
list of those modules (tests/linters/test_registry.py asserts it is whole), kept apart from
the registry so that the rules import the registry and nothing imports back. The imports
wait for the first call: a command that does not lint never loads a rule.
"""

from __future__ import annotations

from functools import cache

from linters.registry import CheckFn, registered


def checks() -> list[tuple[tuple[str, ...], CheckFn]]:
    """Every check, with the rule ids it may report."""
    _import_rule_modules()
    return registered()


def implemented_rules() -> set[str]:
    return {rid for ids, _ in checks() for rid in ids}


@cache
def _import_rule_modules() -> None:
    # Importing a rule module registers its checks. Every module holding a `@check` is named
    # here, not left to be imported by another.
    from linters.compat import checks as compat_checks, placement  # noqa: F401
    from linters.correctness import (  # noqa: F401
        correctness,
        fences,
        links,
        optional_fields,
        portable_paths,
        unknown_keys,
    )
    from linters.discoverability import description, opening, scope, skill_name  # noqa: F401
    from linters.efficiency import efficiency  # noqa: F401
    from linters.reliability import (  # noqa: F401
        completeness,
        evals_rules,
        installs,
        interactive,
        mcp_tools,
        placeholders,
        reachability,
        script_commands,
        wording,
    )
    from linters.scripts import scripts  # noqa: F401
    from linters.security import security, shipped_binaries  # noqa: F401
