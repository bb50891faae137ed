"""`skillforge doctor` with `[trial] harness_cli = "image"`: the version the trial image's own
`claude --version` prints (run in the image, no network, removed after), or why there is none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillforge.cli.doctor import check_claude_code
from skillforge.harnesses import ClaudeCodeHarness
from skillforge.harnesses.image import bundled_claude, cli_version, harness_image
from skillforge.models.config import Settings
from tests.harnesses.test_claude_pin import pinned

pytestmark = pytest.mark.docker

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))


@pytest.fixture(scope="module")
def claude_image(docker_client, trial_image) -> str:
    """An image with its own `claude` on the PATH (the test image plus the pinned binary)."""
    binary = bundled_claude()
    assert binary is not None, "claude-agent-sdk is not installed: run `make`"
    return harness_image(docker_client, ClaudeCodeHarness({}), trial_image, binary,
                         cli_version(binary))


def _leftovers(docker_client) -> list:
    return docker_client.api.containers(all=True, filters={
        "label": "skillforge.doctor=cli-version"})


def test_doctor_names_the_version_of_the_images_own_claude(claude_image, docker_client,
                                                           tmp_path):
    (tmp_path / "skillforge.toml").write_text(
        f'[trial]\nharness_cli = "image"\nimage = "{claude_image}"\n')
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "DOCKER_HOST", "PYTHONPATH")}
    env["HOME"] = str(tmp_path / "home")
    t0 = time.monotonic()
    done = subprocess.run([SKILLFORGE, "doctor", "--format", "json"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    check = checks["claude code"]
    print("doctor:", check, f"({time.monotonic() - t0:.1f} s in all)")
    assert check["status"] == "ok"
    assert check["detail"] == f"{pinned()[0]}, the trial image's own `claude` ({claude_image})"
    assert _leftovers(docker_client) == []


def test_doctor_says_why_an_image_gives_no_claude_version(trial_image, docker_client):
    def check(image: str):
        return check_claude_code(Settings(trial={"harness_cli": "image", "image": image}))

    bare = check(trial_image)  # Debian + python3, no claude
    assert bare.status == "warn" and bare.detail.endswith(
        f"version unknown: the trial image {trial_image!r} has no `claude` on the PATH of "
        "uid 1000"), bare
    assert "harness_cli = \"auto\"" in bare.fix
    gone = check("skillforge-test/not-on-this-machine:0")
    assert gone.status == "warn" and "is not on this machine" in gone.detail, gone
    assert _leftovers(docker_client) == []
