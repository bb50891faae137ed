"""The repository's own installer installing a skill under its `name`, read from the catalogue
it installs from (SF110, issue 36, holdout32).

A repository that ships its own installer often keeps a catalogue of its skills at its top:
a `registry.json` (or `skills.yaml`, ...) whose entries give each skill an id and the folder
it is copied from (`{"id": "acme-flutter", "path": "skills/sdk/flutter"}`), and the installer
copies that folder to `.claude/skills/<id>/`. Where the id is the SKILL.md's `name`, the
mismatch between `name` and the folder is the repository's naming, not a slip: the installed
copy's folder matches, and only a harness loading the skill where it sits sees the folder's
name. Readers settled earlier holdouts so: only a repository's own installer that installs
under the name makes SF110 policy, while a third party's `npx skills add` does not.

Both halves are read, since a catalogue alone says nothing of where its skills land: the
generated indexes of two earlier parts (holdout, holdout7) copy every SKILL.md's `name`
beside its `path`, and one's installer downloads each skill to its `path`, under the folder's
name (8 findings read as true, which the catalogue alone would have softened).

- The catalogue: a JSON or YAML file in the folder at the repository's top (the folder that
  holds `.git`) or at the top of the plugin holding the skill (`.claude-plugin/plugin.json`,
  or `plugins/<name>/`), with an entry whose path (relative to that folder) is the skill's
  folder or its SKILL.md and whose id, name or slug is the `name`.
- The installer: a script in that folder or its `bin/`, `scripts/`, `cli/`, `tools/`, `src/`
  or `lib/` that names the catalogue's file and, on one line that places a copy (a
  destination, the user's home or working folder, a copy or link command), writes an agent's
  skills folder and then the entry's key (`dest = path.join(dir, '.claude', 'skills',
  skill.id)`, `Path.home() / ".claude" / "skills" / entry["id"]`, `cp -r "$src"
  ".agents/skills/$id"`). The scripts that generate a catalogue read each skill's folder
  (`.claude/skills/${d.name}`, a directory entry's name) or give an entry its path (`path:
  `.claude/skills/${d.name}``): no install.

An entry for the folder under another id, entries for other folders only, a catalogue inside
a sibling skill's folder or none at all, or an installer that copies each skill to its path
leave the error. A copied skill whose repository is not on disk has no catalogue, and its
finding keeps its weight.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.text.compiled_regex import rx
from linters.text.paths.owner_roots import plugin_root
from linters.text.paths.project_top import git_top
from linters.text.repo_docs import documents_in_folders_above

_CATALOGUE = rx(r"\.(?:json|ya?ml)$", re.IGNORECASE)
# Files of that kind that are never a catalogue of skills: lock files, tool settings.
_NOT_CATALOGUE = rx(r"^(?:package-lock|npm-shrinkwrap|pnpm-lock|tsconfig[\w.-]*|\.[\w-]+)\.",
                    re.IGNORECASE)
# The keys an entry gives its folder and its id under.
_PATH_KEYS = frozenset({"path", "dir", "directory", "folder", "source", "location", "src",
                        "skill_path", "skillpath", "skill_dir", "skilldir"})
_ID_KEYS = frozenset({"id", "name", "slug"})
_NODES = 20_000  # entries walked per file: a catalogue is small, a data file need not be
# The line gives an entry its path (`path: `.claude/skills/${d.name}``): the script that
# generates the catalogue, from each folder's name (holdout7), not one that installs from it.
_PATH_VALUE = rx(r"""\b(?:path|dir|directory|folder|source|location|src)["'`]?\s*[:=](?!=)""",
                 re.IGNORECASE)
# The line places a copy: a destination, the user's home or working folder, a copy or link.
# A generator reading each skill (`readFileSync(`.claude/skills/${d.name}/SKILL.md`)`) has
# none: a directory entry's `.name` is the folder's name, not the catalogue's.
_DESTINATION = rx(r"\b(?:dest\w*|target\w*|install\w*|cwd|home(?:dir)?|cp|cpSync|copy\w*"
                  r"|copytree|symlink\w*|ln|mkdirs?|makedirs)\b", re.IGNORECASE)
_SCRIPT = rx(r"\.(?:[cm]?js|[cm]?ts|py|sh|bash|ps1)$", re.IGNORECASE)
_SCRIPT_FOLDERS = ("bin", "scripts", "cli", "tools", "src", "lib")
# An agent's skills folder written in a path: `.claude/skills`, `'.claude', 'skills'`,
# `".agents" / "skills"`. A bare `skills` is the repository's own folder: the script that
# generates a catalogue joins it with each folder's name.
_AGENT_SKILLS = rx(r"""\.(?:claude|agents?|codex|cursor|gemini|opencode|github|windsurf|kiro|goose"""
                   r"""|roo|cline|amp|factory|augment|qwen|trae)["'`]?\s*[,/\\+]\s*["'`]?skills\b""")


class Listing(NamedTuple):
    """Where the catalogue names the skill's folder under its `name`, and the installer."""

    catalogue: str  # the file, relative to the repository's (or plugin's) top
    line: int  # the line of the folder's path in it
    path: str  # the folder's path as the catalogue writes it
    installer: str  # the script, relative to the same top
    installer_line: int  # its line that builds the skills folder from the id

    def where(self) -> str:
        return (f"`{self.catalogue}` line {self.line}, which `{self.installer}` line "
                f"{self.installer_line} installs from")


def registry_listing(root: Path, name: str) -> Listing | None:
    """The entry of the repository's (or plugin's) own catalogue that lists the skill at `root`
    under the id `name`, with the script that installs under it (module docstring), or None."""
    try:
        real = root.resolve()
    except (OSError, RuntimeError):
        return None
    tops = {t for t in (git_top(real), plugin_root(real)) if t is not None}
    if not tops or not name:
        return None
    for folder, rel, text in documents_in_folders_above(real, _wanted):
        if folder not in tops or name not in text or real.name not in text:
            continue
        try:
            own = real.relative_to(folder).as_posix()
        except ValueError:
            continue
        for written, key in _paths_named(text, rel.lower().endswith(".json"), name):
            if _normal(written) != own:
                continue
            installer = _installer(real, folder, posixpath.basename(rel), key)
            if installer is not None:
                return Listing(rel, _line_of(text, written), written, *installer)
    return None


def _wanted(file_name: str) -> bool:
    return bool(_CATALOGUE.search(file_name)) and not _NOT_CATALOGUE.match(file_name)


@functools.lru_cache(maxsize=64)
def _paths_named(text: str, is_json: bool, name: str) -> tuple[tuple[str, str], ...]:
    """(path as written, the key holding `name`) of the catalogue's entries for the id
    `name`."""
    try:
        data = json.loads(text) if is_json else YAML(typ="safe", pure=True).load(text)
    except (ValueError, YAMLError, RecursionError):
        return ()
    found: dict[tuple[str, str], None] = {}
    for entry in _entries(data):
        keys = [i for i in entry if isinstance(i, str) and i.lower() in _ID_KEYS
                and entry[i] == name]
        for k in entry if keys else ():
            if isinstance(k, str) and k.lower() in _PATH_KEYS and isinstance(entry[k], str):
                found.update({(entry[k], i): None for i in keys})
    return tuple(found)


def _entries(data: object) -> Iterator[dict]:
    """Every mapping in the parsed file, breadth first, up to `_NODES` of them."""
    queue, seen = deque([data]), 0
    while queue and seen < _NODES:
        node = queue.popleft()
        seen += 1
        if isinstance(node, dict):
            yield node
            queue.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            queue.extend(v for v in node if isinstance(v, (dict, list)))


def _installer(real: Path, top: Path, catalogue: str, key: str) -> tuple[str, int] | None:
    """(script, line) of a script at `top` or in its script folders that names `catalogue`
    and, on a line placing a copy, joins an agent's skills folder with the entry's `key`."""
    used = _key_use(key)
    for folder, rel, text in documents_in_folders_above(
            real, lambda n: bool(_SCRIPT.search(n)), _SCRIPT_FOLDERS):
        if folder != top or catalogue not in text:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            place = _AGENT_SKILLS.search(line)
            if (place is not None and used.search(line, place.end())
                    and _DESTINATION.search(line)
                    and not _PATH_VALUE.search(line, 0, place.start())):
                return rel, no
    return None


@functools.lru_cache(maxsize=8)
def _key_use(key: str) -> re.Pattern[str]:
    """The entry's `key` read in code: `skill.id`, `entry["id"]`, `.get("id")`, `$id`."""
    k = re.escape(key)
    return re.compile(rf"""\.{k}\b|\[\s*["']{k}["']\s*\]|\.get\(\s*["']{k}["']|\$\{{?{k}\b""")


def _normal(written: str) -> str:
    """A catalogue's path as a folder relative to the catalogue: no `./`, trailing `/` or
    `/SKILL.md`."""
    p = written.strip().replace("\\", "/")
    if p.endswith("/SKILL.md") or p == "SKILL.md":
        p = p[: -len("SKILL.md")]
    return posixpath.normpath(p.rstrip("/") or ".") if p and not p.startswith("/") else ""


def _line_of(text: str, written: str) -> int:
    """The first line that holds `written` as a whole path (not a longer one)."""
    m = re.search(rf"(?<![\w./-]){re.escape(written)}(?![\w/.-])", text)
    return text.count("\n", 0, m.start()) + 1 if m else 1
