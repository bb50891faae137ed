"""A real `harbor run` of an exported dataset: the commands its README prints, typed as
printed, on Harbor's docker environment (Harbor 0.25.0 from constraints/harbor.txt, docker
compose v2), then `skillforge import harbor` and `skillforge report`.

- `nop`, Harbor's agent that does nothing: every task's image is built from its Dockerfile
  (FROM the local trial image: there is no registry here), started, and graded.
- `terminus-2`, Harbor's own agent, nobody here wrote it: driven by the llama.cpp server of
  the suite (SmolLM2-135M) through Harbor's OpenAI-compatible settings. terminus-2 calls the
  model from the Harbor process on this machine and types into tmux in the container, so
  the server stays on loopback and the container needs no way to it. It needs tmux in the
  image: the tmux variant of the trial image. A toy model: the test checks the plumbing
  (trials run, trajectories are ATIF, the import pairs them), never what the model did.

Neither test skips: no Docker, no compose v2, no image or no model server fails it with the
cause. Durations are printed (`-s` shows them).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sessions.store import RunStore
from tests.conftest import SAMPLE_SKILLS
from tests.harbor.harbor_run import ensure_compose, readme_line, run_harbor, skillforge

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.timeout(3600)]

CSV = SAMPLE_SKILLS / "csv-insights"


@pytest.fixture(scope="session")
def compose_v2(docker_client) -> str:
    return ensure_compose()


def export(tmp_path: Path, *options: str) -> tuple[Path, str]:
    """`skillforge export harbor skills/csv-insights -o ds ...` in tmp_path; the README."""
    shutil.copytree(CSV, tmp_path / "skills" / "csv-insights")
    done = skillforge("skillforge export harbor skills/csv-insights -o ds " + " ".join(options),
                      tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # The docker environment cannot enforce no-network: said where it cannot be missed.
    assert "cannot enforce no-network" in done.stderr
    readme = (tmp_path / "ds" / "README.md").read_text()
    assert "export HARBOR_TELEMETRY=0" in readme  # harbor_env.env() sets it
    return tmp_path / "ds", readme


def import_and_report(tmp_path: Path, readme: str, job: Path) -> tuple[str, dict, str]:
    """The README's way back, typed as printed; (import output, lift.json, report text)."""
    line = readme_line(readme, "skillforge import harbor", "jobs/<job name>")
    assert line == "skillforge import harbor jobs/<job name> --dataset ds"
    imported = skillforge(line, tmp_path, **{"job name": job.name})
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert readme_line(readme, "skillforge report", "") == "skillforge report"
    text = skillforge("skillforge report", tmp_path)
    assert text.returncode == 0, text.stdout + text.stderr
    doc = skillforge("skillforge report --format json", tmp_path)
    assert doc.returncode == 0, doc.stdout + doc.stderr
    return imported.stdout, json.loads(doc.stdout), text.stdout


def stored_trials(tmp_path: Path, run_id: str):
    with RunStore(tmp_path / ".skillforge") as store:
        trials = store.trials(run_id)
        paths = [str(r.path) for r in store.trajectories(run_id=run_id)]
    return trials, paths


def test_the_readme_nop_command_runs_in_harbor_and_comes_back_as_a_run(
        harbor_env, trial_image, compose_v2, tmp_path):
    ds, readme = export(tmp_path, "--cases monthly-revenue,order-stats", "-k 1",
                        f"--image {trial_image}")
    line = readme_line(readme, "harbor run", "-a nop ")
    assert line == "harbor run -p ds -e docker -a nop -k 1 -n 4"
    job = run_harbor(harbor_env, line, tmp_path)
    print(f"\nharbor run -a nop: {len(job.trials)} trials in {job.seconds:.1f} s")
    assert len(job.trials) == 4 and job.exceptions == {}, job.diagnosis()
    # Both cases have a grader; nothing was done, so it gave 0 on both sides.
    assert {t["verifier_result"]["rewards"]["reward"] for t in job.trials.values()} == {0.0}

    out, lift, text = import_and_report(tmp_path, readme, job.folder)
    assert "csv-insights · nop · 4 trials (4 ok)" in out and "4 graded" in out
    assert "had network: it was written for Harbor's docker environment, which cannot " \
           "enforce no-network (the run is stored with network on)" in out
    trials, _ = stored_trials(tmp_path, lift["run_id"])
    with RunStore(tmp_path / ".skillforge") as store:
        assert store.run(lift["run_id"]).spec.network  # as the trials ran
    assert sorted((t.case_id, t.condition, t.status, t.grader) for t in trials) == [
        (case, cond, "ok", 0.0) for case in ("monthly-revenue", "order-stats")
        for cond in ("baseline", "with_skill")]
    assert lift["inventory"] == {"trials": 4, "ok": 4, "error": 0, "timeout": 0,
                                 "missing_pairs": 0}
    assert (lift["metrics"]["grader"]["n"], lift["metrics"]["grader"]["lift"]) == (2, 0.0)
    # nop leaves no trajectory to score, but the grader is an outcome metric: overall is the
    # grader here, and the report says so
    assert lift["metrics"]["overall"]["n"] == 2 and lift["extra"]["overall_of"] == ["grader"]
    assert "No paired case yet" not in text
    assert "Overall Skill Lift (mean of grader): 0.000" in " ".join(text.split())


def test_terminus_2_on_the_local_model_runs_and_imports_with_pairs(
        harbor_env, tmux_image, llama_server, compose_v2, tmp_path):
    # 2 trials took 174 s on an idle 2-core machine, 645 s on a busy one: a generous agent
    # time limit, so a slow CPU is not mistaken for a broken harness.
    ds, readme = export(tmp_path, "--cases monthly-revenue", "-k 1", "--max-turns 4",
                        "--timeout 1500", f"--image {tmux_image}")
    line = readme_line(readme, "harbor run", "-a terminus-2 ")
    assert line == "harbor run -p ds -e docker -a terminus-2 -m <model> -k 1 -n 4 " \
                   "--ak max_turns=4"
    # The README's line, plus one knob for a 135M toy model: at most 512 tokens an answer.
    # Unbounded, it sometimes rambles on towards the end of the server's context, which at
    # a few tokens a second on shared CPUs outlasts any time limit (terminus-2 re-asks, in
    # fewer tokens, when an answer is cut short).
    job = run_harbor(harbor_env, line + " --ak 'llm_call_kwargs={\"max_tokens\": 512}'",
                     tmp_path, env=llama_server.env(), model=f"openai/{llama_server.model}")
    print(f"\nharbor run -a terminus-2 ({llama_server.model}): {len(job.trials)} trials in "
          f"{job.seconds:.1f} s")
    assert len(job.trials) == 2 and job.exceptions == {}, job.diagnosis()
    # terminus-2 wrote its own ATIF trajectories; Harbor's validator accepts them.
    written = [str(job.folder / name / "agent" / "trajectory.json") for name in job.trials]
    checked = harbor_env.run("trajectories", *written)
    assert checked.returncode == 0, checked.stderr[-3000:]
    for path, got in json.loads(checked.stdout).items():
        assert got["ok"] and got["validator_ok"], (path, got)
    for name, trial in job.trials.items():
        assert trial["agent_info"]["name"] == "terminus-2"
        # It did talk to the server (else: its logs and the server's, to tell why).
        assert trial["agent_result"]["n_input_tokens"] > 0, (
            f"{job.trial_diagnosis(name)}\n--- llama server log:\n"
            f"{llama_server.log_path.read_text(errors='replace')[-3000:]}")
        # Harbor gave terminus-2 the skill from the task's skills_dir in with_skill only.
        steps = json.loads((job.folder / name / "agent" / "trajectory.json").read_text())
        offered = "<name>csv-insights</name>" in json.dumps(steps["steps"][0]["message"])
        assert offered is trial["task_name"].endswith("__with_skill"), name

    out, lift, _ = import_and_report(tmp_path, readme, job.folder)
    assert "terminus-2 / openai/smollm2 · 2 trials (2 ok)" in out
    assert lift["agent"] == "terminus-2"
    assert lift["inventory"] == {"trials": 2, "ok": 2, "error": 0, "timeout": 0,
                                 "missing_pairs": 0}
    assert lift["metrics"]["overall"]["n"] == 1  # one case, both sides scored
    trials, stored = stored_trials(tmp_path, lift["run_id"])
    assert sorted(t.condition for t in trials) == ["baseline", "with_skill"]
    assert all(t.tokens_in and t.turns for t in trials)
    # What skillforge stored is ATIF too.
    checked = harbor_env.run("trajectories", *stored)
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert len(stored) == 2 and all(
        g["ok"] and g["validator_ok"] for g in json.loads(checked.stdout).values())
