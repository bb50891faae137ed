"""Helpers a collection's skills share, kept outside each skill (SF301, SF116; issue 36,
holdout17). Both readings make a missing script a warning that names the assumption, never
silence it, since a shared helper the install does not place beside the skill is as
broken as a lost one:

- the run gives the script this skill's own name (`scripts/check_prereqs.sh
  release-notes` in the skill `release-notes`): a helper that serves several skills, each
  passing its name, not one of this skill's files;
- the skill's text says shared files are synced into the skills' install root, beside the
  skills ("the skills install root", "the synced **`GIT-ACCESS.md`**", "synced next to
  every skill"): a helper under `scripts/` that the skill lacks may be one of those, placed
  in the install root's `scripts/` by the collection's installer. Only `scripts/`: the
  helpers an installer shares are scripts; a missing template or reference stays the
  skill's own.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linters.text.compiled_regex import rx

__all__ = ["given_own_name", "synced_beside"]

_NAME_MIN = 3  # shorter names ("qa") are too common as arguments to tell anything


def given_own_name(args: list[str], names: set[str]) -> str | None:
    """The reason a script run with `args` is a helper shared by several skills, or None:
    one of its arguments is this skill's own name (`names`: its folder's and its
    frontmatter's)."""
    for arg in args:
        a = arg.strip("\"'")
        if len(a) >= _NAME_MIN and a in names:
            return (f"it is given this skill's own name (`{a}`), so it is likely a helper "
                    "shared by several skills and kept outside this one; check that the "
                    "install puts it where the skill runs it")
    return None


# The text says shared files are installed beside the skills by a sync step.
_SYNCED = rx(
    r"\bskills?\s+install(?:ation)?\s+root\b"
    r"|\bsynced\s+(?:\*\*|__)?`[^`\n]+`"
    r"|\bsynced\s+(?:copy|copies|helpers?|scripts?|skill\s+root)\b"
    r"|\b(?:synced|installed|copied)\s+(?:next\s+to|beside|alongside)\s+(?:the\s+|each\s+"
    r"|every\s+|all\s+)?(?:installed\s+)?skills?\b",
    re.IGNORECASE)


@lru_cache(maxsize=32)
def _synced_words(text: str) -> str | None:
    m = _SYNCED.search(text)
    return " ".join(m.group(0).replace("**", "").replace("__", "").split()) if m else None


def synced_beside(text: str, rel: str) -> str | None:
    """The reason the missing `scripts/` helper `rel` may be a shared one installed beside
    the skill, or None: the skill's text (`text`, its SKILL.md) says shared files are
    synced into the skills' install root."""
    if not rel.removeprefix("./").startswith("scripts/"):
        return None
    said = _synced_words(text)
    if said is None:
        return None
    return (f"the text says shared files are synced beside the skills (\"{said}\"), so "
            f"`{rel}` may be a shared helper the install places in the skills' root; check "
            "that it is there")
