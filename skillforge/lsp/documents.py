"""Which skill an editor's document belongs to, and a lint of that skill in which the open
documents' text stands in for the disk copy.

The engine lints what `load_skill` loads; the loader takes `overrides` (relative path ->
bytes) for exactly this. An open buffer whose text equals the disk's decoded text is not
overridden, so a file saved as Latin-1, UTF-16 or with a byte-order mark is still reported
as such (an editor shows such a file decoded). An edited one is linted as the UTF-8 it
becomes (a disk BOM kept), which is what a save in a UTF-8 editor writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from linters.context import LintContext
from linters.engine import build_report, fast_findings, has_scripts_to_lint
from skillforge.models.skill import SKILL_MD
from skillforge.models.skill_loader import load_skill, read_file
from skillforge.workspace.live import LintResult, Workspace

_BOM = b"\xef\xbb\xbf"


def skill_root_for(path: Path) -> Path | None:
    """The skill folder `path` belongs to: the nearest folder at or above it holding a
    SKILL.md (an open SKILL.md makes its folder a skill before it is ever saved)."""
    if path.name == SKILL_MD:
        return path.parent
    for parent in path.parents:
        if (parent / SKILL_MD).is_file():
            return parent
    return None


def relative_in(root: Path, path: Path) -> str | None:
    """`path` relative to the skill root, POSIX-style; None when it lies outside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def overrides_for(root: Path, texts: Mapping[str, str]) -> dict[str, bytes]:
    """The open documents (relative path -> editor text) whose text differs from the disk's."""
    out: dict[str, bytes] = {}
    for rel, text in texts.items():
        disk = read_file(root, rel)
        if disk.read_error is None and disk.text == text:
            continue
        data = text.encode("utf-8", errors="replace")
        if disk.bom and not text.startswith("\ufeff"):
            data = _BOM + data
        out[rel] = data
    return out


def lint_open(root: Path, texts: Mapping[str, str], launch_dir: Path,
              generation: int = 0) -> LintResult:
    """The fast (in-process) lint of the skill at `root` as the editor shows it; never
    raises on bad content. A broken skillforge.toml lints with the defaults and is named in
    `config_error` (as the workbench does). `workspace.live.lint_scripts` adds ruff's and
    shellcheck's findings, on the same (overridden) content."""
    settings, err = Workspace(root=root, launch_dir=launch_dir).settings(root)
    skill = load_skill(root, overrides=overrides_for(root, texts))
    ctx = LintContext(skill, settings.lint)
    fast = fast_findings(ctx)
    pending = settings.lint.scripts and has_scripts_to_lint(skill)
    report = build_report(ctx, fast, scripts_pending=pending)
    return LintResult(root, skill, ctx, fast, report, generation, config_error=err)
