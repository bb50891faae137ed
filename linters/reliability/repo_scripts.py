"""Scripts a command runs from a repository rather than from the skill (SF301; issue 36,
holdout13). Both readings make a missing script a warning that names the assumption, never
silence it:

- the command works on a folder of the user's that its comment or lead-in names: "# Build
  the coverage layer from your rule set" over `python3 scripts/to_layer.py rules/`. The
  relative folder `rules/`, which the skill lacks, is "your rule set": the command runs in
  the user's repository, where its relative script path is read too.
- a project skill: a skill kept in a repository's own `.claude/skills/<name>/` (or
  `.agents/`, `.codex/`, `.github/`) whose text says it works on "this repo" runs from the
  repository's top, so `python3 scripts/validate.py` there is the repository's script.
  When the repository's top is on disk (it holds `.git`) the script is looked up there:
  found, nothing is reported; absent, the finding stays. A copied skill (no `.git` above
  it) cannot be checked: a warning that says what to check. Not when the skill has the
  script's first folder (`scripts/`): then the path names its own file, misspelt or lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from linters.reliability.command_context import lead_in
from linters.reliability.commands import Command, segments, words
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

# "your rule set", "the user's own detections": up to three words naming what is theirs.
_YOURS = rx(r"\b(?:your|the\s+user['’]s)\s+(?:own\s+)?((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)",
            re.IGNORECASE)
_COMMENT_REACH = 4  # block lines above a command searched for its comment


def users_folder(doc: MarkdownDoc, cmd: Command, has: Callable[[str], bool]) -> str | None:
    """The reason the command runs in the user's repository, or None: a relative folder it
    takes (`rules/`), which the skill lacks (`has(top)` is False), is what the words over
    it call the user's ("from your rule set")."""
    words_said = [w.lower() for m in _YOURS.finditer(_said_over(doc, cmd))
                  for w in m.group(1).split()]
    if not words_said:
        return None
    for seg in segments(cmd.text):
        for arg in words(seg)[1:]:
            folder = arg.removeprefix("./")
            top = folder.split("/", 1)[0]
            if not folder.endswith("/") or not top or not top[0].isalpha() or has(top):
                continue
            for w in words_said:
                if _same_stem(w, top.lower()):
                    return (f"it reads `{folder}`, which the text calls the user's (\"your "
                            f"{w}\"), so it likely runs in the user's repository; check that "
                            "the script is the skill's")
    return None


def _same_stem(a: str, b: str) -> bool:
    """`rule` and `rules`, `detection` and `detections`: one word, singular or plural."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n >= 4 and n >= min(len(a), len(b)) - 1


def _said_over(doc: MarkdownDoc, cmd: Command) -> str:
    """The words over a block's command: its trailing comment, the nearest comment above
    it in its block, and the block's lead-in ("" for an inline command)."""
    if cmd.inline:
        return ""
    first = doc.first_line
    said = [cmd.text.partition(" #")[2]]
    for no in range(cmd.line - 1, max(cmd.block, cmd.line - _COMMENT_REACH - 1), -1):
        line = doc.lines[no - first].strip() if 0 <= no - first < len(doc.lines) else ""
        if not line:
            break
        if line.startswith("#") and not line.startswith("#!"):
            said.append(line)
            break
    said.append(lead_in(doc, cmd.block))
    return " ".join(said)


# --- project skills --------------------------------------------------------------------

_AGENT_DIRS = (".claude", ".agents", ".codex", ".github")
# The skill says it works on the repository it is kept in.
_THIS_REPO = rx(r"\b(?:this|the\s+current|our)\s+(?:repo(?:sitory)?|codebase|monorepo)\b",
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


def from_project_top(root: Path, text: str, rel: str, has_top: bool) -> bool | str | None:
    """Whether the missing script `rel` of a project skill is the repository's: True when
    it is at the repository's top, a warning's reason when it may be (the top cannot be
    checked), False when the checked top lacks it, None when the reading does not apply
    (not a project skill, the skill has the script's folder, no words of this repo)."""
    top = project_top(root)
    if top is None or has_top or not _says_this_repo(text):
        return None
    if (top / rel).is_file():
        return True
    if (top / ".git").exists():
        return False
    return (f"a project skill (kept in the repository's `{root.parent.parent.name}/skills/`) "
            f"about this repository runs from the repository's top; check that `{rel}` "
            "exists there")
