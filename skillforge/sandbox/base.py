"""The backend-neutral sandbox API: what a trial needs from the place its tools run in.

A sandbox is created from a `SandboxSpec`, receives files as tar archives, runs commands
with a timeout and capped output, gives files back, and is removed whatever happens. The
container layout (CONTRACTS.md section 6) is `/workspace`, `/skills/<name>/` and `/logs/`;
every backend presents those paths, whatever it maps them to.
"""

from __future__ import annotations

import abc
import asyncio
import io
import tarfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath
from types import TracebackType
from typing import Any, BinaryIO, Self

from pydantic import BaseModel, Field

WORKSPACE = "/workspace"
SKILLS_DIR = "/skills"
LOGS_DIR = "/logs"
GRADER_DIR = "/grader"
# The agent's uid: numeric, so any image works whether or not it has a matching user.
AGENT_UID = 1000
AGENT_GID = 1000
# The grader's uid in a grading container (docs/graders.md): neither root nor the agent's,
# with no capability, so it writes the reward where the agent's code cannot.
GRADER_UID = 2000
GRADER_GID = 2000
DEFAULT_MAX_OUTPUT = 64 * 1024
# Bytes kept from the end of an overflowing stream: errors are usually printed last.
TAIL_SHARE = 0.25


class SandboxUnavailable(RuntimeError):
    """The sandbox backend cannot be used at all (no daemon, no image). Say how to fix it."""


class SandboxError(RuntimeError):
    """A sandbox operation failed (container gone, file missing, archive refused)."""


class SandboxSpec(BaseModel):
    """How to create one trial's sandbox."""

    image: str = "python:3.12-slim"
    network: bool = False
    # A Docker network to join instead (skillforge.sandbox.networks: the internal network
    # on which an external harness reaches only skillforge's model proxy).
    network_name: str | None = None
    cpus: float = 1.0
    memory_mb: int = 2048
    pids: int = 256
    # Hard lifetime of the sandbox: whatever happens, it is killed this long after start.
    timeout_sec: float = 600
    labels: dict[str, str] = Field(default_factory=dict)
    user: str = f"{AGENT_UID}:{AGENT_GID}"
    workdir: str = WORKSPACE
    env: dict[str, str] = Field(default_factory=dict)
    # Largest single file a process may write (RLIMIT_FSIZE); None = no limit.
    max_file_mb: int | None = 1024
    # Everything the trial may write, all paths together (skillforge.sandbox.mounts): the
    # Docker backend enforces it with size-limited tmpfs mounts on a read-only root.
    disk_mb: int = Field(1024, ge=64)
    # A grading sandbox: a fresh one holding only the agent's final workspace and /grader.
    grading: bool = False
    run_id: str | None = None


class ExecResult(BaseModel):
    """What one command did. `exit_code` is None when it was killed before it finished."""

    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False
    timed_out: bool = False
    duration_s: float = 0.0
    stdout_bytes: int = 0
    stderr_bytes: int = 0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


class StreamCapture:
    """Keeps the head and tail of a byte stream within `limit` bytes and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self.tail_limit = int(self.limit * TAIL_SHARE)
        self.head_limit = self.limit - self.tail_limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data and self.tail_limit:
            self.tail += data
            if len(self.tail) > self.tail_limit:
                del self.tail[: len(self.tail) - self.tail_limit]

    @property
    def truncated(self) -> bool:
        return self.total > self.limit

    def text(self) -> str:
        if not self.truncated:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", errors="replace")
        omitted = self.total - len(self.head) - len(self.tail)
        head = bytes(self.head).decode("utf-8", errors="replace")
        tail = bytes(self.tail).decode("utf-8", errors="replace")
        return f"{head}\n[... {omitted} bytes omitted ...]\n{tail}"


def build_result(out: StreamCapture, err: StreamCapture, exit_code: int | None,
                 timed_out: bool, started: float) -> ExecResult:
    return ExecResult(
        exit_code=exit_code, stdout=out.text(), stderr=err.text(),
        truncated=out.truncated or err.truncated, timed_out=timed_out,
        duration_s=round(time.monotonic() - started, 4),
        stdout_bytes=out.total, stderr_bytes=err.total,
    )


FileMapping = Mapping[str, "bytes | str"]


def single_file_from_tar(data: bytes, path: str) -> bytes:
    """The content of the one regular file in a tar returned by a copy-out of `path`."""
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar:
            if member.isfile():
                fh = tar.extractfile(member)
                return fh.read() if fh else b""
            if member.isdir():
                raise SandboxError(f"{path} is a folder, not a file; use copy_out for folders")
    raise SandboxError(f"{path} is not a regular file in the sandbox")


class Sandbox(abc.ABC):
    """One trial's isolated place to run commands. Use `async with` so it is always removed."""

    kind: str = "abstract"

    def __init__(self, spec: SandboxSpec, initial_archive: bytes | None = None) -> None:
        self.spec = spec
        # A tar extracted at "/" as part of start() (the staged trial), in the same copy.
        self.initial_archive = initial_archive
        self.started_at: float | None = None

    # --- lifecycle -------------------------------------------------------------------------
    @abc.abstractmethod
    async def start(self) -> None:
        """Create the sandbox (a fresh container, a temp folder) holding `initial_archive`."""

    @abc.abstractmethod
    async def remove(self) -> None:
        """Destroy the sandbox and everything in it. Safe to call twice."""

    @abc.abstractmethod
    def sibling(self, spec: SandboxSpec, initial_archive: bytes | None = None) -> Sandbox:
        """A new, not-yet-started sandbox of the same backend (the grader runs in one)."""

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await _shielded(self.remove())
            raise
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await _shielded(self.remove())

    @property
    def remaining_s(self) -> float:
        """Seconds left before the sandbox's hard lifetime ends."""
        if self.started_at is None:
            return float(self.spec.timeout_sec)
        return max(0.0, self.started_at + self.spec.timeout_sec - time.monotonic())

    # --- files -----------------------------------------------------------------------------
    @abc.abstractmethod
    async def put_archive(self, data: bytes | FileMapping, dest: str = "/") -> None:
        """Extract a tar (bytes) or a {relative path: content} mapping under `dest`."""

    async def put_file(self, path: str, content: bytes | str, mode: int = 0o644) -> None:
        """Write one file owned by the agent user (parent folders must exist)."""
        from skillforge.sandbox.archive import tar_from_mapping

        p = PurePosixPath(path)
        parent = str(p.parent)
        await self.put_archive(tar_from_mapping({p.name: content}, mode=mode, base=parent),
                               parent)

    @abc.abstractmethod
    async def copy_out(self, path: str, max_bytes: int = 256 * 1024 * 1024) -> bytes:
        """A tar of `path` (file or folder) as it is in the sandbox."""

    async def copy_out_to(self, path: str, sink: BinaryIO,
                          max_bytes: int = 256 * 1024 * 1024) -> None:
        """`copy_out` written to `sink` (a backend that can, streams it: Docker does)."""
        sink.write(await self.copy_out(path, max_bytes=max_bytes))

    async def put_archive_stream(self, feed: Callable[[Any], Any], dest: str = "/") -> Any:
        """Extract under `dest` the tar that `feed(writer)` writes; returns what `feed`
        returned (a backend that can, streams it into the sandbox: Docker does)."""
        buf = io.BytesIO()
        result = feed(buf)
        await self.put_archive(buf.getvalue(), dest)
        return result

    async def get_file(self, path: str, max_bytes: int = 16 * 1024 * 1024) -> bytes:
        """The bytes of one file in the sandbox."""
        return single_file_from_tar(await self.copy_out(path, max_bytes=max_bytes + 65536), path)

    # --- commands --------------------------------------------------------------------------
    @abc.abstractmethod
    async def exec(self, cmd: str | Sequence[str], timeout_s: float = 120,
                   env: Mapping[str, str] | None = None, workdir: str | None = None,
                   max_output: int = DEFAULT_MAX_OUTPUT, user: str | None = None) -> ExecResult:
        """Run `cmd` (a shell string, or argv) and wait for it, at most `timeout_s` seconds.

        On timeout the command's whole process group is killed and `timed_out` is set.
        Each of stdout and stderr keeps at most `max_output` bytes (head and tail).
        """

    @abc.abstractmethod
    async def kill_user_processes(self) -> None:
        """Kill every process the agent user still runs (before grading)."""

    async def kill_all_processes(self) -> None:
        """Kill every process but the sandbox's own (after a grader ran: what it, the
        as-agent broker and the agent's code it ran started, forked children that left
        their process group included). The local sandbox
        can only end the process groups it started."""
        await self.kill_user_processes()


async def _shielded(coro) -> None:
    """Run cleanup to completion even when the caller is being cancelled."""
    task = asyncio.ensure_future(coro)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        # Let cleanup finish, then keep the cancellation going.
        await asyncio.wait([task])
        raise
