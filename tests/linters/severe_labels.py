"""Hand labels for the linter's severe findings on the shared corpus, and the precision table.

Two files in one format (see ../shared/corpus/labels/README.md): the shared
`severe-findings.jsonl`, which labels every severe finding of the commit its README names, and
`labels/severe-findings-extra.jsonl` beside this module, which labels severe findings that later
versions of the rules report and the shared file does not cover. A row's key is
(skill, file, line, rule); its label is `tp`, `fp`, `artefact` or `policy`; its reason is
written from the skill's text, never from the linter's message.

Precision = tp / (tp + fp): `artefact` (wrong only because the corpus did not copy a file) and
`policy` (right, but how severe is a matter of policy) are left out, as the README says.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from skillforge.models.findings import Severity
from tests.conftest import CORPUS

SHARED_LABELS = CORPUS / "labels" / "severe-findings.jsonl"
EXTRA_LABELS = Path(__file__).with_name("labels") / "severe-findings-extra.jsonl"
SEVERE = frozenset({Severity.error, Severity.critical, Severity.high})
LABELS = ("tp", "fp", "artefact", "policy")
ROW_KEYS = ("skill", "file", "line", "rule", "severity", "label", "reason")

# The gate the issue sets: overall precision, and precision of each rule with enough
# labelled findings to say something (tp + fp >= RULE_MIN_LABELLED).
MIN_OVERALL = 0.90
MIN_PER_RULE = 0.80
RULE_MIN_LABELLED = 5

Key = tuple[str, str, int, str]


@dataclass(frozen=True)
class Label:
    key: Key
    severity: str
    label: str
    reason: str
    source: str  # "shared" or "extra"


def load_labels(path: Path, source: str) -> dict[Key, Label]:
    """The rows of one label file by key; rows sharing a key must agree on the label."""
    out: dict[Key, Label] = {}
    if not path.is_file():
        return out
    for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = [k for k in ROW_KEYS if k not in row]
        if missing or row["label"] not in LABELS or not str(row["reason"]).strip():
            raise ValueError(f"{path.name}:{no}: bad label row (missing {missing}): {line[:120]}")
        key = (row["skill"], row["file"], int(row["line"]), row["rule"])
        label = Label(key, row["severity"], row["label"], row["reason"], source)
        if key in out and out[key].label != label.label:
            raise ValueError(f"{path.name}:{no}: {key} labelled both {out[key].label} and "
                             f"{label.label}")
        out[key] = label
    return out


def all_labels() -> dict[Key, Label]:
    """Shared labels plus the project's extra ones (an extra row may not relabel a shared key)."""
    shared = load_labels(SHARED_LABELS, "shared")
    extra = load_labels(EXTRA_LABELS, "extra")
    clash = sorted(set(shared) & set(extra))
    if clash:
        raise ValueError(f"{EXTRA_LABELS.name} relabels keys the shared file covers: {clash[:5]}")
    return {**shared, **extra}


@dataclass
class RuleRow:
    rule: str
    severity: str
    counts: Counter

    @property
    def labelled(self) -> int:
        return self.counts["tp"] + self.counts["fp"]

    @property
    def precision(self) -> float | None:
        return self.counts["tp"] / self.labelled if self.labelled else None

    def as_json(self) -> dict:
        return {"rule": self.rule, "severity": self.severity,
                **{k: self.counts[k] for k in LABELS}, "total": sum(self.counts.values()),
                "precision": None if self.precision is None else round(self.precision, 3)}


def precision_table(found: list[tuple[Key, str]], labels: dict[Key, Label]) -> list[RuleRow]:
    """One row per rule (and an `all` row last) from (key, severity) of each severe finding."""
    rows: dict[str, RuleRow] = {}
    total = RuleRow("all", "", Counter())
    for key, severity in found:
        label = labels[key].label
        row = rows.setdefault(key[3], RuleRow(key[3], severity, Counter()))
        if severity not in row.severity.split("/"):
            row.severity += f"/{severity}"
        row.counts[label] += 1
        total.counts[label] += 1
    return [*(rows[r] for r in sorted(rows)), total]


def render(table: list[RuleRow]) -> str:
    """The table as Markdown, in the shared README's columns."""
    lines = ["| rule | severity | tp | fp | artefact | policy | total | precision |",
             "|---|---|---|---|---|---|---|---|"]
    for row in table:
        p = "n/a" if row.precision is None else f"{row.precision:.2f}"
        counts = " | ".join(str(row.counts[k]) for k in LABELS)
        lines.append(f"| {row.rule} | {row.severity} | {counts} | "
                     f"{sum(row.counts.values())} | {p} |")
    return "\n".join(lines)
