"""The network policy an export writes depends on the Harbor environment it is for
(`skillforge export harbor --environment`): what that environment can enforce, as read in
Harbor 0.25.0's source (skillforge/harbor/environments.py). Harbor's docker environment
cannot enforce no-network, so its tasks are public and the export says so, loudly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillforge.cli.export import export
from skillforge.harbor.environments import ENVIRONMENTS, network_plan
from skillforge.harbor.export import ExportError
from skillforge.harbor.manifest import load_manifest
from skillforge.harbor.task_model import load_task_toml
from tests.harbor.conftest import CSV

TASK = "csv-insights__order-stats__baseline"


def policies(dataset: str) -> tuple[str, str | None, str | None]:
    toml = load_task_toml(Path(dataset) / TASK / "task.toml")
    return (toml.environment.network_mode, toml.agent.network_mode,
            toml.verifier.network_mode)


@pytest.mark.parametrize(("environment", "written", "enforced"), [
    # cannot turn the network off: public everywhere, and the trials HAVE network
    ("docker", ("public", None, None), False),
    ("podman", ("public", None, None), False),
    ("kernel", ("public", None, None), False),
    # switches per phase: public setup (Harbor installs the agent), no-network agent/grader
    ("daytona", ("public", "no-network", "no-network"), True),
    ("modal", ("public", "no-network", "no-network"), True),
    ("e2b", ("public", "no-network", "no-network"), True),
    # enforces, but one policy for the whole sandbox: no-network everywhere
    ("runloop", ("no-network", "no-network", "no-network"), True),
])
def test_the_policy_is_what_the_environment_enforces(export_csv, environment, written,
                                                     enforced):
    result = export_csv(case_ids=["order-stats"], environment=environment)
    assert policies(result.dataset_dir) == written
    manifest = load_manifest(result.dataset_dir)
    assert manifest.harbor_environment == environment and manifest.network_asked is False
    # The stored spec says what the trials will have, so an imported run is described right.
    assert manifest.spec.network is (not enforced)
    readme = (Path(result.dataset_dir) / "README.md").read_text()
    if enforced:
        assert result.network_notice is None
        assert "CAN reach the network" not in readme
    else:
        assert result.network_notice.startswith(
            f"Harbor's {environment} environment cannot enforce no-network")
        assert "the agent and the grader CAN reach the network" in result.network_notice
        assert f"**{result.network_notice}**" in readme


def test_network_on_is_public_everywhere_without_a_warning(export_csv):
    for environment in ("docker", "daytona", "runloop"):
        result = export_csv(environment, case_ids=["order-stats"], network=True,
                            environment=environment)
        assert policies(result.dataset_dir) == ("public", None, None)
        assert result.network_notice is None
        assert load_manifest(result.dataset_dir).network_asked is True


def test_an_unknown_environment_is_refused(export_csv):
    with pytest.raises(ExportError, match="unknown Harbor environment 'dockr'.*daytona"):
        export_csv(case_ids=["order-stats"], environment="dockr")
    assert network_plan("docker", False).cannot_enforce
    assert not network_plan("daytona", False).cannot_enforce


def test_the_cli_warns_on_stderr_in_both_formats(tmp_path):
    skill = tmp_path / "skills" / "csv-insights"
    shutil.copytree(CSV, skill)
    runner = CliRunner()
    for fmt in ("text", "json"):
        out = tmp_path / f"ds-{fmt}"
        done = runner.invoke(export, ["harbor", str(skill), "-o", str(out), "--cases",
                                      "order-stats", "--format", fmt, "--max-turns", "4"])
        assert done.exit_code == 0, done.output
        assert done.stderr.startswith("warning: Harbor's docker environment cannot enforce "
                                      "no-network")
        if fmt == "text":
            assert "CAN reach the network" not in done.stdout
        assert "--ak max_turns=4" in (out / "README.md").read_text()
    doc = json.loads(done.stdout)  # the json document alone on stdout
    assert doc["network_notice"].startswith("Harbor's docker environment")
    quiet = runner.invoke(export, ["harbor", str(skill), "-o", str(tmp_path / "ds-e2b"),
                                   "--cases", "order-stats", "-e", "e2b"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert "harbor run -p" in quiet.stdout and "-e e2b -a <agent>" in quiet.stdout
    bad = runner.invoke(export, ["harbor", str(skill), "-o", str(tmp_path / "x"),
                                 "--environment", "dockr"])
    assert bad.exit_code == 2 and "'dockr' is not one of" in bad.output


def test_every_environment_harbor_knows_has_a_policy(harbor_env):
    done = harbor_env.run("environment-types")
    assert done.returncode == 0, done.stderr[-2000:]
    # A new or renamed environment in a Harbor upgrade must be classified here first.
    assert sorted(ENVIRONMENTS) == json.loads(done.stdout)
