"""Small skills for the correctness rule tests, and a runner of the correctness checks alone.

Each test writes a few lines of SKILL.md (sometimes a reference) to a temporary folder and
runs only the checks of the correctness modules, so other categories cannot get in the way.
"""

from __future__ import annotations

from pathlib import Path

from linters.context import LintContext
from linters.rules import checks
from skillforge.models.findings import Finding
from skillforge.models.skill import SkillFile, load_skill

MODULES = {
    "linters.correctness.correctness", "linters.correctness.optional_fields",
    "linters.correctness.links", "linters.correctness.portable_paths", "linters.correctness.fences",
    "linters.correctness.unknown_keys",
}
DESCRIPTION = "Rotates and merges PDF files. Use when the user asks to fix or combine PDFs."
BODY = "\n# PDF tools\n\n1. Run `qpdf --rotate=+90 in.pdf out.pdf`.\n2. Open the result.\n"


def write_skill(root: Path, skill_md: str, files: dict[str, str] | None = None) -> Path:
    """Write SKILL.md and `files` (path -> text) under `root`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(skill_md, "utf-8")
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    return root


def checkout(top: Path, docs: dict[str, str], skill: str, text: str,
             folders: tuple[str, ...] = ()) -> Path:
    """A checkout (`.git` at `top`) holding `docs` and the empty `folders` at its top and a
    skill whose SKILL.md is `text` at `skill`; the skill's folder."""
    (top / ".git").mkdir(parents=True)
    for folder in folders:
        (top / folder).mkdir(parents=True, exist_ok=True)
    for rel, body in docs.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(body, "utf-8")
    return write_skill(top / skill, text)


def skill_md(frontmatter: str | None = None, body: str = BODY, name: str = "pdf-tools") -> str:
    """A SKILL.md: `frontmatter` (default: a valid name and description) and `body`."""
    fm = frontmatter if frontmatter is not None else f"name: {name}\ndescription: {DESCRIPTION}\n"
    return f"---\n{fm}---\n{body}"


def findings(
    root: Path, rule: str | None = None, extra: list[SkillFile] | None = None
) -> list[Finding]:
    """What the correctness checks find in the skill at `root` (only `rule`'s, if given)."""
    ctx = LintContext(load_skill(root, extra_files=extra))
    out = [f for ids, fn in checks() if fn.__module__ in MODULES for f in fn(ctx)]
    return [f for f in out if rule is None or f.rule == rule]


def lint(tmp_path: Path, rule: str, frontmatter: str | None = None, body: str = BODY,
         folder: str = "pdf-tools", files: dict[str, str] | None = None) -> list[Finding]:
    """Write a skill in `tmp_path / folder` and return what `rule` finds in it."""
    return findings(write_skill(tmp_path / folder, skill_md(frontmatter, body), files), rule)
