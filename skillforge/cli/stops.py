"""SIGTERM and SIGHUP for the commands that run containers (`skillforge trial`, its
`--sweep-decoys`, `skillforge optimize-description`): the Ctrl+C path.

What CI cancellation, `timeout`, `docker stop` and systemd send (SIGTERM), and a closed
terminal (SIGHUP), must end a run as Ctrl+C does: containers removed, the run (or the
description loop) stored as cancelled, exit 143 / 129 (128 + the signal)."""

from __future__ import annotations

import asyncio
import signal


class Stops:
    """SIGTERM and SIGHUP take Ctrl+C's path: the task running the trials is cancelled, so
    every trial removes its container and the run is stored as cancelled; the command then
    exits 128 + the signal's number. Without this they ended the process at once, leaving
    containers running and the run "running" in the store for good."""

    SIGNALS = (signal.SIGTERM, signal.SIGHUP)

    def __init__(self) -> None:
        self.received: signal.Signals | None = None

    def install(self) -> None:
        """Inside the event loop, for the task that is running now."""
        loop, task = asyncio.get_running_loop(), asyncio.current_task()
        for sig in self.SIGNALS:
            loop.add_signal_handler(sig, self._stop, sig, task)

    def _stop(self, sig: signal.Signals, task: asyncio.Task | None) -> None:
        if self.received is None and task is not None:
            self.received = sig
            task.cancel()

    def exit_code(self) -> int:
        assert self.received is not None
        return 128 + int(self.received)
