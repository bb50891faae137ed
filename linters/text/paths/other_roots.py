"""Paths a skill names that are not its files, read from the words the skill uses for them.

SF116 asks of a missing path whether the text presents it as a file of the skill. These
readings say it does not:

- another root is stated for the sentence's paths: a placeholder for a folder that is not
  the skill's own (`<plugin_dir>/skills/x/SKILL.md` and `references/y.md`; "paths are
  relative to `<codex_security_dir>`"), as `${CLAUDE_PLUGIN_ROOT}/` already does in
  `linters.text.paths.path_context`. The skill's own placeholders (`<skill-dir>`, `{baseDir}`)
  state nothing of the kind;
- the file is in the agent's memory store (`memory tree`, `MemFS`), not in the skill;
- the list the path heads is led in as files to write ("Write targets:", "Outputs:"), or
  by a bare "Examples:" label (sample names of a pattern the text just gave, say), as a
  label a blank line above the list already reads (`Paragraph.after_example_label`);
- its name is a pattern to fill in (`import-YYYY-MM-DD.md`, `NNN-slug.md`, `XX-notes.md`),
  or holds a slot no file name has: a run of `#` (`screenshots/F##_name.png` in a report
  template, the finding's number; a link reader takes its first `#` for a fragment, so
  the name is read as written) or an ellipsis (`step-....md`). One `#` is a fragment
  (`guide.md#setup`) and stays checked (holdout32);
- the sentence detects it in the user's project ("checking for `scripts/aem.js` ... in
  cwd");
- the words place it inside an artefact the skill analyses ("The APK contains
  `assets/index.android.bundle`"), or a mobile-app skill sends the agent to a well-known
  path inside the app package ("Extract `assets/index.android.bundle`"), in a folder the
  skill lacks and not as a link: `linters.text.paths.artefact_paths`.

A document that states another root for its `references/` paths once is read so
throughout: `foreign_root_of` softens the same folder's paths elsewhere in it to a warning
when the skill has no such folder.
"""

from __future__ import annotations

import functools
import posixpath
import re

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.artefact_paths import in_app_package, inside_artefact
from linters.text.paths.path_context import Paragraph, without_dot_slash
from linters.text.paths.path_owner import list_lead_in
from linters.text.paths.path_refs import PathRef
from skillforge.models.skill import Skill

# A placeholder for a folder, written as a root (`<plugin_dir>/`) or named alone in code
# (`<plugin_dir>`), whose name is not the skill's own folder, nor a place the agent writes to
# (`<output_dir>`, `<work_dir>`, `<tmp_dir>`): "Write the plan to `<output_dir>/plan.md`
# following `references/plan.md`" still names the skill's reference.
FOREIGN_ROOT = rx(
    r"(?<![\w$])[<{](?![\w-]*(?:skill|base|out|tmp|temp|work|dest|target|result|report|"
    r"artifact|build|cache|scratch|run|session|data))([A-Za-z][\w-]*"
    r"(?:dir|root|home|folder|directory))[>}](?=/|`)",
    re.IGNORECASE,
)
_MEMORY_STORE = rx(
    r"\bmemfs\b|\bmemory\s+(?:tree|file\s*system|fs|store|director(?:y|ies)|folders?|blocks?)\b",
    re.IGNORECASE,
)
# The lead-in of a list of files the agent writes: what the line opens with says so ("Write
# targets (...):", "Files to create:", "Outputs:", "It writes:", "Create these when ...:").
# Not a write word anywhere in it: "Before you write code, read these:" leads in files to read.
_WRITTEN_LEAD = rx(
    r"^\W*(?:(?:it|this(?:\s+\w+)?|the\s+\w+)\s+)?(?:"
    r"(?:write|output|save)\s+(?:targets?|paths?|locations?|files?)\b|outputs?\b"
    r"|(?:files?|paths?)\s+(?:to\s+)?(?:create|write|generate|produce)\b"
    r"|(?:creates?|writes?|generates?|produces?)\s*(?:[(:]|$)"
    r"|(?:create|write|save|generate|produce)\s+(?:these|them|the\s+following|each|the\s+files?"
    r"|files?)\b)",
    re.IGNORECASE,
)
# The bare label of a list of examples: "Examples:", "**Example:**", "e.g.:".
_EXAMPLES_LEAD = rx(r"^\W*(?:examples?|e\.g\.)\W*$", re.IGNORECASE)
_ITEM = rx(r"^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\*\*|__)?`?")
# A file name with a part to fill in: a date, a running number, a slug.
_TEMPLATED = rx(r"(?:^|[-_.])(?:YYYY(?:-?MM(?:-?DD)?)?|N{2,}|X{2,}|slug)(?=$|[-_.])")
# A slot no file name holds: a run of `#` (`F##`: a link's fragment never starts with `#`)
# or an ellipsis (`step-....md`, `F-…-x.png`).
_SLOT_RUN = rx(r"#{2,}|\.{3}|…")
_FRAGMENT = rx(r"(?<!#)#(?!#).*$")  # a lone `#` and what follows: the fragment, no name
_DETECT = rx(r"\b(?:detect(?:s|ed|ing)?|look(?:s|ing)?\s+for|check(?:s|ing)?\s+(?:for|if|whether)"
             r"|search(?:es|ing)?\s+for)\b", re.IGNORECASE)
_IN_PROJECT = rx(
    r"\bin\s+(?:the\s+)?(?:cwd|(?:current\s+|working\s+)director(?:y|ies)"
    r"|(?:user['’]s\s+|target\s+)?(?:project|repo(?:sitory)?|codebase|workspace))\b",
    re.IGNORECASE,
)


def templated_name(path: str) -> bool:
    """`reference/import-YYYY-MM-DD.md`, `screenshots/F##_x.png`: a name to fill in, which no
    skill ships. `path` as written: a cleaned link target has lost what follows its `#`."""
    name = posixpath.basename(_FRAGMENT.sub("", path))
    return bool(_TEMPLATED.search(name.split(".", 1)[0]) or _SLOT_RUN.search(name))


def not_the_skills(doc: MarkdownDoc, para: Paragraph, offset: int, ref: PathRef,
                   skill: Skill) -> bool:
    """The sentence around `ref`'s path at `offset` of `para` presents it as a file somewhere
    else than the skill, or as one the agent writes (see the module's docstring)."""
    path = ref.path
    if templated_name(path) or templated_name(ref.raw):
        return True
    if para.sentence_has(FOREIGN_ROOT, offset) or para.sentence_has(_MEMORY_STORE, offset):
        return True
    start, _end = para.sentence(offset)
    if para.sentence_has(_IN_PROJECT, offset) and _DETECT.search(para.text, start, offset):
        return True
    if inside_artefact(para, offset, path):
        return True  # a file inside the APK, binary or image the skill analyses
    if not ref.link and not skill.exists(without_dot_slash(path).split("/", 1)[0]) and (
            in_app_package(doc.text, para, offset, path)):
        return True  # a mobile-app skill's path inside the app package, not a skill folder
    line_idx, col, line = para.where(offset)
    item = _ITEM.match(line)
    if item is None or item.end() < col - 1:
        return False  # not a list item the path heads
    lead = list_lead_in(doc.lines, line_idx, blanks=1)
    return lead is not None and bool(_WRITTEN_LEAD.search(lead) or _EXAMPLES_LEAD.match(lead))


def foreign_root_of(text: str, path: str, has_top: bool) -> str | None:
    """Why the missing `path` is read from another root the document `text` states for
    paths of its folder, or None. Only when the skill lacks that folder (`has_top`)."""
    rest = without_dot_slash(path)
    top = rest.split("/", 1)[0]
    if has_top or "/" not in rest:
        return None
    root = _foreign_tops(text).get(top)
    if root is None:
        return None
    return f"the text reads its `{top}/` paths from `{root}`, a folder other than the skill's"


_SENTENCES = rx(r"\n[ \t]*\n|(?<=[.!?])\s+")
_CODE_TOP = rx(r"`(?:\./)?([A-Za-z][\w.-]*)/[^`\s]*`")


@functools.lru_cache(maxsize=32)
def _foreign_tops(text: str) -> dict[str, str]:
    """Top folders of the bare paths of the sentences that state another root, with it."""
    tops: dict[str, str] = {}
    if not FOREIGN_ROOT.search(text):
        return tops
    for sentence in _SENTENCES.split(text):
        m = FOREIGN_ROOT.search(sentence)
        if m is None:
            continue
        for p in _CODE_TOP.finditer(sentence):
            tops.setdefault(p.group(1), m.group(0))
    return tops
