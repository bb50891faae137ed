"""Fixes for lint findings: computed from a finding and the skill's files, never by a rule.

`fixes_for(skill, findings)` is the one call most callers need (the CLI's `--fix`, the
workbench's `f`/`F`, the LSP server's code actions). `plan_fixes` in `linters.fixes.apply`
turns chosen fixes into new file contents and a diff, refusing any that would not parse;
`skillforge.workspace.fixing` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable

from linters.fixes.registry import fixers
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix
from skillforge.models.skill import Skill

FindingKey = tuple[str, str, int, int]

__all__ = ["FindingKey", "finding_key", "fixable_rules", "fixes_for"]


def finding_key(finding: Finding) -> FindingKey:
    """(rule, path, line, column) of a finding: how `fixes_for` indexes its answer. Missing
    parts are "" and 0. Two findings of one rule on the same spot share a key."""
    return (finding.rule, finding.path or "", finding.line or 0, finding.column or 0)


def fixable_rules() -> set[str]:
    """Ids of the rules that can offer a fix."""
    return set(fixers())


def fixes_for(skill: Skill, findings: Iterable[Finding]) -> dict[FindingKey, list[Fix]]:
    """The fixes available for each finding, by `finding_key(finding)`.

    `skill` is the loaded skill the findings were computed from (`load_skill`); its files'
    text is read, never the disk. Findings of rules without a fixer, and findings a fixer
    cannot resolve, have no entry. Each `Fix` carries its `safety`: apply `safe` ones
    freely; show `unsafe` ones and apply them only on request. The edits' positions are
    0-based (see `skillforge.models.fixes`). Fixes are independent: two fixes may touch the
    same file, so apply them one at a time, re-linting in between, or through
    `linters.fixes.apply.plan_fixes`, which applies several in order and drops any that
    overlap an earlier one.
    """
    table = fixers()
    out: dict[FindingKey, list[Fix]] = {}
    for f in findings:
        fn = table.get(f.rule)
        if fn is None:
            continue
        found = fn(skill, f)
        if found:
            out.setdefault(finding_key(f), []).extend(found)
    return out
