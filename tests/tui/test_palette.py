"""The command palette, reached the way a person reaches it: ctrl+p, type, Enter.

While the palette is open `app.screen` is the palette itself; these tests prove the
workbench's commands are found anyway (issue 16: they were not, and the old test built the
provider by hand).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette

from skillforge.app.messages import LintFinished
from tests.conftest import FIXTURES, SAMPLE_SKILLS
from tests.tui.helpers import SIZE, Recorder, make_app, settle, table, wait_for


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def palette_rows(app) -> list[str]:
    """The commands the open palette lists, as shown."""
    if not isinstance(app.screen, CommandPalette):
        return []
    options = app.screen.query_one(CommandList)
    return [str(options.get_option_at_index(i).prompt).split("\n")[0]
            for i in range(options.option_count)]


async def search(pilot, text: str, expect: str) -> list[str]:
    """Open the palette, type `text`, wait until a row containing `expect` shows."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette), 5, "the palette")
    await pilot.press(*text)
    await wait_for(pilot, lambda: any(expect in r for r in palette_rows(pilot.app)), 5,
                   f"{expect!r} among the palette's rows for {text!r}")
    return palette_rows(pilot.app)


async def test_typing_lint_finds_lint_now_and_enter_runs_it(skill: Path):
    rec = Recorder()
    app = make_app(skill)
    async with app.run_test(size=SIZE, message_hook=rec) as pilot:
        await settle(pilot)
        before = len(rec.of(LintFinished))
        rows = await search(pilot, "lint", "Lint now")
        assert rows[0].startswith("Lint now")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(rec.of(LintFinished)) > before, 10, "a new lint")
        assert not isinstance(app.screen, CommandPalette)


async def test_typing_open_lists_the_skills_files(skill: Path):
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rows = await search(pilot, "open", "Open SKILL.md")
        assert any("Open scripts/summarize.py" in r for r in rows)


async def test_sort_and_filter_commands_change_the_findings_table(tmp_path: Path):
    skill = shutil.copytree(FIXTURES / "tui" / "report-writer", tmp_path / "report-writer")
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "sort", "Findings: cycle sort")
        await pilot.press("enter")
        await wait_for(pilot, lambda: table(app).sort_by == "rule", 5, "sort by rule")
        await search(pilot, "filter", "severity filter")
        await pilot.press("enter")  # the best match for "filter"
        await wait_for(pilot, lambda: table(app).category is not None
                       or table(app).severity_filter is not None, 5, "a filter applied")


async def test_typing_switch_offers_the_other_skills_and_enter_switches(tmp_path: Path):
    folder = tmp_path / "skills"
    for name in ("csv-insights", "lab-units"):
        shutil.copytree(SAMPLE_SKILLS / name, folder / name)
    app = make_app(folder)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(app.workbench.results) == 2, 20, "both skills linted")
        await settle(pilot)
        other = next(p for p in app.workbench.ws.skills if p != app.workbench.current)
        rows = await search(pilot, "switch", "Switch skill:")
        assert any(other.name in r for r in rows)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.workbench.current == other, 5, "the switch")


async def test_tab_commands_go_to_a_tab(skill: Path):
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "evals tab", "Go to the Evals tab")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.workbench.query_one("#tabs").active == "evals-pane",
                       5, "the Evals tab")
