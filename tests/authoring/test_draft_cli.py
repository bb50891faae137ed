"""`skillforge evals draft` end to end: the real SDKs against the loopback server, a preview
that writes nothing, --write that merges in the author's format, and every refusal."""

from __future__ import annotations

import json
import os
import threading

from skillforge.models.evals import parse_evals
from skillforge.providers.select import NOT_CONFIGURED
from tests.authoring.answers import IMPLICIT, NEGATIVE, drafted
from tests.authoring.conftest import anthropic_env, openai_env
from tests.llm_server import structured


def _stat(path):
    st = os.stat(path)
    return path.read_bytes(), st.st_mtime_ns, st.st_ino


def test_preview_writes_nothing_then_write_merges_in_the_authors_format(skill, llm_server,
                                                                       evals_cli):
    evals = skill / "evals" / "evals.json"
    before = evals.read_text()
    llm_server.handler = lambda req: structured(drafted(IMPLICIT, NEGATIVE))

    preview = evals_cli("draft", skill, "--kinds", "implicit,negative",
                        env=openai_env(llm_server))

    assert preview.exit_code == 0, preview.output
    assert evals.read_text() == before
    out = preview.stdout
    for text in ("2 proposed case(s) for csv-insights", "4 · implicit", "5 · negative",
                 "How many units did we sell", "Units per channel summing to 121",
                 "Runs scripts/summarize.py with --group-by channel", "preview only",
                 "(none: must not be used)", "tokens in"):
        assert text in out, text

    wrote = evals_cli("draft", skill, "--kinds", "implicit,negative", "--write",
                      env=openai_env(llm_server))

    assert wrote.exit_code == 0, wrote.output
    assert "wrote" in wrote.stdout and "added 4, 5" in wrote.stdout
    after = evals.read_text()
    evalset, issues = parse_evals(after)
    assert issues == [] and [c.id for c in evalset.cases] == [1, 2, 3, 4, 5]
    author_cases = before[:before.index("\n    ],\n")]
    assert after.startswith(author_cases)  # the author's cases byte for byte
    added = after[len(author_cases):]
    assert '"expected_output"' in added and '"expectations"' in added
    assert '"ground_truth"' not in added and '"expected_behavior"' not in added
    assert evalset.case(5).expected_skill is None and evalset.case(4).kind == "implicit"
    assert after.endswith('    "generated_by": "skill-creator 2.1"\n}\n')
    body = llm_server.completions[0].body
    assert body["response_format"]["type"] == "json_schema"  # the OpenAI wire's own form


def test_rejecting_the_proposal_leaves_the_file_byte_for_byte(skill, llm_server, evals_cli):
    evals = skill / "evals" / "evals.json"
    before = _stat(evals)
    llm_server.handler = lambda req: structured(drafted(IMPLICIT))

    none = evals_cli("draft", skill, "--kinds", "implicit", "--write", "--accept", "none",
                     env=anthropic_env(llm_server))
    preview = evals_cli("draft", skill, "--kinds", "implicit", env=anthropic_env(llm_server))

    assert none.exit_code == 0 and preview.exit_code == 0, none.output + preview.output
    assert "nothing accepted" in none.stdout
    assert _stat(evals) == before  # same bytes, never even rewritten
    assert llm_server.completions[0].wire == "anthropic"


def test_accepting_some_cases_adds_only_those_as_json(aces_skill, llm_server, evals_cli):
    llm_server.handler = lambda req: structured(drafted(IMPLICIT, NEGATIVE))

    run = evals_cli("draft", aces_skill, "--kinds", "implicit,negative", "--write",
                    "--accept", "dedupe-customers", "--format", "json", "--model",
                    "openai:picked-model", env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    assert llm_server.completions[0].model == "picked-model"
    doc = json.loads(run.stdout)
    assert doc["written"] is True and doc["accepted"] == ["dedupe-customers"]
    assert [c["id"] for c in doc["proposal"]["cases"]] == ["channel-units", "dedupe-customers"]
    evalset, _ = parse_evals((aces_skill / "evals" / "evals.json").read_text())
    assert [c.id for c in evalset.cases][-1] == "dedupe-customers"
    assert evalset.case("channel-units") is None
    assert '"ground_truth": "A deduplicated customers_clean.csv"' in evalset._text


def test_an_accept_naming_no_proposed_case_writes_nothing(skill, llm_server, evals_cli):
    before = (skill / "evals" / "evals.json").read_bytes()
    llm_server.handler = lambda req: structured(drafted(IMPLICIT))
    run = evals_cli("draft", skill, "--kinds", "implicit", "--write", "--accept", "7",
                    env=openai_env(llm_server))
    assert run.exit_code == 2 and "--accept names 7" in run.stderr
    assert (skill / "evals" / "evals.json").read_bytes() == before


def test_invalid_model_output_is_retried_once(skill, llm_server, evals_cli):
    llm_server.script(structured("{\"cases\": [{\"id\": 1}]}"),
                      structured(drafted(IMPLICIT)))

    run = evals_cli("draft", skill, "--kinds", "implicit", env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    assert len(llm_server.completions) == 2 and "2 attempts" in run.stdout
    retry = llm_server.completions[1].last_message_text()
    assert "could not be used" in retry and "cases.0.prompt: Field required" in retry


def test_output_that_stays_invalid_exits_2_and_writes_nothing(skill, llm_server, evals_cli):
    before = (skill / "evals" / "evals.json").read_bytes()
    llm_server.handler = lambda req: structured("Sure! Here are some cases: ...")

    run = evals_cli("draft", skill, "--write", env=openai_env(llm_server))

    assert run.exit_code == 2
    assert "did not give usable eval cases, even after one retry" in run.stderr
    assert "Traceback" not in run.output and len(llm_server.completions) == 2
    assert (skill / "evals" / "evals.json").read_bytes() == before


def test_no_provider_exits_2_with_what_to_set(skill, evals_cli):
    run = evals_cli("draft", skill)
    assert run.exit_code == 2
    assert NOT_CONFIGURED in run.stderr


def test_a_file_changed_during_drafting_is_not_overwritten(skill, llm_server, evals_cli):
    evals = skill / "evals" / "evals.json"
    edited = evals.read_text().replace('"North"', '"North, 2232.68"')
    done = threading.Event()

    def author_saves_meanwhile(req):
        evals.write_text(edited)  # the author saves in their editor while the model thinks
        done.set()
        return structured(drafted(IMPLICIT))

    llm_server.handler = author_saves_meanwhile
    run = evals_cli("draft", skill, "--kinds", "implicit", "--write",
                    env=openai_env(llm_server))

    assert done.is_set() and run.exit_code == 2
    assert "changed on disk since it was loaded" in run.stderr
    assert "nothing was written" in run.stderr
    assert evals.read_text() == edited


def test_a_broken_evals_file_is_refused_before_asking_the_model(skill, llm_server,
                                                                evals_cli):
    evals = skill / "evals" / "evals.json"
    evals.write_text('{"evals": [\n  {"id": 1, "prompt": "x"},\n  {"id": 1, "prompt": "y"}\n]}\n')

    run = evals_cli("draft", skill, "--write", env=openai_env(llm_server))

    assert run.exit_code == 2 and llm_server.requests == []
    assert "(line 3): case id 1 is used twice" in run.stderr


def test_a_skill_without_evals_gets_a_new_canonical_file(aces_skill, llm_server, evals_cli):
    (aces_skill / "evals" / "evals.json").unlink()
    llm_server.handler = lambda req: structured(drafted(IMPLICIT))

    run = evals_cli("draft", aces_skill, "--kinds", "implicit", "--write",
                    env=openai_env(llm_server))

    assert run.exit_code == 0, run.output
    data = json.loads((aces_skill / "evals" / "evals.json").read_text())
    assert data["skill_name"] == "csv-insights"
    assert data["evals"][0]["id"] == "channel-units"
    assert data["evals"][0]["expected_behavior"][0].startswith("Runs scripts/summarize.py")


def test_bad_kinds_are_a_usage_error(skill, evals_cli):
    run = evals_cli("draft", skill, "--kinds", "explicit,sideways")
    assert run.exit_code == 2 and "unknown sideways" in run.output


def test_a_lone_surrogate_in_the_models_answer_is_written_as_a_replacement_char(
        skill, llm_server, evals_cli):
    # smollm2 on llama.cpp once answered with half of a UTF-16 pair ("\udc89" in its JSON):
    # `evals draft --write` crashed saving it (UnicodeEncodeError), as no UTF-8 file can
    # hold it. Both spellings: the escape inside the answer's JSON text, and the character
    # itself in the response body.
    case = json.loads(json.dumps(drafted(IMPLICIT)))
    case["cases"][0]["prompt"] = "How many units \udc89 did we sell?"
    escaped = json.dumps(case)  # ensure_ascii: the six characters \udc89
    for reply in (structured(escaped), structured(case)):
        llm_server.handler = lambda req, reply=reply: reply
        wrote = evals_cli("draft", skill, "--kinds", "implicit", "--write",
                          env=openai_env(llm_server))
        assert wrote.exit_code == 0, wrote.output
        text = (skill / "evals" / "evals.json").read_text("utf-8")
        assert "How many units \ufffd did we sell?" in text
        assert parse_evals(text)[1] == []
