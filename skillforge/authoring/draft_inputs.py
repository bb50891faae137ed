"""The input files a drafted case may use (`evals/files/...`), shown to the model as data."""

from __future__ import annotations

from skillforge.models.prompt_fit import Fit
from skillforge.models.skill import Skill

INPUT_FILE_CHARS = 3000
INPUT_TOTAL_CHARS = 20_000


def input_paths(skill: Skill) -> list[str]:
    """The skill's input files for cases (evals/files/...)."""
    return sorted(f.path for f in skill.files
                  if not f.is_dir and f.present and f.path.startswith("evals/files/"))


def render_inputs(skill: Skill, nonce: str, fit: Fit) -> tuple[str, list[str]]:
    """The input files as one delimited data block (cut to `fit`), and their paths."""
    parts, paths, budget = [f"<input_files_{nonce}>"], [], fit.cap(INPUT_TOTAL_CHARS)
    for f in sorted(skill.files, key=lambda f: f.path):
        if f.is_dir or not f.present or not f.path.startswith("evals/files/"):
            continue
        paths.append(f.path)
        if f.text is None or budget <= 0:
            parts.append(f'<file_{nonce} path="{f.path}" size="{f.size}" shown="no"/>')
            continue
        text = f.text[:min(fit.cap(INPUT_FILE_CHARS), budget)]
        budget -= len(text)
        if len(text) < len(f.text) and fit.scale < 1:
            fit.note(f"{f.path}: shown {len(text):,} of {len(f.text):,} characters")
        cut = ("" if len(text) == len(f.text)
               else f' shown="first {len(text)} of {len(f.text)} characters"')
        parts.append(f'<file_{nonce} path="{f.path}"{cut}>\n{text}\n</file_{nonce}>')
    parts.append(f"</input_files_{nonce}>")
    return "\n".join(parts), paths
