"""`skillforge evals refine` end to end: sessions from a real Codex rollout, an ATIF file and
the run store; the field-by-field diff; --write applying only what is accepted."""

from __future__ import annotations

import json

from sessions.importers import import_trajectory
from sessions.store import RunStore
from skillforge.models.evals import parse_evals
from skillforge.models.proposals import FROM_AGENT_WARNING
from skillforge.providers.select import NOT_CONFIGURED
from tests.authoring.answers import edit, refined, session_case
from tests.authoring.conftest import CODEX_ROLLOUT, SESSION, anthropic_env, openai_env
from tests.llm_server import structured

AGENT_ANSWER = "North brought in the most revenue: 2556.83 across 18 orders"
SHARPER = ("Quick one before my 3pm: which region brought in the most revenue in Q4 2024 "
           "(October to December only) in sales.csv, and how much?")
BEHAVIOUR = ["Uses Q4 2024 only, not the full year",
             "Runs scripts/summarize.py with --period quarter --group-by region"]
CIRCULAR = refined(edit("prompt", SHARPER, steps=[2]),
                   edit("ground_truth", AGENT_ANSWER, steps=[6]),
                   edit("expected_behavior", BEHAVIOUR, source="trajectory", steps=[4]))


def _case(skill, case_id):
    evalset, issues = parse_evals((skill / "evals" / "evals.json").read_text())
    assert issues == []
    return evalset.case(case_id)


def test_refine_from_a_real_codex_rollout(aces_skill, llm_server, evals_cli):
    evals = aces_skill / "evals" / "evals.json"
    before = evals.read_text()
    behaviour = ["Reads SKILL.md before running any script",
                 "Runs scripts/summarize.py with --group-by order_date --period month",
                 "Writes /workspace/summary.md with one row per month"]
    llm_server.handler = lambda req: structured(refined(
        edit("expected_behavior", behaviour, source="trajectory", steps=[3, 4])))

    preview = evals_cli("refine", aces_skill, "--case", "monthly-revenue", "--from",
                        CODEX_ROLLOUT, env=anthropic_env(llm_server))

    assert preview.exit_code == 0, preview.output
    assert "case monthly-revenue ← session" in preview.stdout and "(codex)" in preview.stdout
    assert "● expected_behavior" in preview.stdout and "preview only" in preview.stdout
    assert evals.read_text() == before
    [req] = llm_server.completions
    assert req.wire == "anthropic"
    user = req.last_message_text()
    # Deterministic facts read from the rollout come first.
    assert "skills activated: using-superpowers (shell at step 3)" in user
    assert "shell commands (35):" in user and "step 4: wc -l" in user
    assert user.index("<session_facts_") < user.index("<session_steps_")

    wrote = evals_cli("refine", aces_skill, "--case", "monthly-revenue", "--from",
                      CODEX_ROLLOUT, "--write", env=anthropic_env(llm_server))

    assert wrote.exit_code == 0, wrote.output
    assert _case(aces_skill, "monthly-revenue").expected_behavior == behaviour
    after = evals.read_text()
    other = before.index('    {\n      "id": "missing-values"')
    assert after.endswith(before[other:])  # every other case byte for byte


def test_refine_from_a_stored_trajectory_id(skill, llm_server, evals_cli, tmp_path):
    state = tmp_path / "state"
    with RunStore(state) as store:
        rec = store.record_import(import_trajectory(SESSION))
    llm_server.handler = lambda req: structured(refined(edit("prompt", SHARPER)))

    full = evals_cli("refine", skill, "--case", "3", "--from", rec.id, "--state-dir", state,
                     "--format", "json", env=openai_env(llm_server))
    prefix = evals_cli("refine", skill, "--case", "3", "--from", rec.id[:10], "--state-dir",
                       state, "--format", "json", env=openai_env(llm_server))

    assert full.exit_code == 0 and prefix.exit_code == 0, full.output + prefix.output
    doc = json.loads(full.stdout)
    assert doc["diff"]["trajectory"] == rec.id and doc["written"] is False
    assert doc["diff"]["changes"][0]["field"] == "prompt"
    assert json.loads(prefix.stdout)["diff"]["trajectory"] == rec.id
    assert "final answer (step 6): North brought in" in llm_server.completions[0].last_message_text()


def test_an_unknown_trajectory_is_a_clear_error(skill, evals_cli, tmp_path, llm_server):
    with RunStore(tmp_path / "state") as store:
        store.record_import(import_trajectory(SESSION))
    missing_store = evals_cli("refine", skill, "--case", "3", "--from", "nope",
                              env=openai_env(llm_server))
    unknown = evals_cli("refine", skill, "--case", "3", "--from", "nope", "--state-dir",
                        tmp_path / "state", env=openai_env(llm_server))
    not_a_trace = evals_cli("refine", skill, "--case", "3", "--from",
                            skill / "SKILL.md", env=openai_env(llm_server))

    assert missing_store.exit_code == 2 and "no such file, and no run store" in missing_store.stderr
    assert unknown.exit_code == 2 and "'nope' is not a stored trajectory id" in unknown.stderr
    assert "atif-" in unknown.stderr  # the ids that are there
    assert not_a_trace.exit_code == 2 and "not a trace skillforge can read" in not_a_trace.stderr
    assert llm_server.requests == []


def test_the_agents_answer_is_never_written_as_ground_truth_silently(skill, llm_server,
                                                                    evals_cli):
    llm_server.handler = lambda req: structured(CIRCULAR)

    run = evals_cli("refine", skill, "--case", "3", "--from", SESSION, "--write",
                    env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    out = run.stdout
    assert "○ ground_truth (expected_output)   NOT accepted · source trajectory" in out
    assert FROM_AGENT_WARNING in out
    assert "prompt, expected_behavior changed" in out and "not applied: ground_truth" in out
    case = _case(skill, 3)
    assert case.ground_truth == "North"  # the author's, untouched
    assert case.prompt == SHARPER and case.expected_behavior == BEHAVIOUR
    text = (skill / "evals" / "evals.json").read_text()
    assert '"tags": ["contextual"]' in text and '"expectations": [' in text


def test_naming_the_ground_truth_in_accept_applies_it(skill, llm_server, evals_cli):
    llm_server.handler = lambda req: structured(CIRCULAR)

    run = evals_cli("refine", skill, "--case", "3", "--from", SESSION, "--write", "--accept",
                    "expected_output", "--format", "json", env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    doc = json.loads(run.stdout)
    gt = next(c for c in doc["diff"]["changes"] if c["field"] == "ground_truth")
    assert gt["accepted"] is False and gt["from_agent"] is True  # how it started
    assert doc["accepted"] == ["ground_truth"] and doc["written"] is True
    case = _case(skill, 3)
    assert case.ground_truth == AGENT_ANSWER and case.prompt != SHARPER


def test_accepting_nothing_leaves_the_file_byte_for_byte(skill, llm_server, evals_cli):
    evals = skill / "evals" / "evals.json"
    before = evals.read_bytes()
    llm_server.handler = lambda req: structured(CIRCULAR)

    run = evals_cli("refine", skill, "--case", "3", "--from", SESSION, "--write", "--accept",
                    "none", env=openai_env(llm_server))

    assert run.exit_code == 0 and "nothing accepted" in run.stdout
    assert evals.read_bytes() == before


def test_a_session_becomes_a_new_case_without_its_unverified_ground_truth(skill, llm_server,
                                                                         evals_cli):
    llm_server.handler = lambda req: structured(session_case())

    run = evals_cli("refine", skill, "--new-case", "--from", SESSION, "--write",
                    env=anthropic_env(llm_server))

    assert run.exit_code == 0, run.output
    assert "4 · contextual" in run.stdout and FROM_AGENT_WARNING in run.stdout
    case = _case(skill, 4)
    assert case.ground_truth is None and case.kind == "contextual"
    assert "UNVERIFIED" in case.notes and "2556.83" in case.notes
    assert case.expected_script == "scripts/summarize.py"


def test_a_new_case_keeps_the_ground_truth_the_author_accepts(skill, llm_server, evals_cli):
    llm_server.handler = lambda req: structured(session_case())

    run = evals_cli("refine", skill, "--new-case", "--from", SESSION, "--write", "--accept",
                    "ground_truth", env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    case = _case(skill, 4)
    assert case.ground_truth == AGENT_ANSWER and "accepted by the author" in case.notes


def test_refine_needs_a_case_that_exists_and_a_provider(skill, evals_cli, llm_server):
    no_case = evals_cli("refine", skill, "--from", SESSION)
    wrong = evals_cli("refine", skill, "--case", "99", "--from", SESSION,
                      env=openai_env(llm_server))
    no_provider = evals_cli("refine", skill, "--case", "3", "--from", SESSION)
    typo = evals_cli("refine", skill, "--case", "3", "--from", SESSION, "--accept", "promt",
                     env=openai_env(llm_server))

    assert no_case.exit_code == 2 and "give --case ID" in no_case.output
    assert wrong.exit_code == 2 and "has no case '99' (cases: 1, 2, 3)" in wrong.stderr
    assert no_provider.exit_code == 2 and NOT_CONFIGURED in no_provider.stderr
    assert typo.exit_code == 2 and "promt is not a field refine edits" in typo.output
    assert llm_server.requests == []
