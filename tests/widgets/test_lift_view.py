"""The Lift tab on a stored run: the table, its CI bars, the heatmap, triage, runs, comparison.

The run comes from `tests/widgets/lift_fixture.py`: eight cases of csv-insights with three
attempts per side, stored in a real RunStore with trajectories and evidence. Expected
numbers below are worked out by hand from the fixture's levels (the attempt jitter
0, +0.02, -0.02 averages out).
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from skillforge.lift.compute import compute_lift
from skillforge.lift.agreement import judge_agreement
from skillforge.lift.compare import compare_reports
from skillforge.models.trial import JUDGED_METRICS
from tests.widgets.lift_fixture import (
    OTHER_RUN_ID,
    RUN_ID,
    SIZE,
    WORST,
    LiftApp,
    PickerApp,
    Recorder,
    build_store,
    fixture_report,
    fixture_trials,
)
from widgets.ci_bars import MetricTable, bar_cells, ci_bar
from widgets.heatmap import Heatmap, heat_rgb
from widgets.lift_view import CompareRequested, LiftView
from widgets.triage_list import NegativeList
from widgets.run_picker import CompareRunsChosen, RunChosen, RunPicker


@pytest.fixture
def store(tmp_path):
    s = build_store(tmp_path / "state", second_run=True)
    yield s
    s.close()


def plain(renderable, width: int = 100) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def table_line(app: LiftApp, metric: str) -> str:
    table = app.query_one(MetricTable)
    text = plain(table.render(), table.size.width)
    return next(line for line in text.splitlines() if line.startswith(metric + " "))


def static_text(app: LiftApp, selector: str) -> str:
    """A Static's text, on one long line per paragraph (wrapping depends on the width)."""
    return plain(app.query_one(selector).content, width=400)


async def settled(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


# --- the metric table ----------------------------------------------------------------------

async def test_the_table_shows_each_metrics_lift_ci_and_verdict(store):
    report = fixture_report(store)
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        # accuracy: with 6.35/8, base 5.55/8 (the jitter averages out): +0.100 in 6 of 8
        acc = table_line(app, "accuracy")
        low, high = report.metrics["accuracy"].ci_low, report.metrics["accuracy"].ci_high
        assert "+0.100" in acc and f"[{low:+.3f}, {high:+.3f}]" in acc
        assert "◆ inconclusive" in acc and " 75% " in acc and " 8 " in acc
        # the process metrics are not lift rows: how the skill was used is said apart
        table = plain(app.query_one(MetricTable).render(), 200)
        assert "skill_execution" not in table and "skill_efficiency" not in table
        use = static_text(app, "#lift-use")
        assert "The agent used the skill in 7 of 8 cases (88% of its with-skill attempts)" \
            in use and "skill_execution 0.83 with the skill, 0.00 without" in use
        title = plain(app.query_one("#lift-title").content)
        assert title.startswith("Skill Lift: csv-insights")
        # the components are the table's rows right below, so the title leaves them out
        assert "Overall Skill Lift: +0.159" in title and "inconclusive" in title


def _decided_report():
    """Ten cases where accuracy goes 0 -> 1 and the grader 1 -> 0 with the skill."""
    from tests.lift.builders import trial

    trials = []
    for i in range(10):
        trials.append(trial(f"c{i}", "with_skill", metrics={"accuracy": 1.0, "security": 1.0},
                            grader=0.0, activated=True))
        trials.append(trial(f"c{i}", "baseline", metrics={"accuracy": 0.0, "security": 1.0},
                            grader=1.0))
    return compute_lift(trials, run_id=RUN_ID, skill="csv-insights")


async def test_the_ci_bar_of_a_hurting_metric_lies_left_of_zero(store):
    report = _decided_report()
    assert (report.metrics["grader"].verdict, report.metrics["accuracy"].verdict) == \
        ("hurts", "helps")
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        table = app.query_one(MetricTable)
        hurts = table.bar_text("grader")
        zero = hurts.index("│")
        drawn = [i for i, ch in enumerate(hurts) if ch in "━●◀"]
        assert drawn and max(drawn) < zero
        assert "▼ hurts" in table_line(app, "grader")
        helps = table.bar_text("accuracy")
        drawn = [i for i, ch in enumerate(helps) if ch in "━●▶"]
        assert drawn and min(drawn) > helps.index("│")
        # The interval of an inconclusive metric crosses zero (overall: accuracy's +1 and the
        # grader's -1 cancel, security held: every delta 0, the dot on zero).
        flat = table.bar_text("overall")
        mid = len(flat) // 2
        assert flat[mid] == "●" and flat[mid - 1] == "━" and flat[mid + 1] == "━"
        # The headline leads with what the grader and the pass test decided, in red.
        title = plain(app.query_one("#lift-title").content)
        assert "hurts (overall alone is inconclusive; grader and pass rate decided it)" in \
            " ".join(title.split())


def test_bar_cells_place_zero_the_interval_and_the_lift_on_one_scale():
    cells = bar_cells(-0.5, -0.7, -0.3, 1.0, 21)
    assert (cells.zero, cells.low, cells.marker, cells.high) == (10, 3, 5, 7)
    clipped = ci_bar(0.9, 0.6, 1.4, 1.0, 21, "helps").plain
    assert clipped.endswith("▶") and clipped.index("●") == 19
    assert bar_cells(0.2, None, None, 1.0, 21).low is None  # n < 2: the lift alone


async def test_inconclusive_rows_carry_the_sample_size_planner(store):
    report = fixture_report(store)
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        needed = report.extra.plans["overall"].cases_needed
        assert f"~{needed} cases" in table_line(app, "overall")
        plans = static_text(app, "#lift-plans")
        assert f"overall is inconclusive: about {needed} cases needed" in plans
    decided = _decided_report()
    app = LiftApp(store, decided)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert "cases" not in table_line(app, "accuracy")  # helps: no plan
        assert "accuracy is inconclusive" not in static_text(app, "#lift-plans")


async def test_a_verdict_withheld_for_too_few_cases_says_so_with_the_planner_number(store):
    # Three paired cases that all gain: still inconclusive (a verdict needs six).
    from tests.lift.builders import paired_cases

    report = compute_lift(paired_cases([0.3, 0.1, 0.5]), run_id=RUN_ID, skill="csv-insights")
    needed = report.extra.withheld["overall"].cases_needed
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        row = table_line(app, "overall")
        assert "◆ inconclusive" in row and f"n<6 ~{needed}" in row
        plans = static_text(app, "#lift-plans")
        assert "overall is inconclusive: too few cases (3 paired; a verdict needs at least " \
               f"6); about {needed} cases needed" in plans


async def test_the_metrics_section_shows_dimensions_pass_efficiency_and_inventory(store):
    app = LiftApp(store, fixture_report(store))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        dims = static_text(app, "#lift-dimensions")
        assert "Discoverability" in dims and \
            "skill_execution (use), skill_efficiency (use)" in dims
        passes = static_text(app, "#lift-pass")
        # The grader gives 1 exactly when goal_accuracy is 1: with the skill 6 of 8 cases
        # pass, without 3 of 8 (pivot, q4, date-formats); g = (0.75 - 0.375) / 0.625 = 0.6.
        assert "Pass rate 38% without → 75% with the skill" in passes
        assert "g = +0.600" in passes and "k=1 75% / 38%" in passes
        # the same outcomes as pairs: one attempt... no, three: each case's pass rate
        assert "Paired pass/fail: with the skill 75% on average over 8 cases" in passes
        assert "exact sign test p = " in passes
        eff = static_text(app, "#lift-efficiency")
        # Only date-formats passed on both sides: tokens 10,400 vs 16,300 = -36.2%.
        assert "-36.2%" in eff and "negative = saving" in eff
        assert "(18 of 21 runs exited 0)" in eff  # pivot's three runs failed
        assert "48 trials: 48 ok, 0 error, 0 timeout." in static_text(app, "#lift-inventory")


async def test_missing_judged_metrics_are_named_with_what_to_do(store):
    trials = fixture_trials()
    for t in trials:
        t.metrics.update({m: None for m in JUDGED_METRICS})
    report = compute_lift(trials, run_id=RUN_ID, skill="csv-insights")
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        inventory = static_text(app, "#lift-inventory")
        assert "Not measured: accuracy, goal_accuracy, behavior_check" in inventory
        assert "ANTHROPIC_API_KEY" in inventory


async def test_a_version_delta_is_labelled_as_such(store):
    agreement = judge_agreement({"judge-a": {1: {"accuracy": 0.5}, 2: {"accuracy": 0.9}},
                                 "judge-b": {1: {"accuracy": 0.7}, 2: {"accuracy": 0.9}}})
    report = compute_lift(fixture_trials(), run_id=RUN_ID, skill="csv-insights",
                          baseline_version="v1.2", judge_agreement=agreement)
    app = LiftApp(store, report)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        title = static_text(app, "#lift-title")
        assert title.startswith("version delta: csv-insights")
        assert "earlier version v1.2" in title
        inventory = static_text(app, "#lift-inventory")
        assert "Judge agreement (judge-a, judge-b): accuracy" in inventory
        assert "mean |Δ| 0.10" in inventory


async def test_a_narrow_table_drops_columns_but_keeps_bar_and_verdict(store):
    wide, narrow = LiftApp(store, fixture_report(store)), LiftApp(store, fixture_report(store))
    async with wide.run_test(size=(160, 40)) as pilot:
        await settled(pilot)
        wide_cols = wide.query_one(MetricTable).columns
    async with narrow.run_test(size=(64, 30)) as pilot:
        await settled(pilot)
        narrow_cols = narrow.query_one(MetricTable).columns
        assert "+0.100" in table_line(narrow, "accuracy")
    assert {"with", "base", "ci", "pos", "n", "plan"} <= set(wide_cols)
    assert {"metric", "lift", "bar", "verdict"} <= set(narrow_cols)
    assert "ci" not in narrow_cols and "with" not in narrow_cols


# --- heatmap ---------------------------------------------------------------------------------

async def test_the_heatmap_cell_of_a_case_shows_its_paired_delta(store):
    app = LiftApp(store, fixture_report(store))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.press("h")
        await settled(pilot)
        heat = app.query_one(Heatmap)
        assert app.focused is heat
        # pivot overall, the outcome metrics: with (0.3 + 0 + 0.35 + 1 + grader 0) / 5 =
        # 0.33, base (0.75 + 1 + 0.75 + 1 + 1) / 5 = 0.90.
        assert heat.cell_text(WORST, "overall") == "-0.57"
        assert heat.cell_text(WORST, "goal_accuracy") == "-1.00"
        assert heat.cell_text("date-formats", "security") == "+0.25"
        assert "skill_execution" not in heat.metrics  # use, not a paired delta
        red, green, _ = heat_rgb(-0.57, heat.scale)
        assert red > green
        # Sorted by overall delta, best first: the planted worst case is the last row.
        assert [r.case_id for r in heat.case_rows][-1] == WORST


async def test_moving_over_the_heatmap_explains_the_cell_and_enter_asks_to_compare(store):
    rec = Recorder()
    app = LiftApp(store, fixture_report(store))
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settled(pilot)
        await pilot.press("h")
        heat = app.query_one(Heatmap)
        heat.move_to("q4-top-region", "overall")
        await pilot.press("right")
        await settled(pilot)
        assert heat.current() == ("q4-top-region", "grader")
        await pilot.press("right")
        await settled(pilot)
        assert heat.current() == ("q4-top-region", "accuracy")
        detail = static_text(app, "#heat-detail")
        assert "q4-top-region (contextual)" in detail and "accuracy: with 0.50, base 0.70" in detail
        await pilot.press("enter")
        await settled(pilot)
    asked = rec.of(CompareRequested)
    assert [(m.case_id, m.run_id) for m in asked] == [("q4-top-region", RUN_ID)]


# --- negative-lift triage --------------------------------------------------------------------

async def test_the_negative_list_holds_the_planted_case_with_its_class_and_evidence(store):
    rec = Recorder()
    app = LiftApp(store, fixture_report(store))
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settled(pilot)
        await pilot.press("t")
        await settled(pilot)
        negatives = app.query_one(NegativeList)
        assert negatives.case_ids == [WORST, "q4-top-region"]
        assert negatives.get_cell(WORST, "class").plain == "misused"
        assert negatives.get_cell("q4-top-region", "class").plain == "never_discovered"
        detail = static_text(app, "#triage-detail")
        assert "misused: the skill was opened and correctness fell" in detail
        assert "accuracy, goal_accuracy, behavior_check fell" in detail
        assert "activation rate 100%" in detail
        tab = app.query_one("#lift-tabs").get_tab("lift-triage")
        assert tab.label.plain == "Negative lift (2)"
        await pilot.press("enter")
        await settled(pilot)
    asked = rec.of(CompareRequested)
    assert [m.case_id for m in asked] == [WORST]


# --- runs and comparison ---------------------------------------------------------------------

async def test_the_run_picker_lists_runs_newest_first_and_posts_the_choice(store):
    rec = Recorder()
    app = PickerApp(store)
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settled(pilot)
        picker = app.query_one(RunPicker)
        assert [r.run_id for r in picker.runs] == [OTHER_RUN_ID, RUN_ID]
        assert picker.get_cell(RUN_ID, "trials").plain == "48"
        assert picker.get_cell(RUN_ID, "date") == "2026-11-20 10:03"
        assert picker.get_cell(RUN_ID, "skill") == "csv-insights"
        await pilot.press("down", "enter")
        await settled(pilot)
        assert [m.run_id for m in rec.of(RunChosen)] == [RUN_ID]
        await pilot.press("space", "up", "c")
        await settled(pilot)
    pairs = [(m.run_a, m.run_b) for m in rec.of(CompareRunsChosen)]
    assert pairs == [(RUN_ID, OTHER_RUN_ID)]  # older first, whatever the marking order


async def test_compare_without_two_runs_says_how(store):
    rec = Recorder()
    app = PickerApp(store)
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settled(pilot)
        await pilot.press("c")
        await settled(pilot)
        assert not rec.of(CompareRunsChosen)
        assert any("Mark two runs" in n.message for n in app._notifications)


async def test_a_run_comparison_shows_the_change_of_lift_with_its_ci(store):
    a, b = fixture_report(store, RUN_ID), fixture_report(store, OTHER_RUN_ID)
    app = LiftApp(store, a)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.query_one(LiftView)
        view.show_comparison(compare_reports(a, b))
        await settled(pilot)
        # Run B's with-skill accuracy is +0.05 in every attempt of every case.
        line = table_line(app, "accuracy")
        assert "+0.100" in line and "+0.150" in line and "+0.050" in line
        # The same change in 8 cases, on the range of a change of lift [-2, 2], is not
        # yet a verdict: its interval is wide, not zero-width
        assert "◆ inconclusive" in line and "[+0.050, +0.050]" not in line
        assert "▲ better" not in table_line(app, "security")
        title = static_text(app, "#lift-title")
        assert f"{RUN_ID} (Skill Lift) → {OTHER_RUN_ID} (Skill Lift)" in title
        await pilot.press("b")
        await settled(pilot)
        assert view.comparison is None
        assert static_text(app, "#lift-title").startswith("Skill Lift: csv-insights")


async def test_an_empty_report_and_a_missing_side_render_without_surprises(store):
    app = LiftApp(store, compute_lift([], run_id="empty"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.query_one(LiftView)
        assert "No paired case yet" in static_text(app, "#lift-title")
        assert "—" in table_line(app, "overall")
        assert "No case has a negative overall lift." in static_text(app, "#triage-detail")
        # One case ran only with the skill: its cells are `·`, and the inventory says so.
        trials = [t for t in fixture_trials() if not (t.case_id == WORST and
                                                       t.condition == "baseline")]
        view.show(compute_lift(trials, run_id=RUN_ID, skill="csv-insights"))
        await settled(pilot)
        assert app.query_one(Heatmap).cell_text(WORST, "overall") == "·"
        assert "1 case(s) lack one side" in static_text(app, "#lift-inventory")
        view.show(None)
        await settled(pilot)
        assert static_text(app, "#lift-title").startswith("No run chosen yet.")
