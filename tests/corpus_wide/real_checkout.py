"""Check the wide corpus's artefact labels against real checkouts: lint each sampled skill of a
split inside a checkout of its whole repository at the pinned commit, and say which severe
findings of the corpus copy are there too.

    WIDE_UNSEAL_HOLDOUT17=1 .venv/bin/python -m tests.corpus_wide.real_checkout \
        --split holdout17 --mirror /work/.mirror --checkouts /tmp/real [--show fp,tp]

The corpus copies skill folders alone, so a link to a file at a plugin's or repository's root
is broken in the copy and fine in a checkout: such a finding comes from how the corpus was
built (label `artefact`). A finding the checkout does not have, labelled `fp` or `policy`, is
likely an artefact read as wrong; one labelled `tp` that the checkout does not have is worth
reading again. Blobs a snapshot lacks (large binaries) are left out of the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from linters import lint_skill
from skillforge.models.skill import load_skill
from tests.corpus_wide.wide import (MANIFEST, ROOT, SEVERE, SPLITS, UNSEAL_ENVS, iter_reports,
                                    load_labels, sealed, severe_findings)

sys.path.insert(0, str(ROOT / "tools"))
from wide_corpus_git import contents, from_mirror, list_tree  # noqa: E402


def checkout(mirror: Path, repo: str, commit: str, dest: Path) -> Path:
    """The files of `repo` at `commit` under `dest/owner+name` (made once; symlinks kept),
    with a `.git` folder at the top as a clone has: readings that look at the repository
    around a skill (a project skill's top, a build's other copies) only do so under one."""
    out = dest / repo.replace("/", "+")
    done = out / ".real-checkout"
    if not (done.is_file() and done.read_text() == commit):
        _write_tree(mirror, repo, commit, out)
        done.write_text(commit)
    (out / ".git").mkdir(exist_ok=True)
    return out


def _write_tree(mirror: Path, repo: str, commit: str, out: Path) -> None:
    gd = from_mirror(mirror, repo, commit)
    entries = [e for e in list_tree(gd, commit) if e.kind == "blob"]
    blobs = contents(gd, sorted({e.oid for e in entries}))
    for e in entries:
        if e.oid not in blobs:
            continue  # not in the snapshot (a large file)
        p = out / e.path
        p.parent.mkdir(parents=True, exist_ok=True)
        if e.mode == "120000":
            if not p.is_symlink():
                os.symlink(os.fsdecode(blobs[e.oid]), p)
            continue
        p.write_bytes(blobs[e.oid])


def compare(split: str, mirror: Path, dest: Path) -> tuple[Counter, list[tuple]]:
    """(count by (label, found in the checkout), the findings the checkout lacks)."""
    repos = {r["repo"]: r["commit"] for r in json.loads(MANIFEST.read_text("utf-8"))["repositories"]
             if r["split"] == split}
    labels = load_labels()
    counts: Counter = Counter()
    missing = []
    for skill, report in iter_reports(split):
        found = severe_findings(split, report, skill)
        if not found:
            continue
        owner_name, _, rest = skill.partition("/")
        repo = next(r for r in repos if r.replace("/", "__", 1) == owner_name)
        real = checkout(mirror, repo, repos[repo], dest) / rest
        there = {(f.path or "SKILL.md", int(f.line or 0), f.rule)
                 for f in lint_skill(load_skill(real), None).findings if f.severity in SEVERE}
        for s in found:
            lab = labels.get(s.key)
            label = lab.of(s.message).label if lab else "unlabelled"
            present = s.key[2:] in there
            counts[(label, present)] += 1
            if not present:
                missing.append((label, *s.key[1:], s.message[:120]))
    return counts, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=SPLITS, required=True)
    ap.add_argument("--mirror", type=Path, required=True, help="folder of git snapshots")
    ap.add_argument("--checkouts", type=Path, required=True, help="where checkouts are made")
    ap.add_argument("--show", default="fp,policy,tp,unlabelled",
                    help="labels whose findings missing from the checkout are listed")
    args = ap.parse_args(argv)
    if sealed(args.split):
        ap.error(f"{args.split} is sealed; {UNSEAL_ENVS[args.split]}=1 after its measurement")
    counts, missing = compare(args.split, args.mirror, args.checkouts)
    for (label, present), n in sorted(counts.items()):
        print(f"{label:10} {'in the checkout' if present else 'NOT in the checkout':20} {n}")
    show = set(args.show.split(","))
    for row in missing:
        if row[0] in show:
            print("  ", *row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
