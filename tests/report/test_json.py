"""`--format json` is lift.json: byte for byte what dump_lift_report writes."""

from __future__ import annotations

from skillforge.models.lift import dump_lift_report, parse_lift_report
from skillforge.report import render_json
from tests.report.handbuilt import hand_report
from tests.report.synthetic import realistic_report


def test_json_is_dump_lift_report_byte_for_byte():
    for report in (hand_report(), realistic_report(), realistic_report(judged=False)):
        text = render_json(report)
        assert text.encode("utf-8") == dump_lift_report(report).encode("utf-8")
        assert parse_lift_report(text) == report


def _routing_only():
    """Two cases where only how the skill was used was measured (no task metric)."""
    from tests.lift.builders import trial

    return [trial(c, cond, metrics={"skill_execution": 1.0 if cond == "with_skill" else 0.0},
                  activated=cond == "with_skill") for c in ("a", "b")
            for cond in ("with_skill", "baseline")]


def test_lift_json_says_there_is_no_task_metric():
    import json

    from skillforge.lift.compute import compute_lift
    from skillforge.models.verdicts import NO_TASK_METRIC

    doc = json.loads(render_json(compute_lift(_routing_only())))
    assert doc["extra"]["headline"]["note"] == NO_TASK_METRIC
    assert doc["extra"]["headline"]["note"].startswith("No task metric was measured")


def test_a_computed_runs_html_and_markdown_have_no_skill_execution_lift_row():
    # Use is reported apart (the baseline cannot use the skill), never as a lift row.
    import re

    from skillforge.lift.compute import compute_lift
    from skillforge.report import render_html, render_markdown
    from tests.lift.builders import paired_cases

    report = compute_lift(paired_cases([0.1, 0.2, 0.1, 0.3, 0.2, 0.1, 0.2, 0.1]))
    assert "skill_execution" not in report.metrics and report.extra.use is not None
    page = render_html(report)
    assert 'data-metric="overall"' in page and 'data-metric="skill_execution"' not in page
    text = render_markdown(report)
    table = text[text.index("## Lift per metric"):].split("\n\n", 2)[1]
    assert "**overall**" in table
    assert not re.search(r"^\| *(skill_execution|skill_efficiency) *\|", table, re.M)
