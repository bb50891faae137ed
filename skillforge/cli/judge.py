"""`skillforge judge PATH...`: the LLM rubric judge (CONTRACTS 2.3) with a gate.

Exit codes: 0 every skill's judge score >= --fail-under; 1 a skill scored under it; 2 bad
usage, no provider configured, or the judge could not produce a score (a provider failure
after retries, or a model that never answered in the rubric's format). A failed request
says nothing about the skill, so it is not reported as a failed gate: CI sees 2, not 1.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from skillforge.authoring.judge.rubric import judge_skill
from skillforge.cli.common import console, require_paths, settings_for, shown_path
from skillforge.workspace.discovery import find_all
from skillforge.models.judge import (
    JudgeError,
    JudgeEvent,
    JudgeFailed,
    JudgeResult,
    JudgeRetrying,
    JudgeStarted,
)
from skillforge.models.llm import ESTIMATED, ProviderError, ProviderNotConfigured
from skillforge.models.skill import load_skill
from skillforge.providers import PriceTableError, aclose, select_provider

GRADE_STYLE = {"A": "bold green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


@dataclass
class Outcome:
    shown: str
    fail_under: float
    result: JudgeResult | None = None
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.result is not None and self.result.score >= self.fail_under


@click.command("judge")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--model", "models", multiple=True, metavar="MODEL",
              help="Judge model; repeat for several judges (spread is reported). "
                   "Prefix with anthropic: or openai: to pick the provider. "
                   "Default: [judge] models, else [provider] model.")
@click.option("--provider", type=click.Choice(["anthropic", "openai"]), default=None,
              help="Provider for models without a prefix (default: from the environment).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format; json prints exactly one document.")
@click.option("--fail-under", type=click.FloatRange(0, 100), default=None,
              help="Gate: minimum judge score 0-100 (default 70, or [judge] fail_under).")
@click.option("--no-cache", is_flag=True, help="Ask the models again even if cached.")
@click.option("--compare-judges", is_flag=True,
              help="Rank the judge models (--model, else [judge] models) by agreement with "
                   "your labels of this skill (`skillforge label`, the Judge tab): each "
                   "model judges the skill, and is compared with your rubric labels of this "
                   "version and your labels of the skill's trials it judged. A model that "
                   "fails or meets none of your labels is named with why (exit 2 when one "
                   "failed).")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="Run store holding the labels (with --compare-judges; default "
                   ".skillforge in the launch directory).")
def judge(paths: tuple[str, ...], models: tuple[str, ...], provider: str | None, fmt: str,
          fail_under: float | None, no_cache: bool, compare_judges: bool,
          state_dir: str | None) -> None:
    """Judge skills with an LLM rubric: nine criteria 0-10, evidence and a suggestion each.

    Needs a provider: ANTHROPIC_API_KEY, OPENAI_API_KEY, or OPENAI_BASE_URL for a local
    OpenAI-compatible server (see `skillforge doctor`). Results are cached by content.
    Exit 0 pass, 1 a score under --fail-under, 2 usage/provider errors.
    """
    if not paths:
        raise click.UsageError("give at least one PATH (a skill folder, a SKILL.md, or a folder of skills)")
    skills = find_all(require_paths(paths))
    plans = []
    for skill_dir in skills:
        settings = settings_for(skill_dir, {"judge": {"fail_under": fail_under}})
        wanted = list(models) or list(settings.judge.models) or [None]
        try:
            clients = [select_provider(settings, m, provider) for m in wanted]
        except ProviderNotConfigured as exc:
            click.echo(f"skillforge judge: {exc}", err=True)
            sys.exit(2)
        except PriceTableError as exc:
            click.echo(f"skillforge judge: {exc}", err=True)
            sys.exit(2)
        plans.append((skill_dir, settings, clients))

    err = console(stderr=True)
    quiet = fmt == "json" or not err.is_terminal

    def progress(shown: str):
        def emit(event: JudgeEvent) -> None:
            if isinstance(event, JudgeRetrying):
                err.print(f"[yellow]{escape(shown)}: {escape(event.model)} answered outside "
                          f"the rubric format; asking once more ({escape(event.reason)})[/]")
            elif isinstance(event, JudgeStarted) and not quiet:
                err.print(f"[dim]{escape(shown)}: judging with {escape(event.model)}...[/]")
            elif isinstance(event, JudgeFailed) and not quiet:
                err.print(f"[red]{escape(shown)}: {escape(event.model)} failed[/]")
        return emit

    async def run_all() -> list[Outcome]:
        outcomes = []
        for skill_dir, settings, clients in plans:
            shown = shown_path(skill_dir)
            out = Outcome(shown, settings.judge.fail_under)
            try:
                out.result = await judge_skill(
                    load_skill(skill_dir), clients, temperature=settings.provider.temperature,
                    max_tokens=settings.provider.max_tokens, use_cache=not no_cache,
                    progress=progress(shown),
                )
            except (ProviderError, JudgeError) as exc:
                out.error = str(exc)
            finally:
                for c in clients:
                    await aclose(c)
            outcomes.append(out)
        return outcomes

    async def judge_one(skill_dir, settings, client) -> JudgeResult:
        return await judge_skill(
            load_skill(skill_dir), [client], temperature=settings.provider.temperature,
            max_tokens=settings.provider.max_tokens, use_cache=not no_cache,
            progress=progress(shown_path(skill_dir)))

    if compare_judges:
        from skillforge.cli.judge_compare import compare_and_exit

        compare_and_exit(plans, judge_one, fmt=fmt, state_dir=state_dir)
    try:
        outcomes = asyncio.run(run_all())
    except KeyboardInterrupt:
        click.echo("skillforge judge: interrupted; requests in flight were cancelled", err=True)
        sys.exit(130)

    if fmt == "json":
        click.echo(json.dumps(judge_document(outcomes), indent=2, ensure_ascii=False))
    else:
        out = console()
        for o in outcomes:
            out.print(render_outcome(o))
            out.print()
    for o in outcomes:
        if o.error:
            click.echo(f"skillforge judge: {o.shown}: {o.error}", err=True)
    if any(o.error for o in outcomes):
        sys.exit(2)
    sys.exit(0 if all(o.passed for o in outcomes) else 1)


def judge_document(outcomes: list[Outcome]) -> dict[str, Any]:
    """{"version": 1, "skills": [...], "summary": {...}}: one JudgeResult per skill."""
    skills = []
    for o in outcomes:
        item: dict[str, Any] = {"path": o.shown, "fail_under": o.fail_under}
        if o.result is not None:
            item.update(o.result.model_dump(mode="json"))
            item["passed_gate"] = o.passed
        else:
            item.update({"error": o.error, "passed_gate": False})
        skills.append(item)
    passed = sum(1 for o in outcomes if o.passed)
    return {"version": 1, "skills": skills,
            "summary": {"skills": len(outcomes), "passed": passed,
                        "failed": sum(1 for o in outcomes if o.result and not o.passed),
                        "errors": sum(1 for o in outcomes if o.error)}}


def render_outcome(o: Outcome) -> Group:
    """One skill: headline, criteria table, judges and spread, tokens and cost, gate."""
    if o.result is None:
        return Group(Text(o.shown, style="bold"), Text(f"  error: {o.error}", style="red"))
    r = o.result
    head = Text()
    head.append(r.skill_name or "(unnamed)", style="bold")
    head.append(f"  {o.shown}", style="dim")
    line = Text("  judge score ")
    line.append(f"{r.score:g} ({r.grade})", style=GRADE_STYLE.get(r.grade, ""))
    line.append("   gate ")
    line.append("PASS" if o.passed else "FAIL", style="bold green" if o.passed else "bold red")
    line.append(f" (>= {o.fail_under:g})", style="dim")
    if r.cached:
        line.append("   cached", style="cyan")
    several = len(r.judges) > 1
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1),
                  expand=False)
    table.add_column("criterion", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    if several:
        table.add_column("spread", justify="right", no_wrap=True)
    table.add_column("evidence", overflow="fold", ratio=1)
    table.add_column("suggestion", overflow="fold", ratio=1)
    for c in r.criteria:
        style = "green" if c.score >= 7 else ("yellow" if c.score >= 5 else "red")
        row = [c.criterion, Text(f"{c.score:g}", style=style)]
        if several:
            row.append(Text(f"{c.spread}{' !' if c.flagged else ''}",
                            style="bold red" if c.flagged else "dim"))
        row += [escape(c.evidence), escape(c.suggestion)]
        table.add_row(*row)
    parts: list[Any] = [head, line, table]
    judges = ", ".join(f"{v.label} {v.score:g}{' (cached)' if v.cached else ''}"
                       for v in r.judges)
    parts.append(Text(f"  judges: {judges}", style="dim"))
    if r.flags:
        parts.append(Text("  judges disagree (spread >= 3) on: " + ", ".join(
            f"{name} ({r.spread[name]})" for name in r.flags), style="yellow"))
    for note in r.left_out:
        parts.append(Text(f"  not shown to the judge, to fit its context: {note}",
                          style="yellow"))
    cost = "$0 (cached)" if r.cached else f"${r.cost_usd or 0:.4f}"
    if r.cost_usd is None:
        unpriced = [v.label for v in r.judges if v.cost_usd is None]
        known = sum(v.cost_usd or 0 for v in r.judges)
        cost = (f"${known:.4f} + unknown" if known else "unknown") + \
            f" (no price for {', '.join(unpriced)}; see [provider] prices)"
    parts.append(Text(f"  tokens in {r.tokens_in:,} / out {r.tokens_out:,} / cached "
                      f"{r.tokens_cached:,}{ESTIMATED if r.tokens_estimated else ''}   "
                      f"cost {cost}", style="dim"))
    return Group(*parts)
