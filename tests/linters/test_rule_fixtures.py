"""Every rule in the catalogue fires on its failing fixture and stays quiet on its passing one.

Fixtures live in tests/fixtures/rules/<RULE>/{fail,pass}/<skill-name>/: the passing fixture
is the failing one with the problem fixed, so each pair shows the rule's explanation at work.
"""

from __future__ import annotations

import pytest

from linters import catalogue, lint_skill
from linters.rules import implemented_rules
from tests.conftest import RULE_FIXTURES

LINTED = [r for r in catalogue().values() if r.phase in ("fast", "external")]


def _fired(path, rule) -> list:
    report = lint_skill(path, external=rule.phase == "external")
    return [f for f in report.findings if f.rule == rule.id]


@pytest.mark.parametrize("rule", LINTED, ids=lambda r: r.id)
def test_failing_fixture_fires(rule, rule_fixture):
    fired = _fired(rule_fixture(rule.id, "fail"), rule)
    assert fired, f"{rule.id} did not fire on its failing fixture"
    for f in fired:
        assert f.category == rule.category
        assert f.message.strip().endswith((".", ")", "`")), f.message


@pytest.mark.parametrize("rule", LINTED, ids=lambda r: r.id)
def test_passing_fixture_is_clean(rule, rule_fixture):
    fired = _fired(rule_fixture(rule.id, "pass"), rule)
    assert not fired, f"{rule.id} fired on its passing fixture: {[f.message for f in fired]}"


def test_every_rule_has_both_fixtures():
    missing = [
        f"{r.id}/{which}"
        for r in LINTED
        for which in ("fail", "pass")
        if not (RULE_FIXTURES / r.id / which).is_dir()
    ]
    assert not missing, f"rules without fixtures: {missing}"


def test_every_fast_rule_has_a_check_and_no_check_names_an_unknown_rule():
    fast = {r.id for r in catalogue().values() if r.phase == "fast"}
    implemented = implemented_rules()
    assert fast <= implemented, f"catalogued but never checked: {sorted(fast - implemented)}"
    assert implemented <= set(catalogue()), f"checked but not catalogued: {sorted(implemented - set(catalogue()))}"
