"""A SKILL.md that documents a plugin of the project's own "skills" system (issue 36, holdout32).

Some applications call their own extensions "skills": each is a Python package (an
`__init__.py`, its code, its tests) with a manifest the application reads (`skill.yaml` holding
`name`, `description`, a version, its settings), and a SKILL.md beside them that is the
plugin's documentation for people. No agent harness loads that folder; its name and
description live in the manifest. Both readers of holdout32 read a missing frontmatter there
(SF102) as policy, so it is a warning that says what the folder looks like and what to do if
it is meant for agents too.

It takes both signs: a manifest alone beside SKILL.md (a `skill.yaml` or `skill.json` kept
next to an agent skill, in holdout and holdout26, read as true errors) is metadata an agent
skill carries, and an `__init__.py` alone is a skill that ships a Python helper. Nor does it apply
for `--target claude-ai`, which means the file is to be uploaded as a skill.
"""

from __future__ import annotations

import json
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.context import LintContext

PACKAGE_MARK = "__init__.py"
# The manifests such an application reads beside the plugin's code.
MANIFESTS = ("skill.yaml", "skill.yml", "skill.json", "plugin.yaml", "plugin.yml")
_MAX_MANIFEST = 64_000  # a manifest is a few lines; a bigger file is something else


def _fields(path: Path) -> object:
    """The manifest's data, or None when it is absent, too big or does not parse."""
    try:
        if not path.is_file() or path.stat().st_size > _MAX_MANIFEST:
            return None
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return None
    try:
        return json.loads(text) if path.suffix == ".json" else YAML(typ="safe").load(text)
    except (ValueError, YAMLError):
        return None


def _manifest(root: Path) -> str | None:
    """The name of the manifest beside SKILL.md that gives the plugin a `name` and a
    `description` (both non-empty strings), or None."""
    for name in MANIFESTS:
        data = _fields(root / name)
        if isinstance(data, dict) and all(
            isinstance(data.get(k), str) and data[k].strip() for k in ("name", "description")
        ):
            return name
    return None


def project_plugin(skill_root: Path) -> str | None:
    """Why the SKILL.md at `skill_root` looks like the documentation of a plugin of the
    project's own skills system, as a clause; None unless its folder is a Python package
    (`__init__.py`) holding a manifest with a name and a description (module docstring)."""
    try:
        if not (skill_root / PACKAGE_MARK).is_file():
            return None
    except OSError:
        return None
    manifest = _manifest(skill_root)
    if manifest is None:
        return None
    return (f"its folder is a Python package (`{PACKAGE_MARK}`) whose `{manifest}` gives the "
            "name and description, so this looks like a plugin of the project's own \"skills\" "
            "system documented for people, not an agent skill")


def project_plugin_reason(ctx: LintContext) -> str | None:
    """`project_plugin` for the skill being linted, unless the target is claude.ai's upload."""
    if ctx.config.target == "claude-ai":
        return None
    return project_plugin(ctx.skill.root)
