"""A small skill written for one test: frontmatter, a title, the body, and any extra files."""

from __future__ import annotations

from pathlib import Path


def probe_skill(tmp_path: Path, body: str, files: dict[str, str] | None = None,
                name: str = "probe", description: str | None = None,
                title: str | None = None) -> Path:
    skill = tmp_path / name
    skill.mkdir(parents=True, exist_ok=True)
    description = description or f"Helps with {name} work."
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n\n# {title or name}\n\n{body}",
        encoding="utf-8")
    for rel, text in (files or {}).items():
        (skill / rel).parent.mkdir(parents=True, exist_ok=True)
        (skill / rel).write_text(text, encoding="utf-8")
    return skill
