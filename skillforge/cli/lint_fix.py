"""`skillforge lint --fix / --unsafe / --diff`: fix what can be fixed, then lint as usual.

Each skill is fixed in a scratch copy first (`skillforge.workspace.fixing.fix_skill`);
`--diff` prints the unified diff of that copy against the skill and writes nothing; `--fix`
writes the changed files, each atomically and only after every one of them parsed. The
caller then lints the skills again and reports what remains.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import click

from skillforge.models.findings import Finding
from skillforge.models.lint_config import LintConfig
from skillforge.workspace.fixing import FixWriteError, fix_skill, write_plan


def fix_skills(skills: list[Path], configs: dict[Path, LintConfig], shown: dict[Path, str],
               unsafe: bool, write: bool, to_stderr: bool) -> tuple[int, list[str]]:
    """Fix (or, without `write`, show the fixes of) each skill; (number of fixes applied or
    pending, errors). The diff goes to stdout; the summary to stdout, or to stderr when
    stdout carries a JSON/SARIF document or the diff."""
    count = 0
    printed = False
    errors: list[str] = []
    err = to_stderr or not write

    def say(line: str = "") -> None:
        click.echo(line, err=err)

    for skill_dir in skills:
        outcome = fix_skill(skill_dir, configs[skill_dir], unsafe=unsafe)
        plan = outcome.plan
        label = shown[skill_dir]
        if not write and plan.changes:
            prefix = "" if label == "." else label.rstrip("/") + "/"
            click.echo(plan.diff(prefix=prefix), nl=False)
        verb = "fixed" if write else "would fix"
        if write and plan.changes:
            try:
                write_plan(skill_dir, plan, "skillforge lint --fix")
            except (FixWriteError, OSError) as exc:
                errors.append(f"{label}: {exc}")
                say(f"{label}: not fixed: {exc}")
                continue
        count += len(outcome.applied)
        left = outcome.unfixable
        if not (outcome.applied or outcome.refused or outcome.unsafe_left or left):
            continue
        printed = True
        if not (outcome.applied or outcome.refused or outcome.unsafe_left):
            # Not "nothing to fix": the findings are there, only no fixer can mend them.
            say(f"{label}: nothing fixed: {_no_fix(left)}")
            continue
        say(f"{label}: {verb} {len(outcome.applied)}, refused {len(outcome.refused)}, "
            f"unsafe not applied {len(outcome.unsafe_left)}")
        for fix in outcome.applied:
            say(f"  {verb:<9} {fix.rule}  {fix.title}")
        for fix, why in outcome.refused:
            say(f"  refused   {fix.rule}  {fix.title}: {why}")
        for fix in outcome.unsafe_left:
            say(f"  unsafe    {fix.rule}  {fix.title} (add --unsafe to apply)")
        if left:
            say(f"  {_no_fix(left)}")
    if not printed and not errors:
        say("nothing to fix")
    sys.stdout.flush()
    return count, errors


def _no_fix(findings: list[Finding]) -> str:
    """"3 findings have no automatic fix (SF121, SF319 x2); fix them by hand"."""
    by_rule = Counter(f.rule for f in findings)
    rules = ", ".join(rule + (f" x{n}" if n > 1 else "") for rule, n in sorted(by_rule.items()))
    n = len(findings)
    return (f"{n} finding{'s' if n != 1 else ''} ha{'ve' if n != 1 else 's'} no automatic fix "
            f"({rules}); fix {'them' if n != 1 else 'it'} by hand")
