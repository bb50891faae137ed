"""Running a case's bring-your-own grader after the agent stops (CONTRACTS.md section 4).

The grade must not be forgeable by the thing being graded. So the grader never runs where
the agent ran: every process the agent left is killed, its final `/workspace` is copied
out, and the grader runs in a *fresh* sandbox of the same image holding only that
workspace and the grader (at `/grader/`, a folder the agent never saw). Nothing the agent
or a skill script left elsewhere (files in HOME such as `usercustomize.py`, `.pth` hooks,
rc files, programs earlier on PATH, background processes, a reward file written early)
exists there. Symlinks in the workspace that point outside it are dropped on the way.
The grader writes `/logs/grader/reward.txt` (one number in [0, 1]) or
`/logs/grader/reward.json` (a flat object of numbers).
"""

from __future__ import annotations

import io
import json
import math
import shlex
import tarfile
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field

from skillforge.sandbox.archive import TarBuilder, concat_tars
from skillforge.sandbox.base import (
    AGENT_GID,
    AGENT_UID,
    GRADER_DIR,
    LOGS_DIR,
    WORKSPACE,
    ExecResult,
    Sandbox,
    SandboxError,
)

GRADER_LOGS = f"{LOGS_DIR}/grader"
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


def grader_plan(skill_root: Path, grader: str) -> tuple[bytes, list[str] | str, str]:
    """(archive for "/", command, workdir) for a case's `grader` field.

    A path to a file of the skill (e.g. evals/graders/check.py) stages that file's folder
    at /grader/ and runs the file (python3 for .py, sh for .sh, else directly when
    executable). Anything else is a shell command run in /grader, which then holds the
    skill's evals/ folder (so `python3 evals/graders/check.py --strict` works).
    """
    root = Path(skill_root)
    builder = TarBuilder()
    rel = PurePosixPath(grader.strip())
    candidate = (root / grader.strip()).resolve()
    inside = root.resolve() in candidate.parents
    if not rel.is_absolute() and inside and candidate.is_file():
        _add_folder(builder, candidate.parent, GRADER_DIR)
        target = f"{GRADER_DIR}/{candidate.name}"
        if candidate.suffix == ".py":
            cmd: list[str] | str = ["python3", target]
        elif candidate.suffix in (".sh", ".bash"):
            cmd = ["sh", target]
        elif candidate.stat().st_mode & 0o111:
            cmd = [target]
        else:
            cmd = ["sh", target]
        return builder.getvalue(), cmd, WORKSPACE
    evals = root / "evals"
    if evals.is_dir():
        _add_folder(builder, evals, f"{GRADER_DIR}/evals")
    else:
        builder.add_dir(GRADER_DIR)
    return builder.getvalue(), grader, GRADER_DIR


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


def workspace_for_grading(workspace_tar: bytes) -> tuple[bytes, list[str]]:
    """The agent's workspace tar, minus links that lead outside it; (tar, dropped paths)."""
    out = io.BytesIO()
    dropped: list[str] = []
    root = PurePosixPath(WORKSPACE)
    with tarfile.open(fileobj=io.BytesIO(workspace_tar)) as src, \
            tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as dst:
        for member in src:
            path = PurePosixPath("/", member.name)
            if root != path and root not in path.parents:
                dropped.append(str(path))
                continue
            if member.issym() or member.islnk():
                base = path.parent if member.issym() else PurePosixPath("/")
                target = _normal(base / member.linkname)
                if target != root and root not in target.parents:
                    dropped.append(str(path))
                    continue
            elif not (member.isfile() or member.isdir()):
                dropped.append(str(path))  # devices and fifos have no place in a grade
                continue
            dst.addfile(member, src.extractfile(member) if member.isfile() else None)
        logs = tarfile.TarInfo(GRADER_LOGS.strip("/"))
        logs.type, logs.mode, logs.uid, logs.gid = tarfile.DIRTYPE, 0o755, AGENT_UID, AGENT_GID
        dst.addfile(logs)
    return out.getvalue(), dropped


def _normal(path: PurePosixPath) -> PurePosixPath:
    """`path` with `.` and `..` resolved lexically (the link is never followed)."""
    parts: list[str] = []
    for part in path.parts[1:]:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return PurePosixPath("/", *parts)


async def run_grader(sandbox: Sandbox, skill_root: Path, grader: str,
                     timeout_s: float = DEFAULT_GRADER_TIMEOUT_S) -> GraderResult:
    """Run `grader` on the final workspace of `sandbox` (after the agent stopped), in a
    fresh sandbox of the same backend and image; return its reward."""
    archive, cmd, workdir = grader_plan(skill_root, grader)
    await sandbox.kill_user_processes()
    try:
        workspace = await sandbox.copy_out(WORKSPACE, max_bytes=sandbox.spec.disk_mb << 20)
    except SandboxError as exc:
        raise GraderError(f"could not copy the agent's workspace out for grader {grader}: "
                          f"{exc}") from exc
    workspace, _dropped = workspace_for_grading(workspace)
    timeout_s = min(timeout_s, max(1.0, sandbox.remaining_s))
    spec = sandbox.spec.model_copy(update={
        "grading": True, "network": False, "timeout_sec": timeout_s + GRADING_MARGIN_S})
    async with sandbox.sibling(spec, concat_tars(workspace, archive)) as fresh:
        return await _grade(fresh, grader, cmd, workdir, timeout_s)


async def _grade(sandbox: Sandbox, grader: str, cmd: list[str] | str, workdir: str,
                 timeout_s: float) -> GraderResult:
    env = {"GRADER_WORKSPACE": WORKSPACE, "GRADER_LOG_DIR": GRADER_LOGS}
    result = await sandbox.exec(cmd, timeout_s=timeout_s, env=env, workdir=workdir)
    shown = " ".join(shlex.quote(c) for c in cmd) if isinstance(cmd, list) else cmd
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
