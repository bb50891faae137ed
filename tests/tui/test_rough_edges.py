"""The rough edges of issue 16, each as a person meets it: what the screen says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Markdown

from skillforge.models.config import Settings
from skillforge.screens.help import HelpScreen
from tests.conftest import FIXTURES, SAMPLE_SKILLS
from tests.tui.helpers import make_app, screen_lines, screen_text, settle, show_tab, wait_for
from widgets.case_form import CaseForm
from widgets.case_list import CaseList
from widgets.evals_pane import EvalsPane
from widgets.file_tree import SkillFileTree
from widgets.key_footer import KeyFooter
from widgets.skill_list import SkillList


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def footer(app) -> str:
    return app.workbench.query_one(KeyFooter).text


async def open_evals(pilot) -> EvalsPane:
    await settle(pilot)
    await pilot.press("3")
    app = pilot.app
    await wait_for(pilot, lambda: bool(app.workbench.query(EvalsPane)), 5, "the Evals tab")
    pane = app.workbench.query_one(EvalsPane)
    await wait_for(pilot, lambda: pane.query_one(CaseForm).case is not None, 5, "a case")
    return pane


async def test_f1_names_keys_as_typed_not_by_their_internal_names(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("6")  # Compare: its ] and + keys
        await wait_for(pilot, lambda: app.workbench.active_tab == "compare-pane", 5, "Compare")
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), 5, "the help")
        source = app.screen.query_one(Markdown).source
        assert "right_square_bracket" not in source and "`plus`" not in source
        assert "| `]` | Highlight |" in source and "| `+` |" in source


async def test_the_no_skill_screen_offers_no_lint_edit_or_judge_and_no_tree(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    app = make_app(tmp_path / "empty", Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        # the empty state and its footer drawn, so the absences below are not a blank screen's
        await wait_for(
            pilot,
            lambda: "No skill here yet" in screen_text(app) and "Quit" in footer(app),
            5,
            "the no-skill screen",
        )
        shown = footer(app)
        assert "Lint" not in shown and "Edit" not in shown and "Judge" not in shown
        assert not app.workbench.query_one(SkillFileTree).display
        sidebar = [line[:24] for line in screen_lines(app)[1:-1]]
        assert not any("skill" in cell for cell in sidebar), sidebar


async def test_at_80_columns_the_header_keeps_the_model_and_the_summary_its_words(
    tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "fake-model")
    folder = tmp_path / "skills"
    for name in ("csv-insights", "lab-units"):
        shutil.copytree(SAMPLE_SKILLS / name, folder / name)
    app = make_app(folder, Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: len(app.workbench.results) == 2, 20, "both skills")
        await settle(pilot)
        await wait_for(
            pilot,
            lambda: "fake-model" in screen_lines(app)[0] and "security 100" in screen_text(app),
            5,
            "the header and the summary",
        )
        lines = screen_lines(app)
        assert "fake-model" in lines[0] and "@" not in lines[0], lines[0]
        text = screen_text(app)
        assert "security 100" in text and "discoverability" in text and "…" not in text


async def test_the_sidebar_grade_shows_a_failing_gate_and_critical_findings(tmp_path: Path):
    folder = tmp_path / "skills"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", folder / "csv-insights")
    shutil.copytree(FIXTURES / "tui" / "report-writer", folder / "report-writer")
    app = make_app(folder, Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: len(app.workbench.results) == 2, 20, "both skills")
        await settle(pilot)
        failing = next(r for r in app.workbench.results.values() if not r.report.passed_gate)
        skills = app.workbench.query_one(SkillList)

        def sidebar_rows() -> list[str]:
            return [str(skills.get_option_at_index(i).prompt) for i in range(skills.option_count)]

        # the row is re-drawn when the report comes in: wait for its grade
        await wait_for(
            pilot,
            lambda: any(failing.skill.display_name in r and "FAIL" in r for r in sidebar_rows()),
            5,
            "the failing skill's grade",
        )
        rows = sidebar_rows()
        row = next(r for r in rows if failing.skill.display_name in r)
        assert "FAIL" in row and "sec" in row, rows


async def test_a_new_case_is_in_the_form_at_once_and_its_border_follows_the_id(skill: Path):
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_evals(pilot)
        form = pane.query_one(CaseForm)
        pane.query_one(CaseList).focus()
        await pilot.press("a")
        await pilot.pause()
        await pilot.pause()
        assert form.case is pane.selected_case and not form.query_one("#field-prompt").text
        field = form.query_one("#field-id")
        field.focus()
        field.value = ""
        await pilot.press(*"renamed-case")
        await pilot.pause()
        assert "renamed-case" in str(form.border_subtitle)


async def test_malformed_json_does_not_invite_to_add_a_case(skill: Path):
    (skill / "evals" / "evals.json").write_text('{"evals": [\n  {"id": "a",\n')
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: bool(app.workbench.query(EvalsPane)), 5, "the Evals tab")
        await wait_for(
            pilot,
            lambda: "cannot be edited here until it parses" in screen_text(app),
            5,
            "the reason drawn",
        )
        text = screen_text(app)
        assert "Add one" not in text and "add one" not in text
        assert "Nothing to edit here until evals.json parses" in text


def _contrast(fg, bg) -> float:
    """WCAG contrast ratio of two textual Colors."""

    def lum(c) -> float:
        def ch(v: int) -> float:
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _title_contrasts(app, titles: tuple[str, ...]) -> dict[str, float]:
    from textual.color import Color

    update = app.screen._compositor.render_full_update()
    out = {}
    for row in update.strips:
        for strip in row:
            for seg in strip:
                name = seg.text.strip()
                if name in titles and seg.style and seg.style.color and seg.style.bgcolor:
                    out[name] = _contrast(
                        Color.from_rich_color(seg.style.color),
                        Color.from_rich_color(seg.style.bgcolor),
                    )
    return out


async def test_panel_titles_are_readable_in_both_themes(skill: Path):
    """Unfocused panels' titles were drawn in the border colour, #242F38 on #121212."""
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _theme in ("dark", "light"):
            shown = _title_contrasts(app, ("Files", "Detail"))
            assert set(shown) == {"Files", "Detail"}
            assert all(ratio >= 4.5 for ratio in shown.values()), shown
            await pilot.press("ctrl+t")
            # repainted in the other theme, else the next turn would measure this one again
            await wait_for(
                pilot,
                lambda: _title_contrasts(app, ("Files", "Detail")) != shown,
                5,
                "the titles repainted in the other theme",
            )


async def test_counts_read_one_run_not_one_runs(skill: Path, tmp_path: Path, monkeypatch):
    from tests.widgets.lift_fixture import build_store

    monkeypatch.chdir(tmp_path)
    build_store(tmp_path / ".skillforge").close()
    app = make_app(skill, Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_for(pilot, lambda: "1 run ·" in screen_text(app), 10, "the run list")
        assert "1 runs" not in screen_text(app)


@pytest.mark.parametrize("key", list("123456"))
async def test_at_80x24_the_footer_never_cuts_a_key_in_the_middle(skill: Path, key: str):
    app = make_app(skill, Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await show_tab(pilot, key)
        bar = app.workbench.query_one(KeyFooter)
        descriptions = {d for _k, _s, d, _on in bar.keys}
        shown = bar.text.split("▏")[0]
        words = [w for w in shown.split("  ") if w.strip()]
        for item in words:
            assert item.strip().split(" ", 1)[-1] in descriptions, (item, shown)
