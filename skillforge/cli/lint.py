"""`skillforge lint PATH...`: structural, security and script lint with a gate."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from linters import catalogue, lint_skill
from skillforge.cli.common import console, require_paths, settings_for, shown_path
from skillforge.workspace.discovery import find_all
from skillforge.formats.github import annotations
from skillforge.formats.lint_json import lint_document, rules_document
from skillforge.formats.lint_text import print_explain, print_reports, print_rules
from skillforge.formats.sarif import sarif_document
from skillforge.models.findings import LintReport

FORMATS = ("text", "json", "sarif", "github")


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format. json and sarif print exactly one document.")
@click.option("--fail-under", type=click.FloatRange(0, 100), default=None,
              help="Gate: minimum structural score (default 70, or [lint] fail_under).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "never"]), default=None,
              help="Gate: fail on any finding of this severity or worse (default error). "
                   "Critical/high security findings fail unless 'never'.")
@click.option("--no-scripts", is_flag=True, help="Skip ruff and shellcheck (faster).")
@click.option("--list-rules", is_flag=True, help="Print the rule catalogue and exit.")
@click.option("--explain", "explain", metavar="RULE", help="Explain one rule (e.g. SF104) and exit.")
def lint(paths: tuple[str, ...], fmt: str, fail_under: float | None, fail_on: str | None,
         no_scripts: bool, list_rules: bool, explain: str | None) -> None:
    """Lint skills: a skill folder, a SKILL.md, or any folder (every SKILL.md below it).

    Exit 0 when every skill passes its gate, 1 when one fails, 2 for usage errors.
    """
    out = console()
    rules = catalogue()
    if list_rules:
        if fmt == "json":
            click.echo(json.dumps(rules_document(list(rules.values())), indent=2))
        else:
            print_rules(out, list(rules.values()))
        return
    if explain:
        rule = rules.get(explain.upper())
        if rule is None:
            raise click.UsageError(f"unknown rule {explain!r}; `skillforge lint --list-rules` lists them")
        if fmt == "json":
            click.echo(json.dumps(rule.model_dump(mode="json"), indent=2))
        else:
            print_explain(out, rule)
        return
    if not paths:
        raise click.UsageError("give at least one PATH (a skill folder, a SKILL.md, or a folder of skills)")
    skills = find_all(require_paths(paths))
    overrides = {"lint": {"fail_under": fail_under, "fail_on": fail_on,
                          "scripts": False if no_scripts else None}}

    def one(skill_dir: Path) -> tuple[str, LintReport]:
        cfg = settings_for(skill_dir, overrides).lint
        return shown_path(skill_dir), lint_skill(skill_dir, cfg)

    with ThreadPoolExecutor(max_workers=4) as pool:
        reports = list(pool.map(one, skills))

    if fmt == "json":
        click.echo(json.dumps(lint_document(reports), indent=2, ensure_ascii=False))
    elif fmt == "sarif":
        click.echo(json.dumps(sarif_document(reports, rules), indent=2, ensure_ascii=False))
    elif fmt == "github":
        for line in annotations(reports):
            click.echo(line)
    else:
        print_reports(out, reports)
    sys.exit(0 if all(r.passed_gate for _s, r in reports) else 1)
