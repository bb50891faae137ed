"""Snapshots of the Lift tab and of the side-by-side reached from its triage list (100x30).

Update after an intended UI change with
`pytest tests/widgets/test_lift_snapshots.py --snapshot-update` and review the SVGs in
tests/widgets/__snapshots__/test_lift_snapshots/.
"""

from __future__ import annotations

import pytest

from tests.widgets.lift_fixture import SIZE, LiftApp, build_store, fixture_report
from widgets.compare_view import CompareView
from widgets.triage_list import NegativeList


@pytest.fixture
def app(tmp_path):
    store = build_store(tmp_path / "state")
    yield LiftApp(store, fixture_report(store))
    store.close()


async def _settled(pilot) -> None:
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()  # until the tab underline stops moving


class TestLiftTab:
    def test_metrics(self, snap_compare, app):
        assert snap_compare(app, terminal_size=SIZE, run_before=_settled)

    def test_heatmap(self, snap_compare, app):
        async def run_before(pilot):
            await _settled(pilot)
            await pilot.press("h", "down", "right")
            await _settled(pilot)

        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)

    def test_negative_lift(self, snap_compare, app):
        async def run_before(pilot):
            await _settled(pilot)
            await pilot.press("t")
            await _settled(pilot)

        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


class TestCompareView:
    def test_negative_case_from_the_triage_list(self, snap_compare, app):
        async def run_before(pilot):
            await _settled(pilot)
            await pilot.press("t")
            await _settled(pilot)
            assert pilot.app.query_one(NegativeList).current() == "pivot-by-region"
            await pilot.press("enter")
            await _settled(pilot)
            view = pilot.app.query_one(CompareView)
            assert view.case_id == "pivot-by-region"
            assert all(view.viewer(s).facts_ready for s in ("with_skill", "baseline"))

        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
