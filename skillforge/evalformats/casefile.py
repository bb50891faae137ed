"""A skill's cases as the Evals tab edits them, in whatever format they are kept.

`open_cases(skill_dir)` gives an EvalsFile for evals/evals.json (any of its dialects, saved
byte-for-byte where unchanged) and a `CaseFile` for waza or vally `evals/eval.yaml` and
plugin-eval case folders under `evals/`. A CaseFile has EvalsFile's interface and rules: it
is written only by `save`, after the set validates, atomically file by file, in the format
and layout it was read in (a prompt.md case stays prompt.md), and it refuses to overwrite
files changed on disk since they were loaded (ConflictError) unless told to.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pydantic import PrivateAttr

from skillforge.evalformats import cc_plugin_eval, registry
from skillforge.evalformats.loss import Loss
from skillforge.models.evals import (
    EVALS_PATH,
    EvalIssue,
    EvalSet,
    EvalsInvalidError,
    parse_evals,
)
from skillforge.models.evals_io import ConflictError, EvalsFile, dumps_evals


def _files(path: Path, fmt: str) -> list[Path]:
    """The files a set of cases is read from (what a conflict check must watch)."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file())
    files = [path]
    if fmt == "waza" and (path.parent / "tasks").is_dir():
        files += sorted((path.parent / "tasks").rglob("*.y*ml"))
    return files


def _digest(path: Path, fmt: str) -> tuple[str | None, int | None]:
    h, newest = hashlib.sha256(), None
    files = _files(path, fmt)
    if not files:
        return None, None
    for f in files:
        try:
            data, stat = f.read_bytes(), os.stat(f)
        except OSError:
            continue
        h.update(str(f.relative_to(path if path.is_dir() else path.parent)).encode() + b"\0")
        h.update(hashlib.sha256(data).digest())
        newest = max(newest or 0, stat.st_mtime_ns)
    return h.hexdigest(), newest


class CaseFile(EvalsFile):
    """Cases kept as waza, vally or plugin-eval files; EvalsFile's interface and rules."""

    fmt: str = "cc-plugin-eval"
    losses: list[Loss] = []
    # Where each case read at load came from: a case gone from the set saved was deleted.
    _loaded: list[dict] = PrivateAttr(default_factory=list)

    @classmethod
    def load(cls, path: Path, fmt: str | None = None) -> CaseFile:  # type: ignore[override]
        path = Path(path)
        fmt = fmt or registry.detect(path) or "cc-plugin-eval"
        got = registry.read(path, fmt)
        sha, mtime = _digest(path, fmt)
        out = cls(path=path, fmt=fmt, text=sha, sha256=sha, mtime_ns=mtime,
                  evalset=got.evalset, issues=got.issues)
        out._loaded = [dict(c._origin) for c in got.evalset.cases] if got.evalset else []
        return out

    def changed_on_disk(self) -> bool:
        return _digest(self.path, self.fmt)[0] != self.sha256

    def save(self, evalset: EvalSet | None = None, *, overwrite: bool = False) -> CaseFile:
        evalset = evalset or self.evalset
        if evalset is None:
            raise EvalsInvalidError(self.path, self.issues)
        if evalset._unreadable:
            raise EvalsInvalidError(self.path, [EvalIssue(pointer="", message=(
                f"{evalset._unreadable} case(s) could not be read, and saving would drop "
                "them; fix them in their files first"))])
        _, issues = parse_evals(dumps_evals(evalset))  # the same checks as evals.json's
        if issues:
            raise EvalsInvalidError(self.path, issues)
        if not overwrite and self.changed_on_disk():
            raise ConflictError(self.path, f"{self.path} changed on disk since it was loaded; "
                                "reload it (your edits are kept in memory) or save with "
                                "overwrite")
        self._remove_dropped(evalset)
        out = self.path if self.path.is_dir() else self.path.parent
        self.losses = registry.write(evalset, self.fmt, out)
        fresh = CaseFile.load(self.path, self.fmt)
        self.text, self.sha256, self.mtime_ns = fresh.text, fresh.sha256, fresh.mtime_ns
        self.evalset, self.issues, self._loaded = fresh.evalset, [], fresh._loaded
        return self

    def _remove_dropped(self, evalset: EvalSet) -> None:
        """The files of cases deleted in the editor (only the files that were read)."""
        kept = {c._origin.get("dir") or c._origin.get("file") for c in evalset.cases}
        for origin in self._loaded:
            where = origin.get("dir") or origin.get("file")
            if not where or where in kept:
                continue
            if self.fmt == "cc-plugin-eval":
                d = Path(where)
                names = ["prompt.md", "case.yaml", origin.get("scaffold") or
                         cc_plugin_eval.SCAFFOLD]
                names += [f"graders/{n}" for n in origin.get("grader_files", [])]
                for name in names:
                    (d / name).unlink(missing_ok=True)
                for sub in (d / "graders", d):
                    try:
                        sub.rmdir()  # only when nothing else of the author's is left
                    except OSError:
                        pass
            elif self.fmt == "waza" and Path(where).is_file():
                Path(where).unlink()


def open_cases(skill_dir: Path) -> EvalsFile:
    """The skill's cases for editing: evals/evals.json when there is one (or none yet),
    else the waza, vally or plugin-eval cases under evals/."""
    found = registry.skill_cases(Path(skill_dir))
    if found is None or found[0].name == "evals.json":
        return EvalsFile.load(Path(skill_dir) / EVALS_PATH)
    return CaseFile.load(*found)
