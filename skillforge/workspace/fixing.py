"""Applying fixes to a skill on disk: the CLI's `lint --fix` and the workbench's `f`/`F`.

`fix_skill` fixes everything it can: in a scratch copy of the skill it lints, applies the
fixes that do not touch the same file, lints again and repeats until nothing is left to
apply (a frontmatter with two unknown keys takes two rounds), then compares the copy with
the skill. Only findings of the skill's own report (linted where it is) are fixed: in the
copy, paths that leave the skill (a sibling skill, the skill a nested one sits in) do not
resolve, and their findings are not the author's. `write_plan` puts a plan's files in place, each written atomically and only
after every changed file parsed; it returns a `FixRecord` that `fix_undo` restores from.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from linters.context import LintContext
from linters.engine import build_report, fast_findings
from linters.fixes import FindingKey, finding_key, fixes_for
from linters.fixes.apply import FileChange, FixPlan, plan_fixes
from skillforge.models.lint_config import LintConfig
from skillforge.models.fileio import atomic_write_bytes
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix
from skillforge.models.skill import JUNK_DIRS, SKIP_DIRS, load_skill

# Each round applies at least one fix or stops; this bounds a fixer that keeps finding work.
MAX_ROUNDS = 20


class FixWriteError(RuntimeError):
    """The files changed on disk after the fix was planned; nothing was written."""


@dataclass
class FixRecord:
    """What one write changed, enough to put the files back (`fix_undo`)."""

    root: Path
    title: str
    changes: list[FileChange]
    trash: dict[str, Path] = field(default_factory=dict)  # deleted folder -> where it went


@dataclass
class FixOutcome:
    """`fix_skill`'s answer: the combined change, and what was applied, refused or left."""

    plan: FixPlan
    applied: list[Fix]
    refused: list[tuple[Fix, str]]
    unsafe_left: list[Fix]
    # The findings left after the fixes that no fixer offers anything for: the author's to
    # mend by hand (`lint --fix` says so rather than "nothing to fix").
    unfixable: list[Finding] = field(default_factory=list)


def findings_now(skill_dir: Path, config: LintConfig):
    """(skill, reported findings) of a fresh fast lint (inline suppressions honoured)."""
    skill = load_skill(skill_dir)
    ctx = LintContext(skill, config)
    return skill, build_report(ctx, fast_findings(ctx)).findings


def fix_skill(skill_dir: Path, config: LintConfig, unsafe: bool = False,
              reported: list[Finding] | None = None) -> FixOutcome:
    """Every safe fix (and, with `unsafe`, every unsafe one) for the skill, as one plan
    against the files as they are now. Writes nothing to the skill. `reported`: the
    skill's report as it is now, when the caller has it (`findings_now`)."""
    skill_dir = Path(skill_dir)
    applied: list[Fix] = []
    refused: list[tuple[Fix, str]] = []
    unsafe_left: list[Fix] = []
    refused_keys: set[tuple] = set()
    touched: dict[str, str] = {}  # path -> encoding before the first change
    if reported is None:
        _skill, reported = findings_now(skill_dir, config)
    # A finding is known by its rule, file and message: its line moves as fixes insert lines.
    named = {(f.rule, f.path or "", f.message) for f in reported}
    findings: list[Finding] = []
    offered: dict[FindingKey, list[Fix]] = {}
    with tempfile.TemporaryDirectory(prefix="skillforge-fix-") as tmp:
        work = Path(tmp) / skill_dir.name
        _copy_skill(skill_dir, work)
        for _round in range(MAX_ROUNDS):
            skill, findings = findings_now(work, config)
            findings = [f for f in findings if (f.rule, f.path or "", f.message) in named]
            chosen: list[Fix] = []
            unsafe_left = []
            offered = fixes_for(skill, findings)
            for options in offered.values():
                fix = options[0]
                if (fix.rule, fix.title) in refused_keys:
                    continue
                if fix.safety == "safe" or unsafe:
                    chosen.append(fix)
                else:
                    unsafe_left.append(fix)
            plan = plan_fixes(skill, chosen)
            for fix, why in plan.refused:
                if "already changed by another fix" not in why:
                    refused.append((fix, why))
                    refused_keys.add((fix.rule, fix.title))
            if not plan.applied:
                break
            for change in plan.changes.values():
                touched.setdefault(change.path, change.before_encoding)
            _write_files(work, plan)
            applied += plan.applied
        combined = FixPlan(applied=applied, refused=refused)
        for path, encoding in touched.items():
            before, before_dir = _read(skill_dir / path)
            after, _ = _read(work / path)
            if before != after or before_dir:
                combined.changes[path] = FileChange(path, before, after, is_dir=before_dir and after is None,
                                                    before_encoding=encoding)
    # The last round found nothing more to apply, so its findings are what is left.
    unfixable = [f for f in findings if finding_key(f) not in offered]
    return FixOutcome(combined, applied, refused, unsafe_left, unfixable)


def apply_fixes(skill_dir: Path, fixes: list[Fix], title: str) -> tuple[FixPlan, FixRecord | None]:
    """Plan `fixes` against the skill as it is on disk and write what is not refused."""
    plan = plan_fixes(load_skill(skill_dir), fixes)
    if not plan.changes:
        return plan, None
    return plan, write_plan(Path(skill_dir), plan, title)


def write_plan(root: Path, plan: FixPlan, title: str) -> FixRecord:
    """Write a plan's files into the skill at `root` (each atomically; deleted folders are
    moved aside so an undo can bring them back). Raises FixWriteError, writing nothing,
    when a file is no longer what the plan was made from."""
    for change in plan.changes.values():
        current, is_dir = _read(root / change.path)
        if not change.is_dir and current != change.before:
            raise FixWriteError(f"{change.path} changed on disk since the fix was worked out; "
                                "nothing was written: lint again and retry")
    record = FixRecord(root, title, list(plan.changes.values()))
    _write_files(root, plan, record)
    return record


def _write_files(root: Path, plan: FixPlan, record: FixRecord | None = None) -> None:
    changes = sorted(plan.changes.values(), key=lambda c: c.after is None)  # writes first
    for change in changes:
        target = root / change.path
        if change.after is not None:
            atomic_write_bytes(target, change.after)
        elif change.is_dir:
            if record is not None:
                aside = Path(tempfile.mkdtemp(prefix="skillforge-undo-")) / target.name
                shutil.move(target, aside)
                record.trash[change.path] = aside
            else:
                shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()


def _read(path: Path) -> tuple[bytes | None, bool]:
    """(bytes or None, is a folder)."""
    if path.is_dir():
        return None, True
    try:
        return path.read_bytes(), False
    except FileNotFoundError:
        return None, False


def _copy_skill(src: Path, dest: Path) -> None:
    """The skill's files, minus version-control folders; junk folders empty (a fix may
    only delete them, and node_modules can be large)."""

    def ignore(folder: str, names: list[str]) -> list[str]:
        if os.path.basename(folder) in JUNK_DIRS and Path(folder) != src:
            return names
        return [n for n in names if n in SKIP_DIRS]

    shutil.copytree(src, dest, symlinks=True, ignore=ignore)
