"""The Evals tab, driven with Pilot: edit cases, validate inline, undo and redo."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillforge.models.findings import Category, Finding, Severity
from tests.widgets.evals_support import clear_and_type, copy_evals, form, list_labels, started
from tests.widgets.evals_support import diff as diff  # re-exported: the snapshots use it
from tests.widgets.evals_support import proposal as proposal  # re-exported: likewise
from tests.widgets.harness import SIZE, EvalsApp, Recorder
from widgets.case_list import CaseList
from widgets.evals_messages import EditExternally
from widgets.list_editor import ListEditor


@pytest.fixture
def evals_path(tmp_path: Path) -> Path:
    return copy_evals(tmp_path)


async def test_emptying_the_prompt_shows_the_problem_and_typing_one_clears_it(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        assert form(app).error_text("prompt") == ""

        await clear_and_type(pilot, "#field-prompt", "")
        assert "non-empty" in form(app).error_text("prompt")
        assert list_labels(app)[0].startswith("⚠")
        assert "1 with problems" in str(app.query_one("#evals-title").render())

        await pilot.press(*"Summarise sales.csv by month")
        await pilot.pause()
        assert form(app).error_text("prompt") == ""
        assert not list_labels(app)[0].startswith("⚠")
        assert app.pane.evalset.cases[0].prompt == "Summarise sales.csv by month"
        assert app.pane.dirty


async def test_a_duplicate_id_is_flagged_on_both_cases_until_fixed(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        await clear_and_type(pilot, "#field-id", "weather")
        assert "used by 2 cases" in form(app).error_text("id")
        labels = list_labels(app)
        assert labels[0].startswith("⚠") and labels[2].startswith("⚠")
        await pilot.press(*"-2")
        await pilot.pause()
        assert form(app).error_text("id") == ""
        assert [c.id for c in app.pane.evalset.cases] == ["weather-2", "missing-values", "weather"]


async def test_negative_case_naming_a_skill_is_a_problem(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        await pilot.press("down", "down")  # the negative case
        await pilot.pause()
        assert app.pane.selected_case.id == "weather"
        await clear_and_type(pilot, "#field-expected_skill", "csv-insights")
        assert "negative" in form(app).error_text("expected_skill")


async def test_undo_restores_the_text_and_redo_brings_it_back(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        original = app.pane.evalset.cases[0].prompt
        await clear_and_type(pilot, "#field-prompt", "Short prompt")
        assert app.pane.evalset.cases[0].prompt == "Short prompt"

        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.pane.evalset.cases[0].prompt == original
        assert app.query_one("#field-prompt").text == original
        assert not app.pane.dirty

        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.pane.evalset.cases[0].prompt == "Short prompt"
        assert app.pane.dirty


async def test_list_items_are_added_moved_and_removed(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        behaviour = app.query_one("#field-expected_behavior", ListEditor)
        behaviour.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click(behaviour.query_one(".list-add"))
        await pilot.pause()
        await pilot.press(*"Writes summary.md")
        await pilot.pause()
        case = app.pane.evalset.cases[0]
        assert case.expected_behavior[-1] == "Writes summary.md"
        assert len(case.expected_behavior) == 3

        await pilot.press("alt+up")
        await pilot.pause()
        assert app.pane.evalset.cases[0].expected_behavior[1] == "Writes summary.md"

        first = behaviour.rows[0]
        await pilot.click(first.query_one(".list-remove"))
        await pilot.pause()
        assert app.pane.evalset.cases[0].expected_behavior == [
            "Writes summary.md", "Runs scripts/summarize.py rather than hand-writing pandas code"]

        await pilot.press("ctrl+z")  # undoes the removal only: each list change is a step
        await pilot.pause()
        assert app.pane.evalset.cases[0].expected_behavior == [
            "Reads SKILL.md before running any script", "Writes summary.md",
            "Runs scripts/summarize.py rather than hand-writing pandas code"]
        assert behaviour.items == app.pane.evalset.cases[0].expected_behavior


async def test_enter_adds_an_item_and_backspace_in_an_empty_one_removes_it(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        files = app.query_one("#field-files", ListEditor)
        files.rows[0].input.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert len(files.rows) == 2
        await pilot.press(*"evals/files/extra.csv")
        await pilot.pause()
        assert app.pane.evalset.cases[0].files == ["evals/files/sales.csv", "evals/files/extra.csv"]
        for _ in "evals/files/extra.csv":
            await pilot.press("backspace")
        await pilot.press("backspace")
        await pilot.pause()
        assert len(files.rows) == 1
        assert app.pane.evalset.cases[0].files == ["evals/files/sales.csv"]


async def test_ctrl_o_asks_for_the_editor_and_the_text_comes_back(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        app.query_one("#field-prompt").focus()
        await pilot.press("ctrl+o")
        await pilot.pause()
        [ask] = recorder.of(EditExternally)
        assert (ask.field, ask.case_id) == ("prompt", "monthly-revenue")
        assert ask.text.startswith("Use the CSV insights skill")

        app.pane.set_field_text("prompt", "Edited in vim.\n", case_id="monthly-revenue")
        await pilot.pause()
        await pilot.pause()
        assert app.pane.evalset.cases[0].prompt == "Edited in vim.\n"

        app.pane.set_field_text("expected_behavior", "one\ntwo\n", case_id="weather")
        await pilot.pause()
        await pilot.pause()
        assert app.pane.selected_case.id == "weather"
        assert app.pane.evalset.cases[2].expected_behavior == ["one", "two"]


async def test_add_move_and_delete_cases_from_the_list(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        await pilot.press("a")
        await pilot.pause()
        ids = [c.id for c in app.pane.evalset.cases]
        assert ids == ["monthly-revenue", "new-case", "missing-values", "weather"]
        assert "non-empty" in form(app).error_text("prompt")  # a new case needs its prompt

        app.query_one(CaseList).focus()
        await pilot.press("shift+down")
        await pilot.pause()
        assert [c.id for c in app.pane.evalset.cases][2] == "new-case"
        await pilot.press("d")
        await pilot.pause()
        assert [c.id for c in app.pane.evalset.cases] == [
            "monthly-revenue", "missing-values", "weather"]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [c.id for c in app.pane.evalset.cases][2] == "new-case"


async def test_the_pane_can_be_given_its_file_and_findings_before_it_is_mounted(evals_path):
    from textual.app import App

    from skillforge.models.evals_io import EvalsFile
    from widgets.evals_pane import EvalsPane

    finding = Finding(rule="SF314", category=Category.reliability, severity=Severity.warning,
                      message="only 3 eval cases; add more", path="evals/evals.json")

    class Early(App[None]):
        def compose(self):
            pane = EvalsPane()
            pane.load(EvalsFile.load(evals_path))
            pane.show_findings([finding])
            yield pane

    app = Early()
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        pane = app.query_one(EvalsPane)
        assert [c.id for c in pane.evalset.cases] == [
            "monthly-revenue", "missing-values", "weather"]
        assert app.query_one("#field-id").value == "monthly-revenue"
        assert app.query_one("#evals-findings").findings == [finding]


def test_the_editor_groups_typing_per_field_and_tracks_what_is_saved(evals_path):
    """The pane's state without the UI: undo steps, versions, the save blocker."""
    from skillforge.models.evals_io import EvalsFile
    from widgets.evals_editor import EvalsEditor

    editor = EvalsEditor()
    editor.load(EvalsFile.load(evals_path).evalset)
    case = editor.cases[0]
    for text in ("S", "Sh", "Sho"):  # typing: one undo step
        assert editor.edit_field(case, "prompt", text, typed=True)
    assert editor.edit_field(case, "notes", "n", typed=True)  # another field: another step
    assert editor.dirty
    assert editor.undo() and editor.cases[0].notes is None and editor.cases[0].prompt == "Sho"
    assert editor.undo() and editor.cases[0].prompt.startswith("Use the CSV")
    assert not editor.dirty and not editor.undo()

    case = editor.cases[0]
    assert editor.edit_field(case, "prompt", "", typed=True)
    assert "non-empty" in editor.save_blocker()
    assert editor.edit_field(case, "reference_turns", None, error="not a number")
    assert editor.save_blocker() == "Not saved: not a number"
    assert not editor.edit_field(case.model_copy(), "prompt", "x")  # not a case of the set
