"""The Lift tab's agreement view (issue 19), by keys on a stored run, at 80x24 and 120x40.

With labels (made here through the store API): `a` ranks the judge models as `skillforge
judge --compare-judges` ranks them, under the skill's own [judge] bar (its skillforge.toml,
not the defaults), marks the judge and metric that disagree with the author "not
calibrated", shows raw vs calibrated lift, and the metrics table marks the metric too.
Without labels: one line says how to label.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.lift.calibration_rank import compare_rows, label_judgments, rank
from skillforge.lift.calibration_run import run_judgments
from skillforge.models.config import Settings
from skillforge.models.judge import CRITERIA
from skillforge.models.labels import CalibrationBar, Label
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import make_app, open_lift, screen_text, wait_for
from tests.widgets.lift_fixture import JUDGE, RUN_ID, SKILL, build_store
from widgets.agreement_view import AgreementView
from widgets.ci_bars import MetricTable
from widgets.lift_view import LiftView

SIZES = [(80, 24), (120, 40)]
# The skill's own bar: with the default (20 labels) goal_accuracy's 8 labels would be
# "too few labels"; under this one they are enough.
SKILL_TOML = "[judge]\ncalibration_kappa = 0.5\ncalibration_min_labels = 6\n"
VERSIONS = 6  # rubric labels of six versions of the skill


def _label_store(state: Path) -> None:
    """The fixture run, labelled: accuracy against the judge (author = 1 - judge), goal as
    the judge said (with_skill, first attempt), and rubric criteria of six versions scored
    by a faithful judge and one that gives 2 more."""
    with build_store(state) as store:
        judgments = run_judgments(store, RUN_ID)
        acc = [j for j in judgments if j.metric == "accuracy"]
        goal = [
            j
            for j in judgments
            if j.metric == "goal_accuracy" and j.condition == "with_skill" and j.attempt == 0
        ]
        labels = [Label.of(j, round(1.0 - j.value, 3), "the judge has it backwards") for j in acc]
        labels += [Label.of(j, j.value, source="compare") for j in goal]
        for v in range(VERSIONS):
            for i, criterion in enumerate(CRITERIA):
                author = float((v + i) % 7 + 1)
                for judge, value in (("faithful", author), ("generous", author + 2)):
                    labels.append(
                        Label(
                            kind="rubric",
                            content_hash=f"version-{v}",
                            metric=criterion,
                            judge_model=judge,
                            prompt_version="rubric-v1",
                            author_value=author,
                            judge_value=value,
                            skill=SKILL,
                            source="judge_tab",
                        )
                    )
        store.save_labels(labels)


@pytest.fixture
def labelled(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    (skill / "skillforge.toml").write_text(SKILL_TOML, "utf-8")
    _label_store(tmp_path / ".skillforge")
    return skill


@pytest.fixture
def unlabelled(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    build_store(tmp_path / ".skillforge").close()
    return skill


async def open_agreement(pilot) -> AgreementView:
    """Lift tab, Enter on the run, then a (straight from the run list)."""
    app = pilot.app
    lift = await open_lift(pilot)
    await pilot.press("a")
    view = app.workbench.query_one(AgreementView)
    await wait_for(pilot, lambda: view.data is not None, 30, "the agreement")
    await wait_for(pilot, lambda: lift.section == "agreement", 5, "the agreement section")
    return view


def test_the_ranking_is_compare_judges_ranking_of_the_stored_labels(labelled: Path):
    """What the view must show, computed the way --compare-judges does (not by the view)."""
    with RunStore(labelled.parent / ".skillforge") as store:
        labels = store.labels()
        rows = compare_rows(
            run_judgments(store, RUN_ID) + label_judgments(labels),
            labels,
            store.repeated_judgments(),
            CalibrationBar(min_kappa=0.5, min_labels=6),
        )
    ranking = rank(rows)
    assert [d["judge"] for d in ranking] == ["faithful", "generous", JUDGE]
    assert ranking[-1]["not_calibrated"] == ["accuracy"]
    status = {(r.judge, r.metric): r.status for r in rows}
    assert status[(JUDGE, "goal_accuracy")] == "calibrated"  # 8 labels >= the skill's 6


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_ranks_the_judges_and_marks_the_uncalibrated(labelled: Path, size):
    app = make_app(labelled, Settings())
    async with app.run_test(size=size) as pilot:
        view = await open_agreement(pilot)
        data = view.data
        assert data is not None
        assert (data.bar.min_kappa, data.bar.min_labels) == (0.5, 6)  # the skill's toml
        assert [d["judge"] for d in data.ranking] == ["faithful", "generous", JUDGE]
        text = " ".join(view.text.split())  # as read, whatever the wrapping
        first, second, third = (
            text.index(f"{i}. {j}") for i, j in enumerate(["faithful", "generous", JUDGE], 1)
        )
        assert first < second < third
        assert f"{JUDGE} κ" in text and "not calibrated: accuracy" in text
        assert "κ ≥ 0.5 with ≥ 6 labels" in text
        assert "Raw and calibrated lift (run " + RUN_ID in text
        # the ranking is on screen, not only in the widget
        await wait_for(pilot, lambda: "1. faithful" in screen_text(app), 5, "the ranking drawn")
        screen = screen_text(app)
        assert "1. faithful" in screen, screen
        assert "not calibrated" in screen, screen
        # the metrics table marks the metric whose judge disagrees with the author
        await pilot.press("m")
        lift = app.workbench.query_one(LiftView)
        await wait_for(pilot, lambda: lift.section == "metrics", 5, "the metrics")
        await wait_for(
            pilot,
            lambda: "accuracy (not calibrated)" in screen_text(app),
            5,
            "the metrics table drawn with its mark",
        )
        table = app.workbench.query_one(MetricTable)
        assert table.bar_text("accuracy")  # the bar still fits beside the mark
        screen = screen_text(app)
        assert "accuracy (not calibrated)" in screen, screen
        assert "goal_accuracy (not" not in screen, screen  # calibrated under the skill's bar


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_without_labels_one_line_says_how_to_label(unlabelled: Path, size):
    app = make_app(unlabelled, Settings())
    async with app.run_test(size=size) as pilot:
        view = await open_agreement(pilot)
        assert view.data is not None and view.data.labels == 0 and view.data.ranking == []
        text = " ".join(view.text.split())
        assert text.startswith("No labels for this skill yet: run `skillforge label RUN_ID`")
        assert "Judge tab (a accept, o your score)" in text
        assert "Compare (y confirm, o correct)" in text
        # drawn first, so that the absence below is not that of a blank pane
        await wait_for(
            pilot, lambda: "No labels" in screen_text(app), 5, "the how-to-label line drawn"
        )
        assert "not calibrated" not in screen_text(app)
