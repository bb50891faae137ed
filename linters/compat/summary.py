"""Every harness's compatibility findings for one skill, whatever `[lint] harness` says: what
the workbench's Compat section lists (the lint report carries them only when asked for)."""

from __future__ import annotations

from dataclasses import replace

from linters.compat.checks import frontmatter_rules
from linters.compat.placement import placement_rules
from linters.context import LintContext
from skillforge.models.findings import Finding
from skillforge.models.lint_config import HARNESSES, LintConfig
from skillforge.models.skill import Skill


def compat_findings(skill: Skill, config: LintConfig | None = None,
                    harnesses: list[str] | None = None) -> list[Finding]:
    """SF701-SF707 for `harnesses` (default: those of `config`, else every profile), rules
    disabled in `config` left out, sorted by harness then place."""
    config = config or LintConfig()
    wanted = list(harnesses or config.harness or HARNESSES)
    ctx = LintContext(skill, replace(config, harness=wanted))
    disabled = set(config.disable)
    found = [f for f in (*frontmatter_rules(ctx), *placement_rules(ctx)) if f.rule not in disabled]
    order = {h: i for i, h in enumerate(wanted)}
    return sorted(found, key=lambda f: (order.get(f.code or "", 99), f.sort_key()))


def by_harness(findings: list[Finding], harnesses: list[str]) -> dict[str, list[Finding]]:
    """The findings grouped by the harness they name, every harness present (maybe empty)."""
    out: dict[str, list[Finding]] = {h: [] for h in harnesses}
    for f in findings:
        out.setdefault(f.code or "", []).append(f)
    return out
