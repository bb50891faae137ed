"""Sandbox overhead per trial on the local Docker Engine, printed as one JSON document.

A trial's fixed cost, without the agent: build the staged archive (csv-insights, case
monthly-revenue, with_skill), create the container with the archive copied in and start
it, run one command, copy one file out, remove the container. 20 trials in a row (after
one warm-up), p50/p95 of the total and of each phase, with each phase's share of the mean.
Also the cost of one `exec` in a running sandbox (what every agent tool call pays).

Target: total p50 <= 1.0 s.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from skillforge.models.evals import load_evals
from skillforge.models.trial import RunSpec
from skillforge.sandbox import SandboxSpec
from skillforge.sandbox.docker_backend import DockerSandbox
from skillforge.trials.staging import load_skill_set, stage_trial
from tests.docker_image import ensure_test_image

TRIALS = 20
EXECS = 30
TARGET_P50_S = 1.0
SKILL = ROOT / "sample_skills" / "csv-insights"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(pct(values, 0.5), 4), "p95": round(pct(values, 0.95), 4),
            "mean": round(statistics.fmean(values), 4)}


async def one_trial(image: str, run: RunSpec, skills, case) -> dict[str, float]:
    t = {}
    t0 = time.monotonic()
    stage = stage_trial(case, "with_skill", run, skills)
    t1 = time.monotonic()
    sb = DockerSandbox(SandboxSpec(image=image, timeout_sec=120, run_id="bench-sandbox"),
                       stage.archive)
    try:
        await sb.start()
        t2 = time.monotonic()
        result = await sb.exec("python3 /skills/csv-insights/scripts/summarize.py sales.csv "
                               "> /workspace/summary.md && wc -c < summary.md", timeout_s=60)
        assert result.exit_code == 0, result.stderr
        t3 = time.monotonic()
        data = await sb.get_file("/workspace/summary.md")
        assert data
        t4 = time.monotonic()
    finally:
        await sb.remove()
    t5 = time.monotonic()
    t["build_archive"] = t1 - t0
    t["create"] = sb.timings["create"]
    t["copy_in"] = sb.timings["copy_in"]
    t["start"] = (t2 - t1) - sb.timings["create"] - sb.timings["copy_in"]
    t["command"] = t3 - t2
    t["copy_out"] = t4 - t3
    t["remove"] = t5 - t4
    t["total"] = t5 - t0
    return t


async def exec_overhead(image: str) -> list[float]:
    async with DockerSandbox(SandboxSpec(image=image, timeout_sec=120,
                                         run_id="bench-sandbox")) as sb:
        times = []
        for _ in range(EXECS):
            r = await sb.exec("true", timeout_s=30)
            assert r.exit_code == 0
            times.append(r.duration_s)
        return times


async def main() -> dict:
    image = ensure_test_image()
    run = RunSpec(skill_path=str(SKILL))
    skills = load_skill_set(run)
    evals, _ = load_evals(SKILL / "evals" / "evals.json")
    case = evals.case("monthly-revenue")
    await one_trial(image, run, skills, case)  # warm-up: client, imports, page cache
    rows = [await one_trial(image, run, skills, case) for _ in range(TRIALS)]
    phases = [k for k in rows[0] if k != "total"]
    totals = [r["total"] for r in rows]
    mean_total = statistics.fmean(totals)
    execs = await exec_overhead(image)
    p50 = pct(totals, 0.5)
    return {
        "benchmark": "sandbox",
        "image": image,
        "trials": TRIALS,
        "total_s": summary(totals),
        "phases_s": {k: {**summary([r[k] for r in rows]),
                         "share": round(statistics.fmean(r[k] for r in rows) / mean_total, 3)}
                     for k in phases},
        "exec_true_s": summary(execs),
        "target_p50_s": TARGET_P50_S,
        "meets_target": p50 <= TARGET_P50_S,
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=2))
