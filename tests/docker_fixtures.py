"""Pytest fixtures for tests that run real containers (marked `docker`).

Without a Docker Engine these fixtures FAIL with a message saying how to start one: a
docker test that silently skips proves nothing.
"""

from __future__ import annotations

import time
import uuid

import pytest

from skillforge.sandbox import SandboxSpec, SandboxUnavailable
from skillforge.sandbox.docker_client import get_client
from skillforge.sandbox.labels import RUN_ID
from tests.docker_image import TEST_IMAGE, TMUX_IMAGE, ImageBuildError, ensure_test_image


def managed_containers(run_id: str) -> list[dict]:
    """Containers (running or not) labelled with this run id."""
    return get_client().api.containers(all=True, filters={"label": f"{RUN_ID}={run_id}"})


@pytest.fixture(scope="session")
def docker_client():
    try:
        return get_client()
    except SandboxUnavailable as exc:
        pytest.fail(f"these tests need a running Docker Engine: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def trial_image(docker_client) -> str:
    """The tag of the local Debian + python3 test image, built once if missing."""
    try:
        return ensure_test_image(TEST_IMAGE)
    except ImageBuildError as exc:
        pytest.fail(f"cannot build the docker test image {TEST_IMAGE}: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def tmux_image(docker_client) -> str:
    """The test image with tmux too (Harbor's terminus-2 needs it), built once if missing."""
    try:
        return ensure_test_image(TMUX_IMAGE)
    except ImageBuildError as exc:
        pytest.fail(f"cannot build the docker test image {TMUX_IMAGE}: {exc}", pytrace=False)


@pytest.fixture
def run_id(docker_client):
    """A unique run id; the test fails if any container labelled with it survives."""
    rid = f"test-{uuid.uuid4().hex[:12]}"
    yield rid
    # A container whose lifetime just ended may still be in Docker's auto-removal.
    deadline = time.monotonic() + 5
    left = managed_containers(rid)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = managed_containers(rid)
    for info in left:
        docker_client.api.remove_container(info["Id"], force=True)
    assert not left, f"containers of run {rid} were left behind: {[c['Id'][:12] for c in left]}"


@pytest.fixture
def spec(trial_image, run_id):
    """A factory of sandbox specs on the test image, labelled with this test's run id."""
    def make(**overrides) -> SandboxSpec:
        values = {"image": trial_image, "timeout_sec": 120, "run_id": run_id,
                  "memory_mb": 512, "pids": 128, **overrides}
        return SandboxSpec(**values)

    return make
