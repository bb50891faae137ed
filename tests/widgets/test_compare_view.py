"""One case side by side: loading it from the store, and the Compare view driven with Pilot.

The case is the fixture run's planted negative case, pivot-by-region: with the skill the
agent opens SKILL.md at step 3, runs the script with an option it does not have at step 4
(exit 2) and answers with a partial table at step 6 (step 7 in attempt 1, which lists the
workspace first); without the skill it writes the pivot with pandas in 5 steps.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from skillforge.trajectory.compare_data import answer_diff, evidence_links, load_case_attempts
from tests.widgets.lift_fixture import (
    RUN_ID,
    SIZE,
    WORST,
    CompareApp,
    LiftApp,
    Recorder,
    build_store,
    fixture_report,
)
from widgets.compare_view import CompareClosed, CompareView
from widgets.triage_list import NegativeList


@pytest.fixture
def store(tmp_path):
    s = build_store(tmp_path / "state")
    yield s
    s.close()


def plain(renderable, width: int = 400) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


async def settled(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


# --- loading (headless) ----------------------------------------------------------------------

def test_a_case_loads_every_attempt_of_both_sides_with_trajectory_and_evidence(store):
    case = load_case_attempts(store, RUN_ID, WORST)
    assert case.skill == "csv-insights" and case.kind == "explicit"
    assert [a.number for a in case.sides["with_skill"]] == [0, 1, 2]
    assert [a.number for a in case.sides["baseline"]] == [0, 1, 2]
    first = case.sides["with_skill"][0]
    assert len(first.trajectory.steps) == 6 and first.problem is None
    assert first.final_answer.startswith("The script does not pivot")
    assert first.score("accuracy") == 0.3 and first.score("grader") == 0.0
    links = {(l.metric, l.step_id) for l in first.links}
    assert ("accuracy", 4) in links and ("goal_accuracy", 6) in links
    assert ("behavior_check", 3) in links and ("skill_execution", 3) in links
    # The representative attempt: overall closest to the side's mean (the middle jitter).
    assert case.start == {"with_skill": 0, "baseline": 0}


def test_a_damaged_trajectory_becomes_a_problem_not_an_exception(store):
    path = store.state_dir / f"runs/{RUN_ID}/{WORST}__with_skill__1.json"
    path.write_text('{"schema_version": "ATIF-v1.7", "steps": [', "utf-8")
    case = load_case_attempts(store, RUN_ID, WORST)
    broken = case.sides["with_skill"][1]
    assert broken.trajectory is None
    assert str(path) in broken.problem and "not valid JSON at line 1" in broken.problem
    assert case.problems == [broken.problem]
    assert case.sides["with_skill"][0].trajectory is not None


def test_unknown_runs_and_cases_say_what_exists(store):
    with pytest.raises(LookupError, match=f"no run 'nope'.*recent runs: {RUN_ID}"):
        load_case_attempts(store, "nope", WORST)
    with pytest.raises(LookupError, match="no trial of case 'nope'.*monthly-revenue"):
        load_case_attempts(store, RUN_ID, "nope")


def test_evidence_links_come_from_every_stored_shape():
    judge = {"judges": {"m1": {"score": 3, "evidence": [{"step_id": 4, "quote": "exit 2"}]}}}
    assert [(l.step_id, l.text, l.source) for l in evidence_links("accuracy", judge)] == \
        [(4, "“exit 2”", "m1")]
    behaviour = {"assertions": [{"index": 2, "assertion": "Runs the script", "answers": {
        "m1": {"answer": "no", "step_id": 5, "quote": "wrote pandas"}}}]}
    (link,) = evidence_links("behavior_check", behaviour)
    assert link.step_id == 5 and link.text == "#2 Runs the script · no · “wrote pandas”"
    checks = {"checks": [{"check": "expected script run", "holds": True,
                          "why": "run at step(s) 4, 7 (exit codes 0, 0)"}]}
    assert [l.step_id for l in evidence_links("skill_execution", checks)] == [4, 7]
    security = {"findings": [{"kind": "outside_access", "label": "access outside",
                              "step_ids": [3, 9], "details": ["step 3: reads /etc/passwd"]}]}
    found = evidence_links("security", security)
    assert [(l.step_id, l.text) for l in found] == [(9, "access outside"),
                                                    (3, "step 3: reads /etc/passwd")]
    assert evidence_links("goal_accuracy", {"null_because": "no ground_truth"}) == []


def test_the_answer_diff_gives_back_both_answers():
    before = "Saved the pivot: East 1204.10, West 2209.50 (attempt 1)."
    after = "The script does not pivot, so I wrote a partial table (attempt 1)."
    parts = answer_diff(before, after)
    assert "".join(t for op, t in parts if op != "insert") == before
    assert "".join(t for op, t in parts if op != "delete") == after
    assert parts[-1] == ("equal", "(attempt 1).")
    assert answer_diff("same", "same") == [("equal", "same")]


# --- the view ------------------------------------------------------------------------------

async def test_both_sides_are_shown_step_by_step_with_blanks_where_one_is_shorter(store):
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.view
        w, b = view.viewer("with_skill"), view.viewer("baseline")
        assert len(w.trajectory.steps) == 6 and len(b.trajectory.steps) == 5
        # Six aligned slots on each side: the same rows, so step i faces step i.
        assert w.row_count == b.row_count == 6 * view.slot_rows
        assert w.scroll_to_step(6)
        await settled(pilot)
        assert b.scroll_y == w.scroll_y > 0  # the other side follows
        assert 6 in w.step_ids_visible()
        # Slot 6 is step 6 on the left and a blank `·` on the right.
        row = 5 * view.slot_rows - round(w.scroll_y)
        assert w.render_line(row).text.strip(" ▌").startswith("#6 agent")
        assert b.render_line(row).text.strip(" ▌") == "·"
        heads = {s: plain(app.query_one(f"#head-{s}").content) for s in ("with_skill", "baseline")}
        assert "WITH SKILL" in heads["with_skill"] and "acc 0.30" in heads["with_skill"]
        assert "BASELINE" in heads["baseline"] and "acc 0.75" in heads["baseline"]
        assert "overall 0.33" in heads["with_skill"] and "grader 1.00" in heads["baseline"]


async def test_the_skill_activation_is_highlighted_on_the_with_skill_side(store):
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        w, b = app.view.viewer("with_skill"), app.view.viewer("baseline")
        (act,) = w.marks_for(3).activations
        assert act.skill_name == "csv-insights"
        assert "SKILL csv-insights" in w.rendered_text(3)
        assert "RUN scripts/summarize.py ✗ exit 2" in w.rendered_text(4)
        assert not b.marks_for(3).activations and "SKILL" not in b.rendered_text(3)


async def test_the_final_answers_are_diffed(store):
    app = CompareApp(store, WORST, fixture_report(store))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        parts = app.view.diff_parts
        deleted = ("Saved the pivot to /workspace/pivot.md: East 1204.10 / 2210.90, "
                   "West 2209.50 / 2033.40 ")
        assert ("delete", deleted) in parts
        assert ("insert", "The script does not pivot, so I wrote a partial table ") in parts
        shown = plain(app.query_one("#compare-diff-text").content)
        assert "− baseline    Saved the pivot" in shown
        assert "+ with skill  The script does not pivot" in shown
        title = plain(app.query_one("#compare-title").content)
        assert "Case pivot-by-region (explicit) · Δ overall -0.570 · misused" in title


async def test_selecting_evidence_scrolls_that_side_to_the_step(store):
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.view
        w = view.viewer("with_skill")
        assert 6 not in w.step_ids_visible()
        target = next(i for i, (side, link) in enumerate(view.links)
                      if side == "with_skill" and link.metric == "goal_accuracy")
        assert view.links[target][1].step_id == 6
        evidence = app.query_one("#compare-evidence")
        evidence.focus()
        evidence.highlighted = target
        await pilot.press("enter")
        await settled(pilot)
        assert w.cursor_step_id == 6 and 6 in w.step_ids_visible()
        assert view.viewer("baseline").scroll_y == w.scroll_y


async def test_the_attempt_key_moves_both_sides_or_only_the_focused_one(store):
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.view
        app.query_one("#compare-evidence").focus()
        await pilot.press("a")
        await settled(pilot)
        assert view.attempt("with_skill").number == 1 and view.attempt("baseline").number == 1
        assert view.viewer("with_skill").trajectory.session_id == f"{WORST}-with_skill-1"
        assert len(view.viewer("with_skill").trajectory.steps) == 7  # attempt 1 lists files
        assert "attempt 1 (2 of 3)" in plain(app.query_one("#head-with_skill").content)
        assert any("(attempt 2)." in t for _, t in view.diff_parts)
        view.viewer("baseline").focus()
        await pilot.press("A")
        await settled(pilot)
        assert view.attempt("baseline").number == 0 and view.attempt("with_skill").number == 1
        await pilot.press("A")  # wraps around
        await settled(pilot)
        assert view.attempt("baseline").number == 2


async def test_escape_leaves_the_side_by_side(store):
    rec = Recorder()
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settled(pilot)
        app.query_one("#compare-evidence").focus()
        await pilot.press("escape")
        await settled(pilot)
    assert [m.case_id for m in rec.of(CompareClosed)] == [WORST]


async def test_enter_in_the_triage_list_opens_that_case_side_by_side(store):
    app = LiftApp(store, fixture_report(store))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.press("t")
        app.query_one(NegativeList).select_case("q4-top-region")
        await pilot.press("enter")
        await settled(pilot)
        view = app.query_one(CompareView)
        assert view.display and view.case_id == "q4-top-region"
        assert not view.viewer("with_skill").marks_for(3).activations  # never discovered


async def test_a_side_without_attempts_or_trajectory_says_so(store):
    path = store.state_dir / f"runs/{RUN_ID}/{WORST}__baseline__0.json"
    path.unlink()
    case = load_case_attempts(store, RUN_ID, WORST)
    app = CompareApp(store, WORST)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        view = app.view
        view.show(WORST, {"with_skill": case.sides["with_skill"], "baseline": []},
                  skill=case.skill)
        await settled(pilot)
        assert "no attempt on this side" in plain(app.query_one("#head-baseline").content)
        assert view.viewer("baseline").trajectory is None
        assert "(no final answer)" in plain(app.query_one("#compare-diff-text").content)
        view.show_case(case)
        await settled(pilot)
        head = plain(app.query_one("#head-baseline").content)
        assert "is missing" in head and "re-run the trial" in head
        assert view.viewer("with_skill").trajectory is not None
