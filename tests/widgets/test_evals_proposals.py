"""The Evals tab and the model: draft and refine requests, proposed cases and case diffs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.widgets.evals_support import copy_evals, diff, proposal, started
from tests.widgets.harness import SIZE, EvalsApp, Recorder
from widgets.evals_messages import (
    DraftRequested,
    ProposalAccepted,
    ProposalRejected,
    RefineRequested,
)
from widgets.proposal_view import ProposalView


@pytest.fixture
def evals_path(tmp_path: Path) -> Path:
    return copy_evals(tmp_path)


async def test_draft_and_refine_post_their_requests(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert [m.case_id for m in recorder.of(RefineRequested)] == ["monthly-revenue"]

        await pilot.press("ctrl+g")
        await pilot.pause()
        await pilot.click("#draft-negative")
        await pilot.click("#draft-count")
        await pilot.press("end", "backspace", "3", "enter")
        await pilot.pause()
        [draft] = recorder.of(DraftRequested)
        assert (draft.kinds, draft.count) == (["explicit", "implicit", "contextual"], 3)


async def test_accepting_drafted_cases_adds_them_without_the_agent_derived_ground_truth(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        app.pane.show_proposal(proposal())
        await pilot.pause()
        view = app.query_one(ProposalView)
        assert view.accepted_values == ["case:top-region", "case:from-session"]  # verify: off
        await pilot.press("a")
        await pilot.pause()
        [accepted] = recorder.of(ProposalAccepted)
        assert accepted.accepted_ids == ["top-region", "from-session"]
        assert accepted.verified_ids == []
        cases = {c.id: c for c in app.pane.evalset.cases}
        assert cases["top-region"].ground_truth == "North"
        assert cases["from-session"].ground_truth is None
        assert "UNVERIFIED" in cases["from-session"].notes
        assert app.pane.dirty and not view.display or not app.pane.has_class("-proposing")


async def test_vouching_for_a_session_ground_truth_keeps_it(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        app.pane.show_proposal(proposal())
        await pilot.pause()
        # Keys only: the first entry has focus; Space toggles, ↓ moves.
        await pilot.press("space", "down", "down", "space")
        await pilot.pause()
        assert app.query_one(ProposalView).accepted_values == ["case:from-session",
                                                               "verify:from-session"]
        await pilot.press("a")
        await pilot.pause()
        [accepted] = recorder.of(ProposalAccepted)
        assert (accepted.accepted_ids, accepted.verified_ids) == (["from-session"],
                                                                  ["from-session"])
        assert app.pane.evalset.case("from-session").ground_truth == "Jan 1200"
        assert app.pane.evalset.case("top-region") is None


async def test_a_case_diff_starts_without_the_agent_derived_ground_truth(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        app.pane.show_diff(diff())
        await pilot.pause()
        view = app.query_one(ProposalView)
        assert view.accepted_values == ["field:prompt", "field:expected_behavior"]
        flagged = view.entry("field:ground_truth")
        assert "agent's own answer" in flagged.text and flagged.has_class("-flagged")
        assert "+ Jan 1200, Feb 950, Mar 1410, Apr 800" in flagged.text  # old -> new shown
        assert "- Jan 1200, Feb 950, Mar 1410" in flagged.text

        await pilot.press("a")
        await pilot.pause()
        [accepted] = recorder.of(ProposalAccepted)
        assert accepted.accepted_fields == ["prompt", "expected_behavior"]
        assert accepted.case_id == "monthly-revenue"
        case = app.pane.evalset.cases[0]
        assert case.prompt == "Report revenue by month from sales.csv."
        assert case.expected_behavior[-1] == "Runs scripts/summarize.py"
        assert case.ground_truth == "Jan 1200, Feb 950, Mar 1410"  # not accepted

        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.pane.evalset.cases[0].prompt.startswith("Use the CSV insights skill")


async def test_rejecting_a_diff_changes_nothing(evals_path):
    recorder = Recorder()
    app = EvalsApp(evals_path)
    async with app.run_test(size=SIZE, message_hook=recorder) as pilot:
        await started(app, pilot)
        before = app.pane.evalset.model_dump()
        app.pane.show_diff(diff())
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert len(recorder.of(ProposalRejected)) == 1
        assert recorder.of(ProposalAccepted) == []
        assert app.pane.evalset.model_dump() == before
        assert not app.pane.dirty and not app.pane.has_class("-proposing")


def test_a_diff_for_a_case_that_is_gone_changes_nothing(evals_path):
    from skillforge.models.evals_io import EvalsFile
    from widgets.evals_editor import EvalsEditor

    editor = EvalsEditor()
    editor.load(EvalsFile.load(evals_path).evalset)
    editor.delete_case(0)
    before = editor.working.model_dump()
    with pytest.raises(KeyError, match="monthly-revenue"):
        editor.apply(diff(), accepted_fields=["prompt"])
    assert editor.working.model_dump() == before
