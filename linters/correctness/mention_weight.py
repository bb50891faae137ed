"""How much a missing path weighs (SF116): a path a reference file names in its prose,
neither linked nor pointed to ("See `x`"), is a warning, not an error; so is a path written
from the repository's root (`./skills/<this-skill>/references/x.md`) to a file the skill has.

Across eight parts of the wide corpus, each labelled at its first measurement before any
tuning on it, a missing path mentioned (not linked) outside SKILL.md was the skill's own
missing file 28 times and another project's file, a generated file or a described one 230
times; in SKILL.md, and as links, missing paths are mostly the skill's own. So a link
anywhere, and a mention in SKILL.md, stay errors.
"""

from __future__ import annotations

import functools
import posixpath
import re

from linters.text.compiled_regex import rx
from linters.text.paths.outside_home import below_own_folder
from linters.text.paths.path_refs import PathRef
from skillforge.models.skill import Skill


# A pointer that sends the reader to the file ("See `references/x.md`", "Run `scripts/x.sh`",
# "Read the pattern in x", "详见 `x`"): the text means the skill's file, wherever it stands.
_POINTER = rx(r"(?:(?<!not )\b(?:see|read|consult|refer\s+to|run|execute|load|open)\b"
              r"(?:[^`.;:]{0,30}\b(?:in|at|from)\b)?|详见|参见|见)\s*[:：]?\s*[`*(\[]*$",
              re.IGNORECASE)


def prose_mention_aside(skill: Skill, ref: PathRef) -> bool:
    """`ref` is a path named in the prose of a file other than SKILL.md, neither linked nor
    pointed to: a warning."""
    if ref.link or ref.file == "SKILL.md":
        return False
    f = skill.file(ref.file)
    if f is None or not f.text:
        return False
    lines = _lines(f.text)
    if not 0 < ref.line <= len(lines):
        return True
    line = lines[ref.line - 1]
    at = line.find(ref.raw)
    return at < 0 or not _POINTER.search(line[max(0, at - 30):at])


def from_repo_root(skill: Skill, path: str, found: str) -> bool:
    """`path` is the skill's own `found` written from above the skill folder: what precedes
    `found` ends with the folder's name (`./skills/<name>/` + `references/x.md`)."""
    norm = posixpath.normpath(path.removeprefix("./"))
    return below_own_folder(norm, skill.root.name, found.__eq__) == found


@functools.lru_cache(maxsize=8)
def _lines(text: str) -> list[str]:
    """A file's lines, split once however many paths it names."""
    return text.splitlines()
