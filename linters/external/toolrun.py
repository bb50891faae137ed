"""Running external linters as processes: finding them, asking their version, running
several at once under one deadline, and reusing their cached per-file results.

Nothing here knows about skills or findings: `external_linters` (beside this) says what to run
and turns the normalised records into findings. The cache itself is `tool_cache`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from linters.external.tool_cache import (
    RECORD_SCHEMA,
    Record,
    cache_get,
    cache_put,
    cache_root,
    known_version,
    remember_version,
)

# Folders searched for tools instead of "next to Python, then PATH" (os.pathsep-separated).
# Tests point it at an empty folder to simulate a missing tool, or at fake tools.
TOOL_PATH_ENV = "SKILLFORGE_TOOL_PATH"
TIMEOUT_ENV = "SKILLFORGE_TOOL_TIMEOUT"
DEFAULT_TIMEOUT = 30.0


# --- locating tools -----------------------------------------------------------------------


def tool_search_path(override: str | None = None) -> str:
    """The folders searched for tools, in order: override, $SKILLFORGE_TOOL_PATH, or the
    folder of the running Python (its venv's bin) followed by PATH."""
    if override is not None:
        return override
    env = os.environ.get(TOOL_PATH_ENV)
    if env is not None:
        return env
    # Not resolved: in a venv, sys.executable's folder is the venv's bin, where pip put
    # ruff and shellcheck, even when the venv is not activated.
    here = str(Path(sys.executable).parent)
    return os.pathsep.join(p for p in (here, os.environ.get("PATH", "")) if p)


def find_tool(name: str, search_path: str | None = None) -> str | None:
    """Absolute path of the executable `name`, or None when it is not installed."""
    path = tool_search_path(search_path)
    if not path:
        return None
    return shutil.which(name, path=path)


# --- running processes -----------------------------------------------------------------------


@dataclass
class ProcResult:
    """How one process ended. `error` is set when it could not be started at all."""

    argv: list[str]
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    error: str | None = None
    started: float = 0.0
    ended: float = 0.0

    def first_stderr_line(self) -> str:
        for line in self.stderr.splitlines():
            if line.strip():
                return line.strip()[:200]
        return ""


def _kill(proc: subprocess.Popen) -> None:
    # The tool may be a wrapper script with children holding our pipes open: kill the group.
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


def _wait(proc: subprocess.Popen, res: ProcResult, deadline: float) -> None:
    try:
        out, err = proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(proc)
        res.timed_out = True
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            out, err = b"", b""
    res.ended = time.monotonic()
    res.returncode = proc.returncode
    res.stdout = out.decode("utf-8", errors="replace") if out else ""
    res.stderr = err.decode("utf-8", errors="replace") if err else ""


def run_concurrently(
    commands: Mapping[str, Sequence[str]], timeout: float, cwd: str | None = None
) -> dict[str, ProcResult]:
    """Start every command before waiting for any, then collect all under one deadline.

    Never raises for a tool's failure: an unstartable command gets `error`, an overrunning
    one is killed and gets `timed_out`.
    """
    results: dict[str, ProcResult] = {}
    procs: dict[str, subprocess.Popen] = {}
    for name, argv in commands.items():
        res = results[name] = ProcResult(argv=list(argv), started=time.monotonic())
        try:
            procs[name] = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=os.name == "posix",
            )
        except (OSError, ValueError) as exc:
            res.error = str(exc)
            res.ended = time.monotonic()
    deadline = time.monotonic() + timeout
    # One reader thread per process: a tool that fills its stdout pipe must not stall
    # behind another that is still running.
    threads = [
        threading.Thread(target=_wait, args=(p, results[n], deadline), daemon=True)
        for n, p in procs.items()
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def tool_timeout(value: float | None = None) -> float:
    """The per-lint deadline for external tools: argument, $SKILLFORGE_TOOL_TIMEOUT, or 30 s."""
    if value is not None:
        return value
    try:
        return float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT


def _stat_key(exe: str) -> tuple[str, int, int] | None:
    try:
        real = os.path.realpath(exe)
        st = os.stat(real)
    except OSError:
        return None
    return (real, st.st_size, st.st_mtime_ns)


def tool_versions(
    exes: Mapping[str, str],
    parse: Mapping[str, Callable[[str], str | None]],
    timeout: float,
    root: Path | None = None,
) -> dict[str, str | ProcResult]:
    """Version string per tool (or the failed ProcResult), asking each binary at most once.

    Versions are remembered by the binary's (real path, size, mtime), in memory and on
    disk, so a warm lint spawns nothing; a reinstalled tool has a new mtime and is asked again.
    `parse[name]` turns `--version` output into the version string (None if unreadable).
    """
    root = root or cache_root()
    out: dict[str, str | ProcResult] = {}
    ask: dict[str, list[str]] = {}
    keys: dict[str, tuple[str, int, int] | None] = {}
    for name, exe in exes.items():
        key = keys[name] = _stat_key(exe)
        known = known_version(key, root) if key is not None else None
        if known:
            out[name] = known
            continue
        ask[name] = [exe, "--version"]
    if not ask:
        return out
    for name, res in run_concurrently(ask, timeout).items():
        version = None
        if res.error is None and not res.timed_out and res.returncode == 0:
            version = parse[name](res.stdout)
        if not version:
            out[name] = res
            continue
        out[name] = version
        key = keys[name]
        if key is not None:
            remember_version(key, version, root)
    return out


# --- linting contents ---------------------------------------------------------------------------

# What a tool is shown: the file's bytes and the suffix its name gets (dialect by extension).
ContentKey = tuple[str, str]  # (sha256 of the bytes, suffix)


class ToolOutputError(ValueError):
    """A tool printed something that is not its documented output format."""


@dataclass(frozen=True)
class ToolSpec:
    """How to call one linter on files and read its output as (filename, record) pairs."""

    name: str
    args: tuple[str, ...]
    parse_version: Callable[[str], str | None]
    parse_output: Callable[[str], list[tuple[str, Record]]]

    def fingerprint(self, version: str) -> str:
        # The arguments are part of the cache key: a new rule selection must miss.
        return f"{version} {' '.join(self.args)} r{RECORD_SCHEMA}"


@dataclass
class ToolJob:
    """One tool to run over `contents`, keyed by content so duplicates run once."""

    spec: ToolSpec
    exe: str
    version: str
    contents: dict[ContentKey, bytes]
    records: dict[ContentKey, list[Record]] = field(default_factory=dict)
    failure: str | None = None

    def key(self, ckey: ContentKey) -> tuple[str, ...]:
        return (self.spec.name, self.spec.fingerprint(self.version), *ckey)


def describe_failure(res: ProcResult, timeout: float) -> str | None:
    """Why a run cannot be trusted (as "ruff <this>"), or None when it exited normally."""
    if res.error is not None:
        return f"could not be started ({res.error})"
    if res.timed_out:
        return f"did not finish within {timeout:g} s (raise {TIMEOUT_ENV} if needed)"
    # ruff and shellcheck exit 1 when they report findings; anything else is a failure.
    if res.returncode not in (0, 1):
        detail = res.first_stderr_line()
        return f"exited with status {res.returncode}" + (f" ({detail})" if detail else "")
    return None


def lint_contents(jobs: Sequence[ToolJob], timeout: float, root: Path | None = None) -> None:
    """Fill each job's `records`: cached contents from the cache, the rest by running every
    tool at once, one process per tool over all of its uncached files. A tool whose run
    fails gets `failure` set, and records only for the contents the cache knew."""
    root = root or cache_root()
    pending: dict[str, dict[ContentKey, bytes]] = {}
    for job in jobs:
        for ckey, data in job.contents.items():
            hit = cache_get(job.key(ckey), root)
            if hit is None:
                pending.setdefault(job.spec.name, {})[ckey] = data
            else:
                job.records[ckey] = hit
    if not pending:
        return
    by_name = {job.spec.name: job for job in jobs}
    try:
        with tempfile.TemporaryDirectory(prefix="skillforge-scriptlint-") as tmp:
            _run_pending(by_name, pending, timeout, root, tmp)
    except OSError as exc:
        # No room or no permission for the temporary copies: the tools cannot run at all.
        for name in pending:
            by_name[name].failure = f"could not be given the scripts ({exc})"


def _run_pending(
    by_name: dict[str, ToolJob],
    pending: dict[str, dict[ContentKey, bytes]],
    timeout: float,
    root: Path,
    tmp: str,
) -> None:
    commands: dict[str, list[str]] = {}
    owners: dict[str, dict[str, ContentKey]] = {}
    for i, (name, todo) in enumerate(pending.items()):
        owner = owners[name] = {}
        paths = []
        for j, (ckey, data) in enumerate(todo.items()):
            # A neutral file name: the result depends on (bytes, suffix) only, which is
            # exactly what the cache key holds.
            p = Path(tmp, f"{i}-{j}", f"script{ckey[1]}")
            p.parent.mkdir()
            p.write_bytes(data)
            paths.append(str(p))
            owner[str(p)] = owner[os.path.realpath(p)] = ckey
        job = by_name[name]
        commands[name] = [job.exe, *job.spec.args, *paths]
    for name, res in run_concurrently(commands, timeout, cwd=tmp).items():
        job = by_name[name]
        job.failure = describe_failure(res, timeout)
        if job.failure is None:
            try:
                parsed = job.spec.parse_output(res.stdout)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                head = res.stdout.strip().replace("\n", " ")[:60]
                job.failure = f"printed output that is not its JSON format ({exc}: {head!r})"
        if job.failure is not None:
            continue  # nothing cached: the next lint tries again
        fresh: dict[ContentKey, list[Record]] = {ck: [] for ck in pending[name]}
        for filename, rec in parsed:
            ckey = owners[name].get(filename) or owners[name].get(
                os.path.realpath(Path(tmp, filename))
            )
            if ckey is not None:
                fresh[ckey].append(rec)
        for ckey, recs in fresh.items():
            cache_put(job.key(ckey), recs, root)
            job.records[ckey] = recs
