"""The Harbor job the import tests bring back, and what skillforge must make of it.

Dataset: the csv-insights sample, cases monthly-revenue (explicit, graded) and
convert-to-jsonl (negative: the skill must not be used, graded), with_skill and baseline,
two attempts. Eight trials, plus three trial folders that cannot be used:

| trial | started | trajectory                              | ends                     | reward |
|-------|---------|-----------------------------------------|--------------------------|--------|
| MR-W1 |     0 s | fixture: reads the skill, runs its script | ok                     | 1.0    |
| MR-W2 |   100 s | same fixture                            | AgentTimeoutError        | 0.5    |
| MR-B1 |    10 s | corpus openhands hello-world            | ok (no agent_result)     | 0      |
| MR-B2 |    50 s | fixture: sums months with awk           | ok                       | 0.4 (json, + "months") |
| CJ-W1 |     5 s | corpus terminus-2 context summarization | ok                       | 1      |
| CJ-W2 |    60 s | none                                    | NonZeroAgentExitCodeError | none  |
| CJ-B1 |     7 s | corpus terminus-2 invalid-json          | ok                       | 1      |
| CJ-B2 |    70 s | corpus terminus-2 linear history        | RewardFileNotFoundError  | none   |

MR-B1's folder name sorts after MR-B2's, yet it started first: it must be attempt 1.
"""

from __future__ import annotations

import math

from sessions.store import RunStore
from skillforge.harbor.export import ExportResult
from skillforge.harbor.importer import HarborImport
from skillforge.lift.compute import lift_for_run
from tests.harbor.jobs import CORPUS_ATIF, FIXTURES, TrialSpec

WITH_SKILL = str(FIXTURES / "terminus2-monthly-revenue-with-skill.trajectory.json")
BASELINE = str(FIXTURES / "terminus2-monthly-revenue-baseline.trajectory.json")
OPENHANDS = str(CORPUS_ATIF / "sachiny0106__Xelron__hello-world.trajectory.json")
SUMMARIZING = str(CORPUS_ATIF / "sachiny0106__Xelron__hello-world-context-summarization"
                  ".trajectory.json")
INVALID_JSON = str(CORPUS_ATIF / "sachiny0106__Xelron__hello-world-invalid-json.trajectory.json")
LINEAR = str(CORPUS_ATIF / "sachiny0106__Xelron__hello-world-context-summarization-linear-"
             "history.trajectory.json")
CASES = ["monthly-revenue", "convert-to-jsonl"]


def scenario_specs(export: ExportResult) -> list[TrialSpec]:
    path = {t.name: f"{export.dataset_dir}/{t.folder}" for t in export.tasks}

    def spec(case: str, cond: str, start: float, **kw) -> TrialSpec:
        name = f"csv-insights/{case}__{cond}"
        return TrialSpec(task_name=name, task_path=path[name], start_s=start, **kw)

    return [
        spec("monthly-revenue", "with_skill", 0, trajectory=WITH_SKILL, agent_s=40,
             reward_file=("reward.txt", "1.0000\n"), rewards={"reward": 1.0},
             n_input_tokens=5800, n_cache_tokens=0, n_output_tokens=240, cost_usd=0.0169),
        spec("monthly-revenue", "with_skill", 100, trajectory=WITH_SKILL, agent_s=600,
             reward_file=("reward.txt", "0.5\n"), rewards={"reward": 0.5},
             exception=("AgentTimeoutError", "Agent execution timed out after 600.0 seconds")),
        spec("monthly-revenue", "baseline", 10, trajectory=OPENHANDS, agent_s=20,
             trial_name="monthly-revenue__baseline__zzzz999",
             reward_file=("reward.txt", "0\n"), rewards={"reward": 0.0}, n_input_tokens=None,
             n_cache_tokens=None, n_output_tokens=None, cost_usd=None),
        spec("monthly-revenue", "baseline", 50, trajectory=BASELINE, agent_s=35,
             trial_name="monthly-revenue__baseline__aaaa111",
             reward_file=("reward.json", '{"reward": 0.4, "months": 0.5}'),
             rewards={"reward": 0.4, "months": 0.5}, n_input_tokens=3200, n_cache_tokens=0,
             n_output_tokens=200, cost_usd=0.01),
        spec("convert-to-jsonl", "with_skill", 5, trajectory=SUMMARIZING, agent_s=30,
             reward_file=("reward.txt", "1"), rewards={"reward": 1.0}, n_input_tokens=1000,
             n_cache_tokens=100, n_output_tokens=200, cost_usd=0.02),
        spec("convert-to-jsonl", "with_skill", 60, exception=(
            "NonZeroAgentExitCodeError", "agent exited with code 1"), n_input_tokens=None,
             n_cache_tokens=None, n_output_tokens=None, cost_usd=None),
        spec("convert-to-jsonl", "baseline", 7, trajectory=INVALID_JSON, agent_s=60,
             reward_file=("reward.txt", "1"), rewards={"reward": 1.0}, n_input_tokens=1500,
             n_cache_tokens=0, n_output_tokens=300, cost_usd=0.03),
        spec("convert-to-jsonl", "baseline", 70, trajectory=LINEAR, exception=(
            "RewardFileNotFoundError", "No reward file found at /logs/verifier/reward.txt")),
    ]


def _close(a: float | None, b: float, tol: float = 1e-9) -> bool:
    return a is not None and math.isclose(a, b, abs_tol=tol)


def check_scenario(store: RunStore, report: HarborImport, export: ExportResult) -> None:
    """Everything the import of the scenario job must store, checked against values worked
    out by hand from the table above and the trajectories."""
    assert len(report.runs) == 1
    imported = report.runs[0]
    assert (imported.trials, imported.attempts) == (8, 2)
    # the verifier failure is a failed grade of an ok run (fail-closed), not an error
    assert imported.statuses == {"ok": 6, "timeout": 1, "error": 1}
    reasons = report.skipped_reasons
    assert reasons == {"no result.json": 1, "bad result.json": 1, "unknown task": 1}, reasons

    run = store.run(imported.run_id)
    assert run is not None and run.engine == "harbor" and run.status == "finished"
    assert run.skill_name == "csv-insights"
    assert run.skill_hash == export.manifest.skill_hash
    assert run.spec is not None
    assert (run.spec.agent, run.spec.model, run.spec.attempts) == ("terminus-2",
                                                                    "openai/gpt-4o", 2)
    assert run.spec.case_ids == CASES

    trials = {(t.case_id, t.condition, t.attempt): t for t in store.trials(imported.run_id)}
    assert len(trials) == 8
    mr_w1, mr_w2 = trials[("monthly-revenue", "with_skill", 1)], trials[
        ("monthly-revenue", "with_skill", 2)]
    mr_b1, mr_b2 = trials[("monthly-revenue", "baseline", 1)], trials[
        ("monthly-revenue", "baseline", 2)]
    cj_w1, cj_w2 = trials[("convert-to-jsonl", "with_skill", 1)], trials[
        ("convert-to-jsonl", "with_skill", 2)]
    cj_b1, cj_b2 = trials[("convert-to-jsonl", "baseline", 1)], trials[
        ("convert-to-jsonl", "baseline", 2)]

    # Status and grader, trial by trial.
    assert (mr_w1.status, mr_w1.grader) == ("ok", 1.0)
    assert (mr_w2.status, mr_w2.grader) == ("timeout", 0.5)  # graded after the timeout
    assert "AgentTimeoutError" in (mr_w2.error or "")
    # Attempt numbers follow start times, not folder names: the openhands trial came first.
    assert (mr_b1.status, mr_b1.grader) == ("ok", 0.0)
    assert (mr_b2.status, mr_b2.grader) == ("ok", 0.4)
    assert mr_b2.grader_detail == {"reward": 0.4, "months": 0.5}
    assert (cj_w1.status, cj_w1.grader) == ("ok", 1.0)
    assert (cj_w2.status, cj_w2.grader) == ("error", None)
    assert cj_w2.error == "NonZeroAgentExitCodeError: agent exited with code 1"
    assert cj_w2.error_stage == "setup" and cj_w2.excluded  # no turn: left out, counted
    assert cj_w2.trajectory_path is None and cj_w2.metrics == {}
    assert (cj_b1.status, cj_b1.grader) == ("ok", 1.0)
    # the verifier found no reward after the agent ran: graded 0, fail-closed
    assert (cj_b2.status, cj_b2.grader, cj_b2.error_stage) == ("ok", 0.0, "grader")
    assert (cj_b2.error or "").startswith("grader: RewardFileNotFoundError")
    assert (cj_b2.error or "").endswith("graded 0 (fail-closed)") and not cj_b2.excluded

    # Tokens: Harbor's agent_result, else the trajectory's final_metrics (openhands: 220/80).
    assert (mr_w1.tokens_in, mr_w1.tokens_out, mr_w1.cost_usd) == (5800, 240, 0.0169)
    assert (mr_b1.tokens_in, mr_b1.tokens_out, mr_b1.cost_usd) == (220, 80, 0.00135)
    assert (cj_w1.tokens_in, cj_w1.tokens_cached) == (1000, 100)
    # Turns are agent steps; wall time is the agent's execution time.
    assert (mr_w1.turns, mr_w1.tool_calls, mr_w1.wall_s) == (4, 4, 40.0)
    assert (mr_b2.turns, mr_b2.tool_calls) == (3, 3)
    assert (cj_b1.turns, cj_b1.wall_s) == (4, 60.0)

    # Deterministic metrics, worked out by hand:
    # with-skill fixture, explicit case: activated, ran scripts/summarize.py, read SKILL.md
    # before running anything -> skill_execution 3/3; efficiency: routing 1/1, 4 calls
    # without error, 4 turns <= 10 -> 1; no path outside /workspace, /skills, /tmp -> 1.
    assert mr_w1.metrics["skill_execution"] == 1.0 and mr_w1.activated is True
    # terminus-2 records observations without source_call_id; a step's only result is
    # paired with its only call, so the script's run is seen to succeed.
    assert (mr_w1.script_runs, mr_w1.script_runs_ok) == (1, 1)
    assert mr_w1.metrics["skill_efficiency"] == 1.0 and mr_w1.metrics["security"] == 1.0
    # Baseline: nothing can be activated -> 0 checks hold; routing 0 (skill expected,
    # none activated), calls fine, budget fine -> efficiency 2/3.
    assert mr_b2.metrics["skill_execution"] == 0.0 and mr_b2.activated is False
    assert _close(mr_b2.metrics["skill_efficiency"], 2 / 3)
    # openhands writes /app/hello.txt: one kind of finding (outside access) -> 0.75.
    assert mr_b1.metrics["security"] == 0.75
    # Negative case, skill never touched: skill_execution 1 on both sides.
    assert cj_w1.metrics["skill_execution"] == 1.0 and cj_b1.metrics["skill_execution"] == 1.0
    assert cj_b2.metrics["skill_execution"] == 1.0  # scored although its grader failed
    assert cj_b2.metrics["grader"] == 0.0
    assert mr_w1.metrics["grader"] == 1.0

    # The stored trajectories: one per trial that had one, annotated with the trial key.
    stored = store.trajectories(run_id=imported.run_id)
    assert len(stored) == 7
    traj = store.load(f"{imported.run_id}/monthly-revenue/with_skill/1")
    assert traj.extra["case_id"] == "monthly-revenue" and traj.extra["attempt"] == 1
    assert traj.extra["condition"] == "with_skill" and traj.extra["engine"] == "harbor"

    # The lift report of the imported run, by hand.
    lift = lift_for_run(run, store.trials(imported.run_id))
    assert lift.n_cases == 2 and lift.agent == "terminus-2" and lift.model == "openai/gpt-4o"
    inv = lift.inventory
    assert (inv.trials, inv.ok, inv.error, inv.timeout, inv.missing_pairs) == (8, 6, 1, 1, 0)
    # The agent's error is left out and counted; the failed grade is counted as a grade.
    assert lift.extra.errors.excluded == {"with": 1, "base": 0}
    assert lift.extra.errors.grader_failed == {"with": 0, "base": 1}
    assert lift.extra.errors.one_sided is None  # 1 of 4 against 0 of 4: chance
    # Pass (graded cases: ok and reward 1): MR with [pass, timeout] 0.5, base [0, 0.4] 0;
    # CJ with [pass] (the errored attempt left out) 1, base [pass, graded 0] 0.5
    # -> with 0.75, base 0.25, g = 0.5 / 0.75.
    assert _close(lift.pass_.with_, 0.75) and _close(lift.pass_.base, 0.25)
    assert _close(lift.pass_.g, 2 / 3)
    # pass@k: with MR c = 1 of 2 (pass@1 0.5, pass@2 1), CJ 1 of 1 (1, 1); base c = 0 of 2
    # and 1 of 2 -> pass@1 (0 + 0.5) / 2, pass@2 (0 + 1) / 2.
    assert lift.pass_.pass_at_k["with"] == {1: 0.75, 2: 1.0}
    assert lift.pass_.pass_at_k["base"] == {1: 0.25, 2: 0.5}
    # skill_execution and skill_efficiency are use against this baseline, not lift: with
    # MR 1, CJ 1 -> 1; base MR 0, CJ 1 -> 0.5; efficiency with 1, base (2/3 + 1) / 2.
    assert "skill_execution" not in lift.metrics and "skill_efficiency" not in lift.metrics
    use = lift.extra.use.metrics
    assert use["skill_execution"] == {"with": 1.0, "base": 0.5}
    assert _close(use["skill_efficiency"]["base"], (2 / 3 + 1) / 2)
    assert (lift.extra.use.cases, lift.extra.use.used) == (1, 1)  # MR; CJ is negative
    # security: MR with 1, base (0.75 + 1) / 2 = 0.875 -> D 0.125; CJ D 0 -> 0.0625.
    assert _close(lift.metrics["security"].lift, 0.0625)
    # grader: MR with (1 + 0.5) / 2, base (0 + 0.4) / 2 -> D 0.55; CJ with 1 (its errored
    # attempt left out), base (1 + 0) / 2 -> D 0.5 -> 0.525.
    assert _close(lift.metrics["grader"].lift, 0.525)
    row = lift.metrics["overall"]
    assert row.n == 2 and row.verdict == "inconclusive"  # two cases say little
    # The judged metrics were not computed by the import: no value, no lift.
    assert lift.metrics["accuracy"].lift is None
    assert set(lift.extra.missing_metrics) == {"accuracy", "goal_accuracy", "behavior_check"}
    # Efficiency over cases where both sides passed (CJ only, passing attempts only):
    # tokens with 1000 + 200, base 1500 + 300 -> -1/3; wall 30 vs 60 -> -0.5.
    eff = lift.efficiency
    assert _close(eff.tokens.diff, -1 / 3) and _close(eff.wall_s.diff, -0.5)
    assert _close(eff.cost_usd.diff, -1 / 3)
    # Skill-script exec rate: both with-skill monthly-revenue attempts ran summarize.py and
    # its output (paired with the call, see above) shows it exited 0 -> 2 runs, rate 1.
    assert (eff.script_runs, eff.script_exec_rate) == (2, 1.0)
    assert lift.negative_cases == []
