"""Bare paths of a chain whose first step is given under another folder's variable (SF116,
SF301; issue 36).

A skill that uses another skill's scripts finds that skill at run time, keeps its folder
in a variable and writes the first path in full, the rest of the same chain short: "The
actor uses `$OTHER_DIR/scripts/map.py`, then edits via `scripts/unpack.py` ->
`scripts/pack.py`". A reader takes the short paths from the same folder. Only a variable
that names another folder counts: not one whose name is only the skill's own folder
(`$SKILL_DIR`, `${CLAUDE_SKILL_DIR}`, `$BASE_DIR`) nor one the document sets to the
folder of its own script (`X=$(dirname "$0")`), and only a path of the same top folder
(`scripts/`) after it in the same paragraph.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# `$OTHER_DIR/scripts/x.py`, `${OTHER_DIR}/scripts/x.py`: the variable and the top folder.
_BASED = rx(r"\$\{?([A-Za-z_]\w*)\}?/([\w.-]+)/")
_NAME_WORD = rx(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
# The words a variable naming the skill's own folder is made of (`SKILL_DIR`,
# `CLAUDE_SKILL_ROOT`, `baseDir`); any other word names another folder (`PPTX_SKILL_DIR`).
_OWN_WORDS = frozenset("skill dir directory root folder path base basedir home this my own "
                       "claude current here script scripts".split())
# A value that is the folder of the running script or of this skill: `$(dirname "$0")`,
# `${BASH_SOURCE%/*}`, `$SKILL_DIR`, `${CLAUDE_SKILL_DIR}`, `.`.
_OWN_VALUE = rx(r"dirname|\$0\b|BASH_SOURCE|^\W*\.?\W*$")


def _names_own_folder(var: str, doc_text: str) -> bool:
    words = {w.lower() for w in _NAME_WORD.findall(var)}
    if words <= _OWN_WORDS:
        return True
    for m in re.finditer(rf"(?m)^\s*(?:export\s+)?{re.escape(var)}=(.*)$", doc_text):
        value = m.group(1)
        inner = _BASED.search(value + "/") or re.search(r"\$\{?([A-Za-z_]\w*)", value)
        if _OWN_VALUE.search(value) or (
                inner and {w.lower() for w in _NAME_WORD.findall(inner.group(1))} <= _OWN_WORDS):
            return True
    return False


def under_other_base(before: str, path: str, doc_text: str) -> str | None:
    """The base (`$OTHER_DIR/`) of a path given in full earlier in the paragraph (`before`,
    from the paragraph's start to the bare `path`) under another folder's variable with the
    same top folder as `path`; None when there is none (module docstring)."""
    rel = path.removeprefix("./")
    if "/" not in rel or rel.startswith(("/", "$", "~", "..")):
        return None
    top = rel.split("/", 1)[0]
    for m in _BASED.finditer(before):
        if m.group(2) == top and not _names_own_folder(m.group(1), doc_text):
            return m.group(0)[: -len(top) - 1]
    return None


def chain_base_reason(before: str, path: str, doc_text: str) -> str | None:
    """`under_other_base` as the reason a path rule gives for a warning, or None."""
    base = under_other_base(before, path, doc_text)
    return None if base is None else (
        f"the text gives the same chain from `{base}`, another folder found at run time")
