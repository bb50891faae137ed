"""Paths a list sets aside: files not written yet, files a run writes, files the skill no
longer ships (SF116; issue 36, holdout28).

A list names files for other reasons than to send the agent to them:

    ## Roadmap                          (planned: `path_owner.planned_section`)
    - `scripts/batch.py`

    Write findings to:                  (what the run writes, an output list)
    - `./audit_output/fields.json`

    ## Removed features                 (what the skill no longer ships)
    - `scripts/preview.py` (local preview) - not needed here

A missing file there is worth a look (a stale list, a typo), not an instruction that fails:
a warning. The list is read by its role, in the words of its lead-in line (the line ending
with ":" that opens the list) or, for what is no longer shipped, the title of its section;
never by the files it names. (A `./` entry of a section titled "## Outputs" is already no
file of the skill: `path_context.Paragraph.sends_to_read`, `run_folder`.)

Only an entry the path opens is read so: a list item or table row that begins with the path
("- `./out/a.json`", "| `scripts/old.py` | ... |"). A path later in an item ("- See
`references/schema.md`", "- Run `scripts/check.py` first") is what the item tells the agent
to do, and is judged like any other. Outputs further need a path a run can write: not a
script (the skill's tool to run), nor a file of the skill's document folders (`references/`,
`assets/`, `templates/`: a guide, whoever wrote it, is shipped), nor a Markdown link (made to
be followed: the caller keeps checking it).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph, without_dot_slash
from linters.text.paths.path_owner import planned_section
from linters.text.paths.path_refs import PathRef
from linters.text.sections import list_lead_in, section_title
from skillforge.models.skill import SCRIPT_SUFFIXES

# A lead-in that opens a list of what the run writes: "Write findings to:", "Save the
# results as:", "Outputs:", "Output files:", "This step creates:", "The script produces the
# following files:", "Files written:". Imperative or stated; never "read", "see" or "use".
_WRITE = r"(?:write|save|store|export|emit|dump|persist|output)"
_WROTE = r"(?:writes|saves|stores|exports|emits|outputs|creates|generates|produces)"
_OUTPUT_LEAD = rx(
    r"(?:^|[.!?]\s+)\W{0,4}(?:"
    + _WRITE + r"\b(?:(?!\b(?:read|see|load|open|consult|follow|check|run|use)\b)"
    r"[^.!?:,;`]){0,60}?\b(?:to|into|in|as|at|under)"
    r"|(?:the\s+)?(?:outputs?|output\s+files?|generated\s+files?|deliverables?|artifacts?"
    r"|artefacts?|files?\s+(?:written|created|generated|produced))"
    r"|(?:(?:it|this\s+(?:skill|step|run|script|command)|the\s+(?:skill|step|run|script"
    r"|command|tool))\s+)?" + _WROTE + r"(?:\s+(?:the\s+)?(?:following|these))?"
    r"(?:\s+(?:output\s+)?files?)?"
    r")\W{0,4}:\W{0,4}$",
    re.IGNORECASE,
)
# What the skill no longer ships, as a section's title: opening with the word ("## Removed
# capabilities", "## Deprecated scripts", "## 5. Dropped features") or saying so ("## What
# was removed", "## No longer included"). Not "## Handling deprecated APIs", a topic.
_REMOVED_TITLE = rx(
    r"^[\W\d]*(?:removed|deprecated|dropped|retired|discontinued|obsolete)\b"
    r"|\b(?:was|were|been)\s+(?:removed|dropped|retired)\b"
    r"|\bno\s+longer\s+(?:included|shipped|bundled|provided|supported|needed|available)\b"
    r"|\bnot\s+(?:included|shipped|bundled|ported|carried\s+over)\b",
    re.IGNORECASE,
)
# ... or as its list's lead-in ("The following scripts were removed:", "These features are
# not needed in this version:", "No longer shipped:").
_REMOVED_LEAD = rx(
    r"(?:\b(?:removed|deleted|dropped|retired|discontinued|deprecated)"
    r"|\bno\s+longer\s+(?:\w+\s+){0,2}?(?:included|shipped|bundled|provided|supported|needed"
    r"|used|available)"
    r"|\b(?:are|is|were|was)\s+(?:\*\*|__)?not\s+(?:\*\*|__)?(?:needed|included|shipped"
    r"|bundled|ported|carried\s+over|provided))\b[^:]{0,60}:\W{0,4}$",
    re.IGNORECASE,
)
# The entry opens with the path: a list marker or a table cell, bold or a code span, then it.
_ENTRY_START = rx(r"^[ \t]*(?:[-*+]|\d{1,9}[.)]|\|)[ \t]*(?:\*\*|__)?`?$")
_LIST_ITEM = rx(r"^\s*(?:(?:[-*+]|\d{1,9}[.)])\s|\|)")  # an item or a table row
_LEAD_REACH = 40  # lines of a list walked up to its lead-in
_DOC_DIRS = ("references", "reference", "assets", "templates")


def listed_aside(doc: MarkdownDoc, ref: PathRef, para: Paragraph | None,
                 offset: int) -> str | None:
    """Why the missing path `ref` (at `offset` of `para`) is listed aside, not sent to (see
    the module's docstring): the reason for a warning, or None."""
    if planned_section(doc, ref.line):
        return "it is listed under a section of files not written yet"
    if para is None or not _opens_entry(para, offset):
        return None
    lead = _lead_in(doc, ref.line)
    title = section_title(doc, ref.line)
    if _REMOVED_LEAD.search(lead) or _REMOVED_TITLE.search(title):
        return ("it is an entry of a list of what the skill no longer ships (removed or not "
                "needed), not a file the text sends the agent to")
    if ref.link or not _may_be_written(ref.path):
        return None
    if _OUTPUT_LEAD.search(lead):
        return ("it is an entry of a list of files the run writes (an output), not a file "
                "the skill ships")
    return None


def _opens_entry(para: Paragraph, offset: int) -> bool:
    """The path at `offset` opens its list item or table row."""
    start = para.text.rfind("\n", 0, offset) + 1
    return _ENTRY_START.match(para.text[start:offset]) is not None


def _may_be_written(path: str) -> bool:
    rel = without_dot_slash(path)
    if not rel or rel.startswith("/") or ".." in rel.split("/"):
        return False
    if PurePosixPath(rel).suffix.lower() in SCRIPT_SUFFIXES:
        return False  # a script in a list is the skill's tool, whatever the list says
    return rel.split("/", 1)[0] not in _DOC_DIRS


def _lead_in(doc: MarkdownDoc, line_no: int) -> str:
    """The lead-in line ending with ":" that opens the list (or table) holding line `line_no`,
    "" if none."""
    line = list_lead_in(doc, line_no, _LIST_ITEM, _LEAD_REACH)
    return line.strip() if line.rstrip().rstrip("*_ ").endswith(":") else ""
