"""The report says how it reached its verdicts (issue 15): the interval, the tie tolerance,
the minimum of cases, the bootstrap's refusal, and a verdict withheld by rule by name."""

from __future__ import annotations

import json
import re

from skillforge.lift.compute import compute_lift
from skillforge.models.lift import parse_lift_report
from skillforge.report import render_html, render_markdown
from tests.lift.builders import paired_cases
from tests.report.dom import Dom
from tests.report.synthetic import realistic_report


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_markdown_method_names_the_interval_the_rule_and_the_minimum():
    method = _section(render_markdown(realistic_report()), "Method")
    assert "Interval: 95% skew-corrected t interval over cases (Hall's transformation)." \
        in method
    assert "lower bound is above 1e-09" in method and "TIE_EPS" in method
    assert "at least 5 paired cases" in method and "inconclusive: too few cases" in method
    # why the default is not the plain t interval, with what the simulation measured
    assert "Why skew-corrected" in method and "never narrower than the t interval" in method
    assert "covers 93.8-96.5% of the true lift from 10 cases on all five" in method
    assert "88% at 5 cases, 90% at 10 and 93% at 30 on the skewed one" in method


def test_a_t_report_names_the_plain_t_interval():
    method = _section(render_markdown(realistic_report(ci="t")), "Method")
    assert "Interval: 95% t interval over cases." in method
    assert "Why skew-corrected" not in method


def test_a_bootstrap_report_names_its_kind_and_its_refusal():
    method = _section(render_markdown(realistic_report(ci="bootstrap")), "Method")
    assert "95% studentized bootstrap over cases (B = 2000, seed 20260101; refused below " \
           "10 paired cases)" in method
    assert "bootstrap-t" in method and "Below 10 paired cases it is refused" in method


def test_a_withheld_verdict_reads_too_few_cases_in_both_formats():
    report = compute_lift(paired_cases([0.5, 0.4]), run_id="small")
    md = render_markdown(report)
    row = next(line for line in md.splitlines() if line.startswith("| **overall**"))
    assert row.rstrip(" |").endswith("◆ inconclusive: too few cases")
    assert "overall is inconclusive: too few cases (2 paired; a verdict needs at least 5)" in md
    page = render_html(report)
    assert Dom(page).row(data_metric="overall").cells[-1] == "◆ inconclusive: too few cases"
    assert re.search(r'<section id="method"><h2>Method</h2><p>Interval: 95% skew-corrected t '
                     r'interval', page)


def test_an_older_lift_json_with_a_percentile_bootstrap_says_so():
    doc = realistic_report(ci="bootstrap").model_dump(mode="json", by_alias=True)
    del doc["extra"]["bootstrap_kind"], doc["extra"]["verdict_rule"], doc["extra"]["withheld"]

    old = parse_lift_report(json.dumps(doc))
    assert "percentile bootstrap over cases (B = 2000, seed 20260101; under-covers at " \
           "small n)" in render_markdown(old)
