"""`skillforge evals convert`: read cases in one format, write them in another."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from skillforge.evalformats import registry
from skillforge.evalformats.loss import Loss
from skillforge.models.evals import EvalIssue


@dataclass
class Conversion:
    source_fmt: str | None
    target_fmt: str
    out: Path
    cases: int = 0
    issues: list[EvalIssue] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.source_fmt is not None and not self.issues


def convert(src: Path, to: str, out: Path, *, source_fmt: str | None = None) -> Conversion:
    """Read `src`, write it as `to` under `out`; nothing is written when `src` has problems."""
    got = registry.read(Path(src), source_fmt)
    conv = Conversion(got.fmt or None, to, Path(out), issues=list(got.issues),
                      losses=list(got.losses))
    if got.evalset is None or got.issues:
        conv.source_fmt = conv.source_fmt if got.evalset is not None else None
        return conv
    for case in got.evalset.cases:
        case._origin = {}  # a conversion writes fresh files, never the source's
    conv.cases = len(got.evalset.cases)
    conv.losses += registry.write(got.evalset, to, Path(out))
    return conv
