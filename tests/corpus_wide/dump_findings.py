"""Write the severe findings of one split of the wide corpus, with their context, for readers.

    .venv/bin/python -m tests.corpus_wide.dump_findings --split tune -o /tmp/tune.jsonl

One JSON line per severe finding: its key, severity, the linter's message and the lines around
it (a reader labels from the skill's text; the message only says what the rule claims).
`--unlabelled` leaves out findings that labels/severe-findings.jsonl already covers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from tests.corpus_wide.wide import (SPLITS, UNSEAL_ENVS, context, finding_row, iter_reports,
                                    load_labels, sealed, severe_findings)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=SPLITS, required=True)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--unlabelled", action="store_true")
    args = ap.parse_args(argv)
    if sealed(args.split):
        ap.error(f"{args.split} is sealed until the tuning is finished; "
                 f"{UNSEAL_ENVS[args.split]}=1 for its one measurement")
    labels = load_labels()
    rules: Counter = Counter()
    n = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for skill, report in iter_reports(args.split):
            for s in severe_findings(args.split, report, skill):
                if args.unlabelled and s.key in labels:
                    continue
                row = finding_row(s) | {"message": s.message,
                                        "context": context(*s.key[:4])}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                rules[s.key[4]] += 1
                n += 1
    print(f"{n} severe findings on {args.split}: {dict(sorted(rules.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
