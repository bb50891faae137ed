"""Lint findings, rules and reports (CONTRACTS.md section 2).

Plain dataclasses, not pydantic models: every lint builds thousands of findings from values
the checks already typed, and a one-shot `skillforge lint` (a pre-commit hook, CI) would
otherwise spend more time importing pydantic and building its validators than linting a
skill. Nothing here is parsed from outside input; `as_dict` gives the JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any


class Category(str, Enum):
    correctness = "correctness"
    discoverability = "discoverability"
    reliability = "reliability"
    efficiency = "efficiency"
    security = "security"
    scripts = "scripts"
    # Per-harness compatibility (SF7xx, `lint --harness`): not scored, like security.
    compatibility = "compatibility"


STRUCTURAL_CATEGORIES: tuple[Category, ...] = (
    Category.correctness,
    Category.discoverability,
    Category.reliability,
    Category.efficiency,
)


class Severity(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"
    # Security findings use their own scale (section 2.2).
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"

    @property
    def rank(self) -> int:
        """Higher is worse; lets error and critical sort together."""
        return _RANK[self]


_RANK = {
    Severity.critical: 6,
    Severity.error: 5,
    Severity.high: 4,
    Severity.warning: 3,
    Severity.medium: 2,
    Severity.low: 1,
    Severity.info: 0,
}


def _json_fields(obj: Any) -> dict[str, Any]:
    """A dataclass's fields by name, in order, an enum by its value (every field here is a
    plain JSON value otherwise)."""
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        out[f.name] = value.value if isinstance(value, Enum) else value
    return out


@dataclass(slots=True, kw_only=True)
class Finding:
    """One problem found in a skill: what is wrong and what to do, and where."""

    rule: str
    category: Category
    severity: Severity
    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    source: str = "skillforge"
    code: str | None = None

    def location(self) -> str:
        where = self.path or "."
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return where

    def sort_key(self) -> tuple:
        return (self.path or "", self.line or 0, self.column or 0, -self.severity.rank, self.rule)

    def as_dict(self) -> dict[str, Any]:
        """The finding as JSON values, in field order."""
        return _json_fields(self)


@dataclass(slots=True, kw_only=True)
class Rule:
    """A catalogue entry: stable id, what it checks, why, and how a fixed skill looks."""

    id: str
    category: Category
    severity: Severity
    title: str
    explanation: str
    example: str = ""
    # What the rule is about. A rule whose subject the skill lacks is not applicable
    # (no scripts -> script rules do not count for or against the score).
    subject: str = "skill"
    # When the rule runs: "fast" (in process, on every save), "external" (ruff/shellcheck
    # processes, merged in later), "trial" (inside the sandbox during paired trials) or
    # "harness" (in process, only for the harnesses `lint --harness` names; never scored).
    phase: str = "fast"
    # Whether `skillforge lint --fix` can fix it: "safe", "unsafe" (only with --unsafe) or
    # "" (no fix); `fix_summary` says what the fix does (linters/fixes/ computes it).
    fix: str = ""
    fix_summary: str = ""

    def __post_init__(self) -> None:
        # The catalogue's TOML gives category and severity as strings.
        self.category = Category(self.category)
        self.severity = Severity(self.severity)

    def as_dict(self) -> dict[str, Any]:
        """The rule as JSON values, in field order."""
        return _json_fields(self)


@dataclass(slots=True, kw_only=True)
class CategoryScore:
    score: float
    applicable: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class LintReport:
    """Everything `skillforge lint` knows about one skill."""

    path: str
    name: str | None = None
    score: float
    grade: str
    security_score: int
    passed_gate: bool
    gate_reasons: list[str] = field(default_factory=list)
    categories: dict[str, CategoryScore]
    findings: list[Finding]
    suppressed: int = 0
    scripts_pending: bool = False

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.severity.value] = out.get(f.severity.value, 0) + 1
        return out
