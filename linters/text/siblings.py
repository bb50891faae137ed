"""Skills beside this one: a path the text gives as a file of a sibling skill it names is
that skill's file (SF116), found on disk among the folders next to the skill's own (and
those of sibling plugins in a marketplace)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.link_resolver import on_disk
from skillforge.models.skill import Skill


def named_sibling_has(skill: Skill, path: str, text: str) -> bool:
    """`path` is a file of a sibling skill the same paragraph names ("`doc-audit`
    (`references/checks.md`)", "In ima-copilot, this became `scripts/install.sh`"): the
    text speaks of that skill's file, which exists, not of this skill's."""
    if ".." in path.split("/"):
        return False
    siblings = sibling_skills(skill.root)
    named = _names_in(text, tuple(s.name.lower() for s in siblings))
    return any(s.name.lower() in named and on_disk(s, path.removeprefix("./"))
               for s in siblings)


# The words just before a path that hand it out to every product or skill ("per-product
# `references/catalog.md`", "each skill's `SKILL.md`"): the file of each sibling, not this
# skill's.
_DISTRIBUTIVE = rx(
    r"\b(?:per[-\s](?:product|skill|plugin|provider|service|module|package|tool|platform)"
    r"|(?:each|every)\s+(?:[\w-]+\s+)?(?:product|skill|plugin|provider|service|module"
    r"|package|tool|platform)(?:['’]s|\s+has\s+(?:its|a)\s+own)?)\s*[`*_]*$",
    re.IGNORECASE,
)


def distributed_sibling_has(skill: Skill, path: str, before: str) -> bool:
    """`path` follows words that give it to each product or skill ("per-product
    `references/resource-catalog.md`") and a skill beside this one has it: the text points
    at the siblings' copies."""
    if ".." in path.split("/") or not _DISTRIBUTIVE.search(before[-60:]):
        return False
    rel = path.removeprefix("./")
    return any(on_disk(s, rel) for s in sibling_skills(skill.root))


@functools.lru_cache(maxsize=32)
def _names_in(text: str, names: tuple[str, ...]) -> frozenset[str]:
    """Which of `names` the paragraph `text` names as a word: read once per paragraph,
    however many paths it holds."""
    low = text.lower()
    return frozenset(n for n in names
                     if n in low and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", low))


def sibling_skills(root: Path) -> tuple[Path, ...]:
    """Skill folders beside `root` (same parent), and those of sibling plugins
    (`plugins/*/skills/*` of a marketplace). Kept while the parent folder's mtime stands (a
    skill of 300 pages may have 1,000 broken links; an editor session adds siblings)."""
    try:
        own = root.resolve()
        parent = own.parent
        stamp = parent.stat().st_mtime_ns
    except OSError:
        return ()
    held = _SIBLINGS.get(parent)
    if held is None or held[0] != stamp:
        held = _SIBLINGS[parent] = (stamp, _list_siblings(parent))
        if len(_SIBLINGS) > 64:
            _SIBLINGS.pop(next(iter(_SIBLINGS)))
    return tuple(s for s in held[1] if s != own)


_SIBLINGS: dict[Path, tuple[int, tuple[Path, ...]]] = {}


def _list_siblings(parent: Path) -> tuple[Path, ...]:
    try:
        candidates = list(parent.iterdir())
        if parent.name == "skills" and parent.parent.parent.name == "plugins":
            candidates += [s for p in parent.parent.parent.iterdir() if p != parent.parent
                           for s in (p / "skills").glob("*")]
        return tuple(sorted(c for c in candidates if c.is_dir() and (c / "SKILL.md").is_file()))
    except OSError:
        return ()
