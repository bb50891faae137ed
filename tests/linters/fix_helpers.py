"""Shared steps of the fix tests: copy a skill with a defect, fix one rule, lint again."""

from __future__ import annotations

import shutil
from pathlib import Path

from linters import lint_skill
from linters.fixes import fixes_for
from linters.fixes.apply import FixPlan, plan_fixes
from skillforge.models.lint_config import LintConfig
from skillforge.models.fixes import Fix
from skillforge.models.skill import load_skill
from skillforge.workspace.fixing import write_plan
from tests.conftest import RULE_FIXTURES, ROOT

FIX_FIXTURES = ROOT / "tests" / "fixtures" / "fixes"


def copy_skill(src: Path, tmp: Path) -> Path:
    dest = tmp / src.name
    shutil.copytree(src, dest)
    return dest


def failing_fixture(rule: str, tmp: Path) -> Path:
    """A copy of the rule's failing fixture (tests/fixtures/rules/<RULE>/fail/<skill>)."""
    (src,) = (RULE_FIXTURES / rule / "fail").iterdir()
    return copy_skill(src, tmp)


def fired(skill_dir: Path, rule: str) -> list:
    return [f for f in lint_skill(skill_dir, LintConfig(scripts=False), external=False).findings
            if f.rule == rule]


def fixes_of(skill_dir: Path, rule: str) -> list[Fix]:
    skill = load_skill(skill_dir)
    found = fixes_for(skill, fired(skill_dir, rule))
    return [fix for fixes in found.values() for fix in fixes]


def fix_rule(skill_dir: Path, rule: str) -> FixPlan:
    """Plan every fix of `rule` (one plan, in order) and write it; the plan."""
    plan = plan_fixes(load_skill(skill_dir), fixes_of(skill_dir, rule))
    assert plan.applied, f"no fix of {rule} applied: {plan.refused}"
    write_plan(skill_dir, plan, f"fix {rule}")
    return plan


def lines_outside(before: str, after: str, changed: set[str]) -> tuple[list[str], list[str]]:
    """The lines of `before` and `after` minus the ones in `changed` (the edited ones)."""
    return ([ln for ln in before.splitlines() if ln not in changed],
            [ln for ln in after.splitlines() if ln not in changed])
