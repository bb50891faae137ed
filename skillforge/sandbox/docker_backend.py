"""Docker sandbox: one fresh container per trial, locked down, always removed.

The container's PID 1 is Docker's init running `sleep <lifetime>` as root: when the
lifetime ends the container stops and (auto-remove) disappears even if skillforge has
crashed. The root filesystem is read-only and every writable path is a size-limited tmpfs
(skillforge.sandbox.mounts), so no skill can fill the host's disk; files go in and out as
tar streams through `tar` in the container (skillforge.sandbox.tar_exec). Commands run through `docker exec` as the non-root agent user, in their own
session; on timeout the whole process group is killed from inside the container. Nothing
is ever bind-mounted from the host. Networking
is off unless the spec enables it; CPU, memory (no swap), PIDs and file size are capped;
all capabilities are dropped and privilege escalation is disabled.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
import time
from collections.abc import Mapping, Sequence

from skillforge.sandbox.archive import tar_from_mapping
from skillforge.sandbox.base import (
    DEFAULT_MAX_OUTPUT,
    ExecResult,
    FileMapping,
    Sandbox,
    SandboxError,
    SandboxSpec,
    SandboxUnavailable,
    StreamCapture,
    build_result,
)
from skillforge.sandbox.docker_client import describe_unavailable, executor, get_client
from skillforge.sandbox.exec_stream import open_exec_stream
from skillforge.sandbox.labels import owner_labels
from skillforge.sandbox.layout import with_layout
from skillforge.sandbox.mounts import for_mounts, path_with_tools, tmpfs_options
from skillforge.sandbox.reaper import reap_once, track, untrack
from skillforge.sandbox.tar_exec import extract, extract_stream, pack, pack_to

# The first stderr line of every command is this marker with the command's pid, so a
# timeout can kill its process group; it is stripped before anyone sees stderr.
PID_MARK = b"@@skillforge-pid="
KILL_GRACE_S = 2.0
KILL_ATTEMPTS = 4
# image -> PATH for its containers: one inspect per image and process, not one per trial.
_IMAGE_PATHS: dict[str, str] = {}

def _guarded(fn, *args):
    """Run a blocking Docker call; a daemon that went away becomes SandboxUnavailable."""
    import requests.exceptions

    try:
        return fn(*args)
    except (requests.exceptions.ConnectionError, ConnectionRefusedError,
            FileNotFoundError) as exc:
        raise SandboxUnavailable(describe_unavailable(exc)) from exc


def wrap_command(cmd: str | Sequence[str]) -> list[str]:
    """argv that reports its pid on stderr, then becomes `cmd` (same pid, same session)."""
    prelude = f'printf "{PID_MARK.decode()}%s\\n" "$$" >&2; '
    if isinstance(cmd, str):
        return ["sh", "-c", prelude + 'exec sh -c "$1"', "skillforge", cmd]
    return ["sh", "-c", prelude + 'exec "$@"', "skillforge", *cmd]


class DockerSandbox(Sandbox):
    """A trial container on the local Docker Engine."""

    kind = "docker"

    def __init__(self, spec: SandboxSpec, initial_archive: bytes | None = None,
                 client=None) -> None:
        super().__init__(spec, initial_archive)
        self._client = client
        self.container_id: str | None = None
        self._removed = False
        self._broken: str | None = None
        # Seconds spent in each start-up step (create, copy_in, start): for benchmarks/logs.
        self.timings: dict[str, float] = {}

    @property
    def client(self):
        if self._client is None:
            self._client = get_client()
        return self._client

    async def _run(self, fn, *args):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor(), _guarded, fn, *args)

    # --- lifecycle -------------------------------------------------------------------------
    async def start(self) -> None:
        fut = asyncio.get_running_loop().run_in_executor(executor(), _guarded,
                                                         self._start_sync)
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            # The container may be created after the cancellation: wait, then remove it.
            await asyncio.wait([fut])
            await self.remove()
            raise

    def _image_path(self, image: str) -> str:
        """The image's PATH with skillforge's tools first; asked of Docker once per image."""
        if image not in _IMAGE_PATHS:
            config = self.client.api.inspect_image(image).get("Config") or {}
            _IMAGE_PATHS[image] = path_with_tools(config.get("Env"))
        return _IMAGE_PATHS[image]

    def _host_config(self):
        import docker.types

        spec = self.spec
        mem = f"{int(spec.memory_mb)}m"
        ulimits = [docker.types.Ulimit(name="nofile", soft=4096, hard=4096)]
        if spec.max_file_mb:
            size = int(spec.max_file_mb) * 1024 * 1024
            ulimits.append(docker.types.Ulimit(name="fsize", soft=size, hard=size))
        return self.client.api.create_host_config(
            init=True,
            auto_remove=True,
            network_mode=spec.network_name or ("bridge" if spec.network else "none"),
            nano_cpus=int(spec.cpus * 1e9),
            mem_limit=mem,
            memswap_limit=mem,
            pids_limit=int(spec.pids),
            read_only=True,
            tmpfs=tmpfs_options(spec.disk_mb, grading=spec.grading),
            cap_drop=["ALL"],
            # Only root holds these (the copy-in `tar` sets owners under /skills and
            # /workspace); the agent's uid gets no capability, and no-new-privileges stops
            # it from gaining one.
            cap_add=["CHOWN", "DAC_OVERRIDE", "FOWNER"]
            # A grading container's root (never its grader, which runs as its own uid with
            # no capability) runs as-agent's broker, which changes uids, and ends every
            # process the grader and the agent's code left (docs/graders.md).
            + (["SETUID", "SETGID", "KILL"] if spec.grading else []),
            security_opt=["no-new-privileges"],
            ulimits=ulimits,
        )

    def _start_sync(self) -> None:
        import docker.errors

        spec = self.spec
        api = self.client.api
        reap_once(self.client)
        lifetime = max(1, math.ceil(spec.timeout_sec))
        labels = {**spec.labels, **owner_labels(spec.run_id, lifetime)}
        env = {"HOME": "/home/agent", "LANG": "C.UTF-8", **spec.env}
        t0 = time.monotonic()
        try:
            if "PATH" not in env:
                env["PATH"] = self._image_path(spec.image)
            created = api.create_container(
                spec.image,
                command=["sleep", str(lifetime)],
                user="0:0",
                labels=labels,
                host_config=self._host_config(),
                working_dir="/",
                environment=env,
                hostname="sandbox",
                network_disabled=not (spec.network or spec.network_name),
            )
        except docker.errors.ImageNotFound as exc:
            raise SandboxUnavailable(
                f"the trial image {spec.image!r} is not on this machine: run `docker pull "
                f"{spec.image}` (or build it), or set [trial] image in skillforge.toml to one "
                "that `docker images` lists"
            ) from exc
        except docker.errors.APIError as exc:
            raise SandboxError(f"could not create the trial container: {exc.explanation or exc}")
        self.container_id = created["Id"]
        track(self.container_id, self)
        t1 = time.monotonic()
        try:
            self.started_at = time.monotonic()
            api.start(self.container_id)
            t2 = time.monotonic()
            # One copy-in, before any agent command runs: the layout and the staged files.
            extract(self.client, self.container_id,
                    for_mounts(with_layout(self.initial_archive)), "/")
            self.timings = {"create": t1 - t0, "start": t2 - t1,
                            "copy_in": time.monotonic() - t2}
        except docker.errors.APIError as exc:
            raise SandboxError(f"could not start the trial container: {exc.explanation or exc}")

    def sibling(self, spec: SandboxSpec, initial_archive: bytes | None = None) -> DockerSandbox:
        return DockerSandbox(spec, initial_archive, client=self._client)

    async def remove(self) -> None:
        if self.container_id is None or self._removed:
            return
        await self._run(self._remove_sync)

    def _remove_sync(self) -> None:
        import docker.errors

        cid = self.container_id
        if cid is None or self._removed:
            return
        try:
            self.client.api.remove_container(cid, force=True)
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError as exc:
            # 409: removal already in progress (auto-remove after the lifetime ended).
            if exc.status_code != 409:
                raise SandboxError(f"could not remove container {cid[:12]}: {exc}") from exc
        self._removed = True
        untrack(cid)

    def _require(self) -> str:
        if self.container_id is None or self._removed:
            raise SandboxError("the sandbox is not running (start it first, or it was removed)")
        if self._broken:
            raise SandboxError(self._broken)
        return self.container_id

    # --- files -----------------------------------------------------------------------------
    async def put_archive(self, data: bytes | FileMapping, dest: str = "/") -> None:
        if isinstance(data, (bytes, bytearray)):
            payload = bytes(data)
        else:
            payload = tar_from_mapping(data, base=dest)
        await self._run(self._put_sync, bytes(payload), dest)

    def _put_sync(self, payload: bytes, dest: str) -> None:
        extract(self.client, self._require(), for_mounts(payload, dest), dest)

    async def copy_out(self, path: str, max_bytes: int = 256 * 1024 * 1024) -> bytes:
        return await self._run(pack, self.client, self._require(), path, max_bytes)

    async def copy_out_to(self, path: str, sink, max_bytes: int = 256 * 1024 * 1024) -> None:
        await self._run(pack_to, self.client, self._require(), path, sink, max_bytes)

    async def put_archive_stream(self, feed, dest: str = "/"):
        # Only what lies under the mounts may be written (for_mounts, for bytes); a streamed
        # tar is the caller's to keep there (the grading copy holds /workspace only).
        return await self._run(extract_stream, self.client, self._require(), feed, dest)

    # --- commands --------------------------------------------------------------------------
    async def exec(self, cmd: str | Sequence[str], timeout_s: float = 120,
                   env: Mapping[str, str] | None = None, workdir: str | None = None,
                   max_output: int = DEFAULT_MAX_OUTPUT, user: str | None = None) -> ExecResult:
        cancel = threading.Event()
        fut = asyncio.get_running_loop().run_in_executor(
            executor(), _guarded, self._exec_sync, cmd, timeout_s, dict(env or {}), workdir,
            max_output, user, cancel)
        try:
            return await fut
        except asyncio.CancelledError:
            # The worker thread notices, kills the command's process group and returns.
            cancel.set()
            raise

    def _exec_sync(self, cmd, timeout_s: float, env: dict[str, str], workdir: str | None,
                   max_output: int, user: str | None, cancel: threading.Event) -> ExecResult:
        import docker.errors

        cid = self._require()
        started = time.monotonic()
        user = user or self.spec.user
        api = self.client.api
        if self.remaining_s <= 0:
            raise SandboxError("the sandbox's lifetime is over; no more commands can run")
        try:
            exec_id = api.exec_create(cid, wrap_command(cmd), stdout=True, stderr=True,
                                      user=user, workdir=workdir or self.spec.workdir,
                                      environment=env or None)["Id"]
            stream = open_exec_stream(self.client, exec_id)
        except docker.errors.APIError as exc:
            raise SandboxError(f"could not run the command: {exc.explanation or exc}") from exc
        out, err = StreamCapture(max_output), StreamCapture(max_output)
        state = {"pid": None, "pending": bytearray(), "marked": False}

        def on_frame(stream_id: int, data: bytes) -> None:
            if stream_id == 2 and not state["marked"]:
                pending = state["pending"]
                pending += data
                if len(pending) < len(PID_MARK) and PID_MARK.startswith(bytes(pending)):
                    return
                state["marked"] = True
                if pending.startswith(PID_MARK) and b"\n" in pending:
                    line, _, rest = bytes(pending).partition(b"\n")
                    digits = line[len(PID_MARK):]
                    state["pid"] = int(digits) if digits.isdigit() else None
                    data = rest
                elif pending.startswith(PID_MARK):
                    state["marked"] = False  # the rest of the marker line is on its way
                    return
                else:
                    data = bytes(pending)
                if not data:
                    return
            (out if stream_id == 1 else err).feed(data)

        deadline = started + max(0.0, min(timeout_s, self.remaining_s))
        try:
            finished = stream.pump(on_frame, deadline, stop=cancel.is_set)
            if not finished:
                self._kill_group(state["pid"], user)
                stream.pump(on_frame, time.monotonic() + KILL_GRACE_S)
        finally:
            stream.close()
        if finished and self.remaining_s <= 0.5:
            # The container's lifetime ended under the command: that is a timeout too.
            finished = False
        exit_code = self._exit_code(exec_id) if finished else None
        return build_result(out, err, exit_code, not finished, started)

    def _exit_code(self, exec_id: str, wait_s: float = 1.0) -> int | None:
        """The exec's exit code; the stream can end a moment before Docker records it."""
        import docker.errors

        for _ in range(max(1, round(wait_s / 0.025))):
            try:
                info = self.client.api.exec_inspect(exec_id)
            except docker.errors.APIError:
                return None
            if not info.get("Running"):
                return info.get("ExitCode")
            time.sleep(0.025)
        return None

    def _kill_group(self, pid: int | None, user: str) -> None:
        """Kill a timed-out command's process group; failing that, stop the sandbox."""
        script = f"kill -KILL -{pid} {pid}" if pid else "kill -KILL -1"
        api = self.client.api
        try:
            exec_id = api.exec_create(self._require(), ["sh", "-c", script], user=user)["Id"]
            # Detached, then polled with a deadline: an attached start reads a socket with no
            # timeout, which never returns when the container goes away under it.
            api.exec_start(exec_id, detach=True)
            if self._exit_code(exec_id, wait_s=KILL_GRACE_S) is not None:
                return
            reason = f"`kill` did not finish within {KILL_GRACE_S:g} s"
        except Exception as exc:  # noqa: BLE001 - e.g. no PID left for `kill` to start
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        # The command cannot be stopped from inside (a fork bomb leaves no PID for `kill`):
        # end the sandbox instead; the trial fails rather than running on.
        self._broken = (f"the sandbox was stopped because a timed-out command could not be "
                        f"killed ({reason})")
        self._kill_container()

    async def kill_user_processes(self) -> None:
        """Kill every process the agent user runs (background jobs included).

        When the PID limit is exhausted even `kill` cannot start; after a few tries the
        sandbox is stopped instead, so nothing the agent left can touch what comes next.
        """
        if self._broken or self.container_id is None or self._removed:
            return
        reason = "unknown error"
        for attempt in range(KILL_ATTEMPTS):
            try:
                result = await self.exec("kill -KILL -1 2>/dev/null; echo done", timeout_s=10)
                if result.stdout.strip() == "done":
                    return
                reason = (result.stderr.strip() or "no output")[-200:]
            except SandboxError as exc:
                reason = str(exc)
            await asyncio.sleep(0.5 * (attempt + 1))
        self._broken = f"the sandbox was stopped: the agent's processes could not be killed " \
                       f"({reason})"
        await self._run(self._kill_container)

    async def kill_all_processes(self) -> None:
        """Kill every process in the container but init and its main `sleep` (the oldest
        child of init: nothing started later can take a lower pid), over a few passes so
        that what forks while it runs is caught too."""
        if self._broken or self.container_id is None or self._removed:
            return
        script = ("main=$(tr ' ' '\\n' < /proc/1/task/1/children | sort -n | head -n 1); "
                  "for pass in 1 2 3 4 5; do left=0; for d in /proc/[0-9]*; do "
                  "p=${d#/proc/}; case $p in 1|$main|$$) continue;; esac; "
                  "kill -KILL $p 2>/dev/null && left=1; done; "
                  "[ $left = 0 ] && break; done; echo done")
        try:
            result = await self.exec(script, timeout_s=15, user="0:0")
        except SandboxError:
            result = None
        if result is None or result.stdout.strip() != "done":
            self._broken = "the sandbox was stopped: the grader's processes could not be killed"
            await self._run(self._kill_container)

    def _kill_container(self) -> None:
        with contextlib.suppress(Exception):  # already gone is fine
            self.client.api.kill(self.container_id)
