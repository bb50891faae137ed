"""The HTML report: the right numbers in the right rows, CI bars that point the right way,
one self-contained file with nothing to fetch, and hostile text shown as text."""

from __future__ import annotations

import re

import pytest

from skillforge.report import render_html
from skillforge.report.svg import BAR_W, VERDICT_COLOUR, cell_colour
from tests.report.dom import Dom
from tests.report.handbuilt import hand_report
from tests.report.synthetic import misused_pair, realistic_report, trajectories_for_negatives

ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "main", "header", "section", "footer",
    "h1", "h2", "h3", "div", "span", "p", "strong", "dl", "dt", "dd", "table", "thead",
    "tbody", "tr", "th", "td", "ul", "li", "a", "pre", "code",
    "svg", "g", "line", "rect", "circle", "text", "tspan", "defs", "lineargradient", "stop",
}
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>"\'&'


@pytest.fixture(scope="module")
def page() -> str:
    return render_html(hand_report(), trajectories={"case-7": misused_pair()})


def _row_html(page: str, metric: str) -> str:
    m = re.search(rf'<tr [^>]*data-metric="{metric}">.*?</tr>', page, re.DOTALL)
    assert m, f"no row for {metric}"
    return m.group(0)


def test_metric_rows_carry_with_base_lift_ci_share_n_and_verdict(page):
    dom = Dom(page)
    assert dom.row(data_metric="accuracy").cells == [
        "accuracy", "0.712", "0.598", "+0.114", "[+0.031, +0.197]", "", "70%", "10", "▲ helps"]
    assert dom.row(data_metric="skill_efficiency").cells[3:5] == ["-0.160", "[-0.250, -0.070]"]
    assert dom.row(data_metric="overall").cells[-1] == "◆ inconclusive"
    assert dom.row(data_metric="behavior_check").cells[-1] == "not measured"


@pytest.mark.parametrize("metric, side", [("skill_execution", "right"),
                                          ("skill_efficiency", "left"),
                                          ("overall", "across")])
def test_ci_bars_sit_on_the_right_side_of_zero_in_the_verdict_colour(page, metric, side):
    row = _row_html(page, metric)
    rect = re.search(r'<rect class="ci" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*'
                     r'fill="(#[0-9a-f]+)"', row)
    dot = re.search(r'<circle class="lift" cx="([\d.]+)"', row)
    assert rect and dot
    lo, hi, zero = float(rect.group(1)), float(rect.group(1)) + float(rect.group(2)), BAR_W / 2
    verdict = {"right": "helps", "left": "hurts", "across": "inconclusive"}[side]
    assert rect.group(3) == VERDICT_COLOUR[verdict]
    if side == "right":
        assert zero < lo < float(dot.group(1)) < hi
    elif side == "left":
        assert lo < float(dot.group(1)) < hi < zero
    else:
        assert lo < zero < hi


def test_a_metric_never_measured_has_no_bar(page):
    row = _row_html(page, "behavior_check")
    assert "<circle" not in row and 'class="ci"' not in row and "not measured" in row


def test_header_inventory_missing_metrics_and_planner(page):
    dom = Dom(page)
    text = dom.text
    assert "Skill Lift: csv-insights" in text
    assert "Overall Skill Lift: +0.151 (95% CI [-0.022, +0.324]): inconclusive" in text
    assert "40 trials: 37 ok, 2 error, 1 timeout." in text
    assert "Not measured: behavior_check (LLM-judged) is null in every trial" in text
    assert "about 48 cases needed for ±0.05 on overall" in text
    facts = dict(zip([t for t in re.findall(r"<dt>(.*?)</dt>", page)],
                     re.findall(r"<dd>(.*?)</dd>", page)))
    assert facts["run"] == "run-42" and facts["model"] == "gpt-4.1-mini"


def test_pass_rates_pass_at_k_efficiency_dimensions_and_agreement(page):
    dom = Dom(page)
    assert dom.row(data_row="pass-rate").cells == ["pass rate", "60.0%", "40.0%", "+0.333"]
    assert dom.row(data_k="2").cells == ["2", "0.750", "0.520"]
    assert dom.row(data_resource="tokens").cells == [
        "tokens (in + out)", "9,000", "15,000", "-40.0%", "4"]
    assert dom.row(data_resource="cost_usd").cells[3] == "-33.3%"
    assert "Skill-script exec rate: 88% (7 of 8 runs exited 0)." in dom.text
    assert dom.row(data_dimension="Discoverability").cells[1] == "+0.320"
    assert dom.row(data_agreement="accuracy").cells == [
        "accuracy", "20", "2", "0.080", "0.300", "—", "0.710"]


def test_heatmap_has_one_row_per_case_coloured_by_delta(page):
    rows = re.findall(r'<g class="hm-row" data-case="([^"]+)">(.*?)</g>', page, re.DOTALL)
    assert [cid for cid, _ in rows] == ["case-1", "case-3", "case-7", "case-9"]
    case7 = dict(rows)["case-7"]
    fill = cell_colour(-0.6, 1.0)[0]
    assert f'fill="{fill}"><title>case-7 / accuracy: D = -0.600</title>' in case7
    assert ">misused</text>" in case7
    assert "no pair" in case7  # goal_accuracy has no pair for this case
    assert 'class="legend"' in page


def test_negative_cases_show_class_evidence_and_side_by_side(page):
    dom = Dom(page)
    assert dom.row(data_case="case-7").cells == [
        "case-7", "-0.210", "misused", "the skill was activated and accuracy fell", "100%",
        "none", "accuracy"]
    assert '<div class="sbs">' in page
    assert 'class="call activation"' in page and "skill opened: csv-insights" in page
    assert 'class="call script failed"' in page
    assert "skill script: csv-insights/scripts/summarize.py (exit 2)" in page
    # both columns, aligned: 6 with-skill steps, 5 baseline steps and one empty cell
    assert page.count('class="step src-') == 11 and page.count('class="step none"') == 1
    # case-3 had no trajectories given: said, not hidden
    assert "No trajectories were given for this case." in page


def _external_refs(page: str) -> list[str]:
    dom = Dom(page)
    bad = []
    for tag, attrs in dom.tags:
        if tag in ("script", "link", "img", "iframe", "object", "embed", "base", "audio",
                   "video", "source", "form"):
            bad.append(f"<{tag}>")
        for name, value in attrs.items():
            if name in ("src", "srcset", "action", "poster", "data", "xlink:href"):
                bad.append(f"{tag} {name}={value}")
            if name == "href" and not value.startswith("#"):
                bad.append(f"{tag} href={value}")
            if name.startswith("on"):
                bad.append(f"{tag} {name}")
    css = "".join(dom.styles)
    if "@import" in css or re.search(r"url\((?!#)", css):
        bad.append("css loads a resource")
    return bad


def test_the_page_is_self_contained():
    page = render_html(realistic_report(), trajectories=trajectories_for_negatives())
    assert _external_refs(page) == []
    assert "http://" not in page and "https://" not in page
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page


def test_the_self_containment_check_catches_external_references():
    assert _external_refs('<img src="https://x/y.png"><a href="https://x">x</a>') == [
        "<img>", "img src=https://x/y.png", "a href=https://x"]
    assert _external_refs("<style>@import url(https://fonts.x/a.css);</style>")


def _hostile_report():
    report = hand_report()
    report.skill = report.agent = report.model = report.run_id = HOSTILE
    report.conditions = ["with_skill", "baseline"]
    report.negative_cases[0].case_id = HOSTILE
    report.extra.triage[0].case_id = HOSTILE
    report.extra.triage[0].reason = HOSTILE
    report.extra.cases[2].case_id = HOSTILE
    report.extra.cases[2].kind = HOSTILE
    report.extra.judge_agreement.judges = [HOSTILE]
    pair = misused_pair()
    for traj in pair.values():
        step = traj["steps"][2]
        step["message"] = HOSTILE
        step["source"] = HOSTILE
        if "tool_calls" in step:
            step["tool_calls"][0]["function_name"] = HOSTILE
            step["tool_calls"][0]["arguments"] = {"command": HOSTILE}
            step["observation"]["results"][0]["content"] = HOSTILE
    return report, {HOSTILE: pair}


def test_hostile_text_from_skills_cases_and_trajectories_renders_as_text():
    report, trajectories = _hostile_report()
    page = render_html(report, trajectories=trajectories)
    dom = Dom(page)
    assert {tag for tag, _ in dom.tags} <= ALLOWED_TAGS
    assert _external_refs(page) == []
    assert "<script" not in page.lower() and "<img" not in page.lower()
    # the text is there, shown as text: as message, tool name, command, output, case id
    assert dom.text.count('<script>alert("x")</script>') >= 10
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_the_headline_badge_shows_the_headlines_verdict_not_overalls():
    # Overall alone is inconclusive; the grader and the pass rate make the headline "hurts":
    # the big badge beside the sentence must not say "inconclusive" (issue 33).
    from skillforge.lift.compute import compute_lift
    from tests.lift.builders import grader_harm

    report = compute_lift(grader_harm())
    assert report.metrics["overall"].verdict == "inconclusive"
    dom = Dom(render_html(report))
    badges = [a["class"].split() for t, a in dom.tags
              if t == "span" and "badge" in a.get("class", "").split()]
    assert badges and badges[0] == ["badge", "hurts"]
