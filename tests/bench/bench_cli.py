"""The CLI's speed as a user meets it, printed as one JSON document (issue 14).

1. `skillforge --version`: start-up alone. Target: 0.2 s or less.
2. `skillforge lint CORPUS --no-scripts --format json`: the shared corpus (152 skills) in one
   command. Target: 1.0 s or less. By default the command lints on every usable core (forked
   workers, `linters.batch`), as agnix does with its threads; the same command with `-j 1`,
   every skill in the one process, is printed beside it (`lint_corpus_one_process`).
3. `skillforge lint SKILL --no-scripts --format json` on one corpus skill (canvas-design, no
   evals and no config file): what a pre-commit hook or an editor's save pays. No target;
   it shows the fixed cost of a lint (start-up, loading the rules) that the corpus hides.

Each figure is the wall time of a fresh process, the minimum of several runs: the machine
is shared, and the minimum is the run other jobs disturbed least (the median and the
child's CPU time, user + sys, are printed beside it). One untimed run first fills the page
cache and the tokenizer tables in the user's cache dir, as any earlier lint would have.

In the same run the same corpus goes through the two tools the issue compares with:
- agnix's PyPI wheel (the Rust binary it ships, `agnix CORPUS --format json`), installed at
  AGNIX_VERSION into tests/bench/out/ the first time; when pip cannot get it, its column
  says "not installed" and why;
- skills-ref's Python API (`skills_ref.validator.validate` on every skill folder, in one
  fresh interpreter: import and validate).
A ratio is skillforge's time over the other tool's: 4.0 means skillforge takes 4 times as long.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from linters.batch import usable_cores

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "skills"
SKILLFORGE = Path(sys.executable).with_name("skillforge")
# The pin lives with every other one, in constraints/ (exact: another version is another
# comparison).
AGNIX_VERSION = next(line.split("==", 1)[1].strip() for line in
                     (ROOT / "constraints" / "bench.txt").read_text().splitlines()
                     if line.startswith("agnix=="))
AGNIX_DIR = ROOT / "tests" / "bench" / "out" / f"agnix-{AGNIX_VERSION}"
VERSION_RUNS = 7
ONE_SKILL = CORPUS / "anthropics__skills" / "skills" / "canvas-design"
CORPUS_RUNS = 5
TARGETS = {"version_s": 0.2, "lint_corpus_s": 1.0}

# skills-ref in a fresh interpreter: the same folders skillforge lints (every SKILL.md's).
SKILLS_REF = (
    "import sys\n"
    "from pathlib import Path\n"
    "from skills_ref.validator import validate\n"
    "dirs = sorted(p.parent for p in Path(sys.argv[1]).rglob('SKILL.md'))\n"
    "problems = sum(1 for d in dirs if validate(d))\n"
    "print(len(dirs), problems)\n"
)


def timed(cmd: list[str], runs: int, env: dict[str, str] | None = None,
          warmup: int = 0) -> tuple[dict[str, float], subprocess.CompletedProcess]:
    """min / median wall and min CPU (user + sys) seconds of `cmd` in fresh processes."""
    walls, cpus = [], []
    proc = None
    for i in range(warmup + runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT,
                              check=False, timeout=600)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i >= warmup:
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    assert proc is not None
    return {"min_s": round(min(walls), 3), "median_s": round(statistics.median(walls), 3),
            "cpu_min_s": round(min(cpus), 3), "runs": runs}, proc


def agnix_binary() -> tuple[Path | None, str]:
    """The pinned agnix binary, installed on first use; (None, why) when it cannot be."""
    exe = AGNIX_DIR / "bin" / "agnix"
    if not exe.is_file():
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
             str(AGNIX_DIR), "-r", str(ROOT / "constraints" / "bench.txt")],
            capture_output=True, text=True, check=False, timeout=600)
        if proc.returncode != 0 or not exe.is_file():
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            return None, f"not installed: pip install agnix=={AGNIX_VERSION} failed" + (
                f" ({lines[-1]})" if lines else "")
    return exe, "installed"


def ratio(ours: dict[str, float], theirs: dict[str, float]) -> dict[str, float]:
    return {"wall": round(ours["min_s"] / max(theirs["min_s"], 1e-9), 2),
            "cpu": round(ours["cpu_min_s"] / max(theirs["cpu_min_s"], 1e-9), 2)}


def main() -> None:
    if not CORPUS.is_dir():
        raise SystemExit(f"the shared corpus is missing: {CORPUS}")
    load_before = os.getloadavg()
    version, _ = timed([str(SKILLFORGE), "--version"], VERSION_RUNS)
    lint_cmd = [str(SKILLFORGE), "lint", str(CORPUS), "--no-scripts", "--format", "json"]
    lint, proc = timed(lint_cmd, CORPUS_RUNS, warmup=1)
    skills = len(json.loads(proc.stdout)["skills"])
    serial, serial_proc = timed([*lint_cmd, "-j", "1"], CORPUS_RUNS)
    if serial_proc.stdout != proc.stdout:
        raise SystemExit("skillforge lint -j 1 printed another document than the default jobs")
    one, _ = timed([str(SKILLFORGE), "lint", str(ONE_SKILL), "--no-scripts", "--format", "json"],
                   VERSION_RUNS, warmup=1)

    ref, ref_proc = timed([sys.executable, "-c", SKILLS_REF, str(CORPUS)], CORPUS_RUNS)
    ref_dirs, ref_failing = map(int, ref_proc.stdout.split())
    skills_ref = {"version": _version("skills-ref"),
                  "what": "skills_ref.validator.validate per skill folder, one interpreter",
                  "skills": ref_dirs, "failing": ref_failing, **ref,
                  "skillforge_over_skills_ref": ratio(lint, ref),
                  "skillforge_one_process_over_skills_ref": ratio(serial, ref)}

    exe, status = agnix_binary()
    if exe is None:
        agnix: dict = {"version": AGNIX_VERSION, "status": status}
    else:
        # Telemetry is opt-in and off by default; DO_NOT_TRACK keeps it so on any machine.
        env = {**os.environ, "DO_NOT_TRACK": "1"}
        cmd = [str(exe), str(CORPUS), "--format", "json"]
        ag, ag_proc = timed(cmd, CORPUS_RUNS, env=env, warmup=1)
        checked = json.loads(ag_proc.stdout).get("files_checked")
        agnix = {"version": AGNIX_VERSION, "status": status,
                 "what": "agnix CORPUS --format json (the wheel's binary)",
                 "files_checked": checked, **ag, "skillforge_over_agnix": ratio(lint, ag),
                 "skillforge_one_process_over_agnix": ratio(serial, ag)}

    doc = {
        "benchmark": "cli",
        "machine": {"cpus": os.cpu_count(), "usable_cores": usable_cores(),
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in os.getloadavg()]},
        "note": "wall = minimum over runs of a fresh process; cpu = child user + sys",
        "version": {"command": "skillforge --version", **version,
                    "target_s": TARGETS["version_s"],
                    "meets_target": version["min_s"] <= TARGETS["version_s"]},
        "lint_corpus": {"command": "skillforge lint CORPUS --no-scripts --format json",
                        "skills": skills, **lint, "warmup_runs": 1,
                        "target_s": TARGETS["lint_corpus_s"],
                        "meets_target": lint["min_s"] <= TARGETS["lint_corpus_s"]},
        "lint_corpus_one_process": {"command": "skillforge lint CORPUS --no-scripts --format json -j 1",
                                    **serial, "same_output": True},
        "lint_one_skill": {"command": "skillforge lint SKILL --no-scripts --format json",
                           "skill": ONE_SKILL.name, **one, "warmup_runs": 1},
        "agnix": agnix,
        "skills_ref": skills_ref,
    }
    print(json.dumps(doc, indent=2))


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    main()
