"""`skillforge evals ...`: validate, scaffold, draft and refine a skill's evals/evals.json.

Drafting and refining only print a proposal unless `--write` is given; with it, only the
accepted parts are merged, atomically, keeping the author's field names, order and layout
(skillforge.models.evals). A session-derived ground truth is never written unless named in
`--accept`. Exit codes: 0 ok, 1 evals.json is invalid (validate), 2 bad input, no provider,
a provider failure, or a file that changed on disk meanwhile. What is printed is
skillforge.cli.evals_render's.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import NoReturn, TypeVar

import click

from linters import lint_skill
from linters.context import LintContext
from linters.reliability.evals_rules import evals_file_findings
from sessions.atif import AtifError, Trajectory
from sessions.importers import TraceImportError, import_trajectory
from sessions.store import DB_NAME, RunStore
from skillforge.cli.common import settings_for, shown_path
from skillforge.cli.evals_convert import convert_cmd
from skillforge.cli.evals_render import report_diff, report_proposal, report_validation
from skillforge.authoring.drafting import draft_cases, merge_proposal, verify_ground_truth
from skillforge.models.fileio import atomic_write_text
from skillforge.models.config import Settings
from skillforge.models.evals import (
    ALIASES,
    EVALS_PATH,
    KINDS,
    EvalSet,
    EvalsInvalidError,
)
from skillforge.models.evals_io import ConflictError, EvalsFile
from skillforge.models.findings import Finding, Severity
from skillforge.models.llm import ModelClient, ProviderError, ProviderNotConfigured
from skillforge.models.proposals import EDITABLE_FIELDS, Proposal, ProposalError
from skillforge.models.skill import SKILL_MD, Skill, load_skill
from skillforge.providers import PriceTableError, aclose, select_provider
from skillforge.authoring.refining import apply_diff, case_from_trajectory, refine_case
from skillforge.authoring.scaffold import evals_template

T = TypeVar("T")
EVALS_RULES = ("SF313", "SF314", "SF315", "SF316")
FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="Output format; json prints exactly one document.")
MODEL = click.option("--model", default=None, metavar="MODEL",
                     help="Model to ask (prefix anthropic: or openai: to pick the provider). "
                          "Default: [provider] model.")
_ALIAS = {alias: canon for canon, names in ALIASES.items() for alias in names}


def fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"skillforge evals: {message}", err=True)
    sys.exit(code)


@click.group("evals", context_settings={"help_option_names": ["-h", "--help"]})
def evals_group() -> None:
    """Work on a skill's evals/evals.json: validate, init, draft, refine, convert.

    \b
    skillforge evals validate PATH        check evals/evals.json, or the evals file PATH
    skillforge evals init PATH            write a template evals/evals.json
    skillforge evals draft PATH           propose new cases with the configured model
    skillforge evals refine PATH --case ID --from TRAJECTORY
                                          propose edits to a case from a session
    skillforge evals convert PATH --to cc-plugin-eval|waza|vally|skill-creator|nvidia|skillforge -o OUT
                                          the cases in another runner's format

    Nothing is written by draft and refine without --write. Exit codes: 0 ok, 1 invalid
    evals.json (validate), 2 bad input, no provider or a provider failure.
    """


evals_group.add_command(convert_cmd)


def skill_dir_of(path: str) -> Path:
    """The skill folder PATH names: a folder, its SKILL.md, or its evals/evals.json."""
    p = Path(path)
    if not p.exists():
        raise click.UsageError(f"{path}: no such file or folder; pass a skill folder")
    if p.is_file():
        if p.name == SKILL_MD:
            return p.parent
        if p.name.endswith(".json") and p.parent.name == "evals":
            return p.parent.parent
        raise click.UsageError(f"{path}: pass a skill folder, its SKILL.md or its "
                               f"{EVALS_PATH}")
    return p


# --- validate and init ----------------------------------------------------------------------

def validation_target(path: str) -> tuple[Path | None, Path]:
    """(skill folder or None, evals file) for `validate PATH`: a skill folder or its SKILL.md
    means its evals/evals.json; any other file is validated itself, against the skill whose
    evals/ folder (or root) holds it, if any."""
    p = Path(path)
    if not p.exists():
        raise click.UsageError(f"{path}: no such file or folder; pass a skill folder or an "
                               "evals file")
    if p.is_dir() or p.name == SKILL_MD:
        root = p if p.is_dir() else p.parent
        return root, root / EVALS_PATH
    around = [p.parent.parent] if p.parent.name == "evals" else []
    return next((d for d in [*around, p.parent] if (d / SKILL_MD).is_file()), None), p


@evals_group.command("validate")
@click.argument("path", type=click.Path())
@FORMAT
def validate(path: str, fmt: str) -> None:
    """Check evals/evals.json, or the evals FILE given: exit 0 valid, 1 invalid or missing.

    Never writes: warnings (an unknown key that looks like a typo) leave a file valid."""
    root, target = validation_target(path)
    own = root is not None and target.resolve() == (root / EVALS_PATH).resolve()
    if own:
        report = lint_skill(root, settings_for(root).lint, external=False)
        findings = [f for f in report.findings if f.rule in EVALS_RULES]
    else:
        findings = _file_findings(root, target)
    ef = EvalsFile.load(target)
    cases = ef.evalset.cases if ef.evalset and ef.text is not None else []
    missing = ef.text is None and not ef.issues
    report_validation(root, target, findings, cases, missing=missing, paths_checked=own or
                      root is not None, fmt=fmt)
    sys.exit(0 if not missing and not any(f.severity == Severity.error for f in findings)
             else 1)


def _file_findings(root: Path | None, target: Path) -> list[Finding]:
    """SF314-SF316 of an evals file other than the skill's own, as lint would report them."""
    lint = settings_for(root or target.parent).lint
    skill = load_skill(root) if root is not None else Skill(root=target.parent)
    ctx = LintContext(skill, lint)
    try:
        shown = target.resolve().relative_to(root.resolve()).as_posix() if root else None
    except ValueError:
        shown = None
    shown = shown or shown_path(target)
    try:
        text = target.read_text("utf-8")
    except UnicodeDecodeError:
        found = [ctx.finding("SF315", f"{shown} cannot be read as UTF-8 text; re-save it as "
                             "UTF-8 JSON.", path=shown)]
    except OSError as exc:
        fail(f"cannot read {shown_path(target)}: {exc}")
    else:
        found = evals_file_findings(ctx, text, shown, check_paths=root is not None)
    return sorted((f for f in found if f.rule not in set(lint.disable)), key=Finding.sort_key)


@evals_group.command("init")
@click.argument("path", type=click.Path())
def init(path: str) -> None:
    """Write a template evals/evals.json (three cases to edit); never overwrites."""
    root = skill_dir_of(path)
    if not (root / SKILL_MD).is_file():
        fail(f"{shown_path(root)} has no {SKILL_MD}; `skillforge new NAME` creates a skill")
    target = root / EVALS_PATH
    if target.exists():
        fail(f"{shown_path(target)} already exists; edit it, or add cases with `skillforge "
             "evals draft`")
    skill = load_skill(root)
    template = evals_template(skill.name or root.name)
    try:
        atomic_write_text(target, json.dumps(template, indent=2) + "\n")
    except OSError as exc:
        fail(f"cannot write {shown_path(target)}: {exc}")
    click.echo(f"created {shown_path(target)}: three template cases (explicit, implicit, "
               "negative) to rewrite; check it with `skillforge evals validate`")


# --- shared by draft and refine -------------------------------------------------------------

def _load_evals(root: Path, write: bool) -> EvalsFile:
    ef = EvalsFile.load(root / EVALS_PATH)
    shown = shown_path(ef.path)
    if ef.issues and write:
        first = ef.issues[0]
        line = f" (line {first.line})" if first.line else ""
        fail(f"{shown}{line}: {first.message}; fix it first (`skillforge evals validate "
             f"{shown_path(root)}` lists every problem) — nothing was asked or written")
    if ef.issues:
        click.echo(f"skillforge evals: warning: {shown} has problems ({ef.issues[0].message}); "
                   "showing a preview only", err=True)
    return ef


def _client(settings: Settings, model: str | None) -> ModelClient:
    try:
        return select_provider(settings, model)
    except (ProviderNotConfigured, PriceTableError) as exc:
        fail(str(exc))


def _ask(client: ModelClient, make: Callable[[], Awaitable[T]]) -> T:
    async def go() -> T:
        try:
            return await make()
        finally:
            await aclose(client)
    try:
        return asyncio.run(go())
    except (ProviderError, ProposalError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; the request in flight was cancelled, nothing was written", 130)


def _save(ef: EvalsFile, evalset: EvalSet) -> None:
    try:
        ef.save(evalset)
    except ConflictError as exc:
        fail(f"{exc} — nothing was written; run the command again")
    except EvalsInvalidError as exc:
        fail(f"{exc}; nothing was written")
    except OSError as exc:
        fail(f"cannot write {shown_path(ef.path)}: {exc}; nothing was written")


def _split(value: str | None) -> list[str] | None:
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return [] if items == ["none"] else items


# --- draft ----------------------------------------------------------------------------------

@evals_group.command("draft")
@click.argument("path", type=click.Path())
@click.option("--kinds", default=",".join(KINDS), show_default=True,
              help="Kinds of case to propose, comma-separated.")
@click.option("--count", type=click.IntRange(1, 10), default=1, show_default=True,
              help="Cases per kind.")
@click.option("--write", is_flag=True, help="Merge the accepted cases into evals/evals.json.")
@click.option("--accept", default=None, metavar="ID,...",
              help="With --write: only these proposed ids (default all; 'none' for none).")
@MODEL
@FORMAT
def draft(path: str, kinds: str, count: int, write: bool, accept: str | None,
          model: str | None, fmt: str) -> None:
    """Propose eval cases of four kinds with the configured model; preview unless --write."""
    root = skill_dir_of(path)
    wanted = _split(kinds) or []
    bad = [k for k in wanted if k not in KINDS]
    if bad or not wanted:
        raise click.UsageError(f"--kinds: unknown {', '.join(bad) or '(empty)'}; use "
                               f"{','.join(KINDS)}")
    ef = _load_evals(root, write)
    skill = load_skill(root)
    settings = settings_for(root)
    client = _client(settings, model)
    proposal = _ask(client, lambda: draft_cases(
        skill, client, kinds=wanted, count=count, existing=ef.evalset,
        max_tokens=settings.provider.max_tokens, temperature=settings.provider.temperature))
    accepted = [str(i) for i in proposal.ids] if _split(accept) is None else _split(accept)
    unknown = [i for i in accepted or [] if proposal.case(i) is None]
    if write and unknown:
        fail(f"--accept names {', '.join(unknown)}, which the model did not propose "
             f"(proposed: {', '.join(map(str, proposal.ids))}); nothing was written")
    written = bool(write and accepted)
    if written:
        _save(ef, merge_proposal(ef.evalset or EvalSet(), proposal, accepted))
    report_proposal(root, ef, proposal, write, accepted, written, fmt)


# --- refine ---------------------------------------------------------------------------------

def load_session(spec: str, state_dir: str | None, settings: Settings) -> tuple[Trajectory, str]:
    """A trace file (any importable format) or a stored trajectory id (or unique prefix)."""
    p = Path(spec)
    if p.exists():
        try:
            result = import_trajectory(p)
        except (TraceImportError, AtifError, OSError) as exc:
            fail(str(exc))
        return result.trajectory, f"{shown_path(p)} ({result.format})"
    folder = Path(state_dir or settings.state_dir)
    if not (folder / DB_NAME).is_file():
        fail(f"{spec}: no such file, and no run store at {shown_path(folder)} to look it up "
             "in; pass a trace file, or --state-dir where `skillforge import` stored it")
    with RunStore(folder) as store:
        rec = store.trajectory(spec)
        if rec is None:
            hits = [r for r in store.trajectories() if r.id.startswith(spec)]
            if len(hits) != 1:
                ids = ", ".join(r.id for r in (hits or store.trajectories())[:5]) or "none"
                what = "matches several" if hits else "is not a stored trajectory id"
                fail(f"{spec!r} {what} in {shown_path(store.db_path)} (ids: {ids}); pass a "
                     "trace file or a full id")
            rec = hits[0]
        try:
            return store.load(rec.id), rec.id
        except (AtifError, OSError) as exc:
            fail(f"stored trajectory {rec.id}: {exc}")


@evals_group.command("refine")
@click.argument("path", type=click.Path())
@click.option("--case", "case_id", default=None, metavar="ID", help="The case to refine.")
@click.option("--from", "source", required=True, metavar="TRAJECTORY",
              help="A trace file (Claude Code, Codex, ATIF, Gemini, OpenCode) or a stored "
                   "trajectory id.")
@click.option("--new-case", is_flag=True, help="Turn the session into a new case instead.")
@click.option("--accept", default=None, metavar="FIELD,...",
              help="With --write: the fields to apply (default: those that start accepted; "
                   "'none' for none). A session-derived ground truth needs ground_truth here.")
@click.option("--write", is_flag=True, help="Apply the accepted changes to evals/evals.json.")
@click.option("--state-dir", default=None, type=click.Path(file_okay=False),
              help="Run store to look trajectory ids up in (default .skillforge).")
@MODEL
@FORMAT
def refine(path: str, case_id: str | None, source: str, new_case: bool, accept: str | None,
           write: bool, state_dir: str | None, model: str | None, fmt: str) -> None:
    """Propose edits to a case from what an agent did; preview unless --write."""
    root = skill_dir_of(path)
    if not new_case and case_id is None:
        raise click.UsageError("give --case ID (the case to refine), or --new-case")
    ef = _load_evals(root, write)
    case = None
    if not new_case:
        case = ef.evalset.case(case_id) if ef.evalset else None
        if case is None:
            ids = ", ".join(str(c.id) for c in (ef.evalset.cases if ef.evalset else [])) or "none"
            fail(f"{shown_path(ef.path)} has no case {case_id!r} (cases: {ids})")
    named = _split(accept)
    fields = [_ALIAS.get(n, n) for n in named or []]
    unknown = [n for n, f in zip(named or [], fields, strict=True) if f not in EDITABLE_FIELDS]
    if not new_case and unknown:
        raise click.UsageError(f"--accept: {', '.join(unknown)} is not a field refine edits; "
                               f"use {', '.join(EDITABLE_FIELDS)} (or 'none')")
    skill = load_skill(root)
    settings = settings_for(root)
    traj, label = load_session(source, state_dir, settings)
    client = _client(settings, model)
    opts = {"max_tokens": settings.provider.max_tokens,
            "temperature": settings.provider.temperature}
    if new_case:
        proposal = _ask(client, lambda: case_from_trajectory(
            skill, traj, client, existing=ef.evalset, label=label, **opts))
        _write_new_case(root, ef, proposal, write, accept, fmt)
        return
    assert case is not None
    diff = _ask(client, lambda: refine_case(skill, case, traj, client, label=label, **opts))
    accepted = diff.default_accepted() if named is None else fields
    skipped = [n for n in accepted if diff.change(n) is None]
    accepted = [n for n in accepted if diff.change(n) is not None]
    written = bool(write and accepted)
    if written:
        evalset = ef.evalset
        assert evalset is not None
        index = evalset.cases.index(case)
        evalset.cases[index] = apply_diff(case, diff, accepted)
        _save(ef, evalset)
    report_diff(ef, diff, write, accepted, skipped, written, fmt)


def _write_new_case(root: Path, ef: EvalsFile, proposal: Proposal, write: bool,
                    accept: str | None, fmt: str) -> None:
    named = _split(accept)
    [case] = proposal.cases
    accepted = [str(case.id)] if named is None or named else []
    if write and accepted and case.ground_truth_unverified and "ground_truth" in (named or []):
        proposal = verify_ground_truth(proposal, case.id)
    written = bool(write and accepted)
    if written:
        _save(ef, merge_proposal(ef.evalset or EvalSet(), proposal, accepted))
    report_proposal(root, ef, proposal, write, accepted, written, fmt)
