"""The `--sandbox local` backend: a temporary folder on this machine, with NO isolation.

Only for skills you trust, when Docker is not available. What it does:
- /workspace, /skills, /logs, /grader and /home/agent map to folders under a fresh temp
  directory. API calls (put_archive, copy_out, get_file, workdir) translate them exactly.
  Shell commands are rewritten textually: each literal `/workspace...`, `/skills...`,
  `/logs...`, `/grader...` path in the command (or in argv items) becomes the temp path, and
  SKILLFORGE_WORKSPACE etc. are set. Paths a program builds at run time (for example
  `os.path.join("/", "workspace")`) are NOT mapped and reach the real filesystem.
- Commands run as your user, in their own session, with a minimal environment (no API keys,
  no host variables beyond PATH), a timeout that kills the whole process group, and capped
  output.
What it does not do: no network isolation, no CPU/memory/PID/disk limits, no protection of
your files from a hostile command, and /skills is read-only only by file mode.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import signal
import stat
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from skillforge.sandbox.archive import tar_from_mapping
from skillforge.sandbox.base import (
    DEFAULT_MAX_OUTPUT,
    ExecResult,
    FileMapping,
    Sandbox,
    SandboxError,
    SandboxSpec,
    StreamCapture,
    build_result,
)

MAPPED = ("workspace", "skills", "logs", "grader", "home/agent")
_PATH_RE = re.compile(r"(?<![\w.~/-])/(workspace|skills|logs|grader|home/agent)"
                      r"(?=[/\s'\"`;:|&()<>,=]|$)")
WARNING = ("WARNING: --sandbox local runs the skill's commands directly on this machine, "
           "as your user, with no isolation (network, files, processes). Use it only for "
           "skills you trust; install Docker for isolated trials.")
_warned = False
KILL_GRACE_S = 2.0


def extract_data(tar: tarfile.TarFile, target: Path, members: list[tarfile.TarInfo],
                 has_filters: bool = hasattr(tarfile, "data_filter")) -> None:
    """Extract `members` under `target` with tarfile's "data" filter: nothing lands outside
    `target`, no links lead out of it, no devices or pipes, no set-id bits. Python before
    3.11.4 (Debian 12's python3 is 3.11.2) has no extraction filters, so there the same
    checks run here first and a member that fails them stops the copy."""
    if has_filters:
        tar.extractall(target, members=members, filter="data")
        return
    root = target.resolve()
    for m in members:
        dest = (root / m.name).resolve()
        if os.path.isabs(m.name) or not dest.is_relative_to(root):
            raise SandboxError(f"cannot copy {m.name!r}: it would land outside {target}")
        if not (m.isfile() or m.isdir() or m.issym() or m.islnk()):
            raise SandboxError(f"cannot copy {m.name!r}: only files, folders and links are copied")
        if m.issym() or m.islnk():
            link = dest.parent / m.linkname if m.issym() else root / m.linkname
            if os.path.isabs(m.linkname) or not link.resolve().is_relative_to(root):
                raise SandboxError(f"cannot copy {m.name!r}: its link leads outside {target}")
        m.mode &= 0o755  # no set-id bits, no group or other write (as the filter)
        m.uid, m.gid, m.uname, m.gname = os.getuid(), os.getgid(), "", ""  # ours, as root too
    tar.extractall(target, members=members)


class LocalSandbox(Sandbox):
    """A temp folder standing in for a container. Not a security boundary."""

    kind = "local"

    def __init__(self, spec: SandboxSpec, initial_archive: bytes | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        super().__init__(spec, initial_archive)
        self.root: Path | None = None
        self._warn = warn
        self._groups: set[int] = set()

    async def start(self) -> None:
        global _warned
        if not _warned:
            _warned = True
            (self._warn or (lambda m: print(m, file=sys.stderr)))(WARNING)
        self.root = Path(tempfile.mkdtemp(prefix="skillforge-local-"))
        for rel in (*MAPPED, "tmp"):
            (self.root / rel).mkdir(parents=True, exist_ok=True)
        self.started_at = time.monotonic()
        if self.initial_archive:
            await self.put_archive(self.initial_archive, "/")

    def sibling(self, spec: SandboxSpec, initial_archive: bytes | None = None) -> LocalSandbox:
        return LocalSandbox(spec, initial_archive, warn=self._warn)

    async def remove(self) -> None:
        await self.kill_user_processes()
        root, self.root = self.root, None
        if root is None:
            return

        def delete() -> None:
            # Staged skills were made read-only; give folders write access back first.
            for dirpath, dirnames, _files in os.walk(root):
                for d in dirnames:
                    full = os.path.join(dirpath, d)
                    if not os.path.islink(full):
                        os.chmod(full, stat.S_IRWXU)
            shutil.rmtree(root, ignore_errors=True)

        await asyncio.to_thread(delete)

    # --- paths -----------------------------------------------------------------------------
    def host_path(self, path: str) -> Path:
        """The real path of a sandbox path; only the mapped folders exist."""
        if self.root is None:
            raise SandboxError("the local sandbox is not started (or was removed)")
        norm = os.path.normpath("/" + path.lstrip("/")) if path.startswith("/") else path
        if norm == "/":
            return self.root
        for rel in MAPPED:
            if norm == "/" + rel or norm.startswith("/" + rel + "/"):
                return self.root / norm.lstrip("/")
        raise SandboxError(f"{path} is outside what --sandbox local maps (/workspace, "
                           "/skills, /logs, /grader, /home/agent)")

    def rewrite(self, text: str) -> str:
        """Map literal sandbox paths in a command to the temp folder."""
        root = str(self.root)
        return _PATH_RE.sub(lambda m: root + "/" + m.group(1), text)

    # --- files -----------------------------------------------------------------------------
    async def put_archive(self, data: bytes | FileMapping, dest: str = "/") -> None:
        if isinstance(data, (bytes, bytearray)):
            payload = bytes(data)
        else:
            payload = tar_from_mapping(data, base=dest)
        target = self.host_path(dest)
        if not target.is_dir():
            raise SandboxError(f"cannot copy files to {dest}: it does not exist in the sandbox")
        await asyncio.to_thread(self._extract, bytes(payload), target)

    def _extract(self, payload: bytes, target: Path) -> None:
        with tarfile.open(fileobj=io.BytesIO(payload)) as tar:
            members = []
            for m in tar.getmembers():
                top = m.name.lstrip("./").split("/", 1)[0]
                if target == self.root and top and top not in {r.split("/")[0] for r in MAPPED}:
                    raise SandboxError(f"the local sandbox cannot place {m.name!r} outside "
                                       "its mapped folders")
                members.append(m)
            extract_data(tar, target, members)
            # Mirror the container's permissions: staged skills are read-only.
            skills = self.root / "skills"
            for m in members:
                path = (target / m.name).resolve()
                if skills in path.parents and not m.issym():
                    mode = 0o555 if m.isdir() else (0o555 if m.mode & 0o111 else 0o444)
                    path.chmod(mode)

    async def copy_out(self, path: str, max_bytes: int = 256 * 1024 * 1024) -> bytes:
        src = self.host_path(path)
        if not src.exists():
            raise SandboxError(f"{path} does not exist in the sandbox")

        def pack() -> bytes:
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w") as tar:
                tar.add(src, arcname=src.name)
            if buf.tell() > max_bytes:
                raise SandboxError(f"{path} is larger than {max_bytes} bytes; not copied")
            return buf.getvalue()

        return await asyncio.to_thread(pack)

    # --- commands --------------------------------------------------------------------------
    def _env(self, extra: Mapping[str, str]) -> dict[str, str]:
        root = str(self.root)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": f"{root}/home/agent",
            "LANG": "C.UTF-8",
            "TMPDIR": f"{root}/tmp",
            "SKILLFORGE_SANDBOX": "local",
        }
        for rel in ("workspace", "skills", "logs", "grader"):
            env[f"SKILLFORGE_{rel.upper()}"] = f"{root}/{rel}"
        env.update({k: self.rewrite(v) for k, v in {**self.spec.env, **extra}.items()})
        return env

    async def exec(self, cmd: str | Sequence[str], timeout_s: float = 120,
                   env: Mapping[str, str] | None = None, workdir: str | None = None,
                   max_output: int = DEFAULT_MAX_OUTPUT, user: str | None = None) -> ExecResult:
        if self.root is None:
            raise SandboxError("the local sandbox is not started (or was removed)")
        if self.remaining_s <= 0:
            raise SandboxError("the sandbox's lifetime is over; no more commands can run")
        argv = ["sh", "-c", self.rewrite(cmd)] if isinstance(cmd, str) else [
            self.rewrite(a) for a in cmd]
        cwd = self.host_path(workdir or self.spec.workdir)
        started = time.monotonic()
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, cwd=cwd, env=self._env(env or {}), stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                start_new_session=True)
        except OSError as exc:
            return ExecResult(exit_code=127, stderr=f"{argv[0]}: {exc.strerror or exc}",
                              duration_s=time.monotonic() - started)
        # Remembered after it exits too: background jobs it started live in its group.
        self._groups.add(proc.pid)
        out, err = StreamCapture(max_output), StreamCapture(max_output)

        async def pump(reader: asyncio.StreamReader, cap: StreamCapture) -> None:
            while chunk := await reader.read(65536):
                cap.feed(chunk)

        readers = asyncio.gather(pump(proc.stdout, out), pump(proc.stderr, err))
        timed_out = False
        try:
            await asyncio.wait_for(asyncio.shield(readers),
                                   max(0.0, min(timeout_s, self.remaining_s)))
            code = await proc.wait()
        except TimeoutError:
            timed_out = True
            _killpg(proc.pid)
            try:
                await asyncio.wait_for(asyncio.shield(readers), KILL_GRACE_S)
            except TimeoutError:
                readers.cancel()  # a process that left the group still holds the pipe
            await proc.wait()
            code = None
        except asyncio.CancelledError:
            _killpg(proc.pid)
            readers.cancel()
            raise
        return build_result(out, err, code, timed_out, started)

    async def kill_user_processes(self) -> None:
        for pgid in list(self._groups):
            _killpg(pgid)
        self._groups.clear()


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
