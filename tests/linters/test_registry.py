"""`linters.rules` imports every module that holds a check, by name."""

from __future__ import annotations

import ast
import inspect
import re

from linters import rules
from tests.conftest import ROOT


def _named_in_rules() -> set[str]:
    """The modules `rules._import_rule_modules` imports, as dotted names."""
    tree = ast.parse(inspect.getsource(rules._import_rule_modules).lstrip())
    return {f"{node.module}.{alias.name}" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for alias in node.names}


def test_every_module_with_a_check_is_imported_by_the_rules_list():
    with_checks = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "linters").rglob("*.py")
        if re.search(r"^@check\(", path.read_text("utf-8"), re.MULTILINE)
    }
    assert with_checks == _named_in_rules()


def test_every_registered_check_comes_from_an_imported_module():
    modules = {fn.__module__ for _ids, fn in rules.checks()}
    assert modules <= _named_in_rules()

