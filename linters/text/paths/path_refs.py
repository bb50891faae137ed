"""What counts as a reference to a file of the skill, read off the text.

A link or reference definition target, cleaned to a checkable path (`clean_link`), or a
path under a conventional folder (`scripts/`, `references/`, ...) or after `./`, in a code
span (`mention`) or in prose (`PROSE_PATH`). `anchor_offsets` lists where such a path can
start. SF116 (`linters.correctness.links`) finds them in a parsed document; its text gates
(`linters.correctness.link_gates`) read them off the raw text to tell when no parse is needed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from linters.text.compiled_regex import rx

if TYPE_CHECKING:
    from linters.text.paths.path_context import Paragraph

CONVENTIONAL_DIRS = ("scripts", "references", "reference", "assets", "templates")
_DIRS = "|".join(CONVENTIONAL_DIRS)
_EXT = r"\.[A-Za-z0-9]{1,8}"

SCHEME = rx(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
DRIVE = rx(r"^[A-Za-z]:[\\/]")
# CommonMark backslash escapes (`\_`, `\(`): not path separators.
MD_ESCAPE = rx(r"\\([!-/:-@\[-`{-~])")
# A leading variable that stands for the skill's own folder: `{baseDir}/`, `${CLAUDE_SKILL_DIR}/`,
# `<skill-dir>/`. What follows it is checkable from the skill root.
_SKILL_ROOT_VAR = rx(
    r"^(?:\$\{?[A-Za-z_]*(?:skill|base)[A-Za-z_]*\}?|\{\{?\s*[A-Za-z_]*(?:skill|base)[A-Za-z_]*"
    r"\s*\}\}?|<[\w-]*(?:skill|base)[\w-]*>)[/\\]",
    re.IGNORECASE,
)
# Anything still templated or globbed after that cannot be checked.
_TEMPLATE = rx(r"[{}<>$*?\[\]|]|%\w+%")
_CODE_PATH = rx(
    rf"(?:\.{{1,2}}/)*(?:(?:{_DIRS})/(?:[\w.@+-]+/)*|\./(?:[\w.@+-]+/)*)[\w@+-][\w.@+-]*{_EXT}"
)
ANCHORS = (*(d + "/" for d in CONVENTIONAL_DIRS), "./")
PROSE_PATH = rx(
    rf"(?<![\w./~$@%\\-])((?:\./)?(?:{_DIRS})/(?:[\w.-]+/)*[\w-][\w.-]*{_EXT}|\./(?:[\w.-]+/)*"
    rf"[\w-][\w.-]*{_EXT})(?![\w/])"
)
_LINE_NO = rx(r":\d+(?::\d+)?$")


class PathRef(NamedTuple):
    """A path the text points to, where it was found, and how it is resolved."""

    file: str  # the Markdown file holding it (skill-relative)
    line: int
    column: int | None
    raw: str  # as written
    path: str  # cleaned: anchors, escapes and skill-root variables removed
    link: bool  # a Markdown link (resolved from its file only) or a mention (root too)
    from_root: bool = False  # written after a skill-root variable such as {baseDir}/
    # Where a mention sits, for judging it (linters.text.paths.path_context) only if it does not resolve.
    para: Paragraph | None = None
    offset: int = 0


def clean_link(target: str) -> tuple[str, bool] | None:
    """The checkable path of a link target and whether it is skill-root based, or None."""
    t = target.strip()
    if not t or t.startswith(("#", "~", "/")) or DRIVE.match(t) or SCHEME.match(t):
        return None
    t = MD_ESCAPE.sub(r"\1", t.split("#", 1)[0].split("?", 1)[0])
    return _strip_template(unquote(t))


def _strip_template(t: str) -> tuple[str, bool] | None:
    from_root = False
    m = _SKILL_ROOT_VAR.match(t)
    if m:
        t, from_root = t[m.end():], True
    if not t or _TEMPLATE.search(t):
        return None
    return t, from_root


def mention(span: str) -> tuple[str, bool] | None:
    """(path, from skill root) when an inline code span is a plain path into the skill."""
    cleaned = _strip_template(_LINE_NO.sub("", span))
    if cleaned is None or not _CODE_PATH.fullmatch(cleaned[0]):
        return None
    return cleaned


def anchor_offsets(text: str) -> list[int]:
    """Sorted offsets where `scripts/`, `references/`, ... or `./` start.

    One str.find loop per anchor: hits are rare, and this beats a regex or a look at every
    `/` of the URLs that fill reference docs.
    """
    out: list[int] = []
    for anchor in ANCHORS:
        pos = text.find(anchor)
        while pos >= 0:
            out.append(pos)
            pos = text.find(anchor, pos + len(anchor))
    out.sort()
    return out
