"""A path the words give as the plugin's or the repository's file, found there on disk
(SF116; issue 36, holdouts 2, 6, 11 and 16).

A skill of a plugin sits in `<plugin>/skills/<name>/`; the plugin's own files (its shared
`references/`, its `scripts/`) sit at the plugin's root, two levels up, and a skill of a
repository's collection sits below the repository's top. Two text shapes name such a file
with a path that is missing from the skill:

- the words say it is the plugin's: "The plugin's bundled `references/rules.md`", "**Read**
  (plugin) `./references/VOICE.md`", a list led in by "from the plugin's `references/`
  folder:" or under a heading "Shared references (plugin level)";
- the text cites a source file as where something is done, not as a file to open or run:
  a gloss in brackets after what it does ("one transparent risk score
  (`scripts/lib/risk.mjs`)", "`--incremental` (`scripts/config.py`, Rules 2/3)") or the
  subject of what it does ("`scripts/check-banner.mjs` fails CI if ..."), in a sentence
  that gives no instruction ("run", "read", "see", "use" ...).

Either is read so only when the file is on disk where the words put it: at the plugin's
root (the nearest folder above the skill that holds `.claude-plugin/plugin.json`, or a
`plugins/<name>/` folder) or, for a cited source, at the repository's top (the folder that
holds `.git`, or the top of the repository's `skills/` collection). Then the finding is a
warning that names the file found and where; a path found nowhere stays an error, as does
one the text sends the agent to open in the skill without saying it is the plugin's. A
copied skill (no plugin root or top on disk) keeps its finding.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph, without_dot_slash
from linters.text.paths.path_owner import list_lead_in
from linters.text.paths.project_top import collection_top, folders_up, git_top
from linters.text.sections import section_title
from skillforge.models.skill import SCRIPT_SUFFIXES

_CLIMB = 8  # folders above a skill searched for its plugin's root

# The words say the file is the plugin's: "the plugin's", "(plugin)", "plugin-level",
# "plugin root", "in this plugin"; not "the plugin's skills" (another skill's file).
PLUGIN_SAYS = rx(
    r"\bplugin(?:['’]s|[-\s](?:level|root|wide))\b(?!\s+(?:own\s+)?skills?\b)"
    r"|\(\s*(?:the\s+)?plugin\s*\)"
    r"|\b(?:in|of|from|at|under)\s+(?:this|the)\s+plugin\b(?!['’]s\s+skills?|\s+skills?\b)",
    re.IGNORECASE,
)
# A source file, not a document: what the text may cite as where a behaviour is done.
_SOURCE_SUFFIXES = frozenset(s for s in SCRIPT_SUFFIXES if s) | {".tsx", ".jsx", ".rs", ".java"}
# An instruction in the sentence: a verb that opens it, a clause or a bracket, or follows
# "then", "to", "must", "you" ("Run `x`", "(see `x`)", "then read `x`", "you can use `x`").
_INSTRUCTION = rx(
    r"(?:^[\s>*+\d.)-]*|[;:(]\s*|\b(?:then|and|or|to|must|should|please|you|first|can)\s+)"
    r"(?:\*\*|__)?(?:run|execute|invoke|call|read|see|open|load|consult|refer|source"
    r"|import|use|edit|modify|copy|check|review|inspect|look|follow|start|launch)\b",
    re.IGNORECASE,
)
# A gloss: the path opens a bracket right after a word ("risk score (`x`", "`--flag` (`x`").
_GLOSS_BEFORE = rx(r"[\w`*]\s*\(\s*`?$")
# After the gloss's path: the bracket closes, or a locator follows ("`x`, Rules 2/3)").
_GLOSS_AFTER = rx(r"^`?\s*(?:\)|,[^()\n]{0,40}\))")
# The subject of what it does: a verb in the third person after the path ("`x` fails CI").
_DOES_AFTER = rx(r"^`?\s+(?:also\s+|only\s+|still\s+)?(?!is\b|has\b|was\b)[a-z]{3,}s\b(?!`)")
_SUBJECT_BEFORE = rx(r"(?:^[\s>*+\d.)-]*|\b(?:and|but|while|whereas)\s+|[;:,]\s+)`?$")


def plugin_root(root: Path) -> Path | None:
    """The root of the plugin that holds the skill at `root`: the nearest folder above it
    with `.claude-plugin/plugin.json`, or a `plugins/<name>/` folder; None when neither is
    above it (a copied skill, a skill outside any plugin). The search stops at the
    repository's top (the folder that holds `.git`)."""
    return next((f for f in folders_up(root.parent, _CLIMB)
                 if (f / ".claude-plugin" / "plugin.json").is_file()
                 or f.parent.name == "plugins"), None)


def said_of_plugin(doc: MarkdownDoc, para: Paragraph, offset: int) -> bool:
    """The sentence of the path at `offset` of `para`, the lead-in of the list it is an item
    of, or the title of its section says it is the plugin's."""
    if para.sentence_has(PLUGIN_SAYS, offset):
        return True
    line_idx, _col, _line = para.where(offset)
    lead = list_lead_in(doc.lines, line_idx, blanks=1)
    if lead is not None and PLUGIN_SAYS.search(lead):
        return True
    return bool(PLUGIN_SAYS.search(section_title(doc, line_idx + doc.first_line)))


def cited_as_source(para: Paragraph, offset: int, path: str) -> bool:
    """The source file `path` at `offset` of `para` is cited as where something is done (a
    gloss in brackets, or the subject of what it does) in a sentence without an instruction
    (see the module's docstring)."""
    if PurePosixPath(path).suffix.lower() not in _SOURCE_SUFFIXES:
        return False
    start, end = para.sentence(offset)
    if _INSTRUCTION.search(para.text[start:end]):
        return False
    at = para.text.find(path, offset, offset + len(path) + 4)
    if at < 0:
        return False
    before, after = para.text[start:at], para.text[at + len(path):end]
    if _GLOSS_BEFORE.search(before) and _GLOSS_AFTER.match(after):
        return True
    return bool(_SUBJECT_BEFORE.search(before) and _DOES_AFTER.match(after))


def at_owner_root(root: Path, doc: MarkdownDoc, para: Paragraph | None, offset: int,
                  path: str) -> str | None:
    """Why the missing `path` (at `offset` of `para`) is the plugin's or the repository's
    file, found on disk where the words put it (a warning's reason), or None."""
    if para is None or path.startswith("../"):
        return None
    rel = without_dot_slash(path)
    if not rel or rel.endswith("/"):
        return None
    plugin = plugin_root(root)
    if plugin is not None and (plugin / rel).is_file() and said_of_plugin(doc, para, offset):
        return (f"the text gives it as the plugin's, and the plugin has `{rel}` at its root "
                f"(`{_from(root, plugin, rel)}` from the skill)")
    if not cited_as_source(para, offset, path):
        return None
    for top, what in ((plugin, "the plugin's root"), (git_top(root), "the repository's top"),
                      (collection_top(root), "the repository's top")):
        if top is not None and (top / rel).is_file():
            return (f"the text cites it as the source of what it describes, not as a file to "
                    f"open, and `{rel}` is at {what} (`{_from(root, top, rel)}` from the skill)")
    return None


def _from(root: Path, top: Path, rel: str) -> str:
    """`rel` at `top`, written from the skill's root (`../../references/x.md`)."""
    depth = len(root.relative_to(top).parts)
    return "../" * depth + rel
