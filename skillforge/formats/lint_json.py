"""`skillforge lint --format json`: exactly one JSON document (schema version 1)."""

from __future__ import annotations

from typing import Any

from skillforge.models.findings import LintReport, Rule


def report_dict(report: LintReport, shown_path: str) -> dict[str, Any]:
    return {
        "path": shown_path,
        "name": report.name,
        "score": report.score,
        "grade": report.grade,
        "security_score": report.security_score,
        "passed_gate": report.passed_gate,
        "categories": {name: cat.score for name, cat in report.categories.items()},
        "findings": [f.as_dict() for f in report.findings],
    }


def lint_document(reports: list[tuple[str, LintReport]]) -> dict[str, Any]:
    """{"version": 1, "skills": [...], "summary": {"skills", "passed", "failed"}}."""
    passed = sum(1 for _p, r in reports if r.passed_gate)
    return {
        "version": 1,
        "skills": [report_dict(r, p) for p, r in reports],
        "summary": {"skills": len(reports), "passed": passed, "failed": len(reports) - passed},
    }


def rules_document(rules: list[Rule]) -> dict[str, Any]:
    return {
        "rules": [
            {
                "id": r.id,
                "category": r.category.value,
                "severity": r.severity.value,
                "title": r.title,
                "explanation": r.explanation,
            }
            for r in rules
        ]
    }
