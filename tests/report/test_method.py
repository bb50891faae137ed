"""The report says how it reached its verdicts (issue 15): the interval, the tie tolerance,
the minimum of cases, the bootstrap's refusal, and a verdict withheld by rule by name."""

from __future__ import annotations

import json
import re

from skillforge.lift.compute import compute_lift
from skillforge.lift.coverage_record import coverage_sentence, pass_sentence
from skillforge.lift.stats import MIN_VERDICT_CASES
from skillforge.models.lift import parse_lift_report
from skillforge.report import render_html, render_markdown
from tests.lift.builders import paired_cases
from tests.report.dom import Dom
from tests.report.synthetic import realistic_report


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_markdown_method_names_the_interval_the_rule_and_the_minimum():
    method = _section(render_markdown(realistic_report()), "Method")
    assert "Interval: 95% betting interval over cases, valid for any distribution of the " \
        "deltas on [-1, 1] (Waudby-Smith and Ramdas)." in method
    assert "lower bound is above 1e-09" in method and "TIE_EPS" in method
    assert f"at least {MIN_VERDICT_CASES} paired cases" in method
    assert "inconclusive: too few cases" in method
    # what overall is, and what the simulation measured, quoted from its record
    assert "overall is the mean of the outcome metrics" in method
    assert "never as lift and never in overall" in method
    flat = " ".join(method.split())
    assert coverage_sentence() in flat and pass_sentence() in flat
    assert "Tango's score interval" in method and "exact McNemar" in method
    assert "grades 0 (fail-closed)" in method and "Fisher's exact test" in method


def test_a_no_judge_run_says_so():
    report = realistic_report(judged=False)
    report.extra.no_judge = True
    method = _section(render_markdown(report), "Method")
    assert "The run used --no-judge" in method
    md = render_markdown(report)
    assert "(LLM-judged): the run used --no-judge" in md
    assert "usually no LLM provider was configured" not in md


def test_a_withheld_verdict_reads_too_few_cases_in_both_formats():
    report = compute_lift(paired_cases([0.5, 0.4]), run_id="small")
    md = render_markdown(report)
    row = next(line for line in md.splitlines() if line.startswith("| **overall**"))
    assert row.rstrip(" |").endswith("◆ inconclusive: too few cases")
    assert ("overall is inconclusive: too few cases (2 paired; a verdict needs at least "
            f"{MIN_VERDICT_CASES})") in md
    page = render_html(report)
    assert Dom(page).row(data_metric="overall").cells[-1] == "◆ inconclusive: too few cases"
    assert re.search(r'<section id="method"><h2>Method</h2><p>overall is the mean of the '
                     r'outcome metrics', page)


def test_an_older_lift_json_with_a_withdrawn_interval_says_so():
    doc = realistic_report().model_dump(mode="json", by_alias=True)
    doc["extra"].update(ci_method="bootstrap", bootstrap_resamples=2000,
                        bootstrap_seed=20260101)
    del doc["extra"]["verdict_rule"], doc["extra"]["withheld"]
    old = parse_lift_report(json.dumps(doc))
    md = render_markdown(old)
    assert "percentile bootstrap over cases (B = 2000, seed 20260101; under-covers at " \
           "small n)" in md
    assert "computed with the bootstrap interval, which skillforge no longer offers" in md
