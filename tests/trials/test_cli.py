"""`skillforge trial` as a user runs it: the real console script in a subprocess, real
containers, the scripted agent behind the loopback server.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.trials.output import TRIAL_KEYS
from tests.docker_fixtures import managed_containers
from tests.trials.hanging import wait_until_hanging
from tests.trials.scripted_agent import SKILL_MD, answer, read, write

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]

def test_json_prints_one_document_of_the_run(cli, csv_skill, scripted, tmp_path):
    proc = cli(str(csv_skill), "--cases", "monthly-revenue,missing-values", "--attempts", "1",
               "--no-judge", "--state-dir", str(tmp_path / "state"), "--format", "json",
               "--gate")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)  # the whole of stdout is one JSON document
    assert set(doc) >= {"run_id", "spec", "trials"}
    assert doc["spec"]["case_ids"] == ["monthly-revenue", "missing-values"]
    assert doc["spec"]["model"] == "scripted-agent" and doc["spec"]["image"]
    assert len(doc["trials"]) == 4
    for item in doc["trials"]:
        assert set(item) == set(TRIAL_KEYS)
        assert item["status"] == "ok" and item["error"] is None
        assert Path(item["trajectory_path"]).is_file()
        assert item["tokens_in"] > 0 and item["turns"] >= 2 and item["tool_calls"] >= 1
        assert {"security", "skill_execution", "skill_efficiency", "grader", "overall"} <= \
            set(item["metrics"])
    graders = {(t["case_id"], t["condition"]): t["grader"] for t in doc["trials"]}
    assert graders == {("monthly-revenue", "with_skill"): 1.0,
                       ("monthly-revenue", "baseline"): 1.0,
                       ("missing-values", "with_skill"): 1.0,
                       ("missing-values", "baseline"): 0.2}
    # how the skill was used is reported apart, never as lift
    assert "skill_execution" not in doc["lift"]["metrics"]
    assert doc["lift"]["extra"]["use"]["metrics"]["skill_execution"] == {"with": 1.0,
                                                                          "base": 0.0}
    assert doc["gate"] == {"passed": True, "failures": []}
    assert managed_containers(doc["run_id"]) == []


def test_two_cases_that_both_lose_are_too_few_for_a_verdict(cli, csv_skill, scripted,
                                                             tmp_path):
    # The same loss on two cases: two cases cannot tell a loss from a hidden mass at +1, so
    # the verdict is inconclusive and says why; the planner asks for more than two. (The
    # gate failing on harm: tests/trials/test_verdict_runs.py.)
    scripted.with_skill = {
        "monthly-revenue": [read(SKILL_MD), write("/workspace/summary.md", "| total | 1 |\n"),
                            answer("done")],
        "order-stats": [read(SKILL_MD), write("/workspace/stats.json", "{}"), answer("done")],
    }
    proc = cli(str(csv_skill), "--cases", "monthly-revenue,order-stats", "--attempts", "1",
               "--no-judge", "--state-dir", str(tmp_path / "state"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    lift = json.loads(proc.stdout)["lift"]
    assert lift["metrics"]["grader"]["lift"] == -1.0
    assert lift["metrics"]["grader"]["verdict"] == "inconclusive"
    assert lift["extra"]["withheld"]["grader"]["reason"] == "too few cases"
    assert lift["extra"]["withheld"]["grader"]["cases_needed"] > 2


def test_interrupt_cleans_up_and_resume_finishes_the_run(cli, csv_skill, scripted, tmp_path,
                                                         llm_server):
    scripted.delays = {"order-stats": 120.0}  # its trials hang in their first model call
    state = tmp_path / "state"
    proc = cli(str(csv_skill), "--cases", "monthly-revenue,missing-values,order-stats",
               "--attempts", "1", "--concurrency", "2", "--no-judge", "--state-dir",
               str(state), "--format", "json", wait=False)
    try:
        deadline = time.monotonic() + 90
        run_id = None
        while time.monotonic() < deadline:
            if state.joinpath("skillforge.db").exists():
                with RunStore(state) as store:
                    run = store.latest_run()
                    ok = len(store.finished_keys(run.run_id)) if run else 0
                run_id = run.run_id if run else None
                hanging = [k for k in scripted.conversations if k[0] == "order-stats"]
                if ok == 4 and len(hanging) == 2 and run_id and \
                        len(managed_containers(run_id)) == 2:
                    break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        else:
            pytest.fail("the run never reached 4 finished and 2 hanging trials")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert f"--resume {run_id}" in err and out == ""
    assert managed_containers(run_id) == []
    slow = [r for r in llm_server.requests if "average order value" in r.all_text()]
    # The model calls in flight were cancelled: the client hung up on the server.
    assert slow and all(r.disconnected.wait(10) for r in slow)
    with RunStore(state) as store:
        assert store.run(run_id).status == "cancelled"
        before = {t.key: t for t in store.trials(run_id)}
    assert sorted(t.status for t in before.values()) == ["cancelled"] * 2 + ["ok"] * 4
    assert {k[0] for k, t in before.items() if t.status == "cancelled"} == {"order-stats"}

    scripted.delays = {}
    started = dict(scripted.conversations)
    proc = cli("--resume", run_id, "--state-dir", str(state), "--format", "json", "--no-judge",
               image=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["run_id"] == run_id and len(doc["trials"]) == 6
    assert {t["status"] for t in doc["trials"]} == {"ok"}
    new = {k: v - started.get(k, 0) for k, v in scripted.conversations.items()
           if v - started.get(k, 0)}
    assert new == {("order-stats", "with_skill"): 1, ("order-stats", "baseline"): 1}
    with RunStore(state) as store:
        after = {t.key: t for t in store.trials(run_id)}
        assert store.run(run_id).status == "finished"
    for key, old in before.items():
        if old.status == "ok":
            assert after[key].started_at == old.started_at  # not run again
    assert managed_containers(run_id) == []


def test_a_run_started_with_no_judge_is_resumed_without_the_judge(cli, csv_skill, scripted,
                                                                  tmp_path):
    # Issue 15: the resume judged the remaining trials, mixing judged and unjudged ones.
    from tests.trials.test_judged_trial import judge

    state = tmp_path / "state"
    proc = cli(str(csv_skill), "--cases", "monthly-revenue", "--attempts", "1", "--no-judge",
               "--state-dir", str(state), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    run_id = json.loads(proc.stdout)["run_id"]
    with RunStore(state) as store:  # as if Ctrl+C had stopped the with-skill trial
        (rec,) = [t for t in store.trials(run_id) if t.condition == "with_skill"]
        store.upsert_trial(rec.model_copy(update={"status": "cancelled"}))
    scripted.judge = judge  # a judge that would answer, so a judged trial would show it
    proc = cli("--resume", run_id, "--state-dir", str(state), "--format", "json", image=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["spec"]["judge"] is False and scripted.judge_requests == 0
    assert {t["status"] for t in doc["trials"]} == {"ok"}
    assert all(t["metrics"].get("accuracy") is None for t in doc["trials"])
    # Asking for the judge now is refused: the run stays unjudged from first to last trial.
    proc = cli("--resume", run_id, "--state-dir", str(state), "--judge-model", "scripted-agent",
               image=False)
    assert proc.returncode == 2 and "started with --no-judge" in proc.stderr


def test_no_provider_exits_2_saying_what_to_set(cli, csv_skill, tmp_path):
    proc = cli(str(csv_skill), "--state-dir", str(tmp_path / "state"),
               env={"OPENAI_BASE_URL": None, "SKILLFORGE_PROVIDER__MODEL": None})
    assert proc.returncode == 2
    assert "ANTHROPIC_API_KEY" in proc.stderr and "OPENAI_BASE_URL" in proc.stderr
    assert "Traceback" not in proc.stderr
    with RunStore(tmp_path / "state") as store:
        assert store.runs() == []


def test_a_dead_docker_daemon_is_one_clear_message(cli, csv_skill, tmp_path):
    proc = cli(str(csv_skill), "--state-dir", str(tmp_path / "state"), "--no-judge",
               env={"DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock"})
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Docker is not reachable" in lines[0] and "--sandbox local" in lines[0]


def test_unknown_cases_and_bad_options_exit_2(cli, csv_skill, tmp_path):
    proc = cli(str(csv_skill), "--cases", "no-such-case", "--no-judge", "--state-dir",
               str(tmp_path / "state"))
    assert proc.returncode == 2
    assert "unknown case id(s) no-such-case" in proc.stderr and "monthly-revenue" in proc.stderr
    proc = cli(str(csv_skill), "--conditions", "with_skill,sometimes", image=False)
    assert proc.returncode == 2 and "sometimes" in proc.stderr
    proc = cli("--resume", "nope", "--state-dir", str(tmp_path / "state"), image=False)
    assert proc.returncode == 2 and "no run 'nope'" in proc.stderr


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_cancel_like_ctrl_c(cli, csv_skill, scripted, tmp_path, sig, code):
    # What CI cancellation, `timeout`, `docker stop` (SIGTERM) and a closed terminal (SIGHUP)
    # send. Before, either ended the process at once: both containers kept running and the
    # run stayed "running" in the store for good.
    scripted.delays = {"order-stats": 120.0}
    state = tmp_path / "state"
    proc = cli(str(csv_skill), "--cases", "order-stats", "--attempts", "1", "--concurrency",
               "2", "--no-judge", "--state-dir", str(state), "--format", "json", wait=False)
    try:
        run_id = wait_until_hanging(proc, state, seconds=90, what="the run",
                                    ready=lambda: len(scripted.conversations) == 2)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert f"stopped by {sig.name}" in err and f"--resume {run_id}" in err and out == ""
    assert managed_containers(run_id) == []
    with RunStore(state) as store:
        assert store.run(run_id).status == "cancelled"
        assert sorted(t.status for t in store.trials(run_id)) == ["cancelled"] * 2
