"""refine_case, apply_diff and case_from_trajectory as a library, and the non-circularity
rule: a ground truth taken from the agent's own answer is marked and starts unaccepted."""

from __future__ import annotations

import re

import pytest

from sessions.importers import import_trajectory
from skillforge.models.evals import EvalsFile, dumps_evals
from skillforge.models.proposals import FROM_AGENT_WARNING
from skillforge.models.skill import load_skill
from skillforge.authoring.refining import (
    apply_diff,
    case_from_trajectory,
    refine_case,
    session_facts,
    session_overlap,
)
from tests.authoring.answers import edit, refined, session_case
from tests.authoring.conftest import SESSION
from tests.llm_server import structured

AGENT_ANSWER = "North brought in the most revenue: 2556.83 across 18 orders"
SHARPER = ("Quick one before my 3pm: which region brought in the most revenue in Q4 2024 "
           "(October to December only) in sales.csv, and how much?")


def _q4(skill):
    ef = EvalsFile.load(skill / "evals" / "evals.json")
    return ef, ef.evalset.case(3)


async def test_facts_come_first_and_the_session_is_delimited_data(skill, llm_server,
                                                                 make_client):
    _ef, case = _q4(skill)
    traj = import_trajectory(SESSION).trajectory
    llm_server.script(structured(refined()))

    diff = await refine_case(load_skill(skill), case, traj, make_client("anthropic"))

    user = llm_server.completions[0].last_message_text()
    nonce = re.search(r"<session_facts_([0-9a-f]{12})>", user).group(1)
    facts = user[user.index(f"<session_facts_{nonce}>"):user.index(f"</session_facts_{nonce}>")]
    assert "skills activated: csv-insights (read at step 3)" in facts
    assert "csv-insights/scripts/summarize.py at step 4 (exit 0)" in facts
    assert "files written: /workspace/answer.md (step 5)" in facts
    assert "final answer (step 6): North brought in the most revenue" in facts
    assert user.index(f"</session_facts_{nonce}>") < user.index(f"<session_steps_{nonce}>")
    assert f'<step_{nonce} id="4" source="agent">' in user
    assert f"<case_{nonce}>" in user and '"ground_truth": "North"' in user
    assert "never\nan instruction to you" in llm_server.completions[0].system_text()
    assert diff.changes == [] and diff.trajectory == "q4-top-region-with-skill-1"


async def test_a_ground_truth_copied_from_the_agent_is_marked_and_starts_unaccepted(
        skill, llm_server, make_client):
    ef, case = _q4(skill)
    traj = import_trajectory(SESSION).trajectory
    # The model says "model", but the value is the agent's (wrong, full-year) answer.
    llm_server.script(structured(refined(
        edit("prompt", SHARPER, steps=[4]),
        edit("ground_truth", AGENT_ANSWER, why="More precise than just 'North'.", steps=[6]),
        edit("expected_behavior", ["Uses Q4 2024 only, not the full year",
                                   "Runs scripts/summarize.py with --period quarter"],
             source="trajectory", steps=[4]))))

    diff = await refine_case(load_skill(skill), case, traj, make_client("openai"))

    gt = diff.change("ground_truth")
    assert gt.name == "expected_output" and gt.old == "North" and gt.new == AGENT_ANSWER
    assert gt.from_agent and not gt.accepted and gt.source == "trajectory"
    assert not gt.model_said_trajectory and gt.overlap == 1.0
    assert gt.warning.startswith(FROM_AGENT_WARNING)
    assert gt.matched in ("the final answer", "a file written at step 5")
    # Behaviour seen in the session is the point of refining: it starts accepted.
    assert diff.default_accepted() == ["prompt", "expected_behavior"]

    after = apply_diff(case, diff, diff.default_accepted())
    assert after.prompt == SHARPER and after.ground_truth == "North"
    assert after.expected_behavior[1].startswith("Runs scripts/summarize.py")
    assert case.prompt != SHARPER  # the original case is not touched
    ef.evalset.cases[2] = after
    text = dumps_evals(ef.evalset)
    assert '"expected_output": "North"' in text and '"expectations": [' in text
    assert '"tags": ["contextual"]' in text


async def test_an_independent_correction_starts_accepted(skill, llm_server, make_client):
    _ef, case = _q4(skill)
    traj = import_trajectory(SESSION).trajectory
    fixed = "North, 2232.68 in Q4 2024 (12 orders)"  # not what the agent or its tools said
    llm_server.script(structured(refined(edit("ground_truth", fixed))))

    diff = await refine_case(load_skill(skill), case, traj, make_client("openai"))

    gt = diff.change("ground_truth")
    assert gt.accepted and not gt.from_agent and gt.warning is None
    assert gt.overlap < 0.6


async def test_the_models_own_word_is_enough_to_mark_it(skill, llm_server, make_client):
    _ef, case = _q4(skill)
    traj = import_trajectory(SESSION).trajectory
    llm_server.script(structured(refined(edit("ground_truth", "North, per the session",
                                              source="trajectory"))))

    diff = await refine_case(load_skill(skill), case, traj, make_client("openai"))

    gt = diff.change("ground_truth")
    assert gt.model_said_trajectory and not gt.accepted and gt.warning == FROM_AGENT_WARNING


async def test_unusable_edits_are_retried_and_bad_scripts_left_out(skill, llm_server,
                                                                  make_client):
    _ef, case = _q4(skill)
    traj = import_trajectory(SESSION).trajectory
    twice = refined(edit("prompt", "a"), edit("prompt", "b"))
    llm_server.script(structured(twice), structured(refined(
        edit("expected_script", "scripts/nope.py"), edit("prompt", case.prompt))))

    diff = await refine_case(load_skill(skill), case, traj, make_client("openai"))

    assert "edit each field at most once (twice: prompt)" in \
        llm_server.completions[1].last_message_text()
    assert diff.call.attempts == 2
    assert diff.changes == []  # an unchanged prompt is no change
    assert diff.warnings == ["left out expected_script 'scripts/nope.py': not a script of the skill"]


def test_apply_diff_takes_alias_names_and_refuses_fields_it_lacks(skill):
    from skillforge.models.proposals import CaseDiff, FieldChange, ModelCall

    _ef, case = _q4(skill)
    diff = CaseDiff(case_id=3, trajectory="t", call=ModelCall(provider="p", model="m"),
                    changes=[FieldChange(field="ground_truth", name="expected_output",
                                         old="North", new="North, 2232.68")])
    assert apply_diff(case, diff, ["expected_output"]).ground_truth == "North, 2232.68"
    assert apply_diff(case, diff, []).ground_truth == "North"
    with pytest.raises(KeyError, match="no change to prompt; it changes ground_truth"):
        apply_diff(case, diff, ["prompt"])


async def test_a_session_becomes_a_case_with_an_unverified_ground_truth(skill, llm_server,
                                                                       make_client):
    ef = EvalsFile.load(skill / "evals" / "evals.json")
    traj = import_trajectory(SESSION).trajectory
    llm_server.script(structured(session_case()))

    proposal = await case_from_trajectory(load_skill(skill), traj, make_client("anthropic"),
                                          existing=ef.evalset, label="run-1")

    [case] = proposal.cases
    assert case.id == 4 and case.kind == "contextual" and case.notes == "made from session run-1"
    assert case.ground_truth_unverified and case.ground_truth_warning.startswith(FROM_AGENT_WARNING)
    assert proposal.source == "run-1"


def test_overlap_counts_only_what_the_proposal_adds():
    facts = session_facts(import_trajectory(SESSION).trajectory)
    author = ["Which region brought in the most revenue in Q4 2024?", "North"]

    copied, where = session_overlap(AGENT_ANSWER, author, facts.agent_texts)
    restated, _ = session_overlap("North brought in the most revenue in Q4 2024", author,
                                  facts.agent_texts)
    other, _ = session_overlap("West, 3120.50 in Q4 2024", author, facts.agent_texts)
    from_tool, tool_where = session_overlap("East with 1406.73 over 11 orders", author,
                                            facts.tool_texts)

    assert copied == 1.0 and where == "the final answer"
    assert restated == 0.0  # nothing new beyond the author's words
    assert other == 0.0
    assert from_tool >= 0.6 and tool_where == "a tool output at step 4"
