"""`skillforge parts PATH`, `skillforge trial --ablate ... --dry-run`, and a stored ablation run
rendered by `skillforge report` (Markdown, HTML, lift.json under extra.ablation)."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.models.parts import SkillPart
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import SAMPLE_SKILLS
from tests.lift.test_ablation_lift import PARTS, run_trials

CSV = SAMPLE_SKILLS / "csv-insights"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="skillforge")


def test_parts_lists_every_part_with_tokens():
    res = invoke("parts", str(CSV))
    assert res.exit_code == 0, res.output
    for pid in ("description", "section:workflow", "section:example", "examples",
                "reference:references/output-format.md", "script:scripts/summarize.py",
                "scripts"):
        assert pid in res.output
    doc = json.loads(invoke("parts", str(CSV), "--format", "json").output)
    parts = {p["id"]: p for p in doc["parts"]}
    assert parts["scripts"]["tokens"] == (parts["script:scripts/summarize.py"]["tokens"]
                                          + parts["script:scripts/report_format.py"]["tokens"])
    assert parts["description"]["loaded"] == "always" and doc["tokenizer"]
    assert "parts" in invoke("--help").output


def test_parts_of_a_folder_without_skill_md_is_a_clear_error(tmp_path):
    res = invoke("parts", str(tmp_path))
    assert res.exit_code == 2 and "has no SKILL.md" in res.output


def _store_with_run(state, skill, trials, parts):
    with RunStore(state) as store:
        spec = RunSpec(skill_path=str(skill), model="gpt-4.1", attempts=1,
                       conditions=["with_skill", "baseline",
                                   *[f"without:{p.id}" for p in parts]], parts=parts)
        store.create_run(RunRecord(run_id="r1", created_at=datetime.now(UTC),
                                   skill_name=skill.name, skill_path=str(skill), spec=spec,
                                   status="finished"))
        for t in trials:
            store.upsert_trial(t.model_copy(update={"run_id": "r1"}))


def test_dry_run_counts_trials_and_prices_them_from_the_last_run(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(CSV, skill)
    state = tmp_path / "state"
    res = invoke("trial", str(skill), "--ablate", "all", "--dry-run", "--state-dir", str(state),
                 "--attempts", "2", "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)  # stderr notes the part measured once
    n_parts = len(json.loads(invoke("parts", str(skill), "--format", "json").output)["parts"])
    # no run yet: the stated assumption's figures, not none
    assert doc["trials"] == 6 * (2 + n_parts) * 2 and doc["agent_tokens"] > 0
    assert "no earlier run" in doc["source"] and "assumed" in doc["source"]
    trials = [t.model_copy(update={"tokens_in": 1000, "tokens_out": 200}) for t in run_trials()]
    _store_with_run(state, skill, trials, PARTS)
    res = invoke("trial", str(skill), "--ablate", "section:workflow,scripts", "--dry-run",
                 "--state-dir", str(state), "--cases", "monthly-revenue,order-stats",
                 "--attempts", "1", "--format", "json", "--model", "gpt-4.1")
    doc = json.loads(res.output)
    assert doc["trials"] == 2 * 4 and doc["agent_tokens"] == 8 * 1200
    assert doc["source_run"] == "r1" and doc["cost_usd"] > 0
    # without:scripts did not run in r1: it takes with_skill's figure
    by = {c["condition"]: c for c in doc["conditions"]}
    assert "with_skill in run r1" in by["without:scripts"]["basis"]
    text = invoke("trial", str(skill), "--ablate", "all", "--dry-run", "--state-dir",
                  str(state), "--model", "gpt-4.1").output
    assert "nothing started" in text and "estimated cost: ~$" in text
    with RunStore(state) as store:
        assert [r.run_id for r in store.runs()] == ["r1"]  # nothing was started


def test_ablate_refuses_unknown_parts_and_a_missing_with_skill(tmp_path):
    res = invoke("trial", str(CSV), "--ablate", "section:nope", "--dry-run",
                 "--state-dir", str(tmp_path))
    assert res.exit_code == 2 and "no part 'section:nope'" in res.output
    res = invoke("trial", str(CSV), "--ablate", "all", "--conditions", "baseline",
                 "--dry-run", "--state-dir", str(tmp_path))
    assert res.exit_code == 2 and "keep with_skill" in res.output


def test_report_renders_the_parts_section(tmp_path):
    state = tmp_path / "state"
    _store_with_run(state, CSV, run_trials(), PARTS)
    md = invoke("report", "r1", "--state-dir", str(state), "--format", "md")
    assert md.exit_code == 0, md.output
    assert "## Parts of the skill (ablation)" in md.output
    assert "earns its keep" in md.output and "harmful" in md.output
    assert "dead weight (40 tokens)" in md.output and "### Routing" in md.output
    out = tmp_path / "lift.json"
    assert invoke("report", "r1", "--state-dir", str(state), "--format", "json", "-o",
                  str(out)).exit_code == 0
    ab = json.loads(out.read_text())["extra"]["ablation"]
    assert {p["part"]: p["verdict"] for p in ab["parts"]}["examples"] == "dead weight"
    html = tmp_path / "r.html"
    assert invoke("report", "r1", "--state-dir", str(state), "--format", "html", "-o",
                  str(html)).exit_code == 0
    page = html.read_text()
    assert 'id="ablation"' in page and 'data-part="section:limitations"' in page
    assert 'data-verdict="harmful"' in page


def test_parts_model_round_trips_in_the_spec():
    spec = RunSpec(skill_path="x", parts=[SkillPart(id="examples", kind="examples",
                                                    title="examples", spans=[(3, 9)])])
    assert RunSpec.model_validate_json(spec.model_dump_json()).parts == spec.parts


def test_dry_run_counts_the_judges_tokens_of_a_judged_run(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(CSV, skill)
    state = tmp_path / "state"
    trials = [t.model_copy(update={"tokens_in": 1000, "tokens_out": 200,
                                   "judge_tokens_in": 3000, "judge_tokens_out": 100})
              for t in run_trials()]
    _store_with_run(state, skill, trials, PARTS)
    args = ("trial", str(skill), "--dry-run", "--state-dir", str(state), "--cases",
            "monthly-revenue,order-stats", "--attempts", "1", "--format", "json", "--model",
            "gpt-4.1")
    judged = json.loads(invoke(*args).output)
    plain = json.loads(invoke(*args, "--no-judge").output)
    # 2 cases x 2 conditions: 4 trials, each 1,200 agent tokens and 3,100 judge tokens
    assert (judged["agent_tokens"], judged["judge_tokens"]) == (4 * 1200, 4 * 3100)
    assert judged["tokens"] == 4 * 4300 and judged["judge_model"] == "gpt-4.1"
    assert (plain["tokens"], plain["judge_tokens"]) == (4 * 1200, None)
    assert judged["cost_usd"] > plain["cost_usd"] > 0
    assert judged["judge_source"] == "judge tokens per trial from judged run r1"
    text = invoke(*args[:-4], "--model", "gpt-4.1").output
    assert "(agent ~4,800, judge ~12,400)" in text and "+ ~3,100 judge" in text
    # a run never judged: the judge's share is assumed from the agent's figures, and said so
    # (it was left out before: a judged run's estimate was about 7x too low)
    empty = tmp_path / "empty"
    fresh = [t.model_copy(update={"tokens_in": 1000, "tokens_out": 200, "turns": 4})
             for t in run_trials()]
    _store_with_run(empty, skill, fresh, PARTS)
    doc = json.loads(invoke(*args[:4], str(empty), *args[5:]).output)
    assert doc["agent_tokens"] == 4 * 1200 and doc["judge_tokens"] == 4 * (250 + 1500 + 400)
    assert doc["tokens"] == 4 * 1200 + doc["judge_tokens"]
    assert "no earlier judged run" in doc["judge_source"] and "assumed" in doc["judge_source"]
