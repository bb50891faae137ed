"""Containers left by a dead skillforge process (or past their lifetime) are found and removed."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from skillforge.sandbox import reaper
from skillforge.sandbox.docker_backend import DockerSandbox
from skillforge.sandbox.labels import DEADLINE, PID, PID_START, owner_labels, process_start_ticks
from skillforge.sandbox.reaper import reap_stale_sync

pytestmark = [pytest.mark.docker, pytest.mark.timeout(120)]


def dead_process() -> tuple[int, str]:
    """The pid and start time of a process that has exited."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"])
    ticks = process_start_ticks(proc.pid)
    proc.wait()
    return proc.pid, ticks or ""


def leftover(client, image: str, labels: dict[str, str]) -> str:
    """A container as a crashed run would leave it: running, nobody to remove it."""
    created = client.api.create_container(image, command=["sleep", "600"], labels=labels,
                                          host_config=client.api.create_host_config(
                                              network_mode="none", init=True))
    client.api.start(created["Id"])
    return created["Id"]


async def test_reap_stale_removes_orphans_and_keeps_live_sandboxes(
        spec, run_id, trial_image, docker_client, monkeypatch):
    monkeypatch.setattr(reaper, "_reaped", True)  # no automatic reaping here
    pid, ticks = dead_process()
    orphan = leftover(docker_client, trial_image,
                      owner_labels(run_id, 600) | {PID: str(pid), PID_START: ticks})
    expired = leftover(docker_client, trial_image,
                       owner_labels(run_id, 600) | {DEADLINE: f"{time.time() - 3600:.0f}"})
    async with DockerSandbox(spec()) as live:
        removed = reap_stale_sync()
        assert orphan in removed and expired in removed
        assert live.container_id not in removed
        assert (await live.exec("echo still here")).stdout == "still here\n"
    ids = [c["Id"] for c in docker_client.api.containers(all=True)]
    assert orphan not in ids and expired not in ids


async def test_the_first_sandbox_of_a_process_reaps_orphans(
        spec, run_id, trial_image, docker_client, monkeypatch):
    monkeypatch.setattr(reaper, "_reaped", False)
    pid, ticks = dead_process()
    orphan = leftover(docker_client, trial_image,
                      owner_labels(run_id, 600) | {PID: str(pid), PID_START: ticks})
    async with DockerSandbox(spec()):
        ids = [c["Id"] for c in docker_client.api.containers(all=True)]
        assert orphan not in ids
