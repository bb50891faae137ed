"""SF116: point a broken link or path at the file it meant (safe: the file is the same one).

A fix edits only the path its finding names, at the finding's place: the path part of a
Markdown link's target (an `#anchor` or title after it stays), or a path written in prose.
Never text inside a code span or block: a path in backticks may be code
(`DH="$ROOT/skills/x/x.sh"`), and rewriting it changes what runs.

It is offered only when exactly one file of the skill fits: the same path in another letter
case (`References/API.md` for `references/api.md`), or else the path read from the skill's
root (a page in `guides/` that links `./guides/setup.md`, as a docs site would), or else the
same file name, in any case, in one other folder (`references/forms.md` for `forms.md`).
Never when:
- the name is `SKILL.md`: one elsewhere is another skill's (`../draft-hold/SKILL.md`);
- the path climbs out of its file's folder (`..`) into a folder the skill does not have: it
  points outside the skill on purpose (a sibling skill, the repository);
- the link's text names another file or folder than the one that fits
  (`[layout-v2.md](layout.md)`, `[draft-hold](../draft-hold/x.md)`): which one is meant
  cannot be told.
"""

from __future__ import annotations

import posixpath
import re

from linters.text.code_spans import code_spans, paragraph_at, plain_line_breaks
from linters.fixes.registry import fixer
from linters.text.paths.link_resolver import file_index, meant_file
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_refs import clean_link
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import Skill

# The path a SF116 message names comes first in backticks (linters/correctness/links.py, `_broken`).
_QUOTED = re.compile(r"`([^`]+)`")
# The words of a finding about a sibling skill's file written from the wrong folder.
_SIBLINGS_FILE = "the file of the sibling skill"
# A link up to its target: `[text](` (the text may hold one level of brackets) or a
# reference definition `[label]:`, each followed by the optional `<` around the target.
_INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?")
_DEFINITION = re.compile(r" {0,3}\[([^\]]+)\]:\s*<?")
# A path in prose as written, nothing around it.
_PLAIN_PATH = re.compile(r"[\w.@+~/-]+")
# Words of a link's text that name a file: a name with an extension.
_FILE_WORD = re.compile(r"[\w.-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}\b")


@fixer("SF116")
def relink(skill: Skill, finding: Finding) -> list[Fix]:
    holder = skill.file(finding.path or "")
    named = _QUOTED.search(finding.message)
    if holder is None or holder.text is None or not finding.line or named is None:
        return []
    if _SIBLINGS_FILE in finding.message:
        return []  # another skill's file, written from the wrong folder: not one of this skill
    read = _read(skill, holder.path, holder.text)
    if read is None:
        return []  # line numbers would not agree with the editor's
    doc, lines = read
    if finding.line > len(lines) or doc.is_code(finding.line):
        return []
    raw = named.group(1)
    line = lines[finding.line - 1]
    link = next((lk for lk in doc.links if lk.line == finding.line
                 and lk.column == finding.column and lk.target == raw), None)
    if link is not None:
        start = _target_start(line, (link.column or 1) - 1, raw)
        label = link.text
    else:
        start = (finding.column or 0) - 1
        label = None
        if start < 0 or not line.startswith(raw, start):
            return []
    if start is None:
        return []
    path = raw.split("#", 1)[0].split("?", 1)[0]
    cleaned = clean_link(raw) if link is not None else (
        (raw, False) if _PLAIN_PATH.fullmatch(raw) else None)
    if not path or cleaned != (path, False):
        return []  # escapes, %-codes, a template variable or a line number: left to the author
    if _in_code(lines, finding.line - 1, start, start + len(path)):
        return []
    base = posixpath.dirname(holder.path) if link is not None else ""
    found = _match(skill, base, path)
    if found is None or (label is not None and _names_another(label, path, found)):
        return []
    new = posixpath.relpath(found, base or ".")
    if path.startswith("./") and not new.startswith("."):
        new = "./" + new
    edit = TextEdit(path=holder.path, start_line=finding.line - 1, start_col=start,
                    end_line=finding.line - 1, end_col=start + len(path), new_text=new)
    return [Fix(rule="SF116", title=f"Link to `{new}` instead of `{path}`", safety="safe",
                edits=(edit,))]


def _target_start(line: str, column: int, raw: str) -> int | None:
    """Where the link opening at `column` has its target `raw`; None when it is not there."""
    blank = _blank_code(line)
    m = _INLINE_LINK.match(blank, column)
    if m is None and column == line.find("["):
        m = _DEFINITION.match(blank)
    if m is None or not line.startswith(raw, m.end()):
        return None
    return m.end()


def _blank_code(line: str) -> str:
    """`line` with its code spans blanked out, as the Markdown reader reads links."""
    for a, b in code_spans(line):
        line = line[:a] + " " * (b - a) + line[b:]
    return line


def _in_code(lines: list[str], idx: int, start: int, end: int) -> bool:
    """Whether [start, end) of line `idx` touches a code span of its paragraph (spans may
    run over several lines) or a backtick."""
    if "`" in lines[idx][start:end]:
        return True
    first, last = paragraph_at(lines, idx)
    offset = sum(len(ln) + 1 for ln in lines[first:idx]) + start
    return any(a < offset + (end - start) and offset < b
               for a, b in code_spans("\n".join(lines[first:last])))


def _match(skill: Skill, base: str, target: str) -> str | None:
    """The one existing file `target` (relative to `base`) meant (link_resolver.meant_file)."""
    return meant_file(skill, base, target, *_memo(skill).files)


class _Memo:
    """What every finding of one skill asks again: its files by lower-cased path and name,
    and each Markdown file read (a skill of 300 pages may have 1,000 broken links)."""

    def __init__(self, skill: Skill) -> None:
        self.skill = skill
        self.docs: dict[str, tuple[MarkdownDoc, list[str]] | None] = {}
        self.files = file_index(skill)


_last: list[_Memo] = []


def _memo(skill: Skill) -> _Memo:
    """The memo of `skill` (only the last skill asked about is kept)."""
    held = _last[0] if _last else None
    if held is None or held.skill is not skill:
        held = _Memo(skill)
        _last[:] = [held]
    return held


def _read(skill: Skill, path: str, text: str) -> tuple[MarkdownDoc, list[str]] | None:
    """`path`'s document and lines; None when its line breaks are not all "\n" or "\r\n"."""
    docs = _memo(skill).docs
    if path not in docs:
        docs[path] = (MarkdownDoc(text), text.split("\n")) if plain_line_breaks(text) else None
    return docs[path]


def _names_another(label: str, target: str, found: str) -> bool:
    """The link's text names a file or folder that is not `found`: a file name other than
    its own, or a folder of the broken target that `found` is not in."""
    name = posixpath.basename(found).lower()
    if any(posixpath.basename(w).lower() != name for w in _FILE_WORD.findall(label)):
        return True
    kept = {part.lower() for part in found.split("/")}
    for part in target.split("/")[:-1]:
        if part in ("", ".", "..") or part.lower() in kept:
            continue
        if re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", label, re.IGNORECASE):
            return True
    return False
