"""The rounds of an --until-decided run, from its trial records (skillforge.lift.rounds):
the stopping rule, agreement with the simulation's vectorised code, and the report of such a
run (its intervals are the last round's anytime-valid ones, and it says why it stopped)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from click.testing import CliRunner

from skillforge.lift.compute import lift_for_run
from skillforge.lift.rounds import round_results, rounds_record, stop_reason
from skillforge.models.rounds import MetricSequence, RoundResult
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.report.html_page import render_html
from skillforge.report.markdown import render_markdown
from tests.lift.stopping_sim import sequential_pass


def _trials(grades: np.ndarray) -> list[TrialRecord]:
    """grades: (rounds, cases, 2) grader rewards, [..., 0] with the skill, [..., 1] without;
    security 1 on both sides, so overall is the mean of the two."""
    out = []
    for r, row in enumerate(grades, start=1):
        for i, (w, b) in enumerate(row):
            for cond, g in (("with_skill", w), ("baseline", b)):
                out.append(TrialRecord(run_id="r", case_id=f"c{i}", condition=cond, attempt=r,
                                       grader=float(g), metrics={"security": 1.0}))
    return out


def _run(max_attempts: int, status: str = "finished", margin: float = 0.05) -> RunRecord:
    return RunRecord(run_id="r", created_at=datetime(2026, 12, 5, tzinfo=UTC), status=status,
                     spec=RunSpec(skill_path="s", attempts=max_attempts, until_decided=True,
                                  margin=margin))


def test_eight_cases_that_fail_only_with_the_skill_decide_harm_in_round_one():
    grades = np.zeros((1, 8, 2))
    grades[..., 1] = 1.0
    [first] = round_results(_trials(grades), 3)
    assert first.verdict == "hurts" and first.by == ["grader", "pass rate"]
    assert first.metrics["grader"].ci_high < 0 and first.metrics["overall"].lift == -0.5
    assert (first.pass_.with_only, first.pass_.base_only) == (0, 8)
    assert stop_reason(first, 0.05, 3) == "decided hurts"


def test_the_rule_stops_on_a_narrow_interval_or_the_last_round_else_goes_on():
    narrow = RoundResult(round=2, width=0.04, metrics={"overall": MetricSequence()})
    assert stop_reason(narrow, 0.05, 5) == "interval narrower than the margin"
    wide = RoundResult(round=2, width=0.5)
    assert stop_reason(wide, 0.05, 5) is None
    assert stop_reason(wide.model_copy(update={"round": 5}), 0.05, 5) == \
        "max attempts reached"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_product_s_rounds_match_the_simulation_s_code(seed):
    # what the simulation measures is what a run computes from its trial records
    rng = np.random.default_rng([38, seed])
    w = (rng.random((1, 4, 7)) < 0.7).astype(float)
    b = (rng.random((1, 4, 7)) < 0.4).astype(float)
    results = round_results(_trials(np.stack([w[0], b[0]], axis=-1)), 4)
    used, verdict = sequential_pass(w, b)
    head = {"helps": 1, "hurts": -1, "inconclusive": 0}
    stops = [r.round for r in results if stop_reason(r, 0.05, 4) is not None]
    assert stops[0] == used[0]
    assert head[results[stops[0] - 1].verdict] == verdict[0]


def test_a_report_of_such_a_run_uses_the_last_round_and_says_why_it_stopped():
    grades = np.zeros((2, 8, 2))
    grades[..., 0] = 1.0  # passes only with the skill, two rounds
    trials = _trials(grades)
    run = _run(2)
    lift = lift_for_run(run, trials)
    rounds = lift.extra.rounds
    assert rounds is not None and [r.round for r in rounds.rounds] == [1, 2]
    # the run stopped after round 1 in fact; a report over two rounds says round 2
    assert (rounds.stopped_at, rounds.reason) == (2, "decided helps")
    last = rounds.rounds[-1].metrics["grader"]
    assert (lift.metrics["grader"].ci_low, lift.metrics["grader"].ci_high) == \
        (last.ci_low, last.ci_high)
    assert lift.extra.headline.verdict == "helps"
    assert lift.extra.headline.note.endswith(
        "interval: anytime-valid, stopped at round 2 because decided helps")
    assert lift.extra.pass_test.test.startswith("anytime-valid")
    md = " ".join(render_markdown(lift).split())
    assert "## Rounds (stopped when decided)" in md
    assert "| 2 | 32 | +0.500 |" in md
    assert "E = " in md and "Stopped when decided: this run looked" in md
    html = render_html(lift)
    assert 'id="rounds"' in html and 'data-round="2"' in html
    assert "rounds" in lift.model_dump(mode="json", by_alias=True)["extra"]


def test_a_cancelled_run_says_so_and_other_runs_have_no_rounds():
    grades = np.full((1, 3, 2), 0.5)
    record = rounds_record(_run(4, status="cancelled"), _trials(grades))
    assert record is not None and record.reason == "cancelled"
    plain = RunRecord(run_id="r", created_at=datetime(2026, 12, 5, tzinfo=UTC),
                      spec=RunSpec(skill_path="s"))
    assert rounds_record(plain, _trials(grades)) is None
    lift = lift_for_run(plain, _trials(grades))
    assert lift.extra.rounds is None
    assert "rounds" not in lift.model_dump(mode="json", by_alias=True)["extra"]


def test_the_options_refuse_what_does_not_go_together(tmp_path):
    from skillforge.cli.trial import trial

    runner = CliRunner()
    for args, said in (
            (["--max-attempts", "4"], "--max-attempts and --margin go with --until-decided"),
            (["--until-decided", "--attempts", "4"], "drop --attempts"),
            (["--until-decided", "--resume", "X"], "drop --until-decided"),
            (["--until-decided", "--margin", "0"], "0<x<2")):
        res = runner.invoke(trial, [str(tmp_path), *args])
        assert res.exit_code == 2 and said in res.output, (args, res.output)
    help_text = " ".join(runner.invoke(trial, ["--help"]).output.split())
    assert "--until-decided" in help_text and "anytime-valid" in help_text
    assert "--max-attempts K" in help_text and "--margin M" in help_text


def test_the_gate_reads_the_anytime_valid_verdicts():
    from skillforge.trials.output import gate_failures

    grades = np.zeros((1, 8, 2))
    grades[..., 1] = 1.0  # every case fails only with the skill, one round of three
    lift = lift_for_run(_run(3), _trials(grades))
    failures = gate_failures(lift)
    assert [f.split(":")[0] for f in failures] == ["grader", "pass rate"]
    assert "anytime-valid mixture SPRT on the discordant pairs E = 50.3, 20 decides" in \
        failures[1]
