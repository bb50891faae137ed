"""The Evals tab inside the workbench: edit, save to disk, conflicts, live SF31x findings,
drafting against the loopback model server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.authoring.answers import NEGATIVE, drafted
from tests.llm_server import structured
from tests.tui.helpers import SIZE, make_app, settle, wait_for
from widgets.evals_pane import EvalsPane


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


def _pane(app) -> EvalsPane:
    return app.screen.query_one(EvalsPane)


async def _type_into_prompt(pilot, text: str) -> None:
    widget = pilot.app.screen.query_one("#field-prompt")
    widget.focus()
    await pilot.pause()
    widget.select_all()
    await pilot.press("backspace", *text)
    await pilot.pause()


async def test_edit_and_save_writes_the_file_keeping_everything_else(skill: Path):
    path = skill / "evals" / "evals.json"
    before = json.loads(path.read_text())
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the evals to load")
        first = _pane(app).selected_case.id
        await _type_into_prompt(pilot, "Report revenue by month from sales.csv")
        assert _pane(app).dirty
        assert path.read_text() and json.loads(path.read_text()) == before  # nothing written yet
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not _pane(app).dirty, 5, "the save")
    after = json.loads(path.read_text())
    case = next(c for c in after["evals"] if c["id"] == first)
    assert case["prompt"] == "Report revenue by month from sales.csv"
    # Only that field changed.
    for old, new in zip(before["evals"], after["evals"], strict=True):
        if old["id"] != first:
            assert old == new
        else:
            assert {k for k in old if old[k] != new.get(k)} == {"prompt"}


async def test_a_file_changed_on_disk_is_not_overwritten_silently(skill: Path):
    path = skill / "evals" / "evals.json"
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the evals to load")
        await _type_into_prompt(pilot, "edited in the workbench")
        # Someone else edits the file meanwhile.
        data = json.loads(path.read_text())
        data["evals"][0]["notes"] = "edited in another editor"
        path.write_text(json.dumps(data, indent=2) + "\n")
        await pilot.pause(0.5)
        await pilot.press("ctrl+s")
        # the save was tried and met the change (else the file could be untouched only
        # because ctrl+s had not been handled yet)
        await wait_for(
            pilot,
            lambda: "overwrite it with yours" in _pane(app).status_text,
            5,
            "the save to meet the change on disk",
        )
        assert "edited in another editor" in path.read_text()
        assert "edited in the workbench" not in path.read_text()
        assert _pane(app).dirty


async def test_sf31x_findings_follow_the_file_live(skill: Path):
    path = skill / "evals" / "evals.json"
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await pilot.pause(0.2)
        data = json.loads(path.read_text())
        data["evals"][0]["expected_script"] = "scripts/missing.py"
        path.write_text(json.dumps(data, indent=2) + "\n")
        await wait_for(
            pilot,
            lambda: any(
                f.rule == "SF316" for f in app.workbench.results[skill.resolve()].report.findings
            ),
            10,
            "SF316 after naming a missing script",
        )
        from widgets.evals_bars import EvalFindings

        await wait_for(
            pilot,
            lambda: any(f.rule == "SF316" for f in app.screen.query_one(EvalFindings).findings),
            5,
            "SF316 in the Evals tab's findings",
        )


async def test_draft_from_the_tab_shows_a_proposal(skill: Path, monkeypatch, llm_server):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "draft-model")
    # `[provider] max_tokens` reaches the request, as the CLI's does (issue 37: the tab asked
    # a small local model for 8,192 tokens and got HTTP 400).
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MAX_TOKENS", "1234")
    llm_server.script(structured(drafted(NEGATIVE)))
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the evals to load")
        from widgets.evals_messages import DraftRequested

        _pane(app).post_message(DraftRequested(["negative"], 1))
        from widgets.proposal_view import ProposalView

        view = app.screen.query_one(ProposalView)
        await wait_for(
            pilot,
            lambda: view.proposal is not None,
            20,
            f"the proposal (status: {_pane(app).status_text})",
        )
        assert [c.id for c in view.proposal.cases] == ["dedupe-customers"]
        assert (
            view.proposal.cases[0].kind == "negative"
            and view.proposal.cases[0].expected_skill is None
        )
        assert len(llm_server.completions) == 1
        assert _asked_tokens(llm_server.completions[0]) == 1234
        # Nothing is written until the author accepts.
        assert "dedupe-customers" not in (skill / "evals" / "evals.json").read_text()


async def test_refine_from_the_tab_shows_a_case_diff(
    skill: Path, monkeypatch, llm_server, tmp_path: Path
):
    from tests.authoring.answers import edit, refined
    from tests.authoring.conftest import SESSION

    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "refine-model")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MAX_TOKENS", "1234")
    llm_server.script(
        structured(
            refined(
                edit(
                    "expected_behavior",
                    ["Uses Q4 2024 only, not the full year"],
                    source="trajectory",
                    steps=[4],
                )
            )
        )
    )
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the evals to load")
        app.screen._refine("q4-top-region", str(SESSION), tmp_path / "state")
        from widgets.proposal_view import ProposalView

        view = app.screen.query_one(ProposalView)
        await wait_for(
            pilot,
            lambda: view.proposal is not None,
            20,
            f"the case diff (status: {_pane(app).status_text})",
        )
        assert [c.field for c in view.proposal.changes] == ["expected_behavior"]
        assert len(llm_server.completions) == 1
        assert _asked_tokens(llm_server.completions[0]) == 1234
        assert "Uses Q4 2024 only" not in (skill / "evals" / "evals.json").read_text()


async def test_refine_without_a_provider_says_so_in_the_status(
    skill: Path, monkeypatch, tmp_path: Path
):
    from tests.authoring.conftest import SESSION

    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the evals to load")
        app.screen._refine("q4-top-region", str(SESSION), tmp_path / "state")
        await wait_for(
            pilot,
            lambda: "provider" in _pane(app).status_text.lower(),
            10,
            f"the provider error (status: {_pane(app).status_text})",
        )


def _asked_tokens(request) -> int | None:
    """The completion budget a recorded OpenAI-wire request asked for."""
    body = request.body
    return body.get("max_completion_tokens", body.get("max_tokens"))


async def test_saving_cases_kept_as_plugin_eval_folders_keeps_their_format(tmp_path: Path):
    """A skill whose cases are Claude Code plugin-eval folders: typing in the tab and pressing
    ctrl+s rewrites that case's prompt.md, and nothing becomes evals.json."""
    from tests.evalformats.test_readers import FIXTURES

    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    (skill / "evals" / "evals.json").unlink()
    for case in (FIXTURES / "cc-plugin-eval" / "evals").iterdir():
        shutil.copytree(case, skill / "evals" / case.name)
    prompt_md = skill / "evals" / "monthly-revenue" / "prompt.md"
    untouched = (skill / "evals" / "no-trigger" / "case.yaml").read_bytes()
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for(pilot, lambda: _pane(app).evalset is not None, 5, "the cases to load")
        assert [c.id for c in _pane(app).evalset.cases] == ["monthly-revenue", "no-trigger"]
        assert _pane(app).selected_case.id == "monthly-revenue"
        await _type_into_prompt(pilot, "Monthly revenue table please")
        assert "Monthly revenue table please" not in prompt_md.read_text()  # only on save
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not _pane(app).dirty, 5, "the save")
        assert "Saved evals/ (plugin-eval case folders)." in _pane(app).status_text
    assert prompt_md.read_text().rstrip().endswith("Monthly revenue table please")
    assert prompt_md.read_text().startswith("---\n")
    assert (skill / "evals" / "no-trigger" / "case.yaml").read_bytes() == untouched
    assert not (skill / "evals" / "evals.json").exists()
