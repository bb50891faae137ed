#!/usr/bin/env python3
"""Render a summarize.py report as Markdown tables or JSON-ready data.

Imported by summarize.py; not run on its own. Standard library only.
"""

from __future__ import annotations

from pathlib import Path


def json_ready(value):
    """Floats rounded to 6 places, recursively, so JSON output is stable."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_ready(v) for v in value]
    return value


def fmt(value) -> str:
    """Numbers for Markdown: integers as is, other numbers with two decimals."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    if value != 0 and abs(value) < 0.01:
        return f"{value:.4g}"
    return f"{value:.2f}"


def _cell(text) -> str:
    return str(text).replace("|", "\\|")


def _table(head: list[str], body: list[list]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in body]
    return lines + [""]


def render_markdown(r: dict) -> str:
    delim = {"\t": "tab"}.get(r["delimiter"], r["delimiter"])
    out = [f"# Summary of {Path(r['file']).name}", "",
           f"{r['rows']} rows, {r['columns_count']} columns, delimiter \"{delim}\"", "",
           "## Columns", ""]
    out += _table(["column", "type", "non-missing", "missing", "missing %", "distinct"],
                  [[c["name"], c["type"], c["non_missing"], c["missing"], c["missing_pct"],
                    c["distinct"]] for c in r["columns"]])
    numeric = [c for c in r["columns"] if c["type"] in ("integer", "number")]
    if numeric:
        out += ["## Numeric columns", ""]
        out += _table(["column", "min", "max", "mean", "median", "stdev", "sum"],
                      [[c["name"]] + [fmt(c["stats"][k]) for k in
                                      ("min", "max", "mean", "median", "stdev", "sum")]
                       for c in numeric])
    dates = [c for c in r["columns"] if c["type"] == "date"]
    if dates:
        out += ["## Date columns", ""]
        out += _table(["column", "earliest", "latest"],
                      [[c["name"], c["stats"]["earliest"], c["stats"]["latest"]] for c in dates])
    texts = [c for c in r["columns"] if "top_values" in c or c.get("all_distinct")]
    if texts:
        out += ["## Most frequent values", ""]
        out += _table(["column", "top values (count)"],
                      [[c["name"], f"(all {c['non_missing']} values distinct)"
                        if c.get("all_distinct")
                        else ", ".join(f"{v} ({n})" for v, n in c["top_values"])]
                       for c in texts])
    g = r.get("group_totals")
    if g:
        title = ", ".join(g["by"])
        measure = " and ".join(g["sum"])
        out += [f"## {'Totals of ' + measure if measure else 'Rows'} by {title}", ""]
        head = g["by"] + ["rows"] + [f"{c} (sum)" for c in g["sum"]]
        body = [list(row["group"].values()) + [row["rows"]]
                + [fmt(row["sums"][c]) for c in g["sum"]] for row in g["groups"]]
        body.append(["**total**"] + [""] * (len(g["by"]) - 1) + [g["total"]["rows"]]
                    + [fmt(g["total"]["sums"][c]) for c in g["sum"]])
        out += _table(head, body)
    col_notes = [f"{c['name']}: {c['note']}" for c in r["columns"] if c.get("note")]
    if r["notes"] or col_notes:
        out += ["## Notes", ""] + [f"- {n}" for n in r["notes"] + col_notes] + [""]
    return "\n".join(out).rstrip("\n") + "\n"
