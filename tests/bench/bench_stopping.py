"""The stopping simulation of `--until-decided` at full size (4,000 runs per family, and
1,000 for fixed-n intervals looked at after every round),
printed as one JSON document with its Markdown table (issue 38's closing note quotes it).

`make test` runs the same simulation (tests/lift/test_stopping_sim.py); this prints it for
the record, with the time it took.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.lift import stopping_sim as S  # noqa: E402


def main() -> None:
    t0 = time.perf_counter()
    nulls = S.null_rows(runs=S.BENCH_RUNS)
    powers = S.power_rows(runs=S.BENCH_RUNS)
    peeks = S.peek_rows()
    doc = {"benchmark": "stop when decided: false verdicts, power and trials",
           "runs_per_family": S.BENCH_RUNS, "seed": S.SEED, "cases": S.CASES,
           "max_rounds": S.MAX_ROUNDS, "margin": S.MARGIN,
           "seconds": round(time.perf_counter() - t0, 1),
           "max_wrong_verdict_at_zero": max(r["wrong_verdict"] for r in nulls),
           "null": nulls, "power": powers, "table": S.table(nulls, powers),
           "fixed_n_looked_at_every_round": peeks}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
