"""Per-harness placement rules (SF701, SF706, SF707): where the skill sits on disk, as each
harness named by `lint --harness` would find it.

SF701: the skill is in none of the folders the harness discovers skills in (or too deep
in one). SF706: the skill is part of a plugin, laid out where the harness does not look, or
of a plugin format the harness does not read. SF707: another skill of the same name is
installed where the harness looks, so one of the two is dropped. These read the file system
around the skill (its folders up to the repository root, and $HOME), not only the skill.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from linters.compat.checks import harness_finding
from linters.compat.profiles import Discovery, Profile, profile, profiles
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding, Severity

SKILL_MD = "SKILL.md"
# How deep below a root an "any depth" harness is followed when looking for namesakes: the
# installed skills of a real machine sit one or two levels down; a root holding a whole
# repository must not turn one lint into a walk of it.
MAX_SCAN_DEPTH = 4
MAX_SCAN_FILES = 2000
_NAME_LINE = re.compile(r"^name:\s*(['\"]?)(.+?)\1\s*(?:#.*)?$", re.MULTILINE)


def _exists(path: Path, kind: str = "any") -> bool:
    """`path` exists (as a file or folder if `kind` says so); an unreadable path does not
    (pathlib raises on a permission error, and a lint must not)."""
    try:
        return path.is_file() if kind == "file" else path.is_dir() if kind == "dir" else path.exists()
    except OSError:
        return False


@check("SF701", "SF706", "SF707")
def placement_rules(ctx: LintContext) -> Iterator[Finding]:
    """Discovery folders, plugin layout and namesakes, per harness."""
    if not ctx.config.harness:
        return
    real = ctx.skill.root.resolve()
    plugin = plugin_root(real)
    for harness in ctx.config.harness:
        p = profile(harness)
        if plugin is not None and _reads(p, plugin):
            # found once the plugin is installed, wherever that is: namesakes unknown here
            yield from _plugin(ctx, p, real, plugin)
            continue
        placed = _placed(p.discovery, real)
        if any(ok for _e, _r, ok in placed):
            # only a skill the harness finds can lose to (or shadow) a namesake
            yield from _conflicts(ctx, p, real)
        elif plugin is not None:
            yield from _plugin(ctx, p, real, plugin)  # a plugin it does not read: SF706 says so
        else:
            yield from _discovery(ctx, p, placed)


def project_ancestors(real: Path) -> list[Path]:
    """The skill's folders from its parent up to the repository root (the first holding
    `.git`), or up to the file-system root outside a repository."""
    out = []
    for a in real.parents:
        out.append(a)
        if _exists(a / ".git"):
            break
    return out


def roots(d: Discovery, real: Path) -> list[tuple[str, Path]]:
    """(as the profile writes it, folder) of every discovery root that applies to a skill at
    `real`: the project ones at every level up to the repository root, then the user ones."""
    out = [(rel, a / rel) for a in project_ancestors(real) for rel in d.project]
    return out + list(zip(d.user, d.user_roots(), strict=True))


def _within(d: Discovery, root: Path, real: Path) -> bool | None:
    """True: `real` is a skill the harness finds under `root`; False: under it but too deep
    or hidden; None: not under it."""
    try:
        rel = real.relative_to(root.resolve() if _exists(root) else root)
    except ValueError:
        return None
    if not rel.parts:
        return None
    if d.depth == "direct":
        return len(rel.parts) == 1
    return not any(part.startswith(".") for part in rel.parts)


def _placed(d: Discovery, real: Path) -> list[tuple[str, Path, bool]]:
    """(root as written, root, found) for every discovery root the skill sits under (see
    `_within`)."""
    return [(entry, root, ok) for entry, root in roots(d, real)
            if (ok := _within(d, root, real)) is not None]


def _discovery(ctx: LintContext, p: Profile,
               placed: list[tuple[str, Path, bool]]) -> Iterator[Finding]:
    d = p.discovery
    if placed:
        entry = placed[0][0]
        yield harness_finding(ctx, "SF701", p, d, f"reads only {entry}/<skill>/SKILL.md, one "
                              "folder down; this skill is nested deeper or in a hidden folder: "
                              f"move it to {entry}/{ctx.skill.folder_name}/",
                              severity=Severity.warning)
        return
    yield harness_finding(ctx, "SF701", p, d, "does not discover skills where this one is: it "
                          f"reads {', '.join(d.project)} in the project and "
                          f"{', '.join(d.user)}; install or link the skill as "
                          f"<one of them>/{ctx.skill.folder_name}/SKILL.md")


# --- plugins ------------------------------------------------------------------------------

def _all_manifests() -> tuple[str, ...]:
    return tuple(sorted({m for p in profiles().values() for m in p.plugin.manifests}))


def plugin_root(real: Path) -> tuple[Path, tuple[str, ...]] | None:
    """The nearest folder above the skill holding a plugin manifest, with the manifests there."""
    for a in project_ancestors(real):
        found = tuple(m for m in _all_manifests() if _exists(a / m, "file"))
        if found:
            return a, found
    return None


def _reads(p: Profile, plugin: tuple[Path, tuple[str, ...]]) -> bool:
    return bool(set(p.plugin.manifests) & set(plugin[1]))


def _declared_skill_dirs(root: Path, manifest: str) -> list[Path]:
    """Skill folders a manifest names under `skills` (a path or a list of them)."""
    try:
        data = json.loads((root / manifest).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    value = data.get("skills") if isinstance(data, dict) else None
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [(root / v).resolve() for v in items if isinstance(v, str)]


def _plugin(ctx: LintContext, p: Profile, real: Path,
            plugin: tuple[Path, tuple[str, ...]] | None) -> Iterator[Finding]:
    if plugin is None:
        return
    root, manifests = plugin
    shown = ", ".join(manifests)
    if not _reads(p, plugin):
        own = (f"package it as {p.title} expects ({', '.join(p.plugin.manifests)} with "
               f"{p.plugin.skills_dir}/) or install" if p.plugin.manifests
               else "no plugin format of its own for skills is known: install")
        yield harness_finding(ctx, "SF706", p, p.plugin, f"does not read this plugin's "
                              f"manifest ({shown}); {own} the skill in one of "
                              f"{', '.join((*p.discovery.project, *p.discovery.user))}",
                              severity=Severity.info)
        return
    expected = (root / p.plugin.skills_dir).resolve()
    if real.parent == expected:
        return
    declared = [d for m in manifests if m in p.plugin.manifests
                for d in _declared_skill_dirs(root, m)]
    if any(real == d or real.parent == d for d in declared):
        return
    where = os.path.relpath(real, root)
    yield harness_finding(ctx, "SF706", p, p.plugin, f"loads a plugin's skills from "
                          f"{p.plugin.skills_dir}/<skill>/SKILL.md beside {shown}; this one "
                          f"is at {where}: move it there or list its folder under `skills` "
                          "in the manifest")


# --- namesakes ----------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _name_in(skill_md: Path, _mtime: int) -> str:
    """The `name` in a SKILL.md's frontmatter (the folder's name when it has none)."""
    try:
        with skill_md.open(encoding="utf-8", errors="replace") as fh:
            head = fh.read(8192)
    except OSError:
        return skill_md.parent.name
    if head.startswith("---"):
        end = head.find("\n---", 3)
        m = _NAME_LINE.search(head[3:end if end > 0 else len(head)])
        if m:
            return m.group(2).strip()
    return skill_md.parent.name


def installed(root: Path, depth: str) -> list[Path]:
    """The SKILL.md files the harness finds under one root (none if it does not exist)."""
    if not _exists(root, "dir"):
        return []
    if depth == "direct":
        try:
            children = sorted(root.iterdir())
        except OSError:
            return []
        return [c / SKILL_MD for c in children if _exists(c / SKILL_MD, "file")]
    out: list[Path] = []
    base = len(root.parts)
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if len(Path(here).parts) - base >= MAX_SCAN_DEPTH:
            dirs[:] = []
        if SKILL_MD in files and Path(here) != root:
            out.append(Path(here) / SKILL_MD)
            if len(out) >= MAX_SCAN_FILES:
                break
    return out


def _shown(path: Path) -> str:
    home = str(Path(os.environ.get("HOME") or Path.home()))
    s = str(path)
    return "~" + s[len(home):] if home != "/" and s.startswith(home + os.sep) else s


def _conflicts(ctx: LintContext, p: Profile, real: Path) -> Iterator[Finding]:
    name = (ctx.skill.name or "").strip() or ctx.skill.folder_name
    seen: set[Path] = {real}
    for _entry, root in roots(p.discovery, real):
        for md in installed(root, p.discovery.depth):
            other = md.parent.resolve()
            if other in seen:
                continue
            seen.add(other)
            try:
                mtime = md.stat().st_mtime_ns
            except OSError:
                continue
            if _name_in(md, mtime) == name:
                yield harness_finding(
                    ctx, "SF707", p, p.discovery,
                    f"also finds a skill named `{name}` at {_shown(md)} and uses only one of "
                    f"the two ({p.discovery.precedence}): rename one or remove the copy",
                    ctx.fm_line("name"))
