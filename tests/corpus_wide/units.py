"""Reading units for labelling the wide corpus's severe findings, and the merge of readings.

A unit is the findings of one repository that say the same thing: one rule, the same message
once the referring file and counts are taken out (a docs mirror whose 300 pages each link to
the same missing page is one unit, read once). Each reader labels every unit (and may give a
skill or file its own label where the unit's findings differ); `merge` turns two readers'
files into label rows, one per finding, and lists the units they disagree on for settling.

    python -m tests.corpus_wide.units make  --split tune -i FINDINGS.jsonl -o UNITS.jsonl
    python -m tests.corpus_wide.units merge -i FINDINGS.jsonl -u UNITS.jsonl \
        -a READER_A.jsonl -b READER_B.jsonl [-s SETTLED.jsonl] -o FINDINGS_LABELS.jsonl \
        --out-units UNITS_LABELS.jsonl

A reading line: {"unit": ID, "label": "tp|fp|policy|artefact", "reason": "...",
"overrides": [{"skill": ..., "file": optional, "line": optional, "label": ..., "reason": ...}]}.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import OrderedDict

from tests.corpus_wide.wide import LABEL_VALUES, sort_rows

EXAMPLES = 4


def normal_message(rule: str, message: str) -> str:
    m = re.sub(r"^\S+ (links to|mentions)", r"\1", message)
    m = re.sub(r"\bline \d+\b", "line N", m)
    if rule == "SF502":
        m = re.sub(r"\d+", "N", re.sub(r"\(.*?\)", "", m))
    return m


def unit_id(repo: str, rule: str, norm: str) -> str:
    return hashlib.sha1(f"{repo}\0{rule}\0{norm}".encode()).hexdigest()[:10]


def make_units(findings: list[dict]) -> list[dict]:
    units: OrderedDict[str, dict] = OrderedDict()
    for d in findings:
        repo = d["skill"].split("/", 1)[0]
        norm = normal_message(d["rule"], d["message"])
        uid = unit_id(repo, d["rule"], norm)
        u = units.setdefault(uid, {"unit": uid, "split": d["split"], "repo": repo,
                                   "rule": d["rule"], "severity": d["severity"],
                                   "message": norm, "findings": 0, "skills": [],
                                   "examples": []})
        u["findings"] += 1
        if d["skill"] not in u["skills"]:
            u["skills"].append(d["skill"])
        seen = {(e["skill"], e["file"]) for e in u["examples"]}
        if len(u["examples"]) < EXAMPLES and (d["skill"], d["file"]) not in seen:
            u["examples"].append({k: d[k] for k in ("skill", "file", "line", "message",
                                                      "context")})
    return list(units.values())


def _label_for(reading: dict, d: dict) -> tuple[str, str]:
    for o in reading.get("overrides") or []:
        if o["skill"] != d["skill"]:
            continue
        if "file" in o and o["file"] != d["file"]:
            continue
        if "line" in o and int(o["line"]) != int(d["line"]):
            continue
        return o["label"], o["reason"]
    return reading["label"], reading["reason"]


def _read(path: str) -> dict[str, dict]:
    out = {}
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.strip():
                r = json.loads(line)
                labels = [r["label"], *(o["label"] for o in r.get("overrides") or [])]
                if any(lab not in LABEL_VALUES for lab in labels) or not r.get("reason"):
                    raise ValueError(f"{path}:{no}: bad reading {line[:160]}")
                out[r["unit"]] = r
    return out


def merge(findings: list[dict], units: list[dict], a: dict, b: dict, settled: dict,
          relabel: dict | None = None) -> tuple[list[dict], list[dict], list[dict]]:
    """(unit rows, finding rows, findings the readers disagree on with no settlement).

    `relabel`: units whose agreed label was changed afterwards, with the reason (a class read
    one way in one part and another way in the other, made consistent).
    A unit row keeps both readings and the settled label and reason; a finding row is one
    (split, skill, file, rule, label) with its findings as [line, unit] (two links on one line
    are two findings), and a reason only where an override gave those findings their own."""
    relabel = relabel or {}
    by_key = {(u["repo"], u["rule"], u["message"]): u for u in units}
    unit_rows: dict[str, dict] = {}
    groups: dict[tuple, dict] = {}
    open_ = []
    for d in findings:
        u = by_key[(d["skill"].split("/", 1)[0], d["rule"],
                    normal_message(d["rule"], d["message"]))]
        uid = u["unit"]
        if uid not in a or uid not in b:
            raise ValueError(f"unit {uid} ({d['rule']} {d['skill']}) lacks a reading")
        ra, rb = _label_for(a[uid], d), _label_for(b[uid], d)
        if uid in relabel:
            label, reason = _label_for(relabel[uid], d)
            reason = "relabelled: " + reason
        elif ra[0] == rb[0]:
            label, reason = ra
        elif uid in settled:
            label, reason = _label_for(settled[uid], d)
            reason = "settled: " + reason
        else:
            open_.append({"unit": uid, **{k: d[k] for k in ("skill", "file", "line", "rule")}})
            continue
        if uid not in unit_rows:
            unit_label = (relabel[uid]["label"], "relabelled: " + relabel[uid]["reason"]) \
                if uid in relabel \
                else (a[uid]["label"], a[uid]["reason"]) if a[uid]["label"] == b[uid]["label"] \
                else (settled[uid]["label"], "settled: " + settled[uid]["reason"]) \
                if uid in settled else (None, None)
            unit_rows[uid] = {
                "unit": uid, "split": d["split"], "repo": u["repo"], "rule": u["rule"],
                "message": u["message"], "label": unit_label[0], "reason": unit_label[1],
                "readings": [{k: r[k] for k in ("label", "reason", "overrides") if k in r}
                             for r in (a[uid], b[uid])]}
            if uid in settled:
                unit_rows[uid]["settled"] = settled[uid]
            if uid in relabel:
                unit_rows[uid]["relabelled"] = relabel[uid]
        own = reason if reason != unit_rows[uid]["reason"] else None
        gk = (d["split"], d["skill"], d["file"], d["rule"], label, own)
        g = groups.setdefault(gk, {"split": d["split"], "skill": d["skill"], "file": d["file"],
                                   "rule": d["rule"], "severity": d["severity"],
                                   "label": label, "findings": []})
        if own:
            g["reason"] = own
        g["findings"].append([int(d["line"]), uid])
    rows = sort_rows([{**g, "line": min(x[0] for x in g["findings"])} for g in groups.values()])
    for r in rows:
        del r["line"]
    return sorted(unit_rows.values(), key=lambda r: (r["split"], r["repo"], r["rule"],
                                                     r["unit"])), rows, open_


def _jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--split", required=True)
    mk.add_argument("-i", "--findings", required=True)
    mk.add_argument("-o", "--out", required=True)
    mg = sub.add_parser("merge")
    mg.add_argument("-i", "--findings", required=True)
    mg.add_argument("-u", "--units", required=True)
    mg.add_argument("-a", required=True)
    mg.add_argument("-b", required=True)
    mg.add_argument("-s", "--settled")
    mg.add_argument("-r", "--relabel", help="units whose agreed label is changed, with why")
    mg.add_argument("-o", "--out", required=True, help="finding rows")
    mg.add_argument("--out-units", required=True, help="unit rows")
    args = ap.parse_args(argv)
    findings = [d for d in _jsonl(args.findings)]
    if args.cmd == "make":
        units = make_units([d for d in findings if d["split"] == args.split])
        with open(args.out, "w", encoding="utf-8") as f:
            for u in units:
                f.write(json.dumps(u, ensure_ascii=False) + "\n")
        print(f"{len(units)} units from {len(findings)} findings", file=sys.stderr)
        return 0
    unit_rows, rows, open_ = merge(findings, _jsonl(args.units), _read(args.a), _read(args.b),
                                   _read(args.settled) if args.settled else {},
                                   _read(args.relabel) if args.relabel else {})
    for path, data in ((args.out_units, unit_rows), (args.out, rows)):
        with open(path, "w", encoding="utf-8") as f:
            for r in data:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    units_open = sorted({o["unit"] for o in open_})
    print(f"{len(unit_rows)} units, {len(rows)} finding rows ({len(findings) - len(open_)} "
          f"findings); {len(open_)} findings in {len(units_open)} units disagree: "
          f"{' '.join(units_open)}", file=sys.stderr)
    return 0 if not open_ else 3


if __name__ == "__main__":
    sys.exit(main())
