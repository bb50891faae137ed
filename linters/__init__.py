"""Pure checks over a loaded skill: structural, security and script lint (the LLM judge, which
asks a model, is skillforge.authoring.judge).

`lint_skill(path)` is the one call most callers need.
"""

from linters.engine import build_report, external_findings, fast_findings, lint_skill
from linters.registry import catalogue, rule

__all__ = ["build_report", "catalogue", "external_findings", "fast_findings", "lint_skill", "rule"]
