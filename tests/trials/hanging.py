"""Waiting for a `skillforge` process's run to hang in its containers, so a test can signal
it mid-run (SIGTERM and SIGHUP tests of `trial` and `optimize-description`)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sessions.store import RunStore
from tests.docker_fixtures import managed_containers


def wait_until_hanging(proc: subprocess.Popen, state: Path, *, seconds: float, what: str,
                       ready: Callable[[], bool] = lambda: True) -> str:
    """The id of the newest run in `state` once it has 2 containers and `ready()` holds;
    fails the test when `proc` exits first or `seconds` pass (`what` says what never came)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if state.joinpath("skillforge.db").exists():
            with RunStore(state) as store:
                run = store.latest_run()
            if run and ready() and len(managed_containers(run.run_id)) == 2:
                return run.run_id
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    pytest.fail(f"{what} never reached 2 hanging trials")
