"""One-key fixes in the workbench, through Pilot: the Detail panel shows the fix as a diff,
`f` applies it, `F` applies every safe fix, `ctrl+z` puts the files back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, screen_text, settle, shown_rules, table, wait_for

BOM = b"\xef\xbb\xbf"


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    """csv-insights with an unknown key (SF112), a BOM (SF118) and a .DS_Store (SF405)."""
    dest = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", dest)
    md = dest / "SKILL.md"
    text = md.read_text("utf-8").replace("license: MIT\n", "license: MIT\ncategory: data\n", 1)
    md.write_bytes(BOM + text.encode("utf-8"))
    (dest / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    return dest


def detail_text(app) -> str:
    """The screen as the author sees it (the Detail panel holds the fix)."""
    return screen_text(app)


async def highlight(pilot, rule: str) -> None:
    """Move the table's cursor to `rule` (the Detail panel follows: wait for it to draw)."""
    t = table(pilot.app)
    for _ in range(len(t.shown) + 1):
        current = t.current()
        if current is not None and current.rule == rule:
            return
        await pilot.press("down")
    raise AssertionError(f"{rule} not in the table: {[f.rule for f in t.shown]}")


async def test_f_applies_the_shown_fix_and_ctrl_z_restores(skill: Path):
    md = skill / "SKILL.md"
    original = md.read_bytes()
    app = make_app(skill)
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        assert {"SF112", "SF118", "SF405"} <= shown_rules(app)
        await highlight(pilot, "SF112")
        await wait_for(
            pilot,
            lambda: "Fix (safe): Move `category`" in detail_text(app),
            5,
            "SF112's fix in the Detail panel",
        )
        shown = detail_text(app)
        assert "Fix (safe): Move `category` under `metadata:`" in shown
        assert "-category: data" in shown and "+  category: data" in shown
        assert "@@ -4,3 +4,2 @@" in shown  # one line of context: the change shows first

        await pilot.press("f")
        await wait_for(pilot, lambda: "SF112" not in shown_rules(app), 10, "SF112 to go")
        text = md.read_bytes()
        assert text.startswith(BOM)  # only this fix: the BOM is another finding's
        assert b"\n  category: data\n" in text and b"\ncategory: data\n" not in text
        assert "SF118" in shown_rules(app)

        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: "SF112" in shown_rules(app), 10, "SF112 to come back")
        assert md.read_bytes() == original


async def test_shift_f_applies_every_safe_fix_and_leaves_the_unsafe(skill: Path):
    md = skill / "SKILL.md"
    original = md.read_bytes()
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await wait_for(pilot, lambda: not {"SF112", "SF118"} & shown_rules(app), 10, "safe fixes")
        assert "SF405" in shown_rules(app) and (skill / ".DS_Store").exists()
        assert not md.read_bytes().startswith(BOM)

        await pilot.press("ctrl+z")  # one undo restores the whole F
        await wait_for(pilot, lambda: {"SF112", "SF118"} <= shown_rules(app), 10, "undo")
        assert md.read_bytes() == original


async def test_unsafe_fix_is_shown_and_applied_only_on_f(skill: Path):
    app = make_app(skill)
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        await highlight(pilot, "SF405")
        await wait_for(
            pilot,
            lambda: "Fix (unsafe): Delete .DS_Store" in detail_text(app),
            5,
            "SF405's fix in the Detail panel",
        )
        await pilot.press("f")
        await wait_for(pilot, lambda: "SF405" not in shown_rules(app), 10, "SF405 to go")
        assert not (skill / ".DS_Store").exists()
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: (skill / ".DS_Store").exists(), 5, "the file back")
        assert (skill / ".DS_Store").read_bytes() == b"\0\0\0\1Bud1"


async def test_undo_refuses_after_the_author_edited_the_file(skill: Path):
    md = skill / "SKILL.md"
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await wait_for(pilot, lambda: "SF112" not in shown_rules(app), 10, "fixes")
        edited = md.read_text("utf-8") + "\nA line the author added.\n"
        md.write_text(edited, "utf-8")
        await pilot.press("ctrl+z")
        # ctrl+z was handled and said no (else the file could be untouched only because the
        # key had not been handled yet)
        await wait_for(
            pilot,
            lambda: any(n.title == "Not undone" for n in app._notifications),
            5,
            "the refusal",
        )
        assert md.read_text("utf-8") == edited
        assert len(app.workbench.fix_undo) == 1


async def test_the_palette_applies_and_undoes_fixes(skill: Path):
    from tests.tui.test_palette import search

    md = skill / "SKILL.md"
    original = md.read_bytes()
    app = make_app(skill)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rows = await search(pilot, "every safe fix", "Fix: apply every safe fix of the skill")
        assert rows[0].startswith("Fix: apply every safe fix of the skill")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not {"SF112", "SF118"} & shown_rules(app), 10, "safe fixes")
        assert md.read_bytes() != original
        await search(pilot, "undo the last fix", "Fix: undo the last fix")
        await pilot.press("enter")
        await wait_for(pilot, lambda: md.read_bytes() == original, 10, "the undo")
