"""The Evals tab and its file: saving, conflicts on disk, broken files, lint findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillforge.models.findings import Category, Finding, Severity
from tests.widgets.evals_support import clear_and_type, copy_evals, form, started
from tests.widgets.harness import SIZE, EvalsApp, Recorder
from widgets.evals_messages import ReloadRequested, SaveRequested


@pytest.fixture
def evals_path(tmp_path: Path) -> Path:
    return copy_evals(tmp_path)


async def test_reference_turns_that_is_not_a_number_blocks_saving(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        await clear_and_type(pilot, "#field-reference_turns", "0")
        assert "positive integer" in form(app).error_text("reference_turns")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert recorder.of(SaveRequested) == []
        assert app.pane.status_text.startswith("Not saved")
        assert json.loads(evals_path.read_text())["evals"][0].get("reference_turns") is None


async def test_ctrl_s_posts_the_edited_set_and_the_file_is_written(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        await clear_and_type(pilot, "#field-expected_script", "scripts/report.py")
        await pilot.press("ctrl+s")
        await pilot.pause()
        [saved] = recorder.of(SaveRequested)
        assert saved.evalset.cases[0].expected_script == "scripts/report.py"
        assert saved.evalset is not app.pane.evalset  # a snapshot, not the live set
        assert not app.pane.dirty
        assert "Saved" in app.pane.status_text
    data = json.loads(evals_path.read_text())
    assert data["evals"][0]["expected_script"] == "scripts/report.py"
    assert data["evals"][0]["expected_output"] == "Jan 1200, Feb 950, Mar 1410"  # alias kept
    assert data["evals"][0]["difficulty"] == "easy"  # unknown field kept


async def test_conflict_offers_reload_and_the_edits_stay_one_undo_away(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        await clear_and_type(pilot, "#field-notes", "mine")
        on_disk = evals_path.read_text().replace("report revenue by month", "report revenue")
        evals_path.write_text(on_disk)

        await pilot.press("ctrl+s")
        await pilot.pause()
        bar = app.query_one("#evals-conflict")
        assert bar.shown and "changed on disk" in str(bar.query_one("#conflict-text").render())
        assert evals_path.read_text() == on_disk  # nothing written

        await pilot.click("#conflict-reload")
        await pilot.pause()
        assert len(recorder.of(ReloadRequested)) == 1
        assert app.pane.evalset.cases[0].prompt.endswith("report revenue.")
        assert app.pane.evalset.cases[0].notes is None
        assert not app.pane.dirty

        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.pane.evalset.cases[0].notes == "mine"


async def test_conflict_overwrite_writes_my_version(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        await clear_and_type(pilot, "#field-notes", "mine")
        evals_path.write_text(evals_path.read_text().replace("by month", "monthly"))
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.click("#conflict-overwrite")
        await pilot.pause()
        assert not app.pane.dirty
    data = json.loads(evals_path.read_text())
    assert data["evals"][0]["notes"] == "mine"
    assert data["evals"][0]["prompt"].endswith("by month.")


async def test_a_file_that_does_not_parse_is_explained(tmp_path):
    path = tmp_path / "evals.json"
    path.write_text('{"evals": [\n  {"id": "a", "prompt": "x"},\n]\n}\n')
    app = EvalsApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        issues = str(app.query_one("#evals-file-issues").render())
        assert "cannot be edited here until it parses" in issues and "line 3" in issues
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Nothing to save" in app.pane.status_text


async def test_a_case_that_could_not_be_read_is_named_and_saving_is_refused(tmp_path):
    path = tmp_path / "evals.json"
    path.write_text(json.dumps({"evals": [
        {"id": "ok", "prompt": "Summarise sales.csv"},
        {"id": "broken", "kind": "sideways", "prompt": "x"},
    ]}, indent=2))
    recorder = Recorder()
    app = EvalsApp(path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        issues = str(app.query_one("#evals-file-issues").render())
        assert "kind 'sideways' is not one of" in issues and "line 9:" in issues
        assert [c.id for c in app.pane.evalset.cases] == ["ok"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(recorder.of(SaveRequested)) == 1  # the form had nothing to object to
        assert "could not be read" in app.pane.status_text  # the model refused: nothing lost
        assert "broken" in path.read_text()


async def test_lint_findings_update_and_lead_to_their_case(evals_path):
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(app, pilot)
        missing = Finding(rule="SF316", category=Category.reliability, severity=Severity.warning,
                          message="case 'weather' names files/x.csv, which does not exist",
                          path="evals/evals.json", line=app.pane.evalset.cases[2].line + 2)
        other = Finding(rule="SF104", category=Category.correctness, severity=Severity.error,
                        message="frontmatter YAML invalid", path="SKILL.md", line=2)
        app.pane.show_findings([missing, other])
        await pilot.pause()
        findings = app.query_one("#evals-findings")
        assert findings.findings == [missing]
        findings.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.pane.selected_case.id == "weather"

        app.pane.show_findings([])
        await pilot.pause()
        assert findings.findings == []
