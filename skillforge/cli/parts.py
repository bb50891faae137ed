"""`skillforge parts PATH`: the parts of a skill an ablation can remove, with token costs.

Also the pieces `skillforge trial --ablate` uses: `ablation_conditions` (the part ids asked
for, checked against the skill, as `without:<part>` conditions) and `dry_run_estimate` (the
trials, tokens and cost a run would take, from the last run's averages and the price table).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import click

from skillforge.models.ablation import AblationReport
from skillforge.models.parts import SkillPart, ablated_condition


def load_parts(skill_dir: Path) -> list[SkillPart]:
    """The parts of the skill at `skill_dir` (PartsError with the fix when unreadable)."""
    from skillforge.authoring.parts import PartsError, skill_parts
    from skillforge.models.skill import load_skill

    if not (skill_dir / "SKILL.md").is_file():
        raise PartsError(f"{skill_dir} has no SKILL.md; pass a skill folder")
    return skill_parts(load_skill(skill_dir))


def ablation_conditions(skill_dir: Path, wanted: Sequence[str]) -> list[str]:
    """`--ablate` ids (or `all`) as `without:<part>` conditions, in the skill's order; a
    part that removes what another does is run once, and stderr says so."""
    from skillforge.authoring.parts import find_parts, same_as_note

    parts = find_parts(load_parts(skill_dir), wanted, where=str(skill_dir))
    for p in parts:
        if p.same_as:
            click.echo(f"note: {same_as_note(p)}", err=True)
    return [ablated_condition(p.id) for p in parts]


def ablate_conditions(skill_dir: Path | None, wanted: list[str], conds: list[str] | None,
            settings) -> list[str] | None:
    """The conditions with one `without:<part>` per part asked for by --ablate."""
    if not wanted:
        return conds
    if skill_dir is None:
        raise click.UsageError("--ablate needs the skill PATH")
    from skillforge.authoring.parts import PartsError

    base = list(conds or settings.trial.conditions)
    if "with_skill" not in base:
        raise click.UsageError("--ablate compares each part with the whole skill: keep "
                               "with_skill in --conditions")
    try:
        extra = ablation_conditions(skill_dir, wanted)
    except PartsError as exc:
        raise click.BadParameter(str(exc), param_hint="--ablate") from None
    return list(dict.fromkeys([*base, *extra]))


def dry_run_and_exit(settings, store, skill_dir: Path, overrides: dict,
                     fmt: str, *, judged: bool = True,
                     judge_models: Sequence[str] = (), fresh: bool = False) -> NoReturn:
    """`--dry-run`: the trials, tokens and cost of the run asked for; nothing starts. The
    trials the cache would reuse count 0 (skillforge.trials.reuse_preview)."""
    import asyncio

    from rich.markup import escape

    from skillforge.cli.common import console
    from skillforge.providers.prices import PriceTableError, price_table
    from skillforge.trials.config import TrialConfigError, build_run_spec
    from skillforge.trials.estimate import estimate_run
    from skillforge.trials.reuse_preview import reused_keys
    from skillforge.trials.run import RunError, load_cases

    try:
        spec = build_run_spec(skill_dir, settings, overrides)
        n_cases = len(load_cases(spec))
        prices = price_table(settings.provider.prices)
    except (TrialConfigError, RunError, PriceTableError) as exc:
        click.echo(f"skillforge trial: {exc}", err=True)
        sys.exit(2)
    models = [*judge_models] or [*settings.judge.models]
    reused, why = asyncio.run(reused_keys(settings, store, skill_dir, overrides, judged=judged,
                                          judge_models=judge_models, fresh=fresh))
    est = estimate_run(spec, n_cases, store, skill_dir.resolve().name, prices, judged=judged,
                       judge_model=next(iter(models), None), judges=max(1, len(models)),
                       reused=reused)
    if why:
        est.notes.append(why)
    cap = {}
    if spec.max_cost_usd is not None:
        fit = est.trials_within(spec.max_cost_usd)
        cap = {"max_cost_usd": spec.max_cost_usd, "trials_within_cap": fit}
        if fit is None:
            est.notes.append(f"cost cap ${spec.max_cost_usd:g}: no cost to check it against")
        elif fit < est.trials:
            est.notes.append(f"over the cost cap of ${spec.max_cost_usd:g}: the run would "
                             f"stop at the cap after about {fit} of its {est.trials} trials")
        else:
            est.notes.append(f"within the cost cap of ${spec.max_cost_usd:g}")
    if fmt == "json":
        click.echo(json.dumps({"dry_run": True, **est.as_dict(), **cap}, indent=2))
        sys.exit(0)
    console().print(estimate_text(est, escape))
    sys.exit(0)


def estimate_text(est, escape=lambda s: s) -> str:
    """The dry run's lines (rich markup; `escape` escapes data): trials per condition with
    their per-trial figures, the total, and where the figures came from."""
    reused = f", {est.reused} reused from stored runs (0 tokens)" if est.reused else ""
    lines = [f"[bold]dry run[/]: {est.trials + est.reused} trials = {est.cases} cases x "
             f"{len(est.conditions)} conditions x {est.attempts} attempts{reused}; nothing "
             "started"]
    for c in est.conditions:
        per = ("tokens unknown" if c.tokens_in is None else
               f"~{c.tokens_in + (c.tokens_out or 0):,.0f} tokens/trial ({c.basis})")
        if c.judge_tokens_in is not None:
            per += f" + ~{c.judge_tokens_in + (c.judge_tokens_out or 0):,.0f} judge"
        if c.cost_usd is not None:
            per += f", ~${c.cost_usd:,.4f}/trial"
        lines.append(f"  {escape(c.condition):<44} {c.trials:>4} trials  {escape(per)}")
    tokens = "unknown" if est.tokens is None else f"~{est.tokens:,}"
    cost = "unknown" if est.cost_usd is None else f"~${est.cost_usd:,.2f}"
    split = (f" (agent ~{est.agent_tokens:,}, judge ~{est.judge_tokens:,})"
             if est.judge_tokens is not None and est.agent_tokens is not None else "")
    lines.append(f"estimated tokens: {tokens}{split}")
    lines.append(f"estimated cost: {cost}" + (f" ({escape(est.model)})" if est.model else ""))
    for note in [est.source, est.judge_source, *est.notes]:
        if note:
            lines.append(f"[dim]{escape(note)}[/]")
    lines.append("[dim]--cases and --attempts scale it down[/]")
    return "\n".join(lines)


def parts_table(parts: Sequence[SkillPart]):
    from rich.table import Table

    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0),
                  header_style="bold")
    for head, justify in (("part", "left"), ("tokens", "right"), ("loaded", "left"),
                          ("where", "left")):
        table.add_column(head, justify=justify, no_wrap=head != "where")  # type: ignore[arg-type]
    for p in parts:
        where = (", ".join(f"SKILL.md:{a}-{b}" if a != b else f"SKILL.md:{a}"
                           for a, b in p.spans) or ", ".join(p.files))
        if p.same_as:
            where += f" (also {', '.join(p.same_as)}: the same part)"
        table.add_row(p.id, f"{p.tokens:,}", p.loaded, where)
    return table


@click.command("parts")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one document.")
def parts(path: Path, fmt: str) -> None:
    """List the parts of a skill an ablation can remove, with their token cost.

    Parts: the description, each `##` section of SKILL.md (section:<slug>), the examples,
    each reference file, each script and all scripts, and the allowed-tools grant. Two
    that cover the same lines or files (the examples, when they are one `## Example`
    section) are listed once, the other id beside it. Tokens are counted with the tokenizer
    SF402 uses. `skillforge trial PATH --ablate PART[,PART]`
    (or `--ablate all`) measures what each one is worth. Exit 0, or 2 for a bad skill.
    """
    from linters.text.tokens import tokenizer_name
    from skillforge.authoring.parts import PartsError
    from skillforge.cli.common import console
    from skillforge.trials.config import skill_root

    root = skill_root(path)
    try:
        found = load_parts(root)
    except PartsError as exc:
        click.echo(f"skillforge parts: {exc}", err=True)
        sys.exit(2)
    if fmt == "json":
        doc = {"skill": str(root), "tokenizer": tokenizer_name(),
               "parts": [p.model_dump(mode="json") for p in found]}
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(f"[bold]{root.name}[/]: {len(found)} parts (tokens by {tokenizer_name()})")
    out.print(parts_table(found))
    out.print("[dim]measure them: skillforge trial PATH --ablate all (or --ablate "
              "PART[,PART...]); --dry-run first shows the trials and cost[/]")


def ablation_table(ab: AblationReport):
    """The end of a `--ablate` run: one row per part, its effect and verdict, then routing."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from skillforge.report import ablation as AB

    styles = {"earns its keep": "bold green", "harmful": "bold red", "dead weight": "yellow",
              "inconclusive": "yellow"}
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold", title=AB.TITLE, title_justify="left")
    for head in AB.TASK_HEAD[:-1]:
        table.add_column(head, no_wrap=True,
                         justify="left" if head in ("part", "loaded", "metric", "verdict")
                         else "right")
    reasons = []
    for r in AB.metric_rows(ab):
        cells = r.cells
        if not r.lead:  # another metric of the part above: its own verdict, dim
            table.add_row(*cells[:7], Text(cells[7], style="dim"))
            continue
        verdict = Text(f"{AB.VERDICT_MARK[r.effect.verdict]} {cells[7]}",
                       style=styles[r.effect.verdict])
        table.add_row(*cells[:7], verdict)
        reasons.append(Text(f"{r.effect.part}: {r.effect.reason}"
                            + (f"; {AB.saving_text(r.effect)}" if AB.saving_text(r.effect)
                               else ""), style="dim"))
    routing = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                    header_style="bold", title="Routing (apart from task effects)",
                    title_justify="left")
    for head in AB.ROUTING_HEAD:
        routing.add_column(head, no_wrap=head != "routing")
    for p in ab.parts:
        routing.add_row(*AB.routing_cells(p))
    parts: list = [table, Text(AB.summary_line(ab), style="bold"), *reasons, routing]
    if ab.missing:
        parts.append(Text(AB.missing_line(ab), style="yellow"))
    return Group(*parts)
