"""The Lint tab's Compat section, the way an author reaches it: `h` swaps the findings for
the skill as each harness would treat it, read off an 80x24 screen; `h` again brings the
findings back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.tui.helpers import make_app, screen_lines, screen_text, settle, table, wait_for
from widgets.compat_panel import CompatPanel

pytestmark = pytest.mark.timeout(120)
SMALL = (80, 24)


@pytest.fixture
def skill(tmp_path: Path, monkeypatch) -> Path:
    """A project's .agents/skills/release-notes whose description Codex refuses (1,282
    characters), and a $HOME with no skill installed."""
    project = shutil.copytree(FIXTURES / "compat" / "SF704-codex" / "fail", tmp_path / "project")
    (project / ".git").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(project)
    return project / ".agents" / "skills" / "release-notes"


def compat_shown(app) -> bool:
    return app.workbench.query_one(CompatPanel).display and "will not load it" in screen_text(app)


async def test_h_shows_each_harness_verdict_at_80x24_and_h_goes_back(skill: Path):
    app = make_app(skill)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert not app.workbench.query_one(CompatPanel).display
        assert "SF704" not in {f.rule for f in table(app).shown}  # not in the report: not asked
        await pilot.press("h")
        await wait_for(pilot, lambda: compat_shown(app), 10, "the Compat section")
        lines = screen_lines(app)
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        text = screen_text(app)
        assert "Compat" in text and not table(app).display
        # Codex refuses the skill: its verdict and its finding, with the reason and source
        codex = next(line for line in lines if "Codex" in line and "will not load it" in line)
        assert "1 error" in codex
        assert "SF704" in text and "1,282 characters" in text
        # the first harness: only an info (SF701: not in its folders)
        assert any("Claude Code" in line and "nothing blocks it · 1 info" in line for line in lines)
        # the rest of the list is a scroll away (the panel has the focus)
        await pilot.press("end")
        await wait_for(pilot, lambda: "GitHub Copilot" in screen_text(app), 5, "the end of the list")
        assert "may not load or list this skill" in screen_text(app)
        await pilot.press("h")
        await wait_for(pilot, lambda: table(app).display and not app.workbench.query_one(CompatPanel).display,
                       5, "the findings again")
        assert app.focused is table(app)
