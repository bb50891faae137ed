"""Trial containers: the ones this process owns (removed at exit if a run could not clean
up) and the ones a crashed or finished process left behind."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
import time

from skillforge.sandbox.base import SandboxUnavailable
from skillforge.sandbox.docker_client import executor, get_client
from skillforge.sandbox.labels import MANAGED, stale_reason

# A container that outlives any sane trial (hours) is stale whoever owns it.
DEFAULT_MAX_AGE_S = 6 * 3600.0


def reap_stale_sync(max_age_s: float = DEFAULT_MAX_AGE_S, client=None) -> list[str]:
    """Remove skillforge containers whose owner is gone or that are too old; their ids."""
    import docker.errors

    api = (client or get_client()).api
    now = time.time()
    removed: list[str] = []
    for info in api.containers(all=True, filters={"label": f"{MANAGED}=1"}):
        labels = info.get("Labels") or {}
        if stale_reason(labels, now, max_age_s) is None:
            continue
        try:
            api.remove_container(info["Id"], force=True)
            removed.append(info["Id"])
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError as exc:
            if exc.status_code != 409:  # 409: removal already in progress
                raise
    return removed


async def reap_stale(max_age_s: float = DEFAULT_MAX_AGE_S, client=None) -> list[str]:
    """Async wrapper of `reap_stale_sync` (call once when a run starts)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), reap_stale_sync, max_age_s, client)


# Containers this process owns, removed at interpreter exit if a run could not clean up.
_live: dict[str, object] = {}
_live_lock = threading.Lock()
_reaped = False


def _remove_leftovers() -> None:
    """At interpreter exit, remove containers this process still owns (last resort)."""
    with _live_lock:
        ids = list(_live)
    if not ids:
        return
    try:
        api = get_client().api
    except SandboxUnavailable:
        return
    for cid in ids:
        with contextlib.suppress(Exception):  # best effort at exit
            api.remove_container(cid, force=True)


atexit.register(_remove_leftovers)


def reap_once(client) -> None:
    """The first sandbox of a process removes containers that crashed runs left behind."""
    global _reaped
    if _reaped:
        return
    _reaped = True
    with contextlib.suppress(Exception):  # reaping must never stop a trial
        reap_stale_sync(client=client)


def track(container_id: str, owner: object) -> None:
    with _live_lock:
        _live[container_id] = owner


def untrack(container_id: str) -> None:
    with _live_lock:
        _live.pop(container_id, None)
