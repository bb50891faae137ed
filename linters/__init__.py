"""Pure checks over a loaded skill: structural, security and script lint.

`lint_skill(path)` is the one call most callers need. A rule lives in the folder of its
category (correctness/, discoverability/, reliability/, efficiency/, security/, scripts/);
`rules.py` names every rule module and `catalogue/` describes every rule. The readers the
rules share are in text/, ruff and shellcheck in external/, the fixes in fixes/. The LLM
judge asks a model, so it is not a check: it is skillforge.authoring.judge.
"""

from linters.engine import build_report, external_findings, fast_findings, lint_skill
from linters.registry import catalogue, rule

__all__ = ["build_report", "catalogue", "external_findings", "fast_findings", "lint_skill", "rule"]
