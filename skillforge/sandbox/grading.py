"""Running a case's bring-your-own grader after the agent stops (CONTRACTS.md section 4;
the whole contract, for grader authors: docs/graders.md).

The grade must not be forgeable by the thing being graded. So the grader never runs where
the agent ran: every process the agent left is killed, its final `/workspace` is streamed
out to a spool file on the host (never whole in memory), and the grader runs in a *fresh*
sandbox of the same image holding only a copy of that workspace and the grader (at
`/grader/`, a folder the agent never saw). Nothing the agent or a skill script left
elsewhere (files in HOME such as `usercustomize.py`, `.pth` hooks, rc files, programs
earlier on PATH, background processes, a reward file written early) exists there. In the
copy every path resolves inside it (skillforge.sandbox.workspace_copy: a link that leads
out, even through a chain of links, is replaced by a marker).

How the grader runs: as its own uid (GRADER_UID: not root, not the agent's, no capability),
from /grader (never from the agent's /workspace, so no agent-written `json.py` shadows a
module), with a clean environment (its own HOME, PYTHONSAFEPATH=1, no user site-packages),
a Python grader through a launcher that ends the process as soon as the grader returns
(exit hooks of code it imported never run). It writes `/logs/grader/reward.txt` (one number
in [0, 1]) or `/logs/grader/reward.json` (a flat object of numbers) into a folder the
agent's uid cannot write; whatever it started is killed before the reward is read.
`/grader/.skillforge/as-agent CMD...` runs CMD as the agent's uid through a root broker
started before the grader (skillforge.sandbox.grader_support), for graders that must run the
agent's code: that code then cannot touch the reward, the grader's files or its process.
"""

from __future__ import annotations

import io
import json
import math
import shlex
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field

from skillforge.sandbox.archive import TarBuilder, concat_tars
from skillforge.sandbox.base import (
    GRADER_DIR,
    WORKSPACE,
    ExecResult,
    Sandbox,
    SandboxError,
)
from skillforge.sandbox.grader_support import (  # noqa: F401 - GRADER_ENV: harbor's verifier
    AS_AGENT,
    GRADER_ENV,
    GRADER_HOME,
    GRADER_LOGS,
    GRADER_USER,
    LAUNCHER,
    RUN_DIR,
    add_support,
    broker_command,
    grading_layout,
)
from skillforge.sandbox.workspace_copy import CopyReport, copy_workspace

DEFAULT_GRADER_TIMEOUT_S = 120
# The grading sandbox outlives the grader's own timeout by this much (start, copy-out).
GRADING_MARGIN_S = 60


class GraderError(RuntimeError):
    """The grader could not give a reward; the message says what it did and what to fix."""


class GraderResult(BaseModel):
    """The reward (the `grader` metric) and, for reward.json, every number it wrote."""

    reward: float
    detail: dict[str, float] | None = None
    exec: ExecResult
    source: str = Field(description="reward.txt or reward.json")
    # What the grader's copy of the workspace kept and changed (workspace_copy.CopyReport).
    workspace: dict | None = None


def grader_plan(skill_root: Path, grader: str) -> tuple[bytes, list[str] | str, str]:
    """(archive for "/", command, workdir) for a case's `grader` field.

    A path to a file of the skill (e.g. evals/graders/check.py) stages that file's folder
    at /grader/ and runs the file (python3 through skillforge's launcher for .py, sh for
    .sh, else directly when executable). Anything else is a shell command, which then finds
    the skill's evals/ folder in /grader (so `python3 evals/graders/check.py --strict`
    works). Either way it runs from /grader, never from the agent's /workspace, and the
    archive also holds skillforge's launcher, the grader's HOME and `as-agent`.
    """
    root = Path(skill_root)
    builder = TarBuilder()
    rel = PurePosixPath(grader.strip())
    candidate = (root / grader.strip()).resolve()
    inside = root.resolve() in candidate.parents
    cmd: list[str] | str
    if not rel.is_absolute() and inside and candidate.is_file():
        _add_folder(builder, candidate.parent, GRADER_DIR)
        target = f"{GRADER_DIR}/{candidate.name}"
        if candidate.suffix == ".py":
            cmd = ["python3", LAUNCHER, target]
        elif candidate.suffix in (".sh", ".bash"):
            cmd = ["sh", target]
        elif candidate.stat().st_mode & 0o111:
            cmd = [target]
        else:
            cmd = ["sh", target]
    else:
        evals = root / "evals"
        if evals.is_dir():
            _add_folder(builder, evals, f"{GRADER_DIR}/evals")
        else:
            builder.add_dir(GRADER_DIR)
        cmd = grader
    add_support(builder)
    return builder.getvalue(), cmd, GRADER_DIR


def _add_folder(builder: TarBuilder, folder: Path, dest: str) -> None:
    builder.add_dir(dest)
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if "__pycache__" in rel.split("/") or path.is_symlink():
            continue
        if path.is_dir():
            builder.add_dir(f"{dest}/{rel}")
        elif path.is_file():
            mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
            builder.add_file(f"{dest}/{rel}", path.read_bytes(), mode=mode)


def parse_reward(files: dict[str, bytes], grader: str) -> tuple[float, dict[str, float] | None,
                                                                  str]:
    """(reward, detail, source) from the grader's output files; GraderError when unusable."""
    if "reward.json" in files:
        raw = files["reward.json"].decode("utf-8", errors="replace")
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise GraderError(f"grader {grader} wrote {GRADER_LOGS}/reward.json that is not "
                              f"JSON ({exc.msg}, line {exc.lineno}); write an object such as "
                              '{"reward": 0.75}') from exc
        if not isinstance(data, dict) or not data:
            raise GraderError(f"grader {grader}: reward.json must be a non-empty flat object "
                              'of numbers, such as {"reward": 0.75}')
        detail: dict[str, float] = {}
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise GraderError(f"grader {grader}: reward.json key {key!r} is {value!r}, "
                                  "not a finite number; the object must be flat numbers")
            detail[str(key)] = float(value)
        reward = detail["reward"] if "reward" in detail else sum(detail.values()) / len(detail)
        return reward, detail, "reward.json"
    if "reward.txt" in files:
        text = files["reward.txt"].decode("utf-8", errors="replace").strip()
        try:
            reward = float(text)
        except ValueError as exc:
            raise GraderError(f"grader {grader} wrote {text[:40]!r} to {GRADER_LOGS}/"
                              "reward.txt; it must hold one number between 0 and 1") from exc
        if not math.isfinite(reward) or not 0.0 <= reward <= 1.0:
            raise GraderError(f"grader {grader} wrote reward {text!r}; rewards in reward.txt "
                              "must be between 0 and 1")
        return reward, None, "reward.txt"
    raise GraderError(f"grader {grader} wrote neither {GRADER_LOGS}/reward.txt nor "
                      "reward.json")


def _files_in(tar_bytes: bytes) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
        for m in tar:
            if m.isfile() and m.size <= 1 << 20:
                fh = tar.extractfile(m)
                out[PurePosixPath(m.name).name] = fh.read() if fh else b""
    return out


def workspace_for_grading(workspace_tar: bytes) -> tuple[bytes, CopyReport]:
    """The grader's copy of a workspace tar, in memory (skillforge.sandbox.workspace_copy;
    run_grader streams the same copy instead)."""
    out = io.BytesIO()
    report = copy_workspace(io.BytesIO(workspace_tar), out)
    return out.getvalue(), report


async def run_grader(sandbox: Sandbox, skill_root: Path, grader: str,
                     timeout_s: float = DEFAULT_GRADER_TIMEOUT_S) -> GraderResult:
    """Run `grader` on the final workspace of `sandbox` (after the agent stopped), in a
    fresh sandbox of the same backend and image; return its reward.

    The workspace travels through a spool file on the host's disk (at most the trial's
    disk budget), never whole in memory."""
    archive, cmd, workdir = grader_plan(skill_root, grader)
    await sandbox.kill_user_processes()
    with tempfile.TemporaryFile(prefix="skillforge-workspace-") as spool:
        try:
            await sandbox.copy_out_to(WORKSPACE, spool, max_bytes=sandbox.spec.disk_mb << 20)
        except SandboxError as exc:
            raise GraderError(f"could not copy the agent's workspace out for grader {grader}: "
                              f"{exc}") from exc
        spool.seek(0)
        timeout_s = min(timeout_s, max(1.0, sandbox.remaining_s))
        spec = sandbox.spec.model_copy(update={
            "grading": True, "network": False, "network_name": None,
            "env": {"HOME": GRADER_HOME},
            "timeout_sec": timeout_s + GRADING_MARGIN_S})
        async with sandbox.sibling(spec, concat_tars(grading_layout(), archive)) as fresh:
            try:
                report = await fresh.put_archive_stream(
                    lambda writer: copy_workspace(spool, writer), "/")
            except (SandboxError, tarfile.TarError) as exc:
                raise GraderError(f"the agent's workspace could not be copied for grader "
                                  f"{grader}: {exc}") from exc
            await _start_broker(fresh)
            result = await _grade(fresh, grader, cmd, workdir, timeout_s)
            result.workspace = report.evidence()
            return result


async def _start_broker(sandbox: Sandbox) -> None:
    """Start as-agent's broker as root, before the grader (skillforge.sandbox.as_agent).

    Only a container runs one: the local sandbox has no uids to switch. An image without
    python3 has none either; the grader still runs, and `as-agent` says why it cannot."""
    if sandbox.kind != "docker":
        return
    await sandbox.exec(broker_command(), timeout_s=20, user="0:0", workdir="/")


def _wrapped(cmd: list[str] | str) -> list[str]:
    """argv that runs the grader with its output in files of RUN_DIR and its exit code in
    RUN_DIR/rc: the command ends when the grader does, even when something it started
    (a forked child of code it imported) still holds its output open."""
    keep = f'> {RUN_DIR}/stdout 2> {RUN_DIR}/stderr; echo $? > {RUN_DIR}/rc'
    if isinstance(cmd, list):
        return ["sh", "-c", f'"$@" {keep}', "grader", *cmd]
    return ["sh", "-c", f'sh -c "$1" {keep}', "grader", cmd]


async def _grader_output(sandbox: Sandbox, result: ExecResult) -> ExecResult:
    """The grader's exit code and output, read back from RUN_DIR (the last 48 KiB of
    each stream) once everything it started is gone."""
    read = await sandbox.exec(
        f"cat {RUN_DIR}/rc 2>/dev/null; echo; tail -c 49152 {RUN_DIR}/stdout 2>/dev/null; "
        f"tail -c 49152 {RUN_DIR}/stderr >&2 2>/dev/null", timeout_s=20, user=GRADER_USER,
        max_output=1 << 17)
    rc, _, out = read.stdout.partition("\n")
    code = int(rc) if rc.strip().isdigit() and not result.timed_out else None
    return result.model_copy(update={"exit_code": code, "stdout": out, "stderr": read.stderr})


async def _grade(sandbox: Sandbox, grader: str, cmd: list[str] | str, workdir: str,
                 timeout_s: float) -> GraderResult:
    started = await sandbox.exec(_wrapped(cmd), timeout_s=timeout_s, env=GRADER_ENV,
                                 workdir=workdir, user=GRADER_USER)
    shown = " ".join(shlex.quote(c) for c in cmd) if isinstance(cmd, list) else cmd
    # Whatever the grader started (or code it ran, forked children included) ends before
    # the reward is read.
    await sandbox.kill_all_processes()
    result = await _grader_output(sandbox, started)
    if result.timed_out:
        raise GraderError(f"grader {grader} did not finish within {timeout_s:.0f} s "
                          f"(command: {shown})")
    try:
        files = _files_in(await sandbox.copy_out(GRADER_LOGS, max_bytes=8 << 20))
    except Exception:  # noqa: BLE001 - an unreadable folder is the same as no reward
        files = {}
    try:
        reward, detail, source = parse_reward(files, grader)
    except GraderError as exc:
        tail = (result.stderr.strip() or result.stdout.strip())[-500:]
        raise GraderError(f"{exc} (exit code {result.exit_code}"
                          + (f"; output: {tail}" if tail else "") + ")") from exc
    return GraderResult(reward=reward, detail=detail, exec=result, source=source)
