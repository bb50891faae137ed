"""Snapshots of the workbench's main states (pytest-textual-snapshot, Textual pinned, 100x30).

Update after an intended UI change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and review the SVGs in tests/tui/__snapshots__/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import FIXTURES, SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, screen_text, settle, wait_for


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    """A launch directory of our own, so paths on screen are the same on every machine."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDITOR", "true")
    return tmp_path


def _copy(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


async def _settled(pilot) -> None:
    await settle(pilot)
    await pilot.wait_for_scheduled_animations()  # until the tab underline stops moving


class TestLintTab:
    def test_clean_skill(self, snap_compare, here):
        skill = _copy(SAMPLE_SKILLS / "csv-insights", here / "csv-insights")
        assert snap_compare(make_app(skill), terminal_size=SIZE, run_before=_settled)

    def test_failing_skill(self, snap_compare, here):
        skill = _copy(FIXTURES / "tui" / "report-writer", here / "report-writer")
        assert snap_compare(make_app(skill), terminal_size=SIZE, run_before=_settled)

    def test_failing_skill_filtered_to_security(self, snap_compare, here):
        skill = _copy(FIXTURES / "tui" / "report-writer", here / "report-writer")

        async def run_before(pilot):
            await _settled(pilot)
            await pilot.press("v", "v", "v")
            await wait_for(
                pilot,
                lambda: "severity: security" in screen_text(pilot.app),
                5,
                "the table filtered to security, drawn",
            )

        assert snap_compare(make_app(skill), terminal_size=SIZE, run_before=run_before)


class TestFolders:
    def test_folder_of_skills(self, snap_compare, here):
        folder = here / "skills"
        for name in ("csv-insights", "lab-units", "release-notes"):
            _copy(SAMPLE_SKILLS / name, folder / name)
        _copy(FIXTURES / "tui" / "report-writer", folder / "report-writer")
        app = make_app(folder)

        async def run_before(pilot):
            await wait_for(pilot, lambda: len(app.workbench.results) == 4, 20, "all four skills")
            await _settled(pilot)

        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)

    def test_empty_folder(self, snap_compare, here):
        (here / "empty-folder").mkdir()
        assert snap_compare(make_app(here / "empty-folder"), terminal_size=SIZE)


class TestNotices:
    def test_broken_config_notice(self, snap_compare, here):
        skill = _copy(SAMPLE_SKILLS / "lab-units", here / "lab-units")
        (skill / "skillforge.toml").write_text("[lint]\nfail_undr = 80\n")
        app = make_app(skill, Settings())

        async def run_before(pilot):
            await _settled(pilot)
            await wait_for(pilot, lambda: bool(app._notifications), 5, "the config notice")
            await wait_for(
                pilot, lambda: "fail_undr" in screen_text(app), 5, "the config notice drawn"
            )
            await pilot.wait_for_scheduled_animations()

        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
