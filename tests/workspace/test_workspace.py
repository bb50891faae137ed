"""The headless workspace: which skills a path holds, the first lint, and the file watcher."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from skillforge.workspace.discovery import find_all, find_skills
from skillforge.workspace.live import Workspace, lint_fast
from skillforge.workspace.watch import watch_changes
from tests.conftest import SAMPLE_SKILLS


def _skill(root: Path, name: str, body: str = "# Title\n\nSteps.\n") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name.rsplit('/', 1)[-1]}\ndescription: Does {name} work. Use when the user"
        f" asks for {name}.\n---\n{body}")
    return folder


def test_a_folder_of_skills_lists_each_skill_and_nested_skills_apart(tmp_path):
    a = _skill(tmp_path, "alpha")
    b = _skill(tmp_path, "beta")
    nested = _skill(tmp_path, "beta/inner")
    (tmp_path / "node_modules").mkdir()
    _skill(tmp_path, "node_modules/ignored")
    assert find_skills(tmp_path) == [a, b, nested]
    assert find_skills(a / "SKILL.md") == [a]
    # A folder with no skill below it is returned itself, so linting it says "no SKILL.md".
    empty = tmp_path / "empty"
    empty.mkdir()
    assert find_skills(empty) == [empty]
    assert find_all([a, tmp_path]) == [a, b, nested]


def test_opening_a_skill_pins_it_and_lints_it(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    ws = Workspace.open(skill / "SKILL.md", launch_dir=tmp_path)
    assert ws.is_single and ws.skills == [skill.resolve()]
    assert ws.shown_root == "csv-insights"
    result = lint_fast(ws, ws.skills[0], generation=3)
    assert result.generation == 3 and result.report.score >= 90
    # Deleting SKILL.md keeps the pinned skill: the lint says SF101 rather than losing it.
    (skill / "SKILL.md").unlink()
    ws.rescan()
    assert ws.skills == [skill.resolve()]
    assert "SF101" in {f.rule for f in lint_fast(ws, ws.skills[0]).report.findings}


def test_a_broken_config_falls_back_to_defaults_with_its_error(tmp_path):
    skill = _skill(tmp_path, "alpha")
    (skill / "skillforge.toml").write_text("[lint\ndisable = 3\n")
    ws = Workspace.open(skill, launch_dir=tmp_path)
    result = lint_fast(ws, skill)
    assert result.config_error and "skillforge.toml" in result.config_error
    assert str(tmp_path) not in result.config_error


async def test_the_watcher_reports_a_save_and_ignores_editor_noise(tmp_path):
    skill = _skill(tmp_path, "alpha")
    stop = asyncio.Event()
    seen: list[set[str]] = []

    async def watch():
        async for changed in watch_changes(skill, stop_event=stop):
            seen.append(changed)
            if any(p.endswith("SKILL.md") for p in changed):
                stop.set()

    task = asyncio.create_task(watch())
    await asyncio.sleep(0.3)
    (skill / ".SKILL.md.swp").write_text("noise")
    (skill / "SKILL.md").write_text((skill / "SKILL.md").read_text() + "\nMore.\n")
    await asyncio.wait_for(task, timeout=10)
    paths = set().union(*seen)
    assert any(p.endswith("SKILL.md") for p in paths)
    assert not any(p.endswith(".swp") for p in paths)
