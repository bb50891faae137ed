#!/usr/bin/env python3
"""Summarise a CSV file: column types, missing values, numeric stats and group-by totals.

Standard library only. Output is deterministic (same input, same bytes out), so it can be
diffed, quoted and checked. Exit codes: 0 success, 1 bad input (message on stderr),
2 bad command line.

Examples:
  python3 summarize.py sales.csv
  python3 summarize.py sales.csv --group-by order_date --period month --sum revenue
  python3 summarize.py sales.csv --group-by region --sum revenue --sort-by-sum --format json
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import math
import re
import statistics
import sys
from pathlib import Path

# The sibling module that turns a report into Markdown or JSON: Python puts the script's
# folder first on sys.path when it runs `python3 scripts/summarize.py`.
from report_format import json_ready, render_markdown

DEFAULT_NA = ("NA", "N/A", "NaN", "null", "None", "-", "#N/A")
MISSING_GROUP = "(missing)"
PERIODS = ("day", "week", "month", "quarter", "year")

_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
_LEADING_ZERO = re.compile(r"[+-]?0\d")
_DATE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
_SYMBOLS = re.compile(r"[$€£¥,%\s]")
_BOOL = {"true", "false", "yes", "no"}


class InputError(Exception):
    """A problem with the user's file or arguments: reported as one line, exit code 1."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="summarize.py",
        description="Summarise a CSV file: column types, missing values, numeric stats and "
        "group-by totals. Deterministic output in Markdown (default) or JSON.",
        epilog="Example: python3 summarize.py sales.csv --group-by order_date --period month "
        "--sum revenue",
    )
    p.add_argument("csv_file", help="path to the CSV file (first row = header)")
    p.add_argument("--group-by", action="append", default=[], metavar="COLUMN",
                   help="group rows by this column; repeat for several keys")
    p.add_argument("--period", choices=PERIODS,
                   help="bucket date columns in --group-by by day, ISO week, month, quarter "
                   "or year (dates must be ISO, YYYY-MM-DD)")
    p.add_argument("--sum", action="append", default=[], metavar="COLUMN",
                   help="numeric column to total per group; repeat for several")
    p.add_argument("--sort-by-sum", action="store_true",
                   help="order groups by the first --sum column, largest first "
                   "(default: by group key)")
    p.add_argument("--format", choices=("markdown", "json"), default="markdown",
                   help="output format (default: markdown)")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--delimiter", help="field separator (default: detected among , ; tab |)")
    p.add_argument("--encoding", default="utf-8-sig", help="file encoding (default: utf-8)")
    p.add_argument("--na-values", metavar="LIST",
                   help="comma-separated placeholders that mean 'missing', replacing the "
                   f"default {','.join(DEFAULT_NA)} (empty cells are always missing)")
    p.add_argument("--top", type=int, default=5, metavar="N",
                   help="most frequent values listed per text column (default: 5)")
    return p.parse_args(argv)


def read_table(path: Path, delimiter: str | None, encoding: str):
    """Return (header, rows, delimiter, notes); rows are padded or cut to the header width."""
    if not path.exists():
        raise InputError(f"file not found: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a directory; pass a CSV file")
    try:
        text = path.read_text(encoding=encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path} is not valid {encoding} (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}); re-run with --encoding cp1252 (Excel on Windows) or latin-1"
        ) from None
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    if not text.strip():
        raise InputError(f"{path} is empty: expected a header row")
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    elif delimiter in ("\\t", "tab"):
        delimiter = "\t"
    if len(delimiter) != 1:
        raise InputError(f"--delimiter must be one character, got {delimiter!r}")
    # StringIO keeps newlines inside quoted fields intact.
    records = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if r]
    header, rows = records[0], records[1:]
    notes = []
    names: list[str] = []
    for i, raw in enumerate(header, start=1):
        name = raw.strip() or f"column_{i}"
        if name in names:
            name = f"{name}_{i}"
            notes.append(f"duplicate header {raw.strip()!r} renamed to {name!r}")
        names.append(name)
    width = len(names)
    ragged = sum(1 for r in rows if len(r) != width)
    if ragged:
        notes.append(f"{ragged} row(s) do not have {width} fields; they were padded or cut")
    rows = [(r + [""] * width)[:width] for r in rows]
    return names, rows, delimiter, notes


def parse_date(value: str) -> dt.date | None:
    m = _DATE.fullmatch(value)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def infer_type(values: list[str]) -> tuple[str, str | None]:
    """Type of a column from its non-missing values, plus a note when it needs a caveat."""
    if not values:
        return "empty", None
    if all(_INT.fullmatch(v) for v in values) or all(_FLOAT.fullmatch(v) for v in values):
        if any(_LEADING_ZERO.match(v) for v in values):
            return "text", "leading zeros: treated as identifiers, not numbers"
        return ("integer" if all(_INT.fullmatch(v) for v in values) else "number"), None
    if all(v.lower() in _BOOL for v in values):
        return "boolean", None
    if all(parse_date(v) for v in values):
        return "date", None
    cleaned = [_SYMBOLS.sub("", v) for v in values]
    numeric = sum(1 for v in cleaned if v and _FLOAT.fullmatch(v))
    if numeric >= 0.9 * len(values):
        return "text", ("looks numeric once currency symbols, thousands separators or % are "
                        "removed; clean it before computing with it")
    return "text", None


def to_number(value: str, kind: str) -> int | float:
    return int(value) if kind == "integer" else float(value)


def top_values(values: list[str], n: int) -> list[list]:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [[v, c] for v, c in ranked[:n]]


def is_missing(value: str, na: set[str]) -> bool:
    """Empty cells and placeholders (compared without case) are missing."""
    return not value or value.lower() in na


def profile_column(name: str, raw: list[str], na: set[str], top: int) -> dict:
    values = [v.strip() for v in raw]
    present = [v for v in values if not is_missing(v, na)]
    kind, note = infer_type(present)
    total = len(values)
    col = {
        "name": name,
        "type": kind,
        "non_missing": len(present),
        "missing": total - len(present),
        "missing_pct": round(100 * (total - len(present)) / total, 1) if total else 0.0,
        "distinct": len(set(present)),
    }
    if kind in ("integer", "number"):
        nums = [to_number(v, kind) for v in present]
        col["stats"] = {
            "min": min(nums),
            "max": max(nums),
            "mean": statistics.fmean(nums),
            "median": statistics.median(nums),
            "stdev": statistics.stdev(nums) if len(nums) > 1 else None,
            "sum": sum(nums) if kind == "integer" else math.fsum(nums),
        }
    elif kind == "date":
        days = sorted(parse_date(v) for v in present)
        col["stats"] = {"earliest": days[0].isoformat(), "latest": days[-1].isoformat()}
    elif kind in ("text", "boolean"):
        # A column whose values are all different (ids, emails) has no useful "top" list.
        if col["distinct"] == len(present) > 1:
            col["all_distinct"] = True
        else:
            col["top_values"] = top_values(present, top)
    if note:
        col["note"] = note
    return col


def bucket(day: dt.date, period: str) -> str:
    if period == "day":
        return day.isoformat()
    if period == "week":
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if period == "month":
        return f"{day.year}-{day.month:02d}"
    if period == "quarter":
        return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
    return str(day.year)


def resolve(name: str, header: list[str], notes: list[str], flag: str) -> int:
    """Index of a column; a unique case-insensitive match is accepted with a note."""
    if name in header:
        return header.index(name)
    loose = [i for i, h in enumerate(header) if h.strip().lower() == name.strip().lower()]
    if len(loose) == 1:
        notes.append(f"{flag} {name!r} matched column {header[loose[0]]!r}")
        return loose[0]
    raise InputError(f"{flag} {name!r}: no such column; columns are: {', '.join(header)}")


def group_totals(args, header, rows, columns, na, notes) -> dict:
    by = [resolve(n, header, notes, "--group-by") for n in args.group_by]
    sums = [resolve(n, header, notes, "--sum") for n in args.sum]
    for i in sums:
        if columns[i]["type"] not in ("integer", "number"):
            hint = f" ({columns[i]['note']})" if columns[i].get("note") else ""
            numeric = [c["name"] for c in columns if c["type"] in ("integer", "number")]
            raise InputError(f"--sum {header[i]!r} is a {columns[i]['type']} column, not "
                             f"numeric{hint}; numeric columns: {', '.join(numeric) or 'none'}")
    dated = [i for i in by if columns[i]["type"] == "date"]
    if args.period and not dated:
        raise InputError(f"--period {args.period} needs a date column (ISO YYYY-MM-DD) in "
                         f"--group-by; got {', '.join(header[i] for i in by)}")
    labels = [f"{header[i]} ({args.period})" if args.period and i in dated else header[i]
              for i in by]
    groups: dict[tuple, dict] = {}
    skipped = dict.fromkeys(sums, 0)
    everything: dict[int, list] = {i: [] for i in sums}
    for row in rows:
        key = []
        for i in by:
            v = row[i].strip()
            if is_missing(v, na):
                v = MISSING_GROUP
            elif args.period and i in dated:
                v = bucket(parse_date(v), args.period)
            key.append(v)
        g = groups.setdefault(tuple(key), {"rows": 0, "sums": {header[i]: [] for i in sums}})
        g["rows"] += 1
        for i in sums:
            v = row[i].strip()
            if is_missing(v, na):
                skipped[i] += 1
            else:
                number = to_number(v, columns[i]["type"])
                g["sums"][header[i]].append(number)
                everything[i].append(number)
    for i, n in skipped.items():
        if n:
            notes.append(f"--sum {header[i]!r}: {n} missing value(s) left out of the totals")

    def total(values: list, kind: str):
        return sum(values) if kind == "integer" else math.fsum(values)

    kinds = {header[i]: columns[i]["type"] for i in sums}
    out_rows = []
    for key, g in groups.items():
        out_rows.append({
            "group": dict(zip(labels, key)),
            "rows": g["rows"],
            "sums": {c: total(vals, kinds[c]) for c, vals in g["sums"].items()},
        })

    def by_key(r: dict) -> tuple:
        parts = []
        for label, i in zip(labels, by):
            v = r["group"][label]
            numeric = columns[i]["type"] in ("integer", "number") and v != MISSING_GROUP
            parts.append((v == MISSING_GROUP, float(v) if numeric else 0.0, v))
        return tuple(parts)

    out_rows.sort(key=by_key)
    if args.sort_by_sum and sums:
        first = header[sums[0]]
        out_rows.sort(key=lambda r: -r["sums"][first])
    grand = {header[i]: total(everything[i], kinds[header[i]]) for i in sums}
    return {"by": labels, "period": args.period, "sum": [header[i] for i in sums],
            "groups": out_rows, "total": {"rows": len(rows), "sums": grand}}


def build_report(args) -> dict:
    path = Path(args.csv_file)
    header, rows, delimiter, notes = read_table(path, args.delimiter, args.encoding)
    tokens = DEFAULT_NA if args.na_values is None else args.na_values.split(",")
    na = {t.strip().lower() for t in tokens if t.strip()}
    columns = [profile_column(name, [r[i] for r in rows], na, args.top)
               for i, name in enumerate(header)]
    for col in columns:
        if col["type"] == "empty":
            notes.append(f"column {col['name']!r} has no values")
        elif col["missing_pct"] >= 50:
            notes.append(f"column {col['name']!r} is {col['missing_pct']}% missing")
    report = {
        "file": str(path),
        "rows": len(rows),
        "columns_count": len(header),
        "delimiter": delimiter,
        "columns": columns,
    }
    if args.sum and not args.group_by:
        raise InputError("--sum needs --group-by (a column's overall total is already in the "
                         "numeric stats)")
    if args.period and not args.group_by:
        raise InputError("--period needs --group-by with a date column")
    if args.group_by:
        report["group_totals"] = group_totals(args, header, rows, columns, na, notes)
    report["notes"] = notes
    return report


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.top < 0:
        print("error: --top must be 0 or more", file=sys.stderr)
        return 2
    try:
        report = build_report(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.format == "json":
        text = json.dumps(json_ready(report), indent=2, ensure_ascii=False) + "\n"
    else:
        text = render_markdown(report)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
