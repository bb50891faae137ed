"""How `skillforge evals` shows its results: proposals, diffs and findings, as rich text or
one JSON document (`--format json`). skillforge.cli.evals decides; this module only prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from skillforge.cli.common import console, shown_path
from skillforge.models.evals import KINDS, EvalCase
from skillforge.models.evals_io import EvalsFile
from skillforge.models.llm import ESTIMATED
from skillforge.models.findings import Finding, Severity
from skillforge.models.proposals import CaseDiff, Proposal


def finding_line(f: Finding) -> Text:
    """One lint finding as an indented, coloured line."""
    style = {"error": "red", "warning": "yellow"}.get(str(f.severity.value), "cyan")
    line = Text("  ")
    line.append(f"{f.location():<24}", style="dim")
    line.append(f" {f.rule} {f.severity.value:<7}", style=style)
    line.append(f" {f.message}")
    return line


def report_validation(root: Path | None, target: Path, findings: list[Finding],
                      cases: list[EvalCase], *, missing: bool, paths_checked: bool,
                      fmt: str) -> None:
    """Print whether an evals file is valid, its mix of kinds and each finding (or JSON)."""
    kinds = {k: sum(1 for c in cases if c.effective_kind == k) for k in KINDS}
    valid = not missing and not any(f.severity == Severity.error for f in findings)
    if fmt == "json":
        click.echo(json.dumps({
            "version": 1, "path": shown_path(root) if root else None,
            "evals_path": shown_path(target), "exists": not missing, "valid": valid,
            "paths_checked": paths_checked, "cases": len(cases), "kinds": kinds,
            "findings": [f.as_dict() for f in findings]}, indent=2,
            ensure_ascii=False))
        return
    out = console()
    where = shown_path(target)
    if valid:
        mix = ", ".join(f"{k} {n}" for k, n in kinds.items() if n)
        out.print(f"[green]{escape(where)}: valid[/] — {len(cases)} case(s) ({mix})",
                  soft_wrap=True)
    else:
        out.print(f"[bold red]{escape(where)}: {'missing' if missing else 'invalid'}[/]",
                  soft_wrap=True)
    for f in findings:
        out.print(finding_line(f))
    if not paths_checked:
        out.print(Text(f"note: no SKILL.md beside {where} or above its evals/ folder, so the "
                       "scripts and files its cases name were not checked", style="yellow"),
                  soft_wrap=True)


def call_line(call: Any) -> Text:
    """The model call's provider, model, tokens, cost and retries, dimmed."""
    cost = "unknown" if call.cost_usd is None else f"${call.cost_usd:.4f}"
    retry = f", {call.attempts} attempts" if call.attempts > 1 else ""
    estimated = ESTIMATED if call.tokens_estimated else ""
    return Text(f"{call.provider}:{call.model} · tokens in {call.tokens_in:,} / out "
                f"{call.tokens_out:,}{estimated} · cost {cost}{retry}", style="dim")


def report_proposal(root: Path, ef: EvalsFile, proposal: Proposal, write: bool,
                    accepted: list[str], written: bool, fmt: str) -> None:
    """Print proposed cases and what was written (or one JSON document)."""
    where = shown_path(ef.path)
    if fmt == "json":
        click.echo(json.dumps({"version": 1, "path": shown_path(root), "evals_path": where,
                               "proposal": proposal.model_dump(mode="json"),
                               "accepted": accepted if write else [], "written": written},
                              indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(Text(f"{len(proposal.cases)} proposed case(s) for {proposal.skill_name}"
                   + (f" from session {proposal.source}" if proposal.source != "skill" else ""),
                   style="bold"), soft_wrap=True)
    for case in proposal.cases:
        out.print(case_panel(case))
    for w in proposal.warnings:
        out.print(Text(f"note: {w}", style="yellow"))
    out.print(call_line(proposal.call))
    if written:
        out.print(f"[green]wrote {escape(where)}[/]: added {escape(', '.join(accepted))}",
                  soft_wrap=True)
    elif write:
        out.print(f"nothing accepted; {escape(where)} is unchanged", soft_wrap=True)
    else:
        out.print(f"preview only: {escape(where)} is unchanged. Add --write to merge "
                  "(--accept ID,... to choose).", soft_wrap=True)


def case_panel(case: Any) -> Panel:
    """A proposed case as a panel: prompt, ground truth, behaviour, script, files."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row("prompt", case.prompt)
    grid.add_row("ground truth", case.ground_truth or "(none)")
    if case.ground_truth_warning:
        grid.add_row(Text("⚠", style="bold yellow"), Text(
            f"{case.ground_truth_warning}; written only with --accept ground_truth",
            style="bold yellow"))
    grid.add_row("behaviour", "\n".join(f"• {b}" for b in case.expected_behavior))
    grid.add_row("skill", case.expected_skill or "(none: must not be used)")
    if case.expected_script:
        grid.add_row("script", case.expected_script)
    if case.files:
        grid.add_row("files", ", ".join(case.files))
    if case.rationale:
        grid.add_row("why", Text(case.rationale, style="italic"))
    for d in case.dropped:
        grid.add_row(Text("dropped", style="yellow"), Text(d, style="yellow"))
    return Panel(grid, title=f"{case.id} · {case.kind}", title_align="left")


def report_diff(ef: EvalsFile, diff: CaseDiff, write: bool, accepted: list[str],
                skipped: list[str], written: bool, fmt: str) -> None:
    """Print a case diff, change by change, and what was written (or JSON)."""
    where = shown_path(ef.path)
    if fmt == "json":
        click.echo(json.dumps({"version": 1, "evals_path": where,
                               "diff": diff.model_dump(mode="json"),
                               "accepted": accepted if write else diff.default_accepted(),
                               "not_in_diff": skipped, "written": written},
                              indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(Text(f"case {diff.case_id} ← session {diff.trajectory}", style="bold"),
              soft_wrap=True)
    if diff.observations:
        out.print(Text(diff.observations, style="italic"))
    if not diff.changes:
        out.print("no changes proposed: the case already fits what the session shows")
    for c in diff.changes:
        on = c.field in accepted if write else c.accepted
        head = Text()
        head.append("● " if on else "○ ", style="green" if on else "yellow")
        head.append(c.field, style="bold")
        if c.name != c.field:
            head.append(f" ({c.name})", style="dim")
        head.append(f"   {'accepted' if on else 'NOT accepted'} · source {c.source}",
                    style="green" if on else "yellow")
        out.print(head)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, width=5, justify="right")
        grid.add_column(overflow="fold")
        grid.add_row(Text("-", style="red"), Text(shown_value(c.old), style="red"))
        grid.add_row(Text("+", style="green"), Text(shown_value(c.new), style="green"))
        if c.rationale:
            grid.add_row(Text("why", style="dim"), Text(c.rationale, style="dim"))
        if c.warning:
            grid.add_row(Text("⚠", style="bold yellow"), Text(c.warning, style="bold yellow"))
        out.print(grid)
    for w in diff.warnings:
        out.print(Text(f"note: {w}", style="yellow"))
    if skipped:
        out.print(Text(f"note: --accept names {', '.join(skipped)}, which this diff does not "
                       "change", style="yellow"))
    out.print(call_line(diff.call))
    held = [c.field for c in diff.changes if c.field not in accepted]
    if written:
        rest = f"; not applied: {', '.join(held)}" if held else ""
        out.print(f"[green]wrote {escape(where)}[/]: case {escape(str(diff.case_id))}: "
                  f"{escape(', '.join(accepted))} changed{escape(rest)}", soft_wrap=True)
    elif write:
        out.print(f"nothing accepted; {escape(where)} is unchanged", soft_wrap=True)
    elif diff.changes:
        out.print(f"preview only: {escape(where)} is unchanged. --write applies "
                  f"{', '.join(diff.default_accepted()) or 'nothing'} (--accept FIELD,... to "
                  "choose).", soft_wrap=True)


def shown_value(value: Any) -> str:
    """A field value for display: lists as bullets, None as (none)."""
    if value is None:
        return "(none)"
    if isinstance(value, list):
        return "\n".join(f"• {v}" for v in value) if value else "(none)"
    return str(value)
