"""`skillforge lint PATH...`: structural, security and script lint with a gate."""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from skillforge.models.lint_config import LintConfig
    from skillforge.models.findings import LintReport

FORMATS = ("text", "json", "sarif", "github")


def _harnesses(_ctx: click.Context, _param: click.Parameter, value: str | None) -> list[str] | None:
    """`--harness claude-code,codex` (or all) as profile ids; a usage error names an unknown one."""
    if value is None:
        return None
    from skillforge.models.lint_config import parse_harnesses

    try:
        return parse_harnesses(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


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
@click.option("--target", type=click.Choice(["generic", "claude-ai"]), default=None,
              help="Where the skill goes (default generic, or [lint] target). claude-ai: its "
                   "upload rules beyond the spec (`<`/`>` in name or description, `claude` or "
                   "`anthropic` in the name: SF117, SF121) are errors, not warnings.")
@click.option("--harness", "harness", metavar="IDS", default=None, callback=_harnesses,
              help="Also check the skill against these harnesses' profiles (SF701-SF707), "
                   "comma-separated: claude-code, codex, gemini-cli, opencode, copilot, or "
                   "all (default none, or [lint] harness). Where each would discover it, "
                   "keys it ignores, name and description limits, trigger words past its "
                   "listing cut, plugin layout, namesakes installed; findings name the "
                   "harness and are not scored.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, metavar="N",
              help="Lint N skills at once in forked processes (default 0: one per usable "
                   "core; 1: all in this process). Output is the same either way.")
@click.option("--list-rules", is_flag=True, help="Print the rule catalogue and exit.")
@click.option("--explain", "explain", metavar="RULE", help="Explain one rule (e.g. SF104) and exit.")
@click.option("--fix", is_flag=True,
              help="Apply the safe fixes (meaning unchanged), then lint again and report what remains.")
@click.option("--unsafe", is_flag=True,
              help="With --fix or --diff: also the unsafe fixes (rename `name`, delete junk, "
                   "shorten the description).")
@click.option("--diff", "--dry-run", "diff", is_flag=True,
              help="Print the fixes as a unified diff and write nothing; exit 1 when there is "
                   "something to fix.")
def lint(paths: tuple[str, ...], fmt: str, fail_under: float | None, fail_on: str | None,
         no_scripts: bool, list_rules: bool, explain: str | None, fix: bool = False,
         unsafe: bool = False, diff: bool = False, jobs: int = 0,
         target: str | None = None, harness: list[str] | None = None) -> None:
    """Lint skills: a skill folder, a SKILL.md, or any folder (every SKILL.md below it).

    Exit 0 when every skill passes its gate, 1 when one fails, 2 for usage errors.
    With --fix the gate is that of what remains after fixing.
    """
    # The linters and the models load here, with garbage collected rarely (see
    # `_few_collections`): importing them allocates ~100 collections' worth of objects.
    with _few_collections():
        _lint(paths, fmt, fail_under, fail_on, no_scripts, list_rules, explain,
              fix=fix, unsafe=unsafe, diff=diff, jobs=jobs, target=target, harness=harness)


def _lint(paths: tuple[str, ...], fmt: str, fail_under: float | None, fail_on: str | None,
          no_scripts: bool, list_rules: bool, explain: str | None, fix: bool = False,
          unsafe: bool = False, diff: bool = False, jobs: int = 0,
          target: str | None = None, harness: list[str] | None = None) -> None:
    from linters import catalogue
    from linters.batch import lint_skills
    from skillforge.cli.common import console, require_paths
    from skillforge.workspace.discovery import find_all_resolved

    gc.freeze()  # what is alive now (modules, the catalogue) lives to the end
    rules = catalogue()
    if list_rules:
        if fmt == "json":
            from skillforge.formats.lint_json import rules_document

            click.echo(json.dumps(rules_document(list(rules.values())), indent=2))
        else:
            from skillforge.formats.lint_text import print_rules

            print_rules(console(), list(rules.values()))
        return
    if explain:
        rule = rules.get(explain.upper())
        if rule is None:
            raise click.UsageError(f"unknown rule {explain!r}; `skillforge lint --list-rules` lists them")
        if fmt == "json":
            click.echo(json.dumps(rule.as_dict(), indent=2))
        else:
            from skillforge.formats.lint_text import print_explain

            print_explain(console(), rule)
        return
    if not paths:
        raise click.UsageError("give at least one PATH (a skill folder, a SKILL.md, or a folder of skills)")
    found = find_all_resolved(require_paths(paths))
    skills = [skill for skill, _real in found]
    overrides = {"lint": {"fail_under": fail_under, "fail_on": fail_on,
                          "scripts": False if no_scripts else None, "target": target,
                          "harness": harness}}
    configs = _configs(skills, overrides)
    shown = _shown_paths(found)
    if unsafe and not (fix or diff):
        raise click.UsageError("--unsafe goes with --fix or --diff")
    if fix or diff:
        from skillforge.cli.lint_fix import fix_skills

        pending, errors = fix_skills(skills, configs, shown, unsafe=unsafe, write=not diff,
                                     to_stderr=fmt != "text")
        if diff:
            sys.exit(1 if pending or errors else 0)

    # Processes, not threads: the checks are pure Python, so threads only fought over the
    # GIL (4 workers cost ~70 ms more CPU than none over the 152-skill corpus).
    reports = [(shown[d], r) for d, r in zip(skills, lint_skills(skills, configs, jobs), strict=True)]
    _print(reports, fmt, rules)
    sys.exit(0 if all(r.passed_gate for _s, r in reports) else 1)


@contextmanager
def _few_collections() -> Iterator[None]:
    """Collect garbage rarely while linting: a lint run allocates many small objects that
    live until the end of their skill (parsed lines, spans, findings), and the default
    thresholds walked them over and over (~40 ms of 1 s on the corpus). What is alive
    once the modules are loaded is left out of the walks altogether (`gc.freeze` in
    `_lint`); everything is handed back to the collector at the end."""
    old = gc.get_threshold()
    gc.set_threshold(50_000, 20, 20)
    # When the process ends, the interpreter collects garbage again as it tears the modules
    # down, walking every object the run left in caches (~35 ms after a corpus lint) for
    # memory the exit returns anyway. Frozen first, they are only freed. (In a process that
    # goes on, such as the test suite, this runs at its own exit, once.)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def _shown_paths(found: list[tuple[Path, Path]]) -> dict[Path, str]:
    """Each skill folder as the user would type it (`skillforge.cli.common.shown_path`):
    relative to the launch directory when inside it. The launch directory is resolved once,
    not once per skill."""
    cwd = Path.cwd().resolve()
    out: dict[Path, str] = {}
    for skill, real in found:
        try:
            rel = os.path.relpath(real, cwd)
        except ValueError:
            rel = ".."
        out[skill] = str(skill) if rel.startswith("..") else rel
    return out


def _configs(skills: list[Path], overrides: dict) -> dict[Path, LintConfig]:
    """Each skill's lint settings, validated once per distinct set of config files: a
    folder of 150 skills usually shares one (the launch directory's or the user's). A skill
    without a config file of its own has exactly the files that apply to no skill, so only
    the others pay `config_files`' path resolving."""
    from skillforge.cli.common import lint_settings_for
    from skillforge.config import CONFIG_NAME, config_files

    by_files: dict[tuple[Path, ...], LintConfig] = {}
    out: dict[Path, LintConfig] = {}
    shared = tuple(config_files(None))
    for skill_dir in skills:
        own = (skill_dir / CONFIG_NAME).is_file()
        files = tuple(config_files(skill_dir)) if own else shared
        if files not in by_files:
            by_files[files] = lint_settings_for(list(files), skill_dir, overrides)
        out[skill_dir] = by_files[files]
    return out


def _print(reports: list[tuple[str, LintReport]], fmt: str, rules: dict) -> None:
    # Each format's module loads only when it is asked for (the text one needs Rich).
    if fmt == "json":
        from skillforge.formats.json_text import dumps_indented
        from skillforge.formats.lint_json import lint_document

        click.echo(dumps_indented(lint_document(reports)))
    elif fmt == "sarif":
        from skillforge.formats.sarif import sarif_document

        click.echo(json.dumps(sarif_document(reports, rules), indent=2, ensure_ascii=False))
    elif fmt == "github":
        from skillforge.formats.github import annotations

        for line in annotations(reports):
            click.echo(line)
    else:
        from skillforge.cli.common import console
        from skillforge.formats.lint_text import print_reports

        print_reports(console(), reports)
