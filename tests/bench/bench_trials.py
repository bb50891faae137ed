"""Trial-run costs on the local Docker Engine, printed as one JSON document.

1. Sandbox overhead per trial, without the agent (tests/bench/bench_sandbox.py's trial:
   stage the archive, create and start the container, one command, copy a file out,
   remove): p50/p95 over 20 trials after a warm-up. Target: p50 <= 1.0 s.
2. The wall time of a 60-trial run (csv-insights: 3 cases x 2 conditions x 10 attempts)
   through `TrialRunner`, with the scripted agent of the trial tests answering on the
   loopback server (no model latency), at concurrency 1, 2 and 4.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sessions.store import RunStore
from skillforge.models.evals import load_evals
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers.base import ClientOptions
from skillforge.providers.openai_provider import OpenAIClient
from skillforge.trials.staging import load_skill_set
from skillforge.trials.run import TrialRunner
from tests.bench.bench_sandbox import one_trial, pct, summary
from tests.docker_image import ensure_test_image
from tests.llm_server import LLMServer
from tests.trials.scripted_agent import ScriptedAgent

SKILL = ROOT / "sample_skills" / "csv-insights"
CASES = ["monthly-revenue", "missing-values", "order-stats"]
OVERHEAD_TRIALS = 20
RUN_ATTEMPTS = 10  # 3 cases x 2 conditions x 10 = 60 trials
CONCURRENCY = (1, 2, 4)
TARGET_P50_S = 1.0


async def overhead(image: str) -> dict:
    run = RunSpec(skill_path=str(SKILL))
    skills = load_skill_set(run)
    evals, _ = load_evals(SKILL / "evals" / "evals.json")
    case = evals.case("monthly-revenue")
    await one_trial(image, run, skills, case)  # warm-up
    rows = [await one_trial(image, run, skills, case) for _ in range(OVERHEAD_TRIALS)]
    totals = [r["total"] for r in rows]
    return {
        "trials": OVERHEAD_TRIALS,
        "total_s": summary(totals),
        "phases_p50_s": {k: round(pct([r[k] for r in rows], 0.5), 4)
                         for k in rows[0] if k != "total"},
        "target_p50_s": TARGET_P50_S,
        "meets_target": pct(totals, 0.5) <= TARGET_P50_S,
    }


async def full_run(image: str, concurrency: int, base_url: str) -> dict:
    client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="bench",
                                        base_url=base_url, max_retries=0))
    spec = RunSpec(skill_path=str(SKILL), case_ids=CASES, attempts=RUN_ATTEMPTS, image=image,
                   concurrency=concurrency, limits=Limits(timeout_sec=120, memory_mb=512))
    with tempfile.TemporaryDirectory() as state, RunStore(state) as store:
        runner = TrialRunner(spec, client=client, store=store,
                             labels={"skillforge.bench": "trials"})
        started = time.monotonic()
        result = await runner.run()
        wall = time.monotonic() - started
        trials = store.trials(runner.run_id)
    await client.aclose()
    walls = [t.wall_s for t in trials]
    return {
        "concurrency": concurrency,
        "trials": len(trials),
        "ok": sum(t.status == "ok" for t in trials),
        "status": result.status,
        "wall_s": round(wall, 2),
        "trials_per_min": round(60 * len(trials) / wall, 1),
        "trial_wall_s": {"p50": round(pct(walls, 0.5), 3), "p95": round(pct(walls, 0.95), 3),
                         "mean": round(statistics.fmean(walls), 3)},
    }


async def main() -> dict:
    image = ensure_test_image()
    server = LLMServer().start()
    server.handler = ScriptedAgent()
    try:
        sandbox = await overhead(image)
        runs = [await full_run(image, n, server.openai_base_url) for n in CONCURRENCY]
    finally:
        server.stop()
    return {"benchmark": "trials", "image": image, "sandbox_overhead": sandbox,
            "run_60_trials": runs}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=2))
