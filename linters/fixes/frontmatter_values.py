"""Fixes of one frontmatter value: quote a value a colon breaks (SF104, safe), set `name`
to the folder's name (SF110, unsafe), shorten a long `description` (SF111, unsafe)."""

from __future__ import annotations

import re

from linters.fixes.frontmatter_text import NAME_RX, locate, rt_dump, rt_load, same_style
from linters.fixes.registry import fixer
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import SKILL_MD, Skill

MAX_DESCRIPTION = 1024
_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z_][\w-]*):(?P<gap>[ \t]+)(?P<value>\S.*?)[ \t]*$")
# A value that starts like this is quoted, a block scalar, a flow collection, an alias or a
# tag: not a plain scalar to put quotes around.
_NOT_PLAIN = tuple("\"'|>[{&*!%@`#")
# A sentence ends at . ! or ? followed by white space (or the end).
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
# Sentences that say when to use the skill are kept first when shortening: SF202.
_WHEN = re.compile(r"\b(use (?:it |this(?: skill)? )?(?:when|for|to|if)|when (?:the )?user)", re.I)


@fixer("SF104")
def quote_value(skill: Skill, finding: Finding) -> list[Fix]:
    """Put double quotes around the plain value whose `: ` broke the YAML."""
    md = skill.skill_md
    fm = skill.frontmatter
    if skill.frontmatter_status != "invalid_yaml" or md is None or md.text is None or fm is None:
        return []
    lines = md.text.split("\n")
    close = (fm.end_line or 0) - 1  # 0-based index of the closing `---`
    at = min((finding.line or 2) - 1, close - 1)
    # The key line the reported position belongs to: the error may sit on a continuation.
    while at > 0 and not _KEY_LINE.match(lines[at].rstrip("\r")):
        at -= 1
    m = _KEY_LINE.match(lines[at].rstrip("\r")) if at > 0 else None
    if m is None or m["value"].startswith(_NOT_PLAIN) or ": " not in _folded(lines, at, close, m):
        return []
    value = _folded(lines, at, close, m)
    if " #" in value:
        return []  # a comment or a `#` in the text: which one is meant cannot be told
    stop = _continuation_end(lines, at, close, len(m["indent"]))
    quoted = _double_quoted(value)
    cr = "\r" if lines[stop - 1].endswith("\r") else ""
    new = f"{m['indent']}{m['key']}:{m['gap']}{quoted}{cr}"
    last = lines[stop - 1]
    edit = TextEdit(path=SKILL_MD, start_line=at, start_col=0, end_line=stop - 1,
                    end_col=len(last), new_text=new)
    return [Fix(rule="SF104", title=f"Quote the value of `{m['key']}`", safety="safe",
                edits=(edit,))]


def _continuation_end(lines: list[str], at: int, close: int, indent: int) -> int:
    """Index past the last line of the plain scalar starting on line `at` (continuation
    lines are indented deeper than its key)."""
    stop = at + 1
    while stop < close:
        line = lines[stop].rstrip("\r")
        if line.strip() and (len(line) - len(line.lstrip(" ")) <= indent or line.lstrip().startswith("#")):
            break
        stop += 1
    while stop > at + 1 and not lines[stop - 1].strip():
        stop -= 1
    return stop


def _folded(lines: list[str], at: int, close: int, m: re.Match) -> str:
    """The plain scalar's value as YAML reads it: its lines joined by single spaces."""
    stop = _continuation_end(lines, at, close, len(m["indent"]))
    parts = [m["value"]] + [ln.strip() for ln in lines[at + 1:stop] if ln.strip()]
    return " ".join(parts)


def _double_quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@fixer("SF110")
def rename_to_folder(skill: Skill, finding: Finding) -> list[Fix]:
    folder = skill.folder_name
    if not NAME_RX.match(folder) or len(folder) > 64:
        return []  # the folder's name is no valid `name` either: rename the folder instead
    return _set_value(skill, "name", folder, "SF110", f"Set `name` to the folder's name, `{folder}`")


@fixer("SF111")
def shorten_description(skill: Skill, finding: Finding) -> list[Fix]:
    description = skill.description
    if description is None or len(description) <= MAX_DESCRIPTION:
        return []
    short = shorten(description, MAX_DESCRIPTION)
    if short is None:
        return []
    return _set_value(skill, "description", short, "SF111",
                      f"Shorten `description` to {len(short)} characters (whole sentences)")


def shorten(text: str, limit: int) -> str | None:
    """`text` cut to at most `limit` characters at sentence boundaries, deterministically:
    the first sentence and any sentence saying when to use the skill are kept first, then
    the others in order while they fit; the kept ones stay in their order. None when the
    first sentence alone is too long."""
    sentences = _sentences(text)
    if not sentences or len(sentences[0]) > limit:
        return None
    keep = {0} | {i for i, s in enumerate(sentences) if _WHEN.search(s)}
    if len(" ".join(sentences[i] for i in sorted(keep))) > limit:
        keep = {0}
    for i in range(len(sentences)):
        if i not in keep and len(" ".join(sentences[j] for j in sorted(keep | {i}))) <= limit:
            keep.add(i)
    return " ".join(sentences[i] for i in sorted(keep))


def _sentences(text: str) -> list[str]:
    flat = " ".join(text.split())
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(flat):
        out.append(flat[start:m.end()].strip())
        start = m.end()
    if flat[start:].strip():
        out.append(flat[start:].strip())
    return [s for s in out if s]


def _set_value(skill: Skill, key: str, value: str, rule: str, title: str) -> list[Fix]:
    where = locate(skill) if skill.frontmatter_status == "ok" else None
    loaded = rt_load(where.raw) if where is not None else None
    if loaded is None:
        return []
    yaml, data = loaded
    if key not in data:
        return []
    data[key] = same_style(data[key], value)
    edit = where.edit(rt_dump(yaml, data, where.newline))
    return [Fix(rule=rule, title=title, safety="unsafe", edits=(edit,))] if edit else []
