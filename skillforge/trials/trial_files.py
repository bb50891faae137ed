"""Files around one trial: what /workspace held, the trajectory's run facts, and a harness
CLI's own session logs (skillforge.trials.runner stores them)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from sessions.atif import Trajectory
from skillforge.harnesses.proxy import Lease
from skillforge.models.fileio import atomic_write_text
from skillforge.models.trial import TrialRecord
from skillforge.sandbox import SandboxError


async def list_workspace(sb) -> list[str] | None:
    """The files in /workspace when the agent stopped (for the judge); None if unknown."""
    try:
        script = "cd /workspace && find . -maxdepth 4 -type f | head -n 300"
        res = await sb.exec(["sh", "-c", script], timeout_s=20)
    except SandboxError:
        return None
    if not res.ok:
        return None
    return sorted(f"/workspace/{line[2:]}" for line in res.stdout.splitlines()
                  if line.startswith("./"))


def annotate(traj: Trajectory, rec: TrialRecord, grader_error: str | None,
              lease: Lease | None = None) -> Trajectory:
    extra: dict[str, Any] = {**(traj.extra or {}), "status": rec.status}
    if lease is not None:
        extra["proxy"] = lease.summary()
    if rec.grader is not None:
        extra["grader"] = rec.grader
    if grader_error:
        extra["grader_error"] = grader_error
    return traj.model_copy(update={"extra": extra})




def session_dir(trajectory_path: Path | str) -> Path:
    """Where a harness trial's session logs are kept: `<trajectory stem>.session/`."""
    path = Path(trajectory_path)
    return path.with_name(f"{path.stem}.session")


def save_session_logs(trajectory_path: Path | str, files: dict[str, str]) -> None:
    """Write a harness CLI's session logs (path under its own folder -> text) beside the
    trajectory; names that would leave the folder are skipped."""
    folder = session_dir(trajectory_path)
    for name, text in files.items():
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts:
            continue
        atomic_write_text(folder.joinpath(*rel.parts), text)
