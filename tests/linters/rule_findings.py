"""A skill's findings of one rule, as (path, line, severity) rows: what the issue-36 class
tests compare (the skill is linted with its scripts, without ruff and shellcheck unless
`external`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from linters import lint_skill

SEVERE = ("error", "critical", "high")


def found(skill: Path, rule: str, external: bool = False) -> list[tuple[str, int, str]]:
    report = lint_skill(skill, external=external)
    return sorted((f.path or "", f.line or 0, f.severity.value)
                  for f in report.findings if f.rule == rule)


def severe(skill: Path, rule: str, external: bool = False) -> list[tuple[str, int, str]]:
    return [x for x in found(skill, rule, external) if x[2] in SEVERE]


def fresh_root(tmp_path: Path, name: str = "p") -> Path:
    """An empty folder `name` under `tmp_path`, emptied again on every call: a Hypothesis
    example's own skill root inside one function-scoped tmp_path."""
    root = tmp_path / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    return root
