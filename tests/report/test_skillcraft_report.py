"""The "Skill Mode (SkillCraft)" section of `skillforge report` in every format, from a
report built in the test and from a stored run (the store filled from records)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli.report import report as report_cmd
from skillforge.lift.compute import compute_lift
from skillforge.lift.skillcraft import attach_skillcraft, compute_skillcraft
from skillforge.models.lift import LiftReport
from skillforge.models.trial import RunRecord, RunSpec
from skillforge.report import render_html, render_json, render_markdown
from skillforge.report import skillcraft as SC
from tests.lift.builders import trial
from tests.lift.skillcraft_builders import RUN, chain, ev, records, sm
from tests.report.dom import Dom


def _report(trials=None, rows=None) -> LiftReport:
    trials = records() if trials is None else trials
    rows = chain() if rows is None else rows
    lift = compute_lift(trials, run_id=RUN, conditions=("skill_mode", "baseline"))
    return attach_skillcraft(lift, compute_skillcraft(trials, rows))


def _section(text: str) -> str:
    return text.split(f"## {SC.TITLE}", 1)[1].split("\n## ", 1)[0]


def test_markdown_shows_the_rates_the_efficiency_and_the_skill_tables():
    section = _section(render_markdown(_report()))
    assert "Base 75% → Skill 75%" in section                      # success rate at 0.9
    assert "pass rate (grader reward 1, else overall ≥ 0.6): Base 100% → Skill 75%" in section
    assert "Exec rate: 50% (3 of 6 execute_skill calls succeeded)" in section
    assert "Reuse rate: 2.50 invocations per saved skill (5 execute_skill calls of 2" in section
    assert "syntax 1" in section and "unknown_skill 1" in section
    assert "over the 2 case(s) both sides solved (c1, c2)" in section
    assert "| tokens (in + out) | 400 | 300 | -25.0% | 2 |" in section
    assert "| cost | $0.0200 | $0.0300 | +50.0% | 2 |" in section
    assert "| parse | 1 | c1, attempt 1 | c2, c3 | 4 | 75% | quality 1 | no |" in section
    assert "| fmt | 1 | c2, attempt 1 | c3 | 1 | 0% | exception 1 | no |" in section
    assert "### Skill Lift of skill_mode over baseline" in section
    (row,) = [line for line in section.splitlines() if line.startswith("| overall |")]
    assert row.startswith("| overall | 0.867 | 0.850 | -0.018 | [")  # Base, Skill, lift, CI
    assert row.endswith("| 4 | inconclusive |")


def test_no_case_solved_on_both_sides_is_stated():
    trials = [sm("a", overall=1.0), trial("a", "baseline", 1, overall=0.5)]
    md = render_markdown(_report(trials, []))
    section = _section(md)
    assert "No case solved on both sides" in section
    assert "| tokens (in + out)" not in section
    assert "No skill was saved or inherited." in section
    html = render_html(_report(trials, []))
    assert "No case solved on both sides" in html and 'data-sc-resource' not in html


def test_html_has_the_section_with_escaped_agent_text():
    rows = chain()
    rows[0].events.append(ev("save_skill", "<script>x</script>"))  # agent-chosen: untrusted
    html = render_html(_report(records(), rows))
    assert '<section id="skillcraft">' in html
    rows = {r.attrs.get("data-skill"): r.cells for r in Dom(html).rows if "data-skill" in r.attrs}
    assert rows["parse"] == ["parse", "1", "c1, attempt 1", "c2, c3", "4", "75%", "quality 1",
                             "no"]
    assert 'data-sc-resource="tokens"' in html and "-25.0%" in html
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert 'data-sc-metric="overall"' in html


def test_json_is_lift_json_with_extra_skillcraft():
    data = json.loads(render_json(_report()))
    sc = data["extra"]["skillcraft"]
    assert sc["success"] == {"skill": 0.75, "base": 0.75}
    assert (sc["exec_rate"], sc["reuse_rate"]) == (0.5, 2.5)
    assert sc["efficiency"]["tokens"]["diff"] == pytest.approx(-0.25)
    assert [s["name"] for s in sc["skills"]] == ["fmt", "parse"]


def test_a_report_without_skill_mode_has_no_section():
    plain = compute_lift([trial("a", "with_skill", overall=1.0),
                          trial("a", "baseline", overall=0.5)], run_id="r")
    assert SC.TITLE not in render_markdown(plain)
    assert 'id="skillcraft"' not in render_html(plain)
    assert "skillcraft" not in render_json(plain)


@pytest.fixture
def state_dir(tmp_path):
    state = tmp_path / "state"
    run = RunRecord(run_id=RUN, created_at=datetime(2026, 11, 25, tzinfo=UTC),
                    skill_name="csv-insights", status="finished",
                    spec=RunSpec(skill_path="sample_skills/csv-insights",
                                 conditions=["baseline"], attempts=1))
    with RunStore(state) as store:
        store.create_run(run)
        for t in records():
            store.upsert_trial(t)
        for row in chain():
            store.save_skill_mode_trial(row)
    return state


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_report_of_a_stored_skill_mode_run_in_every_format(state_dir, fmt):
    result = CliRunner().invoke(report_cmd, [RUN, "--state-dir", str(state_dir), "--format", fmt],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.output
    if fmt == "json":
        data = json.loads(out)
        assert data["conditions"] == ["skill_mode", "baseline"]  # no with_skill trial
        assert data["extra"]["skillcraft"]["reuse_rate"] == 2.5
        assert data["extra"]["skillcraft"]["skill_mode_rows"] == 4
    else:
        assert SC.TITLE in out and "Exec rate: 50%" in out and "parse" in out
        assert "skill_mode vs baseline" in out
