"""Whose file does a path name? Readings that tell a path of the skill from a file of
somewhere else, for the path rules (SF116, SF301; issue 36).

- A caption: a line that holds only the path (a heading `### scripts/setup.sh`, a label
  `**File:** `templates/job.yaml``, a gloss `**t/x.md** - Template for pages:`) directly over
  a fenced block names the file that block's content is (a file of the user's chart, or one
  to create), not a file of the skill; not when the block runs it (`bash scripts/setup.sh`).
- A file the skill scaffolds: the path is missing but the skill ships a file of the same
  path under a template folder (`templates/ekip-notify.sh`, or `ekip-notify.template.sh`,
  for `scripts/ekip-notify.sh`): where the skill installs its template in the user's project.
- A template's links: a ```` ```markdown ```` block with blocks of its own inside, which a
  Markdown reader ends at the first inner close, holds the rest of the template too; its
  links point from where the copy will be written (a path it mentions in words, such as a
  comment to the writer, is still read from the skill): `linters.text.nested_templates`.
- A template skill: a skill inside another skill's `templates/` folder is installed into
  the user's project, where its paths are the project's.
- The user's copy of an example: the path is missing but the skill ships its example
  (`parity.config.example.yaml` for `./parity.config.yaml`): the path is the copy the user's
  project holds.
- A file placed outside the skill in words: the sentence puts it at the plugin's root
  ("plugin-root `references/x.md`"), or the same document gives it with a root variable
  (`${CLAUDE_PLUGIN_ROOT}/scripts/x.sh`, `{plugin_path}/references/*.md`, or
  `PLUGIN_ROOT/scripts/x.sh` after it sets `PLUGIN_ROOT = ${CLAUDE_PLUGIN_ROOT}`:
  `linters.text.paths.named_roots`) and the bare path is its short form.

The first three are not the skill's files (not reported); the last is the skill's plugin's
file, which a copied skill may lack: a warning that says so.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.named_roots import bare_rooted
from linters.text.paths.path_context import Paragraph
from linters.text.sections import section_title
from skillforge.models.skill import SKILL_MD, Skill

# Markup a caption line may wrap its path in: heading marks, emphasis, code ticks.
_CAPTION_MARKUP = rx(r"^\s{0,3}(?:#{1,6}\s+)?|[*_`]+")
# What may stand beside the path on a caption line: a short label ("File:", "template:").
_CAPTION_LABEL = rx(r"^(?:[\w-]+(?:\s+[\w-]+){0,2}\s*:)?\s*:?\s*$")
# ...or, after a path opening the line, a gloss ending in a colon ("- Template for pages:").
_CAPTION_GLOSS = rx(r"^(?:[-\u2013\u2014:]|--)\s*[^`\n]{1,80}:$")
_CAPTION_MAX_REST = 160
# A folder a skill keeps the files it installs elsewhere in.
_TEMPLATE_DIR = rx(r"^_*(?:templates?|scaffold(?:ing)?|skeletons?|boilerplates?)$",
                   re.IGNORECASE)
_TEMPLATE_MARK = rx(r"(?<=\w)\.(?:template|tmpl|tpl)(?=[./]|$)", re.IGNORECASE)


def block_caption(doc: MarkdownDoc, line_no: int, raw: str) -> bool:
    """The line `line_no` holds only the path `raw` (with a short label) and captions the
    fenced block just below it, which does not run the file."""
    idx = line_no - doc.first_line
    if not 0 <= idx < len(doc.lines):
        return False
    line = doc.lines[idx]
    at = line.find(raw)
    # A caption is the path and a label of a few words: a long line is none (and is not
    # rewritten per path, which made a line of a thousand paths quadratic).
    if at < 0 or len(line) - len(raw) > _CAPTION_MAX_REST:
        return False
    rest = _CAPTION_MARKUP.sub("", line[:at] + " " + line[at + len(raw):]).strip()
    first = not _CAPTION_MARKUP.sub("", line[:at]).strip()
    if not (_CAPTION_LABEL.match(rest) or (first and _CAPTION_GLOSS.match(rest))):
        return False
    nxt = idx + 1
    if nxt < len(doc.lines) and not doc.lines[nxt].strip():
        nxt += 1
    fence = next((f for f in doc.fences if f.start == nxt + doc.first_line), None)
    if fence is None:
        return False
    name = posixpath.basename(raw.rstrip("/"))
    # `bash scripts/setup.sh` under the path: the block runs the file, not shows it.
    return not any(name in body_line and not body_line.lstrip().startswith("#")
                   for body_line in fence.body)


def template_files(skill: Skill) -> dict[str, str]:
    """The skill's files under a template folder, by their path below that folder, also
    without a template's mark (`x.template.mjs`, `x.sh.tmpl`: installed as `x.mjs`, `x.sh`)."""
    out: dict[str, str] = {}
    for f in skill.files:
        if not f.present or f.is_dir:
            continue
        parts = f.path.split("/")
        for i, part in enumerate(parts[:-1]):
            if _TEMPLATE_DIR.match(part):
                below = "/".join(parts[i + 1:])
                out.setdefault(below, f.path)
                out.setdefault(_TEMPLATE_MARK.sub("", below), f.path)
                # A kit of variants (`templates/base/scripts/env-pull.sh`): the project gets
                # `scripts/env-pull.sh`; only a path that keeps a folder, not a bare name.
                variant = "/".join(parts[i + 2:])
                if "/" in variant:
                    out.setdefault(variant, f.path)
                    out.setdefault(_TEMPLATE_MARK.sub("", variant), f.path)
    return out


def scaffolded_from(templates: dict[str, str], path: str) -> str | None:
    """The template file (of `template_files`) the missing `path` is installed from: one
    whose path below its template folder is `path`, or `path` without its first folder."""
    rel = posixpath.normpath(path.removeprefix("./"))
    if rel.startswith(".."):
        return None
    found = templates.get(rel)
    if found is None and "/" in rel:
        found = templates.get(rel.split("/", 1)[1])
    return found


# The marks of a file shipped to be copied: `config.example.yaml`, `.env.sample`.
_COPY_MARKS = ("example", "sample", "template", "dist")


def example_of(skill: Skill, path: str) -> str | None:
    """The skill's example of the missing `path` (`references/parity.config.example.yaml`
    for `./parity.config.yaml`, `assets/.env.example` for `.env`): the path names the
    user's copy made from it, in the working folder. None when the skill ships none."""
    name = posixpath.basename(path.rstrip("/"))
    if not name or ".." in path.split("/"):
        return None
    stem, dot, ext = name.rpartition(".")
    wanted = {f"{name}.{m}" for m in _COPY_MARKS}
    if stem and dot:
        wanted |= {f"{stem}.{m}.{ext}" for m in _COPY_MARKS}
        wanted |= {f"{stem}-{m}.{ext}" for m in _COPY_MARKS}
    for f in skill.files:
        if f.present and not f.is_dir and posixpath.basename(f.path) in wanted:
            return f.path
    return None


def installed_template(root: Path) -> str | None:
    """The skill at `root` sits in a template folder of an enclosing skill (it is installed
    into the user's project as it is): that folder's path from the enclosing skill."""
    try:
        p = root.resolve()
    except OSError:
        return None
    parts: list[str] = []
    for _ in range(4):
        parts.insert(0, p.name)
        p = p.parent
        if (p / SKILL_MD).is_file():
            inner = parts[:-1]
            hit = next((i for i, part in enumerate(inner) if _TEMPLATE_DIR.match(part)), None)
            return f"{p.name}/{'/'.join(inner[:hit + 1])}" if hit is not None else None
        if p.parent == p:
            break
    return None


# The sentence places the file at the plugin's root, not the skill's.
_PLUGIN_ROOT_WORDS = rx(r"\bplugin[-\s]root\b|\bplugin['’]s\s+(?:own\s+|bundled\s+)?"
                        r"(?:\w+\s+){0,2}(?:references?|scripts?|files?)\b", re.IGNORECASE)
# A path written from a root variable or a placeholder folder: `${CLAUDE_PLUGIN_ROOT}/…`,
# `{plugin_path}/…`, `migrations/<project>/…` (a generated project's folder).
_ROOTED = rx(r"(?:\$\{?([A-Za-z_]+)\}?|\{([A-Za-z_]+)\}|<([A-Za-z][\w-]*)>)/([\w./*-]+)")
# A variable for the skill's own folder: a path under it is the skill's.
_SKILL_VAR = rx(r"skill|base_?dir", re.IGNORECASE)


def rooted_paths(text: str, skill_name: str) -> list[tuple[str, str]]:
    """(as written, path after the root) of each path the document `text` gives from a
    root variable other than the skill's own folder (`skill_name`: the skill's folder
    name, as in `${CLAUDE_PLUGIN_ROOT}/skills/<it>/...`, which is the skill's own)."""
    own = f"skills/{skill_name}/"
    out = []
    for m in _ROOTED.finditer(text):
        full = m.group(4).rstrip(".")
        if not (_SKILL_VAR.search(m.group(1) or m.group(2) or m.group(3))
                or full.startswith(own)):
            out.append((m.group(0).rstrip("."), full))
    # `PLUGIN_ROOT/assets/x.css` after "Set `PLUGIN_ROOT = ${CLAUDE_PLUGIN_ROOT}`".
    out += [(w, full) for w, full in bare_rooted(text, _SKILL_VAR) if not full.startswith(own)]
    return out


def placed_outside(rooted: list[tuple[str, str]], sentence: str, path: str) -> str | None:
    """How the text places the missing `path` outside the skill, or None: its `sentence`
    says it is the plugin's, or the document gives the same path (or its folder as a
    pattern) from a root variable (`rooted`, from `rooted_paths`)."""
    if _PLUGIN_ROOT_WORDS.search(sentence):
        return "the text places it at the plugin's root, outside the skill folder"
    rel = posixpath.normpath(path.removeprefix("./"))
    folder = posixpath.dirname(rel)
    for written, full in rooted:
        if full == rel or full.endswith("/" + rel):
            return f"the skill gives it in full as `{written}`"
        if "*" in full and folder and posixpath.dirname(full).endswith(folder) \
                and re.fullmatch(re.escape(posixpath.basename(full)).replace(r"\*", ".*"),
                                 posixpath.basename(rel)):
            return f"the skill locates such files at `{written}`"
    return None


# --- readings of the words around a path ---------------------------------------------------

_QUOTES = {'"': '"', "“": "”"}
# How far before a path its owner may be named (a bound: a generated index may hold
# thousands of paths in one sentence).
NEAR = 240


def in_quoted_phrase(line: str, start: int, end: int) -> bool:
    """The path at [start, end) of `line` is inside a quoted phrase with other words ("See
    references/file.md for..."): a sentence shown to be written, not an instruction."""
    for open_q, close_q in _QUOTES.items():
        left = line.rfind(open_q, 0, start)
        if left < 0 or (open_q == close_q and line.count(open_q, 0, start) % 2 == 0):
            continue
        right = line.find(close_q, end)
        if right < 0:
            continue
        words = (line[left + 1:start] + " " + line[end:right]).split()
        if any(any(c.isalpha() for c in w) for w in words):
            return True
    return False


# A section of things not written yet: "## Pattern for future loaders", "## Roadmap",
# "## Cleaner long-term path", "### P2 — Nice to have".
# "To do" only as the list's own title ("## To do", "## TODO", "## 2. To do"), not "What
# to do if the build fails" or "How to do a release", which are instructions.
_PLANNED_TITLE = rx(r"\b(?:future|planned|roadmap|todo|upcoming|wish\s*list|ideas"
                    r"|long[-\s]term|nice[-\s]to[-\s]have)\b|^[\W\d]*to\s+do\b", re.IGNORECASE)
# The last sentence of a lead-in that offers what follows as suggestions: "Bundling helper
# scripts is powerful. Consider:", "Future iterations could add:", "Possible additions:".
_PROPOSAL_LEAD = rx(r"(?:^|[.!?]\s+)(?:consider|(?:[^.!?:]*\b(?:could|might)\b[^.!?:]*)"
                    r"|(?:possible|suggested|proposed)\s+(?:additions?|improvements?|scripts?"
                    r"|files?))\s*:$", re.IGNORECASE)
_LEAD_REACH = 40  # lines above a path searched for such a lead-in (within its section)


def planned_section(doc: MarkdownDoc, line_no: int) -> bool:
    """Line `line_no` sits under a heading of things not written yet, or below a lead-in of
    its section that offers what follows as suggestions."""
    title = section_title(doc, line_no)
    if title and _PLANNED_TITLE.search(title):
        return True
    i = doc.last_heading(line_no)
    top = doc.headings[i].line if i >= 0 else doc.first_line - 1
    for no in range(line_no - 1, max(top, line_no - _LEAD_REACH - 1), -1):
        line = doc.lines[no - doc.first_line].strip()
        if line.endswith(":") and not doc.is_code(no) and _PROPOSAL_LEAD.search(line):
            return True
    return False


# A name that may be a skill's or a plugin's: `drupal-gitlab`, `dev-guides-navigator`.
_NAME_SPAN = r"(?:\*\*)?`([a-z0-9]+(?:-[a-z0-9]+)+)`(?:\*\*)?"
# ... written as the owner of the path right after it: "`other-skill` `scripts/x.sh`",
# "`other-skill` → `references/y.md`", "`other-skill`'s `references/y.md`", "`other-skill`
# package's `scripts/x.sh`" (one word between, in any language).
_OWNER_BEFORE = rx(_NAME_SPAN + r"(?:['’]s)?\s*(?:→|->|:)?\s*(?:[^\s`|]+\s+)?`?$")
# ... with paths given before it in the same list: "`other-skill` — `a.md`, `b.md`".
_OWNER_LIST = rx(_NAME_SPAN + r"(?:['’]s)?\s*(?:→|->|:)?\s*(?:[^\s`|]+\s+)?"
                 r"(?:`[^`\n]+`\s*(?:,|\+|&|\band\b|\bor\b)\s*){1,12}`?$")
# ... or in a parenthesis opened right after the name, or after an entry's dash that glosses
# it: "the community `other-skill` (`references/a.md`, ...)", "pairs with `other-skill`
# (view identity via `references/b.md`)", "- `other-skill` (community) — what it covers
# (`references/c.md`)". Not "`some-tool` to convert (see `references/x.md`)": no dash.
_OWNER_PAREN = rx(_NAME_SPAN + r"(?:\s*\([^`()\n]{0,40}\))?"
                  r"(?:\s*(?:[-\u2013\u2014:]|--)\s[^`()]{0,120})?\s*$")
# ... or named in the sentence, the path then given as "its": "the `other` skill (its
# `references/y.md`)", "`other`'s lookup section and its `references/y.md`"; in Ukrainian
# or Russian, "його" / "его" ("хелпери скіла `other`, сценарії — його `references/y.md`").
_ITS_BEFORE = rx(r"(?:\bits|(?<!\w)(?:його|его))\s+`?$", re.IGNORECASE)
_NAMED = rx(_NAME_SPAN)
# ... or said to provide the paths listed after it: "the `plugin:other` skill (provides
# `a`, `b`)", "`other-skill` ships `scripts/y.py`", "from the `other` skill: `a`, `b`".
# Not "unlike the `other` skill, this one provides `a`": the subject is this skill.
_PROVIDER = (r"`([a-z0-9]+(?:[-:][a-z0-9]+)+|[a-z0-9]+(?=`\s+(?:skill|plugin)\b))`"
             r"(?:\s+(?:skill|plugin))?")
_OWNER_PROVIDES = rx(r"(?:" + _PROVIDER + r"\s*(?:\(\s*|,\s*which\s+|\s+)"
                     r"(?:provides|ships|bundles|includes|supplies|has)"
                     r"|\bfrom\s+(?:the\s+)?" + _PROVIDER + r"\s*:)"
                     r"\s*(?:`[^`\n]+`\s*(?:,|\band\b|\bor\b)\s*){0,12}`?$")


def owned_by_other(before: str, skill_name: str, path: str = "") -> str | None:
    """The text just before a path (`before`, from its sentence's start) names another skill
    or plugin as the path's owner: that name, or None. A list or a parenthesis after the
    name gives it the paths inside a skill (`references/a.md`), not a `../` path, which is
    written from this skill's file ("the fixture `other-skill` uses (`../golden/x.json`)")."""
    m = _OWNER_BEFORE.search(before)
    if m and m.group(1) != skill_name:
        return m.group(1)
    opened = _open_paren(before) if ".." not in path.split("/") else -1
    m = _OWNER_LIST.search(before) if ".." not in path.split("/") else None
    if m is None and opened >= 0:
        m = _OWNER_PAREN.search(before, 0, opened)
    if m and m.group(1) != skill_name:
        return m.group(1)
    m = _OWNER_PROVIDES.search(before) if ".." not in path.split("/") else None
    if m and (name := m.group(1) or m.group(2)) != skill_name:
        return name
    if _ITS_BEFORE.search(before):
        names = [n for n in _NAMED.findall(before) if n != skill_name]
        if names:
            return names[-1]
    return None


def _open_paren(text: str) -> int:
    """Where the last parenthesis still open at the end of `text` opens, or -1."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == "(" and depth == 0:
            return i
        depth += {")": 1, "(": -1}.get(text[i], 0)
    return -1


# The lead-in of a list that looks for files in the user's project: "Detect `.security/`
# scripts, especially:", "If present:", "Look for:".
_DETECT_LEAD = rx(r"\b(?:detect(?:s|ed|ing)?|look(?:s|ing)?\s+for|check(?:s|ing)?\s+for"
                  r"|if\s+(?:present|any|it\s+exists|they\s+exist))\b", re.IGNORECASE)
_LIST_ITEM = rx(r"^(\s*)(?:[-*+]|\d{1,9}[.)])\s")


def under_detect_lead(lines: list[str], idx: int) -> bool:
    """Line `idx` is an item of a list whose lead-in (the less indented line above it)
    looks for files in the user's project."""
    lead = list_lead_in(lines, idx, blanks=0)
    return lead is not None and bool(_DETECT_LEAD.search(lead))


def list_lead_in(lines: list[str], idx: int, blanks: int) -> str | None:
    """The line ending in ":" that leads in the list whose item is line `idx` (found above
    its sibling items and their continuation lines, across at most `blanks` blank lines),
    or None when `idx` is no item or the line above the list does not lead it in."""
    m = _LIST_ITEM.match(lines[idx]) if 0 <= idx < len(lines) else None
    if m is None:
        return None
    indent = len(m.group(1))
    for i in range(idx - 1, max(-1, idx - 30), -1):
        line = lines[i]
        if not line.strip():
            if blanks == 0:
                return None
            blanks -= 1
            continue
        lead = len(line) - len(line.lstrip())
        if lead > indent or (lead == indent and _LIST_ITEM.match(line)):
            continue  # a sibling item or a continuation line
        return line if line.rstrip().endswith(":") else None
    return None


def names_other_file(doc: MarkdownDoc, raw: str, line_no: int, para: Paragraph,
                     offset: int) -> bool:
    """The text presents the path (`raw`, at `offset` of `para`, on line `line_no`) as a
    file of something else: a block's caption, a quoted phrase, or a file a list looks for
    in the user's project. (Another skill's file is `owned_by_other`'s: whether it exists
    there is the caller's to check. An entry of a section of planned files is only softened,
    `planned_section`, as a changelog's entries are.)"""
    if block_caption(doc, line_no, raw):
        return True
    line_idx, col, line = para.where(offset)
    start = col - 1
    if in_quoted_phrase(line, start, start + len(raw)):
        return True
    return under_detect_lead(doc.lines, line_idx)


def other_skill_has(root: Path, name: str, path: str) -> bool | None:
    """Whether the skill `name` beside the skill at `root` (a sibling folder, or a skill of
    a sibling plugin of a marketplace, `plugins/*/skills/<name>`) has `path`; None when no
    such skill is found."""
    name = name.rsplit(":", 1)[-1]  # `plugin:skill`: the skill's own folder name
    try:
        parent = root.resolve().parent
        found = [parent / name] if (parent / name / SKILL_MD).is_file() else []
        if not found and parent.name == "skills" and parent.parent.parent.name == "plugins":
            found = [s.parent for s in parent.parent.parent.glob(f"*/skills/{name}/{SKILL_MD}")]
        if not found:
            return None
        return any((s / path.removeprefix("./")).exists() for s in found)
    except OSError:
        return None
