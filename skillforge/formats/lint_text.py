"""Human-readable lint output with Rich: per skill the scores, then findings by file."""

from __future__ import annotations

from itertools import groupby

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from skillforge.models.findings import STRUCTURAL_CATEGORIES, LintReport, Rule, Severity

SEVERITY_STYLE = {
    Severity.critical: "bold white on red",
    Severity.error: "bold red",
    Severity.high: "red",
    Severity.warning: "yellow",
    Severity.medium: "yellow",
    Severity.low: "cyan",
    Severity.info: "blue",
}
GRADE_STYLE = {"A": "bold green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


def bar(value: float, full: float, width: int = 10) -> str:
    filled = round(width * value / full) if full else 0
    return "█" * filled + "░" * (width - filled)


def render_report(shown: str, report: LintReport) -> Group:
    head = Text()
    head.append(report.name or "(unnamed)", style="bold")
    head.append(f"  {shown}", style="dim")
    scores = Text("  score ")
    scores.append(f"{report.score:g} ({report.grade})", style=GRADE_STYLE.get(report.grade, ""))
    sec_style = "green" if report.security_score == 100 else ("yellow" if report.security_score >= 80 else "red")
    scores.append("   security ")
    scores.append(str(report.security_score), style=sec_style)
    scores.append("   gate ")
    if report.passed_gate:
        scores.append("PASS", style="bold green")
    else:
        scores.append("FAIL", style="bold red")
        scores.append(f" ({'; '.join(report.gate_reasons)})", style="red")
    cats = Text("  ")
    for cat in STRUCTURAL_CATEGORIES:
        c = report.categories.get(cat.value)
        if c is None:
            continue
        cats.append(f"{cat.value} ", style="dim")
        cats.append(bar(c.score, 25.0, 6), style="green" if c.score >= 22.5 else "yellow")
        cats.append(f" {c.score:g}  ")
    parts: list = [head, scores, cats]
    if report.suppressed:
        parts.append(Text(f"  {report.suppressed} finding(s) suppressed by inline comments", style="dim"))
    if not report.findings:
        parts.append(Text("  no findings", style="green"))
    for path, items in groupby(report.findings, key=lambda f: f.path or ""):
        parts.append(Text(f"  {path or '(skill)'}", style="bold cyan"))
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="dim", no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")
        for f in items:
            where = f"{f.line}:{f.column}" if f.line and f.column else (str(f.line) if f.line else "-")
            rule = f.rule + (f" {f.code}" if f.code else "")
            table.add_row(
                "    " + where,
                Text(f.severity.value, style=SEVERITY_STYLE[f.severity]),
                rule,
                escape(f.message),
            )
        parts.append(table)
    return Group(*parts)


def print_reports(console: Console, reports: list[tuple[str, LintReport]]) -> None:
    for shown, report in reports:
        console.print(render_report(shown, report))
        console.print()
    passed = sum(1 for _s, r in reports if r.passed_gate)
    failed = len(reports) - passed
    line = Text(f"{len(reports)} skill{'s' if len(reports) != 1 else ''}: ")
    line.append(f"{passed} passed", style="green")
    line.append(", ")
    line.append(f"{failed} failed", style="red" if failed else "")
    console.print(line)


def print_rules(console: Console, rules: list[Rule]) -> None:
    for category, items in groupby(rules, key=lambda r: r.category):
        table = Table(title=category.value.capitalize(), title_justify="left", show_edge=False,
                      expand=False, pad_edge=False)
        table.add_column("id", no_wrap=True)
        table.add_column("severity", no_wrap=True)
        table.add_column("title")
        table.add_column("when", no_wrap=True, style="dim")
        table.add_column("fix", no_wrap=True, style="green")
        for r in items:
            table.add_row(r.id, Text(r.severity.value, style=SEVERITY_STYLE[r.severity]), escape(r.title),
                          r.phase if r.phase != "fast" else "", r.fix)
        console.print(table)
        console.print()


def print_explain(console: Console, rule: Rule) -> None:
    console.print(Text(f"{rule.id}  {rule.title}", style="bold"))
    sev = Text(f"{rule.category.value} · ")
    sev.append(rule.severity.value, style=SEVERITY_STYLE[rule.severity])
    if rule.phase != "fast":
        sev.append(f" · runs at {rule.phase} time", style="dim")
    console.print(sev)
    console.print()
    console.print(escape(rule.explanation))
    if rule.example:
        console.print()
        console.print(Text("Fixed example:", style="bold"))
        console.print(Text(rule.example, style="green"))
    if rule.fix:
        console.print()
        how = "--fix" if rule.fix == "safe" else "--fix --unsafe"
        console.print(Text(f"Fix ({rule.fix}, `skillforge lint {how}`):", style="bold"))
        console.print(escape(rule.fix_summary))
