"""Deterministic metrics of real recorded trajectories (shared/corpus/traces), checked
against values worked out by hand from the files."""

from __future__ import annotations

import pytest

from sessions.importers import import_path, import_trajectory, trace_files
from skillforge.trajectory import facts as tf
from skillforge.metrics.deterministic import deterministic_metrics
from skillforge.models.evals import EvalCase
from tests.conftest import CORPUS

TRACES = CORPUS / "traces"
# A real Codex Desktop rollout (0.128.0-alpha.1, session cwd /Users/Sample_User/naya): the
# user asks for a demo scenario; the agent reads a meeting transcript in ~/Downloads,
# reads three skills' SKILL.md (using-superpowers at step 3; browser and brainstorming at
# step 11; browser again at step 12), drives a browser, then reads the codemie-ui sources
# in ~/repos and answers at step 24.
ROLLOUT = (TRACES / "codex" / "codemie-ai__codemie-code__rollout-2026-05-11T13-28-45-"
           "019e1695-0522-7c83-8b39-0dd379793f80.jsonl")
CASE = EvalCase(id="demo-scenario", kind="implicit", prompt="Draft an 8-minute demo scenario.",
                expected_skill="brainstorming")


@pytest.fixture(scope="module")
def rollout():
    return import_trajectory(ROLLOUT).trajectory


def score(traj, case=CASE, condition="with_skill", target="brainstorming"):
    return deterministic_metrics(traj, case, target_skill=target, condition=condition,
                                 skills_dirs=tf.SKILLS_DIRS)


def test_codex_rollout_with_skill(rollout):
    r = score(rollout)
    # security: the only kind found is access outside the session's cwd: the transcript in
    # /Users/Sample_User/Downloads (steps 4-6) and /Users/Sample_User/repos/codemie-ui
    # (steps 18-23). The skills under ~/.codex/plugins/cache/.../skills/ are skill folders;
    # `ps -ef | rg ...` names no path; no secret, no destructive command, nothing sent.
    assert [f.kind for f in r.security_findings] == ["outside_access"]
    assert r.security_findings[0].step_ids == [4, 5, 6, 18, 19, 20, 21, 22, 23]
    assert r.security == 0.75
    # skill_execution: brainstorming activated (step 11); no expected_script; nothing was
    # written and no skill script run, so "activated before acting" holds: 2 of 2.
    assert r.skill_execution == 1.0 and r.activated
    assert (r.script_runs, r.script_runs_ok) == (0, 0)
    # skill_efficiency: routing 1/3 (three distinct skills activated, one expected);
    # productive 37/38 (one call failed: `ps -ef | rg ...` exited 1 at step 14);
    # budget 10/20 (20 agent steps, default reference 10).
    eff = r.details["skill_efficiency"]
    assert eff["routing_precision"]["value"] == pytest.approx(1 / 3)
    assert eff["productive_calls"]["value"] == pytest.approx(37 / 38)
    assert eff["productive_calls"]["errors"] == [{"step_id": 14, "tool": "exec_command",
                                                  "why": "exit code 1"}]
    assert eff["budget"]["value"] == 0.5 and eff["budget"]["turns"] == 20
    assert r.skill_efficiency == pytest.approx((1 / 3 + 37 / 38 + 0.5) / 3)  # 0.6023


def test_codex_rollout_as_a_baseline_trial(rollout):
    r = score(rollout, condition="baseline")
    # Activation check forced to 0, and never-activated fails the order check: 0 of 2.
    assert r.skill_execution == 0.0
    assert r.security == 0.75  # security does not depend on the condition


def test_codex_rollout_as_a_negative_case_for_a_skill_it_used(rollout):
    negative = EvalCase(id="no-browser", kind="negative", prompt="x")
    r = score(rollout, case=negative, target="browser")
    assert r.skill_execution == 0.0  # browser was activated (steps 11 and 12)
    # routing: nothing expected, three skills activated -> 0
    assert r.details["skill_efficiency"]["routing_precision"]["value"] == 0.0


def test_codex_spawn_skill_sample():
    t = import_trajectory(TRACES / "codex" / "codemie-ai__codemie-code__turn-spawn-skill.jsonl")
    r = score(t.trajectory)
    # brainstorming read with sed at step 2, three calls without error, 3 agent steps.
    assert (r.security, r.skill_execution, r.skill_efficiency) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("path", trace_files(TRACES), ids=lambda p: p.name[:50])
def test_every_corpus_trace_gets_metrics_in_range(path):
    for result in import_path(path):
        r = score(result.trajectory, case=EvalCase(id="x", prompt="x"))
        for value in r.metrics().values():
            assert value is not None and 0.0 <= value <= 1.0
