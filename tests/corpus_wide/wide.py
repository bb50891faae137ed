"""The wide corpus (issue 36): its skills, their severe findings, and the labels of those.

`tools/wide_corpus.py` rebuilds the corpus from `manifest.json` into `.corpus-wide/<split>/`
(gitignored). Files the rebuild did not copy (binaries, files over 1 MB, symlinks) are listed
in each repository's MANIFESTS.json and passed to the loader as present=False files, as for
the shared corpus, so link rules judge the skills as they are in their repositories.

Every severe finding (error, critical, high) of the default configuration on the tune, test
and holdout splits is labelled (holdout2 to holdout32 are sealed until their one measurement;
see SEALED).
Findings are read in units (tests/corpus_wide/units.py: one repository, one rule, one
message); `labels/units.jsonl` keeps each unit's two independent readings and the settled
label and reason (when the readings differ, settled by reading the skill again);
`labels/severe-findings.jsonl` lists the findings: (split, skill, file, rule, label) with
each finding as [line, unit], and a reason where a reader gave findings their own. A key
(split, skill, file, line, rule) may stand for two findings (two links on one line); they
share one label. Labels: `tp` (a real
defect of the kind the rule names), `fp` (not a defect), `policy` (true, but how severe is a
matter of taste or of one product's rules), `artefact` (wrong only because of how the corpus
was copied).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from skillforge.models.findings import LintReport, Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import SkillFile, load_skill

ROOT = Path(__file__).resolve().parents[2]
WIDE = ROOT / ".corpus-wide"
MANIFEST = Path(__file__).with_name("manifest.json")
LABELS = Path(__file__).with_name("labels") / "severe-findings.jsonl"
UNIT_LABELS = Path(__file__).with_name("labels") / "units.jsonl"
SPLITS = ("tune", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6",
          "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13",
          "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
          "holdout20", "holdout21", "holdout22", "holdout23", "holdout24",
          "holdout25", "holdout26", "holdout27", "holdout28", "holdout29",
          "holdout30", "holdout31", "holdout32")
# Never tuned on; the targets are checked there. holdout2 was chosen after holdout had
# been read and tuned on; holdout3 after holdout2 had been measured once and then tuned on;
# holdout4 after holdout3 had been measured once; holdout5 after holdout4 had been measured once;
# holdout6 after holdout5 had been measured once and then tuned on; holdout7 after holdout6 had
# been measured once and then tuned on; holdout8 after holdout7 had been measured once and then
# tuned on; holdout9 after holdout8 had been measured once and then tuned on; holdout10 after
# holdout9 had been measured once and then tuned on; holdout11 after holdout10 had been measured
# once; holdout12 after holdout11 had been measured once and then tuned on; holdout13 after
# holdout12 had been measured once and then tuned on; holdout14 after holdout13 had been
# measured once and then tuned on; holdout15 after holdout14 had been measured once and then
# tuned on; holdout16 after holdout15 had been measured once; holdout17 after holdout16 had been
# measured once and then tuned on; holdout18 after holdout17 had been measured once; holdout19
# after holdout18 had been measured once and then tuned on; holdout20 after holdout19 had been
# measured once and then tuned on; holdout21 after holdout20 had been measured once and then
# tuned on; holdout22 after holdout21 had been measured once and then tuned on; holdout23 after
# holdout22 had been measured once and then tuned on; holdout24 after holdout23 had been measured
# once and then tuned on; holdout25 after holdout24 had been measured once and then tuned on;
# holdout26 after holdout25 had been measured once and then tuned on; holdout27 after holdout26
# had been measured once; holdout28 after holdout27 had been measured once and then tuned on;
# holdout29 after holdout28 had been measured once and then tuned on; holdout30 after holdout29
# had been measured once and then tuned on; holdout31 after holdout30 had been measured once and
# then tuned on; holdout32 after holdout31 had been measured once and then tuned on.
# Each is measured once, when the tuning is finished.
HELD_OUT = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
            "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13",
            "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
            "holdout20", "holdout21", "holdout22", "holdout23", "holdout24", "holdout25",
            "holdout26", "holdout27", "holdout28", "holdout29", "holdout30", "holdout31",
            "holdout32")
# Sealed until the tuning is finished: the bench, the precision test and dump_findings leave such
# a part out, even where it is built, unless its own variable (WIDE_UNSEAL_HOLDOUT2=1,
# WIDE_UNSEAL_HOLDOUT3=1, ... WIDE_UNSEAL_HOLDOUT32=1) says this is its one measurement;
# unsealing one leaves the others sealed.
SEALED = ("holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8",
          "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14",
          "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20",
          "holdout21", "holdout22", "holdout23", "holdout24", "holdout25", "holdout26",
          "holdout27", "holdout28", "holdout29", "holdout30", "holdout31", "holdout32")
UNSEAL_ENVS = {"holdout2": "WIDE_UNSEAL_HOLDOUT2", "holdout3": "WIDE_UNSEAL_HOLDOUT3",
               "holdout4": "WIDE_UNSEAL_HOLDOUT4", "holdout5": "WIDE_UNSEAL_HOLDOUT5",
               "holdout6": "WIDE_UNSEAL_HOLDOUT6", "holdout7": "WIDE_UNSEAL_HOLDOUT7",
               "holdout8": "WIDE_UNSEAL_HOLDOUT8", "holdout9": "WIDE_UNSEAL_HOLDOUT9",
               "holdout10": "WIDE_UNSEAL_HOLDOUT10",
               "holdout11": "WIDE_UNSEAL_HOLDOUT11",
               "holdout12": "WIDE_UNSEAL_HOLDOUT12",
               "holdout13": "WIDE_UNSEAL_HOLDOUT13",
               "holdout14": "WIDE_UNSEAL_HOLDOUT14",
               "holdout15": "WIDE_UNSEAL_HOLDOUT15",
               "holdout16": "WIDE_UNSEAL_HOLDOUT16",
               "holdout17": "WIDE_UNSEAL_HOLDOUT17",
               "holdout18": "WIDE_UNSEAL_HOLDOUT18",
               "holdout19": "WIDE_UNSEAL_HOLDOUT19",
               "holdout20": "WIDE_UNSEAL_HOLDOUT20",
               "holdout21": "WIDE_UNSEAL_HOLDOUT21",
               "holdout22": "WIDE_UNSEAL_HOLDOUT22",
               "holdout23": "WIDE_UNSEAL_HOLDOUT23",
               "holdout24": "WIDE_UNSEAL_HOLDOUT24",
               "holdout25": "WIDE_UNSEAL_HOLDOUT25",
               "holdout26": "WIDE_UNSEAL_HOLDOUT26",
               "holdout27": "WIDE_UNSEAL_HOLDOUT27",
               "holdout28": "WIDE_UNSEAL_HOLDOUT28",
               "holdout29": "WIDE_UNSEAL_HOLDOUT29",
               "holdout30": "WIDE_UNSEAL_HOLDOUT30",
               "holdout31": "WIDE_UNSEAL_HOLDOUT31",
               "holdout32": "WIDE_UNSEAL_HOLDOUT32"}
SEVERE = frozenset({Severity.error, Severity.critical, Severity.high})
LABEL_VALUES = ("tp", "fp", "policy", "artefact")

Key = tuple[str, str, str, int, str]  # split, skill, file, line, rule


def available(split: str) -> bool:
    return (WIDE / split).is_dir()


def sealed(split: str) -> bool:
    return split in SEALED and os.environ.get(UNSEAL_ENVS[split]) != "1"


def measurable(split: str) -> bool:
    """Built, and not sealed: the splits whose findings may be looked at now."""
    return available(split) and not sealed(split)


@cache
def _not_copied(split: str) -> dict[Path, list[SkillFile]]:
    out: dict[Path, list[SkillFile]] = {}
    for mf in sorted((WIDE / split).glob("*/MANIFESTS.json")):
        for rel, entry in json.loads(mf.read_text("utf-8")).items():
            out[(mf.parent / rel).resolve()] = [
                SkillFile(path=f["path"], size=f.get("bytes", 0), present=False)
                for f in entry.get("files", []) if not f.get("copied", True)]
    return out


def skill_dirs(split: str) -> list[Path]:
    root = WIDE / split
    if not root.is_dir():
        raise FileNotFoundError(f"the wide corpus is missing: {root} (python tools/wide_corpus.py)")
    return sorted(p.parent for p in root.rglob("SKILL.md"))


def skill_id(split: str, skill_dir: Path) -> str:
    return skill_dir.relative_to(WIDE / split).as_posix()


def repo_of(skill: str) -> str:
    return skill.split("/", 1)[0].replace("__", "/", 1)


def lint(split: str, skill_dir: Path, config: LintConfig | None = None,
         external: bool = True) -> LintReport:
    from linters import lint_skill

    skill = load_skill(skill_dir, extra_files=_not_copied(split).get(skill_dir.resolve(), []))
    return lint_skill(skill, config, external=external)


@dataclass(frozen=True)
class Severe:
    key: Key
    severity: str
    message: str

    @property
    def skill(self) -> str:
        return self.key[1]


def severe_findings(split: str, report: LintReport, skill: str) -> list[Severe]:
    out = []
    for f in report.findings:
        if f.severity in SEVERE:
            out.append(Severe((split, skill, f.path or "SKILL.md", int(f.line or 0), f.rule),
                              f.severity.value, f.message))
    return out


def iter_reports(split: str, config: LintConfig | None = None,
                 external: bool = True) -> Iterator[tuple[str, LintReport]]:
    for d in skill_dirs(split):
        yield skill_id(split, d), lint(split, d, config, external)


@dataclass(frozen=True)
class WideLabel:
    key: Key
    severity: str
    label: str
    reason: str
    unit: str
    target: str = ""  # the path the unit's message names (first in backticks)
    # Two findings on one line with different labels (two links, one broken from the root
    # and one nowhere): the others, told apart by `target`.
    others: tuple[WideLabel, ...] = ()

    def of(self, message: str) -> WideLabel:
        """The label of the finding with `message` at this key."""
        if not self.others:
            return self
        named = _first_quoted(message)
        return next((lab for lab in (self, *self.others) if lab.target == named), self)


def _first_quoted(message: str) -> str:
    parts = message.split("`")
    return parts[1] if len(parts) > 2 else ""


def _jsonl(path: Path) -> list[tuple[int, dict]]:
    if not path.is_file():
        return []
    return [(no, json.loads(line)) for no, line in
            enumerate(path.read_text("utf-8").splitlines(), 1) if line.strip()]


def load_units(path: Path = UNIT_LABELS) -> dict[str, dict]:
    """Unit rows by id: two readings each, and the settled label and reason."""
    out = {}
    for no, row in _jsonl(path):
        readings = row.get("readings") or []
        if (len(readings) != 2 or row.get("label") not in LABEL_VALUES
                or not str(row.get("reason") or "").strip()
                or any(r.get("label") not in LABEL_VALUES or not r.get("reason")
                       for r in readings)):
            raise ValueError(f"{path.name}:{no}: a unit needs two readings and a settled label "
                             f"and reason: {json.dumps(row)[:160]}")
        out[row["unit"]] = row
    return out


def load_labels(path: Path = LABELS, units_path: Path = UNIT_LABELS) -> dict[Key, WideLabel]:
    """The label of every labelled finding by key; a malformed row, a finding of an unknown
    unit or a key given two labels is an error naming the line."""
    units = load_units(units_path)
    out: dict[Key, WideLabel] = {}
    need = ("split", "skill", "file", "rule", "severity", "label", "findings")
    for no, row in _jsonl(path):
        missing = [k for k in need if k not in row]
        bad = [u for _line, u in row.get("findings", []) if u not in units]
        if missing or row["label"] not in LABEL_VALUES or bad:
            raise ValueError(f"{path.name}:{no}: bad label row (missing {missing}, or unknown "
                             f"label or unit {bad[:1]}): {json.dumps(row)[:160]}")
        for line, unit in row["findings"]:
            key = (row["split"], row["skill"], row["file"], int(line), row["rule"])
            reason = row.get("reason") or units[unit]["reason"]
            lab = WideLabel(key, row["severity"], row["label"], reason, unit,
                            _first_quoted(units[unit]["message"]))
            held = out.get(key)
            if held is None:
                out[key] = lab
            elif held.label != lab.label and all(x.label != lab.label for x in held.others):
                if held.target == lab.target or not lab.target:
                    raise ValueError(f"{path.name}:{no}: {key} labelled both {held.label} and "
                                     f"{lab.label} for one target")
                out[key] = replace(held, others=(*held.others, lab))
    return out


def context(split: str, skill: str, file: str, line: int, around: int = 8) -> str:
    """The lines around a finding, numbered, for a reader (empty for a file not copied)."""
    p = WIDE / split / skill / file
    try:
        lines = p.read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    lo, hi = max(1, line - around), min(len(lines), max(line, 1) + around)
    return "\n".join(f"{n:5}{'>' if n == line else ' '} {lines[n - 1]}" for n in range(lo, hi + 1))


def finding_row(s: Severe) -> dict:
    split, skill, file, line, rule = s.key
    return {"split": split, "skill": skill, "file": file, "line": line, "rule": rule,
            "severity": s.severity}


def sort_rows(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda r: (SPLITS.index(r["split"]), r["skill"], r["file"],
                                       int(r.get("line", 0)), r["rule"]))
