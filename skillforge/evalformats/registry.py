"""Which case format a path holds, and the one place that reads and writes any of them."""

from __future__ import annotations

from pathlib import Path

from skillforge.evalformats import cc_plugin_eval, evals_json, harbor_tasks, vally, waza
from skillforge.evalformats.loss import Loss, Read
from skillforge.models.evals import EvalIssue, EvalSet

FORMATS = ("skillforge", "skill-creator", "nvidia", "cc-plugin-eval", "waza", "vally",
           "harbor")
WRITABLE = ("cc-plugin-eval", "waza", "vally", "skill-creator", "nvidia", "skillforge")


def detect(path: Path) -> str | None:
    """The format at `path` (a file, a case folder, an evals/ folder or a skill), or None."""
    path = Path(path)
    if evals_json.json_file(path) is not None:
        got = evals_json.read(path)
        return got.fmt if got.evalset is not None else "skillforge"
    if vally.detect(path):
        return "vally"
    if waza.detect(path):
        return "waza"
    if path.is_dir() and cc_plugin_eval.detect(path):
        return "cc-plugin-eval"
    if path.is_dir() and harbor_tasks.detect(path):
        return "harbor"
    return None


def read(path: Path, fmt: str | None = None) -> Read:
    """Read `path` in `fmt` (detected when None); never raises for a bad file."""
    path = Path(path)
    fmt = fmt or detect(path)
    if fmt is None:
        return Read(None, [EvalIssue(pointer="", message=f"{path}: no eval cases found in any "
                                     f"known format ({', '.join(FORMATS)})")])
    if fmt in evals_json.DIALECTS:
        got = evals_json.read(path)
    else:
        got = {"cc-plugin-eval": cc_plugin_eval, "waza": waza, "vally": vally,
               "harbor": harbor_tasks}[fmt].read(path)
    got.fmt = got.fmt or fmt
    return got


def write(evalset: EvalSet, fmt: str, out: Path) -> list[Loss]:
    """Write `evalset` as `fmt` under `out`; returns what could not be carried over."""
    if fmt in evals_json.DIALECTS:
        return evals_json.write(evalset, out, fmt)
    if fmt == "cc-plugin-eval":
        return cc_plugin_eval.write(evalset, out)
    if fmt == "waza":
        return waza.write(evalset, out)
    if fmt == "vally":
        return vally.write(evalset, out)
    raise ValueError(f"cannot write {fmt!r}; choose one of {', '.join(WRITABLE)}")


def skill_cases(skill_dir: Path) -> tuple[Path, str] | None:
    """Where a skill's eval cases live and in which format: evals/evals.json first, then
    evals/eval.yaml (waza or vally), then plugin-eval case folders under evals/."""
    evals = Path(skill_dir) / "evals"
    if (evals / "evals.json").is_file():
        return evals / "evals.json", detect(evals / "evals.json") or "skillforge"
    for name in ("eval.yaml", "eval.yml"):
        if (evals / name).is_file():
            fmt = detect(evals / name)
            if fmt:
                return evals / name, fmt
    if evals.is_dir() and cc_plugin_eval.detect(evals):
        return evals, "cc-plugin-eval"
    return None
