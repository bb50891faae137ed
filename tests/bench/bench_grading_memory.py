"""Host memory while grading, and grading's fixed cost, printed as one JSON document.

A trial's grading copies the agent's final /workspace into a fresh grading container. For
workspaces of 0.5 and 1 GiB (random bytes, so nothing compresses), this measures the peak
resident memory of this process during `run_grader` against its resident memory just
before (sampled every 5 ms from /proc/self/status), with a grader that only writes a reward.

Target: peak <= 1.2 x idle + 64 MiB, whatever the workspace size (the copy streams
through a spool file on disk instead of being held in memory; before issue 34 a 0.49 GB
workspace peaked at 2.1 GB).

Many files: a workspace of 300,000 empty files (MANY_FILES), where the cost is the tar
headers, not the bytes: the same peak against the same bound, and the seconds grading took
(before the copy streamed its headers, 419 MiB and 110 s).

Also the fixed cost a trial pays for grading a small workspace (answer.txt), a Python and a
shell grader, p50 of 10 after a warm-up: fresh container, copy, grader, clean-up, read-back.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from skillforge.sandbox import SandboxSpec  # noqa: E402
from skillforge.sandbox.docker_backend import DockerSandbox  # noqa: E402
from skillforge.sandbox.grading import run_grader  # noqa: E402
from tests.docker_image import ensure_test_image  # noqa: E402

SKILL = ROOT / "tests" / "sandbox" / "fixtures" / "answer-check"
GRADER = "evals/graders/check_answer.sh"
SIZES_MB = (512, 1024)
SMALL_GRADERS = ("evals/graders/check_answer.py", "evals/graders/check_answer.sh")
SMALL_RUNS = 10
MANY_FILES = 300_000


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Peak:
    """The highest RSS seen by a sampling thread while the `with` block runs."""

    def __init__(self) -> None:
        self.peak = 0.0
        self._stop = threading.Event()

    def __enter__(self) -> Peak:
        self.peak = rss_mb()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, rss_mb())

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())


async def one(image: str, size_mb: int) -> dict:
    disk = int(size_mb * 2.2) + 256  # /workspace gets 48% of the budget
    spec = SandboxSpec(image=image, timeout_sec=900, run_id="bench-grading", disk_mb=disk,
                       memory_mb=disk + 1024, max_file_mb=None)
    made = f"head -c {size_mb}M /dev/urandom > /workspace/blob && echo 42 > /workspace/answer.txt"
    return {"workspace_mb": size_mb, **await measure(spec, made)}


async def many_files(image: str, count: int = MANY_FILES) -> dict:
    spec = SandboxSpec(image=image, timeout_sec=900, run_id="bench-grading", disk_mb=2048,
                       memory_mb=2048, max_file_mb=None)
    made = (f"cd /workspace && mkdir m && cd m && seq -f 'f%07g' {count} | xargs touch && "
            "echo 42 > /workspace/answer.txt")
    return {"empty_files": count, **await measure(spec, made)}


async def measure(spec: SandboxSpec, make_workspace: str) -> dict:
    """Grade the workspace `make_workspace` leaves: host RSS idle and at its peak, and time."""
    async with DockerSandbox(spec) as sb:
        made = await sb.exec(make_workspace, timeout_s=600)
        assert made.ok, made.stderr
        idle = rss_mb()
        t0 = time.monotonic()
        with Peak() as peak:
            graded = await run_grader(sb, SKILL, GRADER, timeout_s=600)
        seconds = time.monotonic() - t0
    assert graded.reward == 1.0, graded.exec.stderr
    bound = 1.2 * idle + 64
    return {"idle_rss_mb": round(idle, 1), "peak_rss_mb": round(peak.peak, 1),
            "bound_mb": round(bound, 1), "within_bound": peak.peak <= bound,
            "grading_s": round(seconds, 2)}


async def small(image: str, grader: str) -> dict:
    spec = SandboxSpec(image=image, timeout_sec=900, run_id="bench-grading")
    times = []
    async with DockerSandbox(spec) as sb:
        made = await sb.exec("echo 42 > /workspace/answer.txt", timeout_s=60)
        assert made.ok, made.stderr
        for i in range(SMALL_RUNS + 1):
            t0 = time.monotonic()
            graded = await run_grader(sb, SKILL, grader)
            if i:
                times.append(time.monotonic() - t0)
            assert graded.reward == 1.0, graded.exec.stderr
    return {"grader": grader, "runs": SMALL_RUNS,
            "p50_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


async def main() -> None:
    image = ensure_test_image()
    if sys.argv[1:] == ["--many-files"]:  # only the many-files row
        print(json.dumps({"many_files": await many_files(image)}, indent=1))
        return
    fixed = [await small(image, g) for g in SMALL_GRADERS]
    rows = [await one(image, size) for size in SIZES_MB]
    many = await many_files(image)
    print(json.dumps({"benchmark": "host memory while grading", "rows": rows,
                      "many_files": many, "small_workspace": fixed}, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
