"""Skills beside this one: a path the text gives as a file of a sibling skill it names is
that skill's file (SF116), found on disk among the folders next to the skill's own (and
those of sibling plugins in a marketplace)."""

from __future__ import annotations

import functools
import os
import posixpath
import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.paths.link_resolver import on_disk
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


def sibling_from_wrong_root(skill: Skill, path: str, base: str) -> tuple[str, str] | None:
    """A path that names a skill beside this one and a file that skill has, written from
    the wrong folder (`repo/skills/<sibling>/SKILL.md` from the repository's root, or
    `<sibling>/SKILL.md` without its `../`): (that skill's name, the path that finds the
    file from folder `base` of the skill). None when no such sibling has the file, and for
    a path that climbs (`../sibling/x.md` from a subfolder): it miscounts its levels, a
    broken relative link rather than one written from another root."""
    parts = posixpath.normpath(path.removeprefix("./")).split("/")
    if len(parts) < 2 or ".." in parts:
        return None
    by_name = {s.name: s for s in sibling_skills(skill.root)}
    for i, part in enumerate(parts[:-1]):
        sibling = by_name.get(part)
        rest = "/".join(parts[i + 1:])
        if sibling is not None and on_disk(sibling, rest):
            works = os.path.relpath(sibling / rest, skill.root.resolve() / base).replace(os.sep, "/")
            return sibling.name, works
    return None


def sibling_from_skill_root(skill: Skill, path: str, base: str) -> tuple[str, str] | None:
    """A link in a subfolder's file (`base`) written from the skill's root, the way the
    Agent Skills spec words file references (`../flag-cleanup/SKILL.md` in
    `references/checklist.md`): (the sibling's name, the path that finds the file from
    `base`) when, read from the root, it names a file of a skill beside this one, and the
    skill's SKILL.md gives the same link, so the file repeats a link written from the
    root. A climb to a sibling SKILL.md never uses miscounts its levels: a broken link."""
    main = skill.file("SKILL.md")
    if not base or main is None or f"]({path})" not in (main.text or ""):
        return None
    parts = posixpath.normpath(path.removeprefix("./")).split("/")
    if len(parts) < 3 or parts[0] != ".." or ".." in parts[1:]:
        return None
    by_name = {s.name: s for s in sibling_skills(skill.root)}
    sibling, rest = by_name.get(parts[1]), "/".join(parts[2:])
    if sibling is None or not on_disk(sibling, rest):
        return None
    works = os.path.relpath(sibling / rest, skill.root.resolve() / base).replace(os.sep, "/")
    return sibling.name, works


def sibling_written_elsewhere(skill: Skill, path: str, base: str) -> tuple[str, str] | None:
    """A sibling skill's file named from another folder than `base`: the repository's
    root, the skills' folder, or this skill's root (see the two readings above)."""
    return sibling_from_wrong_root(skill, path, base) or sibling_from_skill_root(skill, path,
                                                                                 base)


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
    """Skill folders beside `root` (same parent), those of sibling plugins
    (`plugins/*/skills/*` of a marketplace), those of the other categories of a category
    layout (`skills/<category>/<skill>`), and skills nested one level inside any of them;
    for a skill nested in another, the enclosing skill's too. Kept while the parent and
    grandparent folders' mtimes stand (a skill of 300 pages may have 1,000 broken links; an
    editor session adds siblings)."""
    try:
        own = root.resolve()
        parent = own.parent
        stamp = (parent.stat().st_mtime_ns, parent.parent.stat().st_mtime_ns)
    except OSError:
        return ()
    held = _SIBLINGS.get(parent)
    if held is None or held[0] != stamp:
        found = _list_siblings(parent)
        if (parent / "SKILL.md").is_file():  # a nested skill: the enclosing one's siblings
            found = tuple(sorted(set(found) | set(sibling_skills(parent)) | {parent}))
        held = _SIBLINGS[parent] = (stamp, found)
        if len(_SIBLINGS) > 64:
            _SIBLINGS.pop(next(iter(_SIBLINGS)))
    return tuple(s for s in held[1] if s != own)


_SIBLINGS: dict[Path, tuple[tuple[int, int], tuple[Path, ...]]] = {}
_MAX_CATEGORIES = 64


def _list_siblings(parent: Path) -> tuple[Path, ...]:
    try:
        candidates = list(parent.iterdir())
        if parent.name == "skills" and parent.parent.parent.name == "plugins":
            candidates += [s for p in parent.parent.parent.iterdir() if p != parent.parent
                           for s in (p / "skills").glob("*")]
        grand = parent.parent
        if grand.name.lower() == "skills" and not (parent / "SKILL.md").is_file():
            categories = [c for c in grand.iterdir() if c != parent and c.is_dir()]
            if len(categories) <= _MAX_CATEGORIES:
                candidates += [s for c in categories for s in c.iterdir()]
        skills = [c for c in candidates if c.is_dir() and (c / "SKILL.md").is_file()]
        nested = [n for s in skills for n in s.iterdir()
                  if n.is_dir() and (n / "SKILL.md").is_file()]
        return tuple(sorted(set(skills + nested)))
    except OSError:
        return ()


# `name:` in a SKILL.md's frontmatter, as written (quotes off).
_FM_NAME = rx(r"^name:[ \t]*[\"']?([^\"'\n#]*?)[\"']?[ \t]*$", re.MULTILINE)
_FM_HEAD = 2000  # characters of a sibling's SKILL.md read for its name


def category_prefixed(root: Path, name: str) -> bool:
    """`name` is the skill's folder name prefixed with its category folder's name
    (`skills/cloud/setup` named `cloud-setup`), and that is the category's scheme: every
    skill in the folder has a name starting with `cloud-`, at least two by that joining.
    Installers that copy a skill into a folder named after `name` (`npx skills`) give it
    the matching folder; a lone such name (`quarto/authoring` as `quarto-authoring`) or a
    category whose other names follow no scheme is a plain mismatch."""
    category = root.resolve().parent
    prefix = f"{category.name}-"
    if name != prefix + root.resolve().name:
        return False
    try:
        skills = [c for c in category.iterdir() if c.is_dir() and (c / "SKILL.md").is_file()]
    except OSError:
        return False
    joined = 0
    for s in skills:
        try:
            head = (s / "SKILL.md").read_text(encoding="utf-8", errors="replace")[:_FM_HEAD]
        except OSError:
            return False
        m = _FM_NAME.search(head)
        other = m.group(1).strip() if m else ""
        if not other.startswith(prefix):
            return False
        joined += other == prefix + s.name
    return joined >= 2
