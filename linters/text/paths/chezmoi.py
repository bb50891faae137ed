"""A skill kept in a chezmoi source tree names its files by their target names (issue 36).

chezmoi (a dotfiles manager) stores each file under a source name that encodes how to
install it, and `chezmoi apply` writes it under its target name: `executable_jira-sync`
becomes `jira-sync` with the run bit, `dot_claude/` becomes `.claude/`,
`private_notes.md.tmpl` becomes `notes.md` rendered from a template. chezmoi's reference
lists these "source state attributes" (https://chezmoi.io/reference/source-state-attributes/):
the prefixes `after_`, `before_`, `create_`, `dot_`, `empty_`, `encrypted_`, `external_`,
`exact_`, `executable_`, `literal_`, `modify_`, `once_`, `onchange_`, `private_`,
`readonly_`, `remove_`, `run_`, `symlink_`, and the suffixes `.literal` and `.tmpl` (an
encrypted file also carries its encryption's `.age` or `.asc`). `literal_` and `.literal`
stop the parsing; `dot_` comes last and turns into a leading dot.

A skill in such a tree is written for its installed form (`~/.claude/skills/jira/`), so
`jira-sync` in its text is the file the repository keeps as `executable_jira-sync`: a path
is the skill's when every component, read as its chezmoi target name, names one. Only in a
chezmoi source tree: a folder above the skill whose name is a chezmoi source name for a
dotted folder (`dot_claude`, `private_dot_config`, `exact_dot_agents`), or chezmoi's own
files (`.chezmoiroot`, `.chezmoiignore`, `.chezmoi.toml.tmpl`, ...) at the top.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from pathlib import Path

from linters.text.paths.project_top import folders_up
from skillforge.models.skill import Skill

_PREFIXES = ("after_", "before_", "create_", "empty_", "encrypted_", "external_", "exact_",
             "executable_", "modify_", "once_", "onchange_", "private_", "readonly_",
             "symlink_")
# Entries that install no target of that name: a script chezmoi runs, a target it removes.
_NO_TARGET = ("run_", "remove_")
# Prefixes a folder's source name can carry before `dot_`.
_DIR_PREFIXES = ("remove_", "external_", "exact_", "private_", "readonly_")
_MARKERS = (".chezmoiroot", ".chezmoiignore", ".chezmoiversion", ".chezmoiremove",
            ".chezmoi.toml.tmpl", ".chezmoi.yaml.tmpl", ".chezmoi.json.tmpl",
            ".chezmoiexternal.toml", ".chezmoiexternal.yaml", ".chezmoiexternal.json",
            ".chezmoiscripts", ".chezmoitemplates", ".chezmoidata")
_LEVELS = 6  # folders above the skill searched for the tree's signs


def target_name(source: str) -> str | None:
    """The name chezmoi installs source name `source` as (itself when it has no attribute);
    None for an entry that installs nothing under a name (`run_`, `remove_`) and for the
    names chezmoi keeps to itself (`.chezmoi*`)."""
    if source.startswith(_NO_TARGET) or source.startswith(".chezmoi"):
        return None
    name, literal, encrypted = source, False, False
    while not literal:
        if name.startswith("literal_"):
            name, literal = name[len("literal_"):], True
            break
        prefix = next((p for p in _PREFIXES if name.startswith(p)), None)
        if prefix is None:
            break
        encrypted = encrypted or prefix == "encrypted_"
        name = name[len(prefix):]
    if not literal and name.startswith("dot_"):
        name = "." + name[len("dot_"):]
    if name.endswith(".literal"):
        return name[: -len(".literal")] or None
    if encrypted:
        name = name.removesuffix(".age").removesuffix(".asc")
    name = name.removesuffix(".tmpl")
    return name or None


def _dotted_folder(name: str) -> bool:
    """`name` is a chezmoi source name of a dotted folder: `dot_claude`, `exact_dot_x`."""
    while True:
        prefix = next((p for p in _DIR_PREFIXES if name.startswith(p)), None)
        if prefix is None:
            return name.startswith("dot_") and len(name) > len("dot_")
        name = name[len(prefix):]


@lru_cache(maxsize=32)
def in_chezmoi_tree(root: Path) -> bool:
    """The skill folder `root` lies in a chezmoi source tree (see the module's note)."""
    try:
        real = root.resolve()
        return any((folder != real and _dotted_folder(folder.name))
                   or any((folder / m).exists() for m in _MARKERS)
                   for folder in folders_up(real, _LEVELS))
    except OSError:
        return False


@lru_cache(maxsize=32)
def _targets(root: Path, paths: tuple[str, ...]) -> dict[str, str]:
    """{target path: source path} of the skill's files whose target path differs."""
    out: dict[str, str] = {}
    for path in paths:
        sources = path.split("/")
        parts = [target_name(p) for p in sources]
        if any(p is None for p in parts):
            continue
        targets = [p for p in parts if p is not None]
        # The file, and each folder it runs through, under its target path.
        for depth in range(len(targets), 0, -1):
            target, source = "/".join(targets[:depth]), "/".join(sources[:depth])
            if target != source:
                out.setdefault(target, source)
    return out


def chezmoi_source(skill: Skill, path: str) -> str | None:
    """The skill's file (or folder) that chezmoi installs as `path`, a skill-relative path
    the skill does not have as written, when the skill is in a chezmoi source tree."""
    path = posixpath.normpath(path.strip("/"))
    if not path or path.startswith("..") or not in_chezmoi_tree(skill.root):
        return None
    files = tuple(sorted(f.path for f in skill.files if f.present and not f.is_dir))
    return _targets(skill.root, files).get(path)


def installs_executable(source: str) -> bool:
    """chezmoi sets the run bit of the file it installs from `source` (`executable_x`)."""
    name = posixpath.basename(source)
    while not name.startswith("executable_"):
        prefix = next((p for p in _PREFIXES if name.startswith(p)), None)
        if prefix is None:
            return False
        name = name[len(prefix):]
    return True
