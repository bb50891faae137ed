"""What the Evals pane tests share: the fixture evals.json, waiting, reading, proposals."""

from __future__ import annotations

import shutil
from pathlib import Path

from skillforge.models.proposals import CaseDiff, FieldChange, ModelCall, Proposal, ProposedCase
from tests.widgets.harness import FIXTURES, EvalsApp
from widgets.case_form import CaseForm
from widgets.case_list import CaseList

CALL = ModelCall(provider="openai", model="test-model")


def copy_evals(tmp_path: Path) -> Path:
    """The fixture evals.json copied into a skill folder under `tmp_path`."""
    path = tmp_path / "csv-insights" / "evals" / "evals.json"
    path.parent.mkdir(parents=True)
    shutil.copy(FIXTURES / "evals.json", path)
    return path


async def started(app: EvalsApp, pilot) -> None:
    """Let the pane mount and load its file."""
    await pilot.pause()
    await pilot.pause()


def form(app: EvalsApp) -> CaseForm:
    """The case form."""
    return app.query_one(CaseForm)


def list_labels(app: EvalsApp) -> list[str]:
    """The case list's labels, top to bottom (⚠ marks a case with problems)."""
    cases = app.query_one(CaseList)
    return [str(cases.get_option_at_index(i).prompt) for i in range(cases.option_count)]


async def clear_and_type(pilot, selector: str, text: str) -> None:
    """Focus the field `selector`, empty it and type `text`."""
    widget = pilot.app.query_one(selector)
    widget.focus()
    await pilot.pause()
    if hasattr(widget, "select_all"):
        widget.select_all()
    await pilot.press("backspace")
    if text:
        await pilot.press(*text)
    await pilot.pause()


def proposal() -> Proposal:
    """Two drafted cases; the second's ground truth comes from an agent's answer."""
    return Proposal(skill_name="csv-insights", call=CALL, cases=[
        ProposedCase(id="top-region", kind="implicit", prompt="Which region sold most in Q4?",
                     ground_truth="North", expected_behavior=["Runs scripts/summarize.py"],
                     rationale="covers grouping"),
        ProposedCase(id="from-session", kind="contextual", prompt="My boss needs totals by month",
                     ground_truth="Jan 1200", ground_truth_unverified=True,
                     ground_truth_warning="taken from the agent's own answer — verify before "
                                          "accepting"),
    ])


def diff() -> CaseDiff:
    """Edits of case monthly-revenue: prompt, an agent-derived ground truth, behaviour."""
    return CaseDiff(case_id="monthly-revenue", trajectory="run 7 attempt 2", call=CALL, changes=[
        FieldChange(field="prompt", name="prompt", old="Use the CSV insights skill on sales.csv "
                    "and report revenue by month.", new="Report revenue by month from sales.csv.",
                    rationale="shorter"),
        FieldChange(field="ground_truth", name="expected_output", old="Jan 1200, Feb 950, Mar 1410",
                    new="Jan 1200, Feb 950, Mar 1410, Apr 800", from_agent=True, accepted=False,
                    warning="taken from the agent's own answer — verify before accepting"),
        FieldChange(field="expected_behavior", name="expected_behavior",
                    old=["Reads SKILL.md before running any script",
                         "Runs scripts/summarize.py rather than hand-writing pandas code"],
                    new=["Reads SKILL.md before running any script", "Runs scripts/summarize.py"],
                    rationale="the agent ran it with flags", evidence_steps=[4]),
    ])
