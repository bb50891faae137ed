"""Whose file does a path name? Readings that tell a path of the skill from a file of
somewhere else, for the path rules (SF116, SF301; issue 36).

- A caption: a line that holds only the path (a heading `### scripts/setup.sh`, a label
  `**File:** `templates/job.yaml``) directly over a fenced block names the file that block's
  content is (a file of the user's chart, or one to create), not a file of the skill. When
  the block runs the file (`bash scripts/setup.sh`), it is not a caption.
- A file the skill scaffolds: the path is missing but the skill ships a file of the same
  path under a template folder (`templates/ekip-notify.sh` for `scripts/ekip-notify.sh`):
  the text names where the skill installs its template in the user's project.
- A template skill: a skill inside another skill's `templates/` folder is installed into
  the user's project, where its paths are the project's.
- A file placed outside the skill in words: the sentence puts it at the plugin's root
  ("plugin-root `references/x.md`"), or the same document gives it with a root variable
  (`${CLAUDE_PLUGIN_ROOT}/scripts/x.sh`, `{plugin_path}/references/*.md`) and the bare path
  is its short form.

The first three are not the skill's files (not reported); the last is the skill's plugin's
file, which a copied skill may lack: a warning that says so.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from skillforge.models.skill import SKILL_MD, Skill

# Markup a caption line may wrap its path in: heading marks, emphasis, code ticks.
_CAPTION_MARKUP = rx(r"^\s{0,3}(?:#{1,6}\s+)?|[*_`]+")
# What may stand beside the path on a caption line: a short label ("File:", "template:").
_CAPTION_LABEL = rx(r"^(?:[\w-]+(?:\s+[\w-]+){0,2}\s*:)?\s*:?\s*$")
# A folder a skill keeps the files it installs elsewhere in.
_TEMPLATE_DIR = rx(r"^_*(?:templates?|scaffold(?:ing)?|skeletons?|boilerplates?)$",
                   re.IGNORECASE)


def block_caption(doc: MarkdownDoc, line_no: int, raw: str) -> bool:
    """The line `line_no` holds only the path `raw` (with a short label) and captions the
    fenced block just below it, which does not run the file."""
    idx = line_no - doc.first_line
    if not 0 <= idx < len(doc.lines):
        return False
    line = doc.lines[idx]
    at = line.find(raw)
    if at < 0:
        return False
    rest = _CAPTION_MARKUP.sub("", line[:at] + " " + line[at + len(raw):]).strip()
    if not _CAPTION_LABEL.match(rest):
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


def scaffolded_from(skill: Skill, path: str) -> str | None:
    """The skill's template file the missing `path` is installed from: the same path, or
    the path without its first folder, under a template folder of the skill."""
    rel = posixpath.normpath(path.removeprefix("./"))
    if rel.startswith(".."):
        return None
    tails = {rel}
    if "/" in rel:
        tails.add(rel.split("/", 1)[1])
    for f in skill.files:
        if not f.present or f.is_dir:
            continue
        parts = f.path.split("/")
        for i, part in enumerate(parts[:-1]):
            if _TEMPLATE_DIR.match(part) and "/".join(parts[i + 1:]) in tails:
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
# A path written from a root variable: `${CLAUDE_PLUGIN_ROOT}/…`, `{plugin_path}/…`.
_ROOTED = rx(r"(?:\$\{?([A-Za-z_]+)\}?|\{([A-Za-z_]+)\})/([\w./*-]+)")
# A variable for the skill's own folder: a path under it is the skill's.
_SKILL_VAR = rx(r"skill|base_?dir", re.IGNORECASE)


def placed_outside(text: str, sentence: str, path: str, skill_name: str) -> str | None:
    """How the text places the missing `path` outside the skill, or None: the sentence
    says it is the plugin's, or the document `text` gives the same path (or its folder as
    a pattern) from a root variable that is not the skill's own folder (`skill_name`: the
    skill's folder name, as in `${CLAUDE_PLUGIN_ROOT}/skills/<it>/...`)."""
    if _PLUGIN_ROOT_WORDS.search(sentence):
        return "the text places it at the plugin's root, outside the skill folder"
    rel = posixpath.normpath(path.removeprefix("./"))
    folder = posixpath.dirname(rel)
    own = f"skills/{skill_name}/"
    for m in _ROOTED.finditer(text):
        full = m.group(3).rstrip(".")
        if _SKILL_VAR.search(m.group(1) or m.group(2)) or full.startswith(own):
            continue
        if full == rel or full.endswith("/" + rel):
            return f"the skill gives it in full as `{m.group(0).rstrip('.')}`"
        if "*" in full and folder and posixpath.dirname(full).endswith(folder) \
                and re.fullmatch(re.escape(posixpath.basename(full)).replace(r"\*", ".*"),
                                 posixpath.basename(rel)):
            return f"the skill locates such files at `{m.group(0).rstrip('.')}`"
    return None
