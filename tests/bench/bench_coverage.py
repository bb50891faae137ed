"""The lift's coverage simulation at full size (10,000 runs per cell), printed as one JSON
document: the summary the report quotes (skillforge/lift/coverage_record.py) and every cell.

`make test` runs the same simulation (tests/lift/test_coverage_families.py); this prints it
for the record, with the time it took.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.lift import coverage_sim as C  # noqa: E402


def main() -> None:
    t0 = time.perf_counter()
    lifts = C.lift_rows(runs=C.FULL_RUNS)
    nulls = C.lift_rows(C.NULL_FAMILIES, runs=C.FULL_RUNS)
    passes = C.pass_rows(runs=C.FULL_RUNS)
    doc = {"benchmark": "lift coverage simulation", "runs_per_cell": C.FULL_RUNS,
           "seed": C.SEED, "sizes": list(C.SIZES), "seconds": round(time.perf_counter() - t0, 1),
           "summary": C.summary(lifts, nulls, passes),
           "cells": [{"family": r["family"], "n": r["n"], "truth": round(r["truth"], 4),
                      "bounded": r["bounded"], "t_withdrawn": r["t"]} for r in lifts + nulls],
           "pass_cells": passes}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
