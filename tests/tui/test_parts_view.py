"""The Lift tab's Parts view on a stored ablation run (built from records): p shows each part's
tokens, effect with its CI bar and verdict at 80x24 and 120x40; Enter on a part opens Compare
with with_skill on the left and without:<part> on the right."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import SAMPLE_SKILLS
from tests.lift.test_ablation_lift import PARTS, run_trials
from tests.tui.helpers import (
    make_app,
    open_lift,
    press_handled,
    screen_lines,
    screen_text,
    wait_for,
)
from widgets.compare_view import CompareView
from widgets.parts_view import PartsTable


def workspace(tmp_path: Path, monkeypatch, *, ablated: bool = True) -> Path:
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    trials = [t for t in run_trials() if ablated or not t.condition.startswith("without:")]
    conds = list(dict.fromkeys(t.condition for t in trials))
    with RunStore(tmp_path / ".skillforge") as store:
        store.create_run(
            RunRecord(
                run_id="abl-1",
                created_at=datetime(2026, 11, 25, tzinfo=UTC),
                skill_name="csv-insights",
                status="finished",
                spec=RunSpec(
                    skill_path=str(skill),
                    conditions=conds,
                    attempts=1,
                    parts=PARTS if ablated else [],
                ),
            )
        )
        for t in trials:
            store.upsert_trial(t.model_copy(update={"run_id": "abl-1"}))
    return skill


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_parts_view_shows_each_part_and_its_verdict(tmp_path, monkeypatch, size):
    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=size) as pilot:
        lift = await open_lift(pilot)
        await pilot.press("p")
        await wait_for(pilot, lambda: lift.section == "parts", 5, "the Parts view")
        table = app.workbench.query_one(PartsTable)
        await wait_for(pilot, lambda: app.focused is table, 5, "the parts table focused")
        await wait_for(
            pilot,
            lambda: "earns its keep" in screen_text(app) and "p Parts" in screen_text(app),
            5,
            "the parts and the footer drawn",
        )
        text = screen_text(app)
        assert "section:workflow" in text and "earns its keep" in text, text
        assert "harmful" in text and "dead weight" in text, text
        assert "━" in text and "●" in text  # the CI bars
        assert "300" in text  # the workflow section's token cost
        assert "earns its keep, removing it lowers skill_efficiency" in " ".join(text.split())
        assert "p Parts" in text  # the footer offers the key
        rows = [p.part for p in table.parts]
        await pilot.press(*["down"] * rows.index("section:limitations"))
        await wait_for(
            pilot,
            lambda: "removing it raises skill_efficiency" in " ".join(screen_text(app).split()),
            5,
            "the limitations' verdict drawn",
        )
        text = " ".join(screen_text(app).split())
        assert "section:limitations" in text and "removing it raises skill_efficiency" in text


async def test_enter_on_a_part_compares_with_skill_and_without_it(tmp_path, monkeypatch):
    app = make_app(workspace(tmp_path, monkeypatch), Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_lift(pilot)
        await pilot.press("p")
        table = app.workbench.query_one(PartsTable)
        await wait_for(pilot, lambda: app.focused is table, 5, "the parts table focused")
        assert table.current().part == "section:workflow"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                bool(app.workbench.query(CompareView))
                and app.workbench.query_one(CompareView).case_id is not None
            ),
            10,
            "the Compare tab",
        )
        view = app.workbench.query_one(CompareView)
        await wait_for(
            pilot, lambda: "WITHOUT SECTION:WORKFLOW" in screen_text(app), 5, "the two sides drawn"
        )
        # the case where the workflow mattered most (efficiency .8 vs .263 on c79, the last)
        assert view.case_id == "c79"
        assert [a.trial.condition for a in view.sides["baseline"]] == ["without:section:workflow"]
        assert [a.trial.condition for a in view.sides["with_skill"]] == ["with_skill"]
        text = screen_text(app)
        assert "WITHOUT SECTION:WORKFLOW" in text and "WITH SKILL" in text, text


async def test_a_run_without_ablation_has_no_parts_key(tmp_path, monkeypatch):
    app = make_app(workspace(tmp_path, monkeypatch, ablated=False), Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        lift = await open_lift(pilot)
        # the lift's keys in the footer, so the absence of p there is not that of a stale footer
        await wait_for(pilot, lambda: "m Metrics" in screen_lines(app)[-1], 5, "the lift's keys")
        assert "p Parts" not in screen_text(app)
        await press_handled(pilot, "p")
        assert lift.section == "metrics"
