"""Project skills: a skill kept in a repository's own `.claude/skills/<name>/` (or `.agents/`,
`.codex/`, `.github/`) whose text says it works on "this repo" or whose run names the
repository ("Run repo validation: `scripts/x.py`"; holdout 16), one about "this repo" that
gives the layout it sits in (`skills/<category>/<skill-name>/`: a skill for adding to that
collection), or one in a repository's top `skills/<name>/` that keeps the collection
("orphans not linked from any SKILL.md"), runs from the repository's top, so
`scripts/validate.py` there is the repository's file (SF116, SF301; issue 36, holdouts 13
and 14); so does a project skill about "this project" (holdout 17: in a repository's own
agent folder the project is that repository). So does a keeper of a collection kept flat
at the repository's top (`<repo>/<name>/SKILL.md` beside other skills; holdout 15). When
the top is on disk (it holds `.git`) the file is looked up there; a copied skill whose top
cannot be checked gets a warning naming the assumption. Not when the skill has the path's
first folder: then the path names its own file, misspelt or lost, unless it is a script
found at the checked top and the skill has none of nearly that name
(`project_top_scripts`; holdout 26). A project skill's path
that climbs to the repository's top (`../../../docs/x.md`) names the repository's file
without words (`climbs_to_project_top`; holdout 17). A project skill without words of this
repo, but whose text names files in folders it does not have (`trading-desk/state/x.md`,
`.claude/skills/other/notes.md`: at least two, written from the repository's top, its
working folder) and which has no `scripts/` of its own, runs the repository's `scripts/`
too (`written_from_top`; holdout 18). Only `scripts/`: its other missing files (a
reference, a template) stay its own. Any skill of a repository (in its `skills/` collection
or its agent folder) whose run's line or block lead-in names the repository or the
collection ("Run the repo's validator", "when editing this skills pack"), or that runs a
tool named for the collection's skills (`scripts/validate-skills.py`), runs a maintainer's
step from the repository's top: a warning when the file is there on disk, the skill's
scripts folder or not (`collection_run`; holdout 12); a copy keeps its finding.

The words above are needed only where the top cannot be looked at. A project skill runs
with the repository's top as its working folder in whatever language it is written ("this
repo" is English; a Catalan or Portuguese skill says it otherwise, or not at all), so when
the file it names is found at that top on disk, it is the repository's file, words or none:
its run is not reported (SF301) and its mention is a warning that says where (SF116;
holdout 20: `.agents/skills/erp-test/` running the repository's `scripts/run-tests.sh`).
The words were asked of every project skill so that a copied skill (its top not on disk)
gets its warning only when its text says it works on the repository; a copy still needs
them, and a top that lacks the file still decides nothing without them. Only the found file
counts: the top need not hold `.git` (a snapshot's checkout has none), as with the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.paths.path_refs import CONVENTIONAL_DIRS
from linters.text.paths.project_top_scripts import found_beside_own_folder


_AGENT_DIRS = (".claude", ".agents", ".codex", ".github")
# The skill says it works on the repository it is kept in.
# A run's own line that names the repository: "Run repo validation", "the repository's".
_REPO_WORD = rx(r"\brepo(?:sitory)?\b", re.IGNORECASE)
_THIS_REPO = rx(r"\b(?:this|the\s+current|our)\s+(?:repo(?:sitory)?|codebase|monorepo)\b"
                # Vietnamese: "repo này" (this repo), "codebase hiện tại" (the current one)
                r"|(?<!\w)(?:repo(?:sitory)?|codebase|monorepo)\s+(?:này|hiện\s+tại)(?!\w)",
                re.IGNORECASE)
# In a skill kept in a repository's own agent folder, "this project" is that repository too
# (elsewhere it is as often the user's project the skill is used on). In Vietnamese "dự án
# này" (this project), "dự án hiện tại" (the current project), "của dự án" (the project's).
_THIS_PROJECT = rx(r"\b(?:this|the\s+current|our)\s+project\b|\bthe\s+project['’]s\b"
                   r"|(?<!\w)dự\s+án\s+(?:này|hiện\s+tại)(?!\w)|(?<!\w)của\s+dự\s+án(?!\w)",
                   re.IGNORECASE)


def project_top(root: Path) -> Path | None:
    """The repository's top for a skill kept in its `.claude/skills/<name>/` (or another
    agent's folder), or None for a skill anywhere else."""
    skills = root.parent
    if skills.name != "skills" or skills.parent.name not in _AGENT_DIRS:
        return None
    return skills.parent.parent


@lru_cache(maxsize=32)
def _says_this_repo(text: str) -> bool:
    return bool(_THIS_REPO.search(text))


@lru_cache(maxsize=32)
def _says_this_project(text: str) -> bool:
    return bool(_THIS_PROJECT.search(text))


# A skill that keeps the collection it belongs to: "not linked from any SKILL.md",
# "every SKILL.md in the repo", "any existing skill's SKILL.md" (not "the SKILL.md", "your
# SKILL.md").
_KEEPS_SKILLS = rx(r"\b(?:any|every|each|all|other)\s+(?:other\s+|existing\s+)?"
                   r"(?:skills?['’]s?\s+)?SKILL\.md\b")
# Other skills beside a skill that make its folder a collection kept flat.
_FLAT_SIBLINGS = 2


@lru_cache(maxsize=32)
def _maintains_skills(text: str) -> bool:
    return bool(_KEEPS_SKILLS.search(text))


def _plugin_root(folder: Path) -> bool:
    """`folder` is one plugin of a repository's `plugins/`: that plugin is installed apart
    from the user's project, so its root is no working directory and its `scripts/` are not
    reached by a bare relative path. (A repository that is itself one plugin is still the
    repository its collection keeper works in.)"""
    return folder.parent.name == "plugins"


def from_project_top(root: Path, text: str, rel: str, has_top: bool,
                     near: str = "", lead: str = "") -> bool | str | None:
    """`_from_project_top`, or else (a project skill with the path's first folder)
    `found_beside_own_folder`, or else `collection_run` with the run's line and the lead-in
    of its block (`lead`)."""
    found = _from_project_top(root, text, rel, has_top, near)
    top = project_top(root)
    if found is None and has_top and top is not None:
        found = found_beside_own_folder(root, top, rel, text)
    if found is None:
        return collection_run(root, rel, f"{near} {lead}")
    return found


def _from_project_top(root: Path, text: str, rel: str, has_top: bool,
                      near: str = "") -> bool | str | None:
    """Whether the missing script `rel` of a project skill is the repository's: True when
    it is at the repository's top, a warning's reason when it may be (the top cannot be
    checked), False when the checked top lacks it, None when the reading does not apply
    (not a project skill, the skill has the script's folder, no words of this repo and
    the script not at the top: one found at a project skill's top needs no words).
    `near` is the line that runs the script: a project skill's run there that names the
    repository ("Run repo validation: `scripts/x.py`") is the repository's without other
    words of "this repo". A project skill's path that climbs out of it (`../x`) is read
    from where it climbs to (`climbs_to_project_top`), not from the top."""
    top = project_top(root)
    if top is not None and rel.startswith("../"):
        return None
    if top is not None and not has_top and (top / rel).is_file():
        return True  # found where a project skill runs: no words needed
    shown = None  # a path of the text written from the repository's top
    if top is not None and not (_says_this_repo(text) or _says_this_project(text)
                                or _REPO_WORD.search(near)):
        shown = written_from_top(root, text) if rel.startswith("scripts/") else None
        if shown is None:
            top = None
    elif top is None and _maintains_skills(text):
        top = _collection_top(root)
    elif top is None and _says_this_repo(text):
        top = _layout_top(root, text)
    if top is None or has_top:
        return None
    if (top / rel).is_file():
        return True
    if (top / ".git").exists():
        return False
    if shown is not None:
        where = root.parent.relative_to(top).as_posix() + "/"
        return (f"a project skill (kept in the repository's `{where}`) whose paths are "
                f"written from the repository's top (`{shown}`) runs from there; check "
                f"that `{rel}` exists there")
    if top == root.parent:
        kept = "a skill of a collection kept at the repository's top"
    else:
        where = root.parent.relative_to(top).as_posix() + "/"
        kept = f"a project skill (kept in the repository's `{where}`)"
    return (f"{kept} about this repository runs from the repository's top; check that "
            f"`{rel}` exists there")


def climbs_to_project_top(root: Path, target: str) -> bool | str | None:
    """A path of a project skill that climbs out of it exactly to the repository's top
    (`../../../docs/x.md` from `<repo>/.claude/skills/<name>/`; `target` is read from the
    skill's root) names the repository's file, words or none. True when it is there, False
    when the checked top (it holds `.git`) lacks it, a warning's reason when the top cannot
    be checked (a copied skill), None when the reading does not apply."""
    top = project_top(root)
    if top is None:
        return None
    depth = len(root.relative_to(top).parts)  # <agent>/skills/<name>: the climb to the top
    parts = target.split("/")
    if len(parts) <= depth or parts[:depth] != [".."] * depth or parts[depth] == "..":
        return None
    rest = "/".join(parts[depth:])
    if (top / rest).exists():
        return True
    if (top / ".git").exists():
        return False
    where = root.parent.relative_to(top).as_posix() + "/"
    return (f"a project skill (kept in the repository's `{where}`) names the repository's "
            f"top with `../../../`; check that `{rest}` exists there")


# The run's line or its lead-in names the repository or the collection the skill is part
# of: "Run the repo's validator", "when editing this skills pack".
_NAMES_REPO = rx(r"\brepo(?:sitory)?\b|\bmonorepo\b|\b(?:this|our)\s+(?:skills?\s+)?(?:pack|collection)\b"
                 r"|\bthe\s+skills?\s+(?:pack|collection)\b", re.IGNORECASE)
# A tool named for the skills of a collection, not for one skill's task: `validate-skills.py`,
# `lint_skills.sh`, `check-all-skills.mjs`.
_COLLECTION_TOOL = rx(r"^(?:validate|lint|check|test|verify|audit)[-_](?:all[-_])?skills\b",
                      re.IGNORECASE)


def collection_run(root: Path, rel: str, said: str) -> str | None:
    """Why the missing file `rel` is a maintainer's tool of the repository that holds the
    skill at `root`, run from the repository's top, or None: the words of its run (`said`:
    its line, its block's lead-in) name the repository or the collection, or the tool's name
    says it works on the collection's skills, and the file is there on disk (at the folder
    that holds `.git`, or above the repository's `skills/` collection). A copied skill
    cannot be checked: its finding stays."""
    if rel.startswith("../") or not (_NAMES_REPO.search(said)
                                     or _COLLECTION_TOOL.match(rel.rsplit("/", 1)[-1])):
        return None
    for top in (git_top(root), project_top(root), collection_top(root)):
        if top is not None and (top / rel).is_file():
            back = "../" * len(root.relative_to(top).parts)
            return (f"a maintainer's step of the repository the skill is kept in, run from "
                    f"its top, where `{rel}` is (`{back}{rel}` from the skill)")
    return None


# A concrete relative file path in a code span: `trading-desk/config/limits.json`,
# `.claude/skills/other/notes.md` (no `./`, `../`, placeholder, glob, variable or URL).
_SPAN_PATH = rx(r"`((?:\.?[\w-][\w.-]*/)+[\w-][\w.-]*\.[A-Za-z0-9]{1,8})`")
_FROM_TOP_MIN = 2  # one such path may be a lost folder of the skill's own


@lru_cache(maxsize=32)
def written_from_top(root: Path, text: str) -> str | None:
    """The first of the paths a project skill's text writes from the repository's top, its
    working folder, or None when it names fewer than two: files in folders the skill does
    not have, other than a skill's own folders (`scripts/`, `references/`, ...)."""
    found: list[str] = []
    for m in _SPAN_PATH.finditer(text):
        path = m.group(1)
        first = path.split("/", 1)[0]
        if first in CONVENTIONAL_DIRS or path in found or (root / first).exists():
            continue
        found.append(path)
    return found[0] if len(found) >= _FROM_TOP_MIN else None


# A folder layout with placeholders: `skills/<category>/<skill-name>/`.
_LAYOUT = rx(r"(?<![\w./<>-])((?:[A-Za-z.][\w.-]*/)+)((?:<[^<>/\s`]+>/?){1,3})")


def _layout_top(root: Path, text: str) -> Path | None:
    """The repository's top for a skill about "this repo" whose text gives the layout the
    skill itself sits in (`skills/<category>/<skill-name>/` for `skills/flags/create/`): a
    skill for adding to the collection that holds it, run in that repository's checkout.
    None when no such layout fits, or in a plugin (see `_plugin_root`)."""
    for m in _LAYOUT.finditer(text):
        first = root  # the folder of the layout's first placeholder
        for _ in range(m.group(2).count("<") - 1):
            first = first.parent
        folder = first.parent
        for name in reversed([p for p in m.group(1).split("/") if p]):
            if folder.name != name:
                break
            folder = folder.parent
        else:
            return None if _plugin_root(folder) else folder
    return None


def collection_top(root: Path) -> Path | None:
    """The repository's top above the collection that holds the skill at `root` (its
    `skills/` folder, or skills kept flat beside it), or None (see `_collection_top`)."""
    return _collection_top(root)


_GIT_CLIMB = 8  # folders above a skill searched for the repository's `.git`


def folders_up(start: Path, limit: int) -> Iterator[Path]:
    """`start` and the folders above it, at most `limit` of them, up to and including the
    repository's top (the first that holds `.git`) or the file system's root: where the
    readers that look past a skill's own folder (its plugin, its repository, a chezmoi
    tree, the repository's documents) search."""
    folder = start
    for _ in range(limit):
        yield folder
        if (folder / ".git").exists() or folder.parent == folder:
            return
        folder = folder.parent


def git_top(root: Path) -> Path | None:
    """The nearest folder above the skill at `root` that holds `.git`: the top of the
    repository the skill is checked out in, or None (a copied skill)."""
    return next((f for f in folders_up(root.parent, _GIT_CLIMB) if (f / ".git").exists()), None)


def _collection_top(root: Path) -> Path | None:
    """The repository's top for a skill that keeps its collection: above the repository's
    `skills/` folder, or the folder itself where the skills sit flat beside it; None in a
    plugin (see `_plugin_root`)."""
    if root.parent.name == "skills":
        top = root.parent.parent  # `<repo>/skills/<name>/`
    elif root.parent.name not in _AGENT_DIRS and _flat_collection(root):
        top = root.parent  # `<repo>/<name>/`, beside the other skills
    else:
        return None
    return None if _plugin_root(top) else top


def _flat_collection(root: Path) -> bool:
    """Other skills sit beside this one: their folder keeps a collection of skills."""
    n = 0
    try:
        for d in root.parent.iterdir():
            if d != root and (d / "SKILL.md").is_file():
                n += 1
                if n >= _FLAT_SIBLINGS:
                    return True
    except OSError:
        return False
    return False
