"""A SKILL.md a Claude Code plugin keeps outside the skills folders its manifest names
(issue 36, holdout27).

A plugin's `.claude-plugin/plugin.json` may name where its skills are (`"skills":
"./skills"`, or a list of folders); Claude Code loads those and the default `skills/`, and
nothing else of the plugin as a skill. A SKILL.md elsewhere in that plugin (a hook's snippet
library, say, that pastes the file into the prompt by path) is not looked up by its `name` or
folder, so the rules that exist for that lookup (SF108 name characters, SF110 name and folder,
SF106 missing name, SF102 missing frontmatter, SF112 unknown keys) are warnings that say why.

The reading needs the author's word: a manifest that names its skills explicitly, as strings.
It does not apply
- in a plugin whose manifest names no skills (only the default is known; the author has not
  said the rest is no skill), or names them in a form not read here;
- inside a named folder or the default `skills/`, at any depth;
- when a folder on the way from the plugin to the SKILL.md is named `skills` or starts with a
  dot (`.claude/skills/`, `.agents/skills/`): another harness loads those;
- when the plugin root holds another harness's plugin manifest (`.codex-plugin/plugin.json`),
  or a marketplace manifest above names the folder (a marketplace entry can list skills);
- for `--target claude-ai`, which means the file is to be uploaded as a skill.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from linters.context import LintContext

MANIFEST = (".claude-plugin", "plugin.json")
MARKETPLACE = (".claude-plugin", "marketplace.json")
DEFAULT_SKILLS = "skills"


def _is_file(path: Path) -> bool:
    try:  # an unreadable path is no manifest (a lint must not raise)
        return path.is_file()
    except OSError:
        return False


def _ancestors(real: Path) -> list[Path]:
    """`real` and its folders up to the repository root (the first holding `.git`)."""
    out = []
    for a in (real, *real.parents):
        out.append(a)
        if (a / ".git").exists():
            break
    return out


def _declared(manifest: Path) -> list[str] | None:
    """The skills folders a manifest names, as written; None when it names none or names them
    in a form other than a path or a list of paths."""
    try:
        data = json.loads(manifest.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get("skills") if isinstance(data, dict) else None
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) for v in items):
        return None
    return items


def _within(real: Path, folder: Path) -> bool:
    return real == folder or folder in real.parents


def _other_manifest(root: Path) -> bool:
    """Another plugin format's manifest beside Claude Code's (`.codex-plugin/plugin.json`)."""
    try:
        return any(p.parent.name != MANIFEST[0] for p in root.glob(".*/plugin.json"))
    except OSError:
        return True


def _named_by_marketplace(real: Path, above: list[Path]) -> bool:
    """A marketplace manifest at or above the plugin mentions the skill's folder as a path."""
    mention = re.compile(r"[\"/]" + re.escape(real.name) + r"/?\"")
    for a in above:
        market = a.joinpath(*MARKETPLACE)
        if _is_file(market):
            try:
                if mention.search(market.read_text("utf-8", errors="replace")):
                    return True
            except OSError:
                return True
    return False


def outside_plugin_skills(skill_root: Path) -> str | None:
    """Why no plugin loads the SKILL.md at `skill_root` as a skill, as a sentence, when its
    nearest Claude Code plugin names its skills folders and it lies outside all of them and
    the default `skills/` (see the module docstring); None otherwise."""
    real = skill_root.resolve()
    chain = _ancestors(real)
    root = next((a for a in chain if _is_file(a.joinpath(*MANIFEST))), None)
    if root is None or root == real:
        return None
    declared = _declared(root.joinpath(*MANIFEST))
    if declared is None:
        return None
    folders = [(root / d).resolve() for d in declared] + [root / DEFAULT_SKILLS]
    if any(_within(real, f) for f in folders):
        return None
    between = real.relative_to(root).parts
    if any(p.lower() == DEFAULT_SKILLS or p.startswith(".") for p in between):
        return None
    if _other_manifest(root) or _named_by_marketplace(real, chain[chain.index(root):]):
        return None
    shown = ", ".join(f"`{d}`" for d in declared)
    where = "/".join(between)
    return (f"this SKILL.md ({where}/ in its plugin) is outside the skills "
            f"folder{'s' if len(declared) > 1 else ''} the plugin's `.claude-plugin/plugin.json` "
            f"loads ({shown}), so the plugin does not load it as a skill and nothing looks it "
            "up by its name or folder")


def outside_reason(ctx: LintContext) -> str | None:
    """`outside_plugin_skills` for the skill being linted, unless the target is claude.ai's
    upload (which takes the file as a skill wherever it lies)."""
    if ctx.config.target == "claude-ai":
        return None
    # Five rules (and SF112 once per unknown key) ask: read the manifests once per lint pass.
    return ctx.memo(("outside_plugin_skills",), lambda: outside_plugin_skills(ctx.skill.root))
