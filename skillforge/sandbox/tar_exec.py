"""Files in and out of a running container through `tar` inside it, not Docker's archive API.

A trial container has a read-only root filesystem and size-limited tmpfs mounts for every
path the agent may write (skillforge.sandbox.mounts). Docker's archive endpoint cannot
serve that layout: it refuses any copy into a container whose rootfs is read-only
("container rootfs is marked read-only"), and on a tmpfs mount it reads and writes the
hidden folder underneath, not the mount. So files travel as a tar stream through an exec
of `tar` running as root in the container (the image needs `sh` and `tar`, which every
Debian, Alpine/BusyBox and python image has).
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from skillforge.sandbox.base import SandboxError
from skillforge.sandbox.exec_stream import open_exec_stream

ROOT_USER = "0:0"
# A tar of a few hundred MiB goes through in seconds; this only stops a wedged daemon.
TRANSFER_TIMEOUT_S = 300.0


def _exit_code(api, exec_id: str, wait_s: float = 2.0) -> int | None:
    for _ in range(max(1, round(wait_s / 0.02))):
        info = api.exec_inspect(exec_id)
        if not info.get("Running"):
            return info.get("ExitCode")
        time.sleep(0.02)
    return None


class _SocketWriter:
    """A write-only file over an exec's stdin socket (what `tarfile` writes to)."""

    def __init__(self, raw) -> None:
        self.raw = raw

    def write(self, data: bytes) -> int:
        self.raw.sendall(data)
        return len(data)


Feed = Callable[[Any], Any]


def run_tar(client, container_id: str, argv: list[str], stdin: bytes | None = None,
            max_bytes: int = 256 * 1024 * 1024, what: str = "", *,
            feed: Feed | None = None, sink: BinaryIO | None = None) -> Any:
    """Run `argv` as root in the container, feeding `stdin`; its stdout (at most max_bytes).

    Streaming: `feed(writer)` writes the input instead of `stdin` (its return value is
    returned), and `sink` receives the output instead of it being returned, chunk by chunk,
    so neither side is ever held whole in memory. Raises SandboxError naming `what` with
    tar's own message when it fails.
    """
    api = client.api
    has_input = stdin is not None or feed is not None
    exec_id = api.exec_create(container_id, argv, stdin=has_input, stdout=True,
                              stderr=True, user=ROOT_USER, workdir="/")["Id"]
    stream = open_exec_stream(client, exec_id)
    out, err = bytearray(), bytearray()
    written = 0
    too_big = False
    fed: Any = None

    def on_frame(stream_id: int, data: bytes) -> None:
        nonlocal too_big, written
        if stream_id == 1:
            if written + len(data) > max_bytes:
                too_big = True
            elif sink is not None:
                sink.write(data)
            else:
                out.extend(data)
            written += len(data)
        elif len(err) < 8192:
            err.extend(data[: 8192 - len(err)])

    try:
        if has_input:
            raw = stream.raw
            try:
                if feed is not None:
                    fed = feed(_SocketWriter(raw))
                else:
                    raw.sendall(stdin)
            except OSError:
                pass  # tar stopped reading (full disk, bad input): its exit code says why
            # Half-close: tar sees the end of its input and finishes.
            with contextlib.suppress(OSError):
                raw.shutdown(socket.SHUT_WR)
        finished = stream.pump(on_frame, time.monotonic() + TRANSFER_TIMEOUT_S,
                               stop=lambda: too_big)
    except OSError as exc:
        raise SandboxError(f"could not transfer files {what}: the container went away "
                           f"({exc})") from exc
    finally:
        stream.close()
    if too_big:
        raise SandboxError(f"{what} is larger than {max_bytes} bytes; not copied")
    if not finished:
        raise SandboxError(f"copying files {what} took longer than {TRANSFER_TIMEOUT_S:.0f} s")
    code = _exit_code(api, exec_id)
    if code != 0:
        message = bytes(err).decode("utf-8", errors="replace").strip()
        if "No such file" in message or "Cannot stat" in message or "not found" in message:
            raise SandboxError(f"{what} does not exist in the sandbox")
        raise SandboxError(f"could not copy files {what}: {message or f'tar exit code {code}'}")
    return fed if feed is not None else bytes(out)


def extract(client, container_id: str, archive: bytes, dest: str = "/") -> None:
    """Extract a tar at `dest` in the container, keeping owners and modes."""
    run_tar(client, container_id, ["tar", "-x", "-p", "-f", "-", "-C", dest], stdin=archive,
            what=f"to {dest}")


def extract_stream(client, container_id: str, feed: Feed, dest: str = "/") -> Any:
    """Extract at `dest` the tar that `feed(writer)` writes, as it is written; returns
    what `feed` returned."""
    return run_tar(client, container_id, ["tar", "-x", "-p", "-f", "-", "-C", dest],
                   feed=feed, what=f"to {dest}")


def _pack_argv(path: str) -> list[str]:
    clean = path.rstrip("/") or "/"
    parent, _, name = clean.rpartition("/")
    return ["tar", "-c", "-f", "-", "-C", parent or "/", name or "."]


def pack(client, container_id: str, path: str, max_bytes: int) -> bytes:
    """A tar of `path` (file or folder), its members named from the path's last part."""
    return run_tar(client, container_id, _pack_argv(path), max_bytes=max_bytes, what=path)


def pack_to(client, container_id: str, path: str, sink: BinaryIO, max_bytes: int) -> None:
    """`pack`, written to `sink` as it arrives (a spool file: nothing whole in memory)."""
    run_tar(client, container_id, _pack_argv(path), max_bytes=max_bytes, what=path, sink=sink)
