"""`skillforge trial` with --agent, --decoys and their mistakes, as a user runs it.

The real console script in a subprocess; docker tests use real containers. The harness run
uses an image built FROM the test image with the stand-in `claude` installed, as a user's
image would have the real CLI.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.importers import import_trajectory
from skillforge.trajectory.facts import tool_calls
from tests.harnesses.conftest import CLAUDE_TRACES, STANDINS
from tests.harnesses.test_decoys import _leaky, router

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))
TRANSCRIPT = CLAUDE_TRACES / "codemie-ai__codemie-code__4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"


@pytest.fixture
def cli(llm_server, tmp_path):
    """run(*args, env=...) -> CompletedProcess of `skillforge trial ARGS`."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "COLUMNS": "160",
            "OPENAI_BASE_URL": llm_server.openai_base_url,
            "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    if "DOCKER_HOST" in os.environ:
        base["DOCKER_HOST"] = os.environ["DOCKER_HOST"]
    if os.environ.get("PYTHONPATH"):  # a worktree's code, not the installed checkout's
        base["PYTHONPATH"] = os.environ["PYTHONPATH"]

    def run(*args: str, env: dict | None = None, cwd: Path = tmp_path):
        full = {k: v for k, v in {**base, **(env or {})}.items() if v is not None}
        return subprocess.run([SKILLFORGE, "trial", *args], env=full, cwd=cwd,
                              capture_output=True, text=True, timeout=300, check=False)

    return run


def _one_line_error(proc) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return proc.stderr


def test_a_harness_without_a_key_or_docker_is_refused_up_front(cli, skills):
    err = _one_line_error(cli(str(skills / "csv-insights"), "--agent", "claude-code"))
    assert "--agent claude-code needs ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN" in err
    err = _one_line_error(cli(str(skills / "csv-insights"), "--agent", "codex"))
    assert "--agent codex needs OPENAI_API_KEY in the environment" in err
    err = _one_line_error(cli(str(skills / "csv-insights"), "--agent", "codex", "--network",
                              "--sandbox", "local", env={"OPENAI_API_KEY": "sk-test-12345678"}))
    assert "use --sandbox docker" in err


def test_decoy_mistakes_exit_2_naming_the_fix(cli, skills, tmp_path):
    err = _one_line_error(cli(str(skills / "csv-insights"), "--decoys", "5"))
    assert "only 2 usable decoy skill(s)" in err and "--decoys-from" in err
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    leaky = _leaky(elsewhere)
    (tmp_path / "skillforge.toml").write_text(  # in the launch directory
        f'[trial]\nworkspace = "group"\ndecoy_skills = ["{leaky}"]\n')
    err = _one_line_error(cli(str(skills / "csv-insights"), "--no-judge"))
    assert "staging refuses these skills" in err and "sheet-helper" in err
    proc = cli(str(skills / "csv-insights"), "--sweep-decoys", "0,x")
    assert proc.returncode == 2 and "--sweep-decoys" in proc.stderr
    proc = cli(str(skills / "csv-insights"), "--sweep-decoys", "0,1", "--gate")
    assert proc.returncode == 2 and "does not combine with --decoys, --gate" in proc.stderr


@pytest.mark.docker
@pytest.mark.timeout(300)
def test_one_run_with_decoys_shows_them_in_both_conditions(cli, skills, llm_server, tmp_path,
                                                          trial_image):
    llm_server.handler = router
    proc = cli(str(skills / "csv-insights"), "--cases", "missing-values", "--attempts", "1",
               "--no-judge", "--decoys", "1", "--decoy-seed", "1", "--image", trial_image,
               "--state-dir", str(tmp_path / "state"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["spec"]["workspace"] == "group"
    (decoy,) = doc["spec"]["decoy_skills"]
    name = Path(decoy).name
    assert name in ("lab-units", "release-notes")
    assert {t["status"] for t in doc["trials"]} == {"ok"}
    for t in doc["trials"]:
        traj = load_trajectory(t["trajectory_path"])
        system = traj.steps[0].message
        assert f"<name>{name}</name>" in system
        assert ("<name>csv-insights</name>" in system) == (t["condition"] == "with_skill")


@pytest.fixture
def standin_image(docker_client, trial_image):
    """An image FROM the test image with the stand-in `claude` on the PATH."""
    config = {"transcript": "/opt/standin/transcript.jsonl", "record": "/tmp/standin/r.json"}
    files = {"claude": (STANDINS / "claude_standin.py").read_bytes(),
             "transcript.jsonl": TRANSCRIPT.read_bytes(),
             "claude.json": json.dumps(config).encode(),
             "Dockerfile": (f"FROM {trial_image}\n"
                            "COPY claude /usr/local/bin/claude\n"
                            "COPY transcript.jsonl claude.json /opt/standin/\n").encode()}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o755 if name == "claude" else 0o644
            tar.addfile(info, io.BytesIO(data))
    tag = f"skillforge-test/claude-standin:{uuid.uuid4().hex[:8]}"
    buf.seek(0)
    for chunk in docker_client.api.build(fileobj=buf, custom_context=True, tag=tag, rm=True,
                                         decode=True):
        assert "error" not in chunk, chunk
    yield tag
    docker_client.api.remove_image(tag, force=True)


@pytest.mark.docker
@pytest.mark.timeout(300)
def test_agent_claude_code_runs_end_to_end_from_the_cli(cli, skills, tmp_path, standin_image):
    key = f"sk-ant-test-{uuid.uuid4().hex}"
    # harness_cli "image": the image's own `claude` (the stand-in), nothing layered onto it
    proc = cli(str(skills / "csv-insights"), "--agent", "claude-code",
               "--image", standin_image, "--cases", "monthly-revenue", "--attempts", "1",
               "--no-judge", "--state-dir", str(tmp_path / "state"), "--format", "json",
               env={"ANTHROPIC_API_KEY": key, "SKILLFORGE_TRIAL__HARNESS_CLI": "image"})
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["spec"]["agent"] == "claude-code" and doc["spec"]["provider"] == "anthropic"
    assert {t["status"] for t in doc["trials"]} == {"ok"}
    expected = [c.function_name for _, _, c in tool_calls(import_trajectory(TRANSCRIPT)
                                                          .trajectory)]
    for t in doc["trials"]:
        traj = load_trajectory(t["trajectory_path"])
        assert [c.function_name for _, _, c in tool_calls(traj)] == expected
        assert traj.extra["harness"]["name"] == "claude-code"
        assert traj.extra["harness"]["cli"] == {"source": "image", "binary": "claude"}
    for path in (tmp_path / "state").rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
