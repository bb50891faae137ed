"""Run the checks over a skill and turn their findings into a scored report.

Two phases, so the TUI can show something at once: `fast_findings` runs every in-process
check (structural, security, Python syntax) in milliseconds; `external_findings` runs ruff
and shellcheck as processes (cached by content hash) and is merged in when it arrives.
`lint_skill` does both, for the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from linters.text.anchor_index import AnchorIndex, declare
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.rules import checks
from linters.text.placement import unshipped_skill
from linters.scoring import gate, grade, security_score, structural_scores
from skillforge.models.lint_config import LintConfig
from skillforge.models.findings import Category, Finding, LintReport, Severity
from skillforge.models.skill import Skill, SkillFile, load_skill

_DIRECTIVE = rx(r"skillforge:\s*disable\s+((?:SF\d{3}[\s,]*)+)")
_RULE_ID = rx(r"SF\d{3}")
_MARKER = declare(b"skillforge:")


class CheckCrashed(RuntimeError):
    """A check raised: a bug in skillforge, never the author's fault."""


def warm_up() -> None:
    """Load what the first lint would otherwise pay for: the rule modules, the tokenizer
    (~150 ms) and detect-secrets' plugins (~150 ms). Call it once, early, in a worker thread
    of a long-lived process (the TUI); a one-shot CLI run needs none of it unless it lints."""
    from linters.text import tokens
    from linters.registry import catalogue
    from linters.security.secret_scan import detectors

    checks()
    catalogue()
    tokens.tokenizer_name()
    detectors()


def fast_findings(ctx: LintContext) -> list[Finding]:
    """Every in-process check's findings for one skill (rules disabled in the config left out)."""
    disabled = set(ctx.config.disable)
    out: list[Finding] = []
    for rule_ids, fn in checks():
        if disabled.issuperset(rule_ids):
            continue
        try:
            out.extend(f for f in fn(ctx) if f.rule not in disabled)
        except Exception as exc:  # any bug in a check: reported with the check's name
            import traceback  # here: only a crash needs it (with textwrap, ~1 ms of every start)

            raise CheckCrashed(
                f"check {fn.__module__}.{fn.__name__} crashed on {ctx.skill.root}: {exc!r}\n"
                + traceback.format_exc()
            ) from exc
    return out


def external_findings(ctx: LintContext) -> list[Finding]:
    """ruff's and shellcheck's findings (SF602, SF603), run as processes and cached."""
    from linters.external.external_linters import run_external_linters

    disabled = set(ctx.config.disable)
    return [f for f in run_external_linters(ctx) if f.rule not in disabled]


def has_scripts_to_lint(skill: Skill) -> bool:
    """Whether `external_findings` has a script to hand to ruff or shellcheck: any Python or
    shell script of the skill, under `scripts/` or not."""
    from linters.scripts.scripts import has_scripts_to_lint as any_scripts

    return any_scripts(skill)


def inline_suppressions(
    skill: Skill, anchors: Callable[[SkillFile], AnchorIndex]
) -> dict[str, set[str]]:
    """Rule ids disabled per file by `skillforge: disable SFxxx` comments. `anchors`: the
    lint pass's file indexes (LintContext.anchors): a file without the marker is not read."""
    out: dict[str, set[str]] = {}
    for f in skill.files:
        if f.text is None or not anchors(f).held(_MARKER):
            continue
        for m in _DIRECTIVE.finditer(f.text):
            out.setdefault(f.path, set()).update(_RULE_ID.findall(m.group(1)))
    return out


def _commentable(f: SkillFile | None) -> bool:
    return f is not None and f.text is not None and f.suffix not in (".json", ".jsonl")


def suppress(
    skill: Skill, findings: list[Finding], anchors: Callable[[SkillFile], AnchorIndex]
) -> tuple[list[Finding], int]:
    """Drop findings silenced inline. Security findings cannot be silenced inline: a hostile
    skill would otherwise hide its own payload from the scan (use `[lint] disable`)."""
    table = inline_suppressions(skill, anchors)
    if not table:
        return findings, 0
    skill_wide = table.get("SKILL.md", set())
    kept: list[Finding] = []
    dropped = 0
    for f in findings:
        if f.category != Category.security:
            local = table.get(f.path or "", set())
            wide = skill_wide if not _commentable(skill.file(f.path or "")) else set()
            if f.rule in local or f.rule in wide:
                dropped += 1
                continue
        kept.append(f)
    return kept, dropped


def _soften_unshipped(skill: Skill, findings: Iterable[Finding]) -> list[Finding]:
    """A template's or an archived copy's errors as warnings (linters.placement); its
    security findings as they are."""
    why = unshipped_skill(skill)
    if why is None:
        return list(findings)
    return [replace(f, severity=Severity.warning,
                    message=f"{f.message} (A warning only: {why}.)")
            if f.severity == Severity.error and f.category != Category.security else f
            for f in findings]


def build_report(
    ctx: LintContext, findings: list[Finding], *, scripts_pending: bool = False
) -> LintReport:
    """Suppress, score, grade and gate a list of findings for one skill."""
    kept, dropped = suppress(ctx.skill, findings, ctx.anchors)
    # One finding per (rule, place): checks may reach the same spot twice.
    unique: dict[tuple, Finding] = {}
    for f in kept:
        unique.setdefault((f.rule, f.code, f.path, f.line, f.column, f.message), f)
    kept = sorted(_soften_unshipped(ctx.skill, unique.values()), key=Finding.sort_key)
    score, cats = structural_scores(ctx, kept)
    passed, reasons = gate(score, kept, ctx.config.fail_under, ctx.config.fail_on)
    return LintReport(
        path=str(ctx.skill.root),
        name=ctx.skill.name,
        score=score,
        grade=grade(score),
        security_score=security_score(kept),
        passed_gate=passed,
        gate_reasons=reasons,
        categories=cats,
        findings=kept,
        suppressed=dropped,
        scripts_pending=scripts_pending,
    )


def lint_skill(
    target: Skill | Path | str,
    config: LintConfig | None = None,
    *,
    external: bool | None = None,
    extra_files: list[SkillFile] | None = None,
) -> LintReport:
    """Load (if given a path) and lint one skill, both phases unless `external` is False."""
    skill = target if isinstance(target, Skill) else load_skill(target, extra_files)
    ctx = LintContext(skill, config)
    findings = fast_findings(ctx)
    run_external = ctx.config.scripts if external is None else external
    if run_external:
        findings += external_findings(ctx)
    return build_report(ctx, findings)
