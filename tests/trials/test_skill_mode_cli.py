"""`skillforge trial --conditions skill_mode` as a user types it: the console script, Docker,
the scripted skill-mode agent behind the loopback server; then a cross-task run with
`--skill-cache-from RUN_ID --static-reuse`, and a source run that does not exist."""

from __future__ import annotations

import json

import pytest

from sessions.store import RunStore
from tests.docker_fixtures import managed_containers
from tests.trials.scripted_skill_mode import SKILL, ScriptedSkillModeAgent

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]


def test_skill_mode_then_static_reuse_from_the_command_line(cli, csv_skill, llm_server,  # noqa: F811
                                                            tmp_path):
    llm_server.handler = ScriptedSkillModeAgent()
    state = tmp_path / "state"
    first = cli(str(csv_skill), "--cases", "monthly-revenue,missing-values", "--conditions",
                "skill_mode,baseline", "--attempts", "1", "--no-judge",
                "--state-dir", str(state))
    assert first.returncode == 0, first.stderr
    out = " ".join(first.stdout.replace("│", " ").split())
    assert "Skill Mode, attempt 1 (grow): monthly-revenue -> missing-values" in out
    assert f"{SKILL} monthly-revenue 3 1" in out
    assert "failures: exception 1, syntax 1" in out
    with RunStore(state) as store:
        source = store.latest_run().run_id
    assert managed_containers(source) == []

    second = cli(str(csv_skill), "--cases", "order-stats", "--conditions", "skill_mode",
                 "--attempts", "1", "--no-judge", "--skill-cache-from", source,
                 "--static-reuse", "--state-dir", str(state), "--format", "json")
    assert second.returncode == 0, second.stderr
    doc = json.loads(second.stdout)
    assert doc["spec"]["skill_cache_from"] == source
    assert doc["spec"]["skill_cache_mode"] == "static"
    [chain] = doc["skill_mode"]
    assert (chain["mode"], chain["inherited_from"], chain["cases"]) == ("static", source,
                                                                       ["order-stats"])
    assert chain["failures"] == {"static": 1}
    assert chain["skills"] == [{"name": SKILL, "created_by": "monthly-revenue", "runs": 4,
                                "failures": 1}]
    assert doc["trials"][0]["grader"] == 1.0

    missing = cli(str(csv_skill), "--conditions", "skill_mode", "--skill-cache-from",
                  "no-such-run", "--state-dir", str(state))
    assert missing.returncode == 2
    assert "--skill-cache-from no-such-run: no run 'no-such-run'" in missing.stderr
