"""SF112: a frontmatter block named for a platform the skill says it is made for (issue 36,
the `test` part's Copilot Cowork skills).

A skill that declares its platforms (`"platforms": ["Cowork"]` in the `metadata.json` beside
SKILL.md, or a `platforms` list in its frontmatter or under `metadata:`) and carries a
top-level mapping named for one of them (`cowork: {category: analysis, icon: Lightbulb}`)
holds that platform's settings: the block means something where the skill says it runs,
and nothing elsewhere. That is a warning naming the declaration, as a key a harness
documents is, not the error an unknown key gets. A scalar key (`cowork: true`), a block
named for no declared platform, or a skill that declares none keeps the error.
"""

from __future__ import annotations

import json
import re

from linters.context import LintContext

_SIDECAR = "metadata.json"
_MAX_BYTES = 256 * 1024


def _norm(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).lower()


def _names(value: object) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return []


def declared_platforms(ctx: LintContext) -> list[tuple[str, str]]:
    """(platform, where the skill declares it) for every platform the skill names."""
    found: list[tuple[str, str]] = []
    fm = ctx.skill.frontmatter.data if ctx.skill.frontmatter else {}
    meta = fm.get("metadata")
    for where, value in (("frontmatter `platforms`", fm.get("platforms")),
                         ("`metadata.platforms`",
                          meta.get("platforms") if isinstance(meta, dict) else None)):
        found += [(name, where) for name in _names(value)]
    side = ctx.skill.file(_SIDECAR)
    if side is not None and side.text and len(side.text) <= _MAX_BYTES:
        try:
            data = json.loads(side.text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            found += [(name, f"{_SIDECAR} `platforms`") for name in _names(data.get("platforms"))]
    return found


def platform_block(ctx: LintContext, key: str) -> tuple[str, str] | None:
    """(platform, where declared) when the top-level `key` is a mapping named for a platform
    the skill declares it is made for; None otherwise."""
    value = ctx.skill.frontmatter.data.get(key) if ctx.skill.frontmatter else None
    if not isinstance(value, dict) or not _norm(key):
        return None
    return next(((name, where) for name, where in declared_platforms(ctx)
                 if _norm(name) == _norm(key)), None)


def platform_key(key: str, platform: str, where: str) -> str:
    """SF112's warning for a platform's settings block (`platform_block`)."""
    return (f"`{key}` is not in the Agent Skills spec: it is a block of settings for "
            f"{platform}, which this skill declares it is made for ({where}), but other "
            "harnesses ignore it and strict validators reject the skill, so keep it only if "
            f"the skill is meant for {platform}.")
