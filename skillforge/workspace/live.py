"""The live lint loop's logic, headless: which skills a path holds, what a change touches,
and the two lint phases. The TUI calls these from workers and renders the results.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from linters.compat.summary import compat_findings
from linters.context import LintContext
from linters.engine import build_report, external_findings, fast_findings, has_scripts_to_lint
from skillforge.config import ConfigError, load_settings
from skillforge.workspace.discovery import find_skills
from skillforge.models.config import Settings
from skillforge.models.findings import Finding, LintReport
from skillforge.models.skill import SKILL_MD, Skill, load_skill


@dataclass
class LintResult:
    """One lint of one skill: the fast report now, and what the script phase needs later."""

    path: Path
    skill: Skill
    ctx: LintContext
    fast: list[Finding]
    report: LintReport
    generation: int = 0
    external: list[Finding] | None = None
    config_error: str | None = None
    # SF701-SF707 for every harness (or `[lint] harness`'s): the Compat section's list.
    compat: list[Finding] = field(default_factory=list)

    @property
    def content_hash(self) -> str:
        return self.skill.content_hash()


@dataclass
class Workspace:
    """What the workbench was opened on: one skill, or a folder holding several."""

    root: Path
    skills: list[Path] = field(default_factory=list)
    launch_dir: Path = field(default_factory=Path.cwd)
    # Opened on one skill: it stays the workbench's skill even while its SKILL.md is
    # deleted or being renamed (the lint then says SF101 instead of the skill vanishing).
    pinned: bool = False
    # The first skill's lint, started before the UI so the two overlap (see prefetch).
    first_lint: Future | None = None

    def prefetch(self) -> None:
        """Start linting the first skill now, in a thread, while the UI is still starting."""
        if self.skills and self.first_lint is None:
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skillforge-prefetch")
            self.first_lint = pool.submit(lint_fast, self, self.skills[0], 1)
            pool.shutdown(wait=False)

    def take_first_lint(self, path: Path) -> Future | None:
        """The prefetched lint of `path`, once (later lints run normally)."""
        fut, self.first_lint = self.first_lint, None
        return fut if fut is not None and self.skills and self.skills[0] == path else None

    @classmethod
    def open(cls, root: Path, launch_dir: Path | None = None) -> Workspace:
        root = Path(root).resolve()
        if root.is_file() and root.name == SKILL_MD:
            root = root.parent
        ws = cls(root=root, launch_dir=(launch_dir or Path.cwd()).resolve(),
                 pinned=(root / SKILL_MD).is_file())
        ws.rescan()
        return ws

    def rescan(self) -> bool:
        """Find the skills again (a SKILL.md was created or deleted). True if the list changed."""
        found = [p for p in find_skills(self.root) if (p / SKILL_MD).exists()] if self.root.is_dir() else []
        if self.pinned and self.root not in found:
            found.insert(0, self.root)
        changed = found != self.skills
        self.skills = found
        return changed

    @property
    def shown_root(self) -> str:
        """The folder as the user would type it: relative to the launch directory if inside."""
        try:
            rel = self.root.relative_to(self.launch_dir)
        except ValueError:
            return str(self.root)
        return str(rel) if str(rel) != "." else "."

    @property
    def is_single(self) -> bool:
        """Opened on one skill (possibly with nested skills inside it)."""
        return self.pinned and len(self.skills) <= 1

    def owner_of(self, changed: str | Path) -> Path | None:
        """The skill a changed path belongs to: the deepest skill folder containing it."""
        p = Path(changed).resolve()
        best: Path | None = None
        for s in self.skills:
            if p == s or s in p.parents:
                if best is None or len(s.parts) > len(best.parts):
                    best = s
        return best

    def structure_changed(self, changed: set[str]) -> bool:
        """A change that may add or remove a skill (a SKILL.md or a folder appeared/vanished)."""
        return any(Path(c).name == SKILL_MD or not Path(c).exists() or Path(c).is_dir() for c in changed)

    def settings(self, skill_dir: Path | None) -> tuple[Settings, str | None]:
        """Settings for a skill; a broken skillforge.toml falls back to defaults, with the error."""
        try:
            return load_settings(skill_dir, launch_dir=self.launch_dir), None
        except ConfigError as exc:
            # Paths inside the launch directory read better (and stay put) relative to it.
            return Settings(), str(exc).replace(f"{self.launch_dir}/", "")


def lint_fast(ws: Workspace, skill_dir: Path, generation: int = 0) -> LintResult:
    """Load and run the in-process linters (milliseconds); never raises on bad content."""
    settings, err = ws.settings(skill_dir)
    skill = load_skill(skill_dir)
    ctx = LintContext(skill, settings.lint)
    fast = fast_findings(ctx)
    pending = settings.lint.scripts and has_scripts_to_lint(skill)
    report = build_report(ctx, fast, scripts_pending=pending)
    compat = compat_findings(skill, settings.lint)
    return LintResult(skill_dir, skill, ctx, fast, report, generation, config_error=err,
                      compat=compat)


def lint_scripts(result: LintResult) -> LintResult:
    """Run ruff/shellcheck for a fast result and return it with the merged report."""
    if not result.ctx.config.scripts or not has_scripts_to_lint(result.skill):
        return result
    ext = external_findings(result.ctx)
    report = build_report(result.ctx, result.fast + ext)
    return LintResult(result.path, result.skill, result.ctx, result.fast, report,
                      result.generation, external=ext, config_error=result.config_error,
                      compat=result.compat)
