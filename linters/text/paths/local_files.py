"""Files the text gives as the user's own local files, never shipped with the skill (SF116;
issue 36, holdout17). Each reading makes a missing path a warning that names it, never
silences it:

- a `.env` file (`mondelez/.env`, `.env.local`): where a project keeps its secrets, which
  nobody commits, so a skill cannot ship it; the user's copy on their machine. Not
  `.env.example` (or `.sample`, `.template`): the committed template a skill may ship;
- the words at the path say it is kept out of git or on the user's machine: "`x.xlsx`
  (gitignored, lives on his machine)", "`data/` is not committed", "your local `x`";
- the words at the path say the user provides it: "if the user provides
  `assets/logo.png`", "`brand.css`, supplied by the user", "user-provided `x`"; in
  Vietnamese "nếu user cung cấp `x`" (if the user provides), in Chinese, Japanese and
  Korean "用户提供", "ユーザーが提供", "사용자가 제공".

Only the words next to the path count (its own clause, or a few words after it): "If the
user provides a name, embed `assets/logo.png`" keeps its finding, the logo being the
skill's.
"""

from __future__ import annotations

import posixpath
import re

from linters.text.compiled_regex import rx
from linters.text.paths.path_context import CLAUSE_CUT, Paragraph

__all__ = ["local_file"]

# `.env.example` and its kin are templates a repository commits: a skill may ship one.
_ENV_TEMPLATES = frozenset({"example", "sample", "template", "tmpl", "tpl", "dist",
                            "defaults", "default", "schema"})

# Words that keep a file out of git or on one machine, next to the path.
_KEPT_LOCAL = (
    r"\bgit[-\s]?ignored\b|\bignored\s+by\s+git\b|\b(?:in|listed\s+in)\s+`?\.gitignore\b"
    r"|\b(?:not|never)\s+(?:be\s+)?(?:committed|checked\s+in|tracked|versioned|in\s+git)\b"
    r"|\buntracked\b|\blocal[-\s]only\b|\bkept\s+locally\b"
    r"|\b(?:lives?|stays?|kept|stored|sits?)\s+(?:only\s+)?on\s+(?:his|her|their|your|the\s+"
    r"user['’]s|each\s+user['’]s)\s+(?:own\s+|local\s+)?(?:machine|computer|laptop|disk)\b"
    # Vietnamese: on the user's / your machine
    r"|(?<!\w)trên\s+máy\s+(?:của\s+)?(?:user|người\s+dùng|bạn)(?!\w)"
)
# The user provides the file: right before the path, up to two words between.
_PROVIDED_BEFORE = rx(
    r"(?:\b(?:the\s+)?(?:user|you)\s+(?:provides?|supplies|supply|uploads?|attach(?:es)?)"
    r"|\buser[-\s](?:provided|supplied|uploaded)"
    r"|(?<!\w)(?:user|người\s+dùng|bạn)\s+cung\s+cấp)"
    r"\s+(?:(?:a|an|the|their|your|his|her)\s+)?(?:[\w-]+\s+){0,2}[*_(\[]*`?$"
    r"|(?:用户提供|用戶提供|ユーザーが提供|ユーザー提供|사용자가\s*제공|사용자\s*제공)\S{0,3}\s*"
    r"[*_(\[]*`?$",
    re.IGNORECASE)
_KEPT_BEFORE = rx(rf"(?:{_KEPT_LOCAL})\s+(?:[\w-]+\s+){{0,2}}[*_(\[]*`?$", re.IGNORECASE)
# Right after the path, before another path or the sentence's end: "(gitignored, lives on
# his machine)", ", supplied by the user", "is not committed".
_AFTER = rx(
    r"^[^.;:\n`]{0,40}?"
    rf"(?:{_KEPT_LOCAL}|\b(?:provided|supplied|uploaded)\s+by\s+(?:the\s+)?user\b"
    r"|(?<!\w)do\s+(?:user|người\s+dùng)\s+cung\s+cấp(?!\w))",
    re.IGNORECASE)
_TOKEN = rx(r"\S*")
_AFTER_REACH = 60


def local_file(path: str, para: Paragraph | None, offset: int) -> str | None:
    """Why the missing `path` (written at `offset` of `para`) is the user's local file, or
    None: a `.env` file, or the words at it keep it out of git, on the user's machine, or
    say the user provides it."""
    name = posixpath.basename(path.rstrip("/"))
    if name == ".env" or (name.startswith(".env.") and
                          name[5:].lower() not in _ENV_TEMPLATES):
        return (f"`{name}` is where a project keeps its secrets, never committed, so it is "
                "the user's local file, not one the skill ships")
    if para is None:
        return None
    start, stop = para.sentence(offset)
    clause = max([start, *(m.end() for m in CLAUSE_CUT.finditer(para.text, start, offset))])
    before = para.text[clause:offset]
    end = _TOKEN.match(para.text, offset).end()  # type: ignore[union-attr]  # past the path
    after = para.text[end:min(stop, end + _AFTER_REACH)]
    m = (_PROVIDED_BEFORE.search(before) or _KEPT_BEFORE.search(before)
         or _AFTER.search(after))
    if m is None:
        return None
    said = " ".join(m.group(0).strip("`*_([]) ,").split())
    return (f"the text gives it as the user's own local file (\"{said}\"), not one the "
            "skill ships")
