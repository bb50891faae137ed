"""Precision and gate figures of the linter on the wide corpus, printed as one JSON document.

The wide corpus (issue 36) is 343 public repositories pinned in tests/corpus_wide/manifest.json,
split by repository: `tune` (tuned on from the start), `test` (measured once untouched, then
tuned on), `holdout` (never tuned on), `holdout2` (chosen after `holdout` had been read and
tuned on), `holdout3` (chosen after `holdout2` had been measured once and then tuned on),
`holdout4` (chosen after `holdout3` had been measured once), `holdout5` (chosen after
`holdout4` had been measured once), `holdout6` (chosen after `holdout5` had been measured
once and then tuned on), `holdout7` (chosen after `holdout6` had been measured once and
then tuned on), `holdout8` (chosen after `holdout7` had been measured once and then tuned
on), `holdout9` (chosen after `holdout8` had been measured once and then tuned on),
`holdout10` (chosen after `holdout9` had been measured once and then tuned on),
`holdout11` (chosen after `holdout10` had been measured once), `holdout12` (chosen after
`holdout11` had been measured once and then tuned on), `holdout13` (chosen after
`holdout12` had been measured once and then tuned on), `holdout14` (chosen after
`holdout13` had been measured once and then tuned on), `holdout15` (chosen after
`holdout14` had been measured once and then tuned on), `holdout16` (chosen after
`holdout15` had been measured once), `holdout17` (chosen after `holdout16` had been
measured once and then tuned on), `holdout18` (chosen after `holdout17` had been measured
once), `holdout19` (chosen after `holdout18` had been measured once and then tuned on),
`holdout20` (chosen after `holdout19` had been measured once and then tuned on),
`holdout21` (chosen after `holdout20` had been measured once and then tuned on),
`holdout22` (chosen after `holdout21` had been measured once and then tuned on),
`holdout23` (chosen after `holdout22` had been measured once and then tuned on),
`holdout24` (chosen after `holdout23` had been measured once and then tuned on),
`holdout25` (chosen after `holdout24` had been measured once and then tuned on),
`holdout26` (chosen after `holdout25` had been measured once and then tuned on),
`holdout27` (chosen after `holdout26` had been measured once),
`holdout28` (chosen after `holdout27` had been measured once and then tuned on),
`holdout29` (chosen after `holdout28` had been measured once and then tuned on),
`holdout30` (chosen after `holdout29` had been measured once and then tuned on),
`holdout31` (chosen after `holdout30` had been measured once and then tuned on) and
`holdout32` (chosen after `holdout31` had been measured once and then tuned on);
`holdout2` to `holdout32` are sealed: each is left out unless its own variable
(WIDE_UNSEAL_HOLDOUT2=1, WIDE_UNSEAL_HOLDOUT3=1, WIDE_UNSEAL_HOLDOUT4=1,
WIDE_UNSEAL_HOLDOUT5=1, WIDE_UNSEAL_HOLDOUT6=1, WIDE_UNSEAL_HOLDOUT7=1,
WIDE_UNSEAL_HOLDOUT8=1, WIDE_UNSEAL_HOLDOUT9=1, WIDE_UNSEAL_HOLDOUT10=1,
WIDE_UNSEAL_HOLDOUT11=1, WIDE_UNSEAL_HOLDOUT12=1, WIDE_UNSEAL_HOLDOUT13=1,
WIDE_UNSEAL_HOLDOUT14=1, WIDE_UNSEAL_HOLDOUT15=1, WIDE_UNSEAL_HOLDOUT16=1,
WIDE_UNSEAL_HOLDOUT17=1, WIDE_UNSEAL_HOLDOUT18=1, WIDE_UNSEAL_HOLDOUT19=1,
WIDE_UNSEAL_HOLDOUT20=1, WIDE_UNSEAL_HOLDOUT21=1, WIDE_UNSEAL_HOLDOUT22=1,
WIDE_UNSEAL_HOLDOUT23=1, WIDE_UNSEAL_HOLDOUT24=1, WIDE_UNSEAL_HOLDOUT25=1,
WIDE_UNSEAL_HOLDOUT26=1, WIDE_UNSEAL_HOLDOUT27=1,
WIDE_UNSEAL_HOLDOUT28=1, WIDE_UNSEAL_HOLDOUT29=1,
WIDE_UNSEAL_HOLDOUT30=1,
WIDE_UNSEAL_HOLDOUT31=1,
WIDE_UNSEAL_HOLDOUT32=1) is set, for its one measurement when the tuning is finished; the targets apply to every held-out part, each on its own;
`python tools/wide_corpus.py` rebuilds it into .corpus-wide/ (gitignored). Every skill
is linted as `skillforge lint` does by default (scripts included), each severe finding (error,
critical, high) is looked up in tests/corpus_wide/labels/severe-findings.jsonl, and per split
this prints:

- per rule: tp / fp / policy / artefact / unlabelled and precision = tp / (tp + fp + policy)
  (a policy finding is right but should not fail a gate by default, so here it counts
  against a severe rule), per finding and per reading unit (tests/corpus_wide/units.py);
- overall and security (SF5xx) precision against the targets (0.9 and 0.8 on `holdout`,
  `holdout2` to `holdout32`: `meets_targets_by_split`, and
  `meets_targets` when every one measured meets them);
- the default gate's pass rate next to skills-ref's (`validate`) and agnix's (no error-level
  diagnostic in the skill's folder; the pinned wheel of constraints/bench.txt);
- skills whose gate fails only on findings labelled fp or policy (target: 0).

Without the corpus it prints {"skipped": why} and exits 0, as the other corpus benches do not:
this one needs a rebuild (GitHub) that CI machines cannot make.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from skills_ref.validator import validate as skills_ref_validate  # noqa: E402

from tests.corpus_wide.units import normal_message, unit_id  # noqa: E402
from tests.corpus_wide.wide import (HELD_OUT, SEALED, SPLITS, UNSEAL_ENVS,  # noqa: E402
                                    WIDE, available, iter_reports, load_labels, measurable,
                                    severe_findings)

OUT = ROOT / "tests" / "bench" / "out" / "wide_lint.json"
TARGETS = {"overall": 0.90, "security": 0.80}
COUNTED = ("tp", "fp", "policy")


def precision(c: Counter) -> float | None:
    n = sum(c[k] for k in COUNTED)
    return round(c["tp"] / n, 3) if n else None


def agnix_failing(split: str) -> tuple[set[str] | None, str]:
    """Skills (ids under the split) with an error-level agnix diagnostic, or None and why."""
    from tests.bench.bench_cli import agnix_binary

    exe, status = agnix_binary()
    if exe is None:
        return None, status
    root = WIDE / split
    proc = subprocess.run([str(exe), str(root), "--format", "json"], capture_output=True,
                          text=True, check=False, timeout=900,
                          env={**os.environ, "DO_NOT_TRACK": "1"})
    try:
        diags = json.loads(proc.stdout)["diagnostics"]
    except (ValueError, KeyError):
        return None, f"agnix printed no JSON (exit {proc.returncode})"
    skills = sorted((p.parent for p in root.rglob("SKILL.md")), key=lambda p: -len(p.parts))
    failing = set()
    for d in diags:
        if d.get("level") != "error":
            continue
        f = Path(d["file"])
        f = f if f.is_absolute() else Path.cwd() / f
        for s in skills:  # the innermost skill folder holding the file
            if f.resolve().is_relative_to(s.resolve()):
                failing.add(s.relative_to(root).as_posix())
                break
    return failing, status


def measure(split: str, labels: dict) -> dict:
    rules: dict[str, Counter] = defaultdict(Counter)
    unit_rules: dict[str, Counter] = defaultdict(Counter)
    units_seen: dict[str, set] = defaultdict(set)
    severity: dict[str, str] = {}
    skills = passed = ref_ok = 0
    ref_pass: set[str] = set()
    only_wrong: dict[str, list[str]] = {}
    score_only = 0
    for skill, report in iter_reports(split):
        skills += 1
        found = severe_findings(split, report, skill)
        labs = []
        for s in found:
            rule = s.key[4]
            severity[rule] = s.severity
            lab = labels[s.key].of(s.message).label if s.key in labels else "unlabelled"
            labs.append(lab)
            rules[rule][lab] += 1
            uid = unit_id(skill.split("/", 1)[0], rule, normal_message(rule, s.message))
            if (uid, lab) not in units_seen[rule]:
                units_seen[rule].add((uid, lab))
                unit_rules[rule][lab] += 1
        if report.passed_gate:
            passed += 1
        elif labs and all(lab in ("fp", "policy") for lab in labs):
            only_wrong[skill] = sorted({s.key[4] for s in found})
        elif not labs:
            score_only += 1
        try:
            ok = not skills_ref_validate(WIDE / split / skill)
        except Exception:  # noqa: BLE001 - it raises on undecodable files
            ok = False
        if ok:
            ref_ok += 1
            ref_pass.add(skill)
    table = []
    total, security, unit_total = Counter(), Counter(), Counter()
    for rule in sorted(rules):
        c = rules[rule]
        total.update(c)
        unit_total.update(unit_rules[rule])
        if rule.startswith("SF5"):
            security.update(c)
        table.append({"rule": rule, "severity": severity[rule],
                      **{k: c[k] for k in ("tp", "fp", "policy", "artefact", "unlabelled")},
                      "precision": precision(c), "units": sum(unit_rules[rule].values()),
                      "unit_precision": precision(unit_rules[rule])})
    failing, agnix_status = agnix_failing(split)
    gate = {"skills": skills, "skillforge_pass": passed, "skills_ref_pass": ref_ok,
            "agnix_pass": None if failing is None else skills - len(failing),
            "agnix": agnix_status, "skillforge_pass_rate": round(passed / skills, 3),
            "skills_ref_pass_rate": round(ref_ok / skills, 3),
            "agnix_pass_rate": None if failing is None else round(1 - len(failing) / skills, 3),
            "failing_on_score_alone": score_only}
    return {"severe": sum(total.values()), "unlabelled": total["unlabelled"],
            "overall": {**{k: total[k] for k in ("tp", "fp", "policy", "artefact")},
                        "precision": precision(total), "unit_precision": precision(unit_total)},
            "security": {**{k: security[k] for k in ("tp", "fp", "policy", "artefact")},
                         "precision": precision(security)},
            "rules": table, "gate": gate,
            "fail_only_on_fp_or_policy": len(only_wrong),
            "fail_only_on_fp_or_policy_skills": only_wrong}


def meets_targets(part: dict) -> bool:
    """Whether one held-out part's figures meet the issue's targets."""
    return bool(part["unlabelled"] == 0
                and (part["overall"]["precision"] or 0) >= TARGETS["overall"]
                and (part["security"]["precision"] is None
                     or part["security"]["precision"] >= TARGETS["security"])
                and part["fail_only_on_fp_or_policy"] == 0)


def main() -> int:
    splits = [s for s in SPLITS if measurable(s)]
    if not splits:
        print(json.dumps({"skipped": f"no wide corpus at {WIDE}; python tools/wide_corpus.py"}))
        return 0
    labels = load_labels()
    doc: dict = {"labels": len(labels), "targets": TARGETS, "splits": {}}
    held_back = [s for s in SEALED if available(s) and s not in splits]
    if held_back:
        doc["sealed"] = {s: f"built but not measured; {UNSEAL_ENVS[s]}=1 for its one measurement"
                         for s in held_back}
    for split in splits:
        doc["splits"][split] = measure(split, labels)
    held = {sp: meets_targets(doc["splits"][sp]) for sp in HELD_OUT if sp in doc["splits"]}
    if held:
        doc["meets_targets_by_split"] = held
        doc["meets_targets"] = all(held.values())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=2))
    print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
