"""SkillCraft's metrics of a Skill Mode run (skillforge.lift.skillcraft), on the hand-computed
run of tests/lift/skillcraft_builders.py."""

from __future__ import annotations

import pytest

from skillforge.lift.compute import compute_lift
from skillforge.lift.skillcraft import (
    attach_skillcraft,
    compute_skillcraft,
    lift_conditions,
    trial_succeeds,
)
from skillforge.models.lift import LiftReport, dump_lift_report, parse_lift_report
from tests.lift.builders import trial
from tests.lift.skillcraft_builders import chain, inherited_chain, records, sm


def test_success_rate_uses_the_0_9_rule_beside_the_pass_rate():
    sc = compute_skillcraft(records(), chain())
    assert sc is not None
    assert sc.success.skill == pytest.approx(0.75)  # c1 c2 c3
    assert sc.success.base == pytest.approx(0.75)   # c1 c2 (exactly 0.9) c4
    assert sc.pass_rate.skill == pytest.approx(0.75)
    assert sc.pass_rate.base == pytest.approx(1.0)  # c3's 0.70 passes at 0.6, not at 0.9
    assert sc.solved == {"skill": ["c1", "c2", "c3"], "base": ["c1", "c2", "c4"]}


def test_success_needs_an_ok_trial_and_the_grader_reward_when_there_is_one():
    assert trial_succeeds(trial("c", "baseline", overall=0.9), graded=False)
    assert not trial_succeeds(trial("c", "baseline", overall=0.89), graded=False)
    assert not trial_succeeds(trial("c", "baseline", overall=1.0, status="error"), graded=False)
    graded = trial("c", "baseline", overall=0.1, grader=0.9)
    assert trial_succeeds(graded, graded=True)       # reward 0.9 succeeds (overall ignored)
    assert not trial_succeeds(trial("c", "baseline", overall=1.0, grader=0.5), graded=True)
    sc = compute_skillcraft([sm("g", overall=0.0, grader=0.9), trial("g", "baseline", 1,
                                                                    overall=1.0, grader=0.8)], [])
    assert sc is not None
    assert (sc.success.skill, sc.success.base) == (1.0, 0.0)
    assert (sc.pass_rate.skill, sc.pass_rate.base) == (0.0, 0.0)  # pass needs reward 1


def test_errored_attempts_are_left_out_and_cases_never_run_count_as_failures():
    trials = [sm("a", overall=1.0), sm("a", 2, overall=1.0, status="error"),
              trial("a", "baseline", 1, overall=1.0)]
    sc = compute_skillcraft(trials, [], case_ids=["a", "b"])
    assert sc is not None
    # a: 1/1 (the errored attempt never finished: left out, as in the lift), b: never run = 0
    assert sc.success.skill == pytest.approx(0.5)
    assert sc.success.base == pytest.approx(0.5)


def test_exec_and_reuse_rates():
    sc = compute_skillcraft(records(), chain())
    assert sc is not None
    assert (sc.executions, sc.executions_ok, sc.exec_rate) == (6, 3, 0.5)
    assert (sc.skills_saved, sc.invocations, sc.reuse_rate) == (2, 5, 2.5)
    assert sc.skills_inherited == 0 and sc.inherited_reuse_rate is None
    assert sc.rejections == {"exception": 1, "quality": 1, "syntax": 1, "unknown_skill": 1}
    assert sc.tool_calls == {"execute_skill": 6, "get_skill": 1, "list_skills": 1,
                             "save_skill": 3}


def test_per_skill_table():
    sc = compute_skillcraft(records(), chain())
    assert sc is not None
    rows = {r.name: r for r in sc.skills}
    assert list(rows) == ["fmt", "parse"]
    parse, fmt = rows["parse"], rows["fmt"]
    assert (parse.created_by.case_id, parse.created_by.attempt) == ("c1", 1)
    assert parse.reused_in == ["c2", "c3"]  # c1 created it; c4 only read it
    assert (parse.executions, parse.executions_ok, parse.exec_rate) == (4, 3, 0.75)
    assert parse.failures == {"quality": 1}
    assert (fmt.created_by.case_id, fmt.reused_in, fmt.exec_rate) == ("c2", ["c3"], 0.0)
    assert fmt.failures == {"exception": 1}
    assert not parse.inherited and parse.saves == 1
    assert parse.description == "parse things"


def test_attempt_chains_are_separate_skills_and_pool_into_the_rates():
    sc = compute_skillcraft(records(), chain(attempt=1) + chain(attempt=2))
    assert sc is not None
    assert [(r.name, r.attempt) for r in sc.skills] == [("fmt", 1), ("fmt", 2), ("parse", 1),
                                                         ("parse", 2)]
    assert (sc.skills_saved, sc.invocations, sc.reuse_rate) == (4, 10, 2.5)
    assert (sc.executions, sc.exec_rate) == (12, 0.5)


def test_efficiency_only_over_cases_both_sides_solved_with_the_diff_sign():
    eff = compute_skillcraft(records(), chain()).efficiency  # type: ignore[union-attr]
    assert eff.cases == ["c1", "c2"] and eff.n_cases == 2
    assert (eff.tokens.skill, eff.tokens.base) == (300, 400)
    assert eff.tokens.diff == pytest.approx(-0.25)       # Skill Mode saves: negative
    assert eff.turns.diff == pytest.approx(-1 / 6)
    assert eff.tool_calls.diff == pytest.approx(-1 / 3)
    assert eff.cost_usd.diff == pytest.approx(0.5)       # costs more: positive
    assert eff.tokens.n == 2


def test_efficiency_averages_only_the_succeeding_attempts_of_a_solved_case():
    trials = [sm("a", 1, overall=1.0, tokens_in=100), sm("a", 2, overall=0.2, tokens_in=900),
              trial("a", "baseline", 1, overall=1.0, tokens_in=200)]
    eff = compute_skillcraft(trials, []).efficiency  # type: ignore[union-attr]
    assert (eff.tokens.skill, eff.tokens.base, eff.tokens.diff) == (100, 200, -0.5)


def test_no_case_solved_on_both_sides_gives_an_empty_table():
    trials = [sm("a", overall=1.0), trial("a", "baseline", 1, overall=0.5),
              sm("b", overall=0.5), trial("b", "baseline", 1, overall=1.0)]
    sc = compute_skillcraft(trials, [])
    assert sc is not None
    assert sc.efficiency.n_cases == 0 and sc.efficiency.cases == []
    assert sc.efficiency.tokens.diff is None and sc.efficiency.tokens.n == 0
    assert sc.exec_rate is None and sc.reuse_rate is None and sc.skills == []


def test_a_run_without_skill_mode_has_no_skillcraft_section():
    assert compute_skillcraft([trial("a", "with_skill", overall=1.0),
                               trial("a", "baseline", overall=1.0)], []) is None
    assert compute_skillcraft([], []) is None


def test_inherited_skills_are_counted_apart():
    sc = compute_skillcraft([sm("c1", overall=1.0, run_id="run-static")], inherited_chain())
    assert sc is not None
    assert (sc.skills_saved, sc.reuse_rate) == (0, None)
    assert (sc.skills_inherited, sc.inherited_invocations, sc.inherited_reuse_rate) == (1, 2, 2.0)
    assert sc.inherited_from == ["run-sm"] and sc.modes == ["static"]
    (row,) = sc.skills
    assert row.inherited and row.inherited_from == "run-sm"
    assert (row.created_by.run_id, row.created_by.case_id) == ("run-sm", "c1")
    assert row.reused_in == ["c1", "c2"]  # created in another run: every use is a reuse
    assert sc.rejections == {"static": 1}


def test_a_chain_whose_first_stored_case_is_not_its_first_does_not_inherit_its_own_skills():
    rows = chain()[1:]  # c1's row missing: c2 starts with parse in its cache
    sc = compute_skillcraft(records(), rows)
    assert sc is not None
    parse = next(r for r in sc.skills if r.name == "parse")
    assert not parse.inherited and parse.created_by.case_id == "c1"
    assert parse.reused_in == ["c2", "c3"]


def test_skill_lift_is_compute_lift_with_skill_mode_as_the_with_side():
    sc = compute_skillcraft(records(), chain())
    assert sc is not None
    overall = sc.lift["overall"]
    assert overall.lift == pytest.approx((0.03 + 0.10 + 0.25 - 0.45) / 4)
    assert overall.n == 4
    same = compute_lift(records(), conditions=("skill_mode", "baseline")).metrics["overall"]
    assert (overall.ci_low, overall.ci_high, overall.verdict) == (same.ci_low, same.ci_high,
                                                                  same.verdict)
    assert (overall.skill, overall.base) == (same.with_, same.base)


def test_main_lift_compares_skill_mode_only_when_the_run_has_no_with_skill_trial():
    assert lift_conditions(records()) == ("skill_mode", "baseline")
    assert lift_conditions(records() + [trial("c1", "with_skill", overall=1.0)]) == (
        "with_skill", "baseline")
    assert lift_conditions([trial("c1", "baseline")]) == ("with_skill", "baseline")


def test_lift_json_holds_it_under_extra_skillcraft_and_reads_it_back():
    report = attach_skillcraft(LiftReport(run_id=RUN_ID), compute_skillcraft(records(), chain()))
    text = dump_lift_report(report)
    back = parse_lift_report(text)
    assert back.extra.skillcraft == report.extra.skillcraft
    assert '"skillcraft"' in text and '"reuse_rate": 2.5' in text
    assert '"skillcraft"' not in dump_lift_report(LiftReport(run_id=RUN_ID))


RUN_ID = "run-sm"


def test_a_skill_in_the_cache_without_a_save_event_still_gets_its_row_and_executions():
    rows = chain()
    rows[0].events = [e for e in rows[0].events if e.tool != "save_skill"]  # save not recorded
    sc = compute_skillcraft(records(), rows)
    assert sc is not None
    parse = next(r for r in sc.skills if r.name == "parse")
    assert parse.created_by.case_id == "c1"  # from the cache entry's created_by
    assert (parse.executions, parse.reused_in) == (4, ["c2", "c3"])
