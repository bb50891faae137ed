"""A starter skill's link to the connectors map of the plugin it will be copied into (SF116;
issue 36, holdout 23).

A Claude Cowork plugin keeps `CONNECTORS.md` at its root: the table that maps the
`~~category` placeholders its skills write (`~~file storage`, `~~chat`) to the tools
connected. Its skills, in `<plugin>/skills/<name>/`, link it as `../../CONNECTORS.md`. A
plugin builder keeps starter skills of that shape outside any plugin and copies them into
the plugin it generates, writing that plugin's `CONNECTORS.md` as it goes; in the builder's
repository the link has nothing to land on.

Read so only when all three hold: the link lands on `CONNECTORS.md` two levels above the
skill's folder (the plugin root of that layout), the file uses `~~category` placeholders
(not strikethrough), and no plugin holds the skill (`owner_roots.plugin_root`: no
`.claude-plugin/plugin.json` above it, no `plugins/<name>/` folder). Then the finding is a
warning naming the layout. A real plugin missing its map, a skill without placeholders, and
any other missing file keep the error.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.paths.other_skill_links import sibling_layout
from linters.text.paths.owner_roots import plugin_root

_MAP = "../../CONNECTORS.md"  # the plugin root's connectors map, from `skills/<name>/`
# Strikethrough (`~~old text~~`): opens before and closes after a non-space character.
_STRUCK = rx(r"~~(?=\S)[^~\n]*?(?<=\S)~~")
# A placeholder: `~~` then a category's name (`~~file storage`, `~~CRM`).
_PLACEHOLDER = rx(r"(?<!~)~~[A-Za-z]", re.MULTILINE)


def uses_placeholders(text: str) -> bool:
    """The text writes a `~~category` placeholder (strikethrough is not one)."""
    return "~~" in text and bool(_PLACEHOLDER.search(_STRUCK.sub("", text)))


def plugin_starter(root: Path, file: str, path: str, text: str) -> str | None:
    """Why a link (`path`, from `file` of the skill at `root`) to the plugin root's
    `CONNECTORS.md` is written for the plugin the skill will be copied into (a warning's
    reason), or None."""
    if posixpath.normpath(posixpath.join(posixpath.dirname(file) or ".", path)) != _MAP:
        return None
    if not uses_placeholders(text) or plugin_root(root) is not None:
        return None
    return ("the skill writes `~~category` placeholders and links the connectors map a "
            "plugin keeps at its root, but sits in no plugin (no `.claude-plugin/plugin.json` "
            "above it): a starter written for the plugin it is copied into")


def other_layout(root: Path, file: str, path: str, text: str) -> str | None:
    """Why a link the skill's folder cannot resolve is written for another layout of the
    skill (a sibling skill's, `other_skill_links.sibling_layout`, or the plugin it will be
    copied into), or None."""
    return sibling_layout(root, file, path, text) or plugin_starter(root, file, path, text)
