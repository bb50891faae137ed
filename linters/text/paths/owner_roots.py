"""A path the words give as the plugin's or the repository's file, found there on disk
(SF116; issue 36, holdouts 2, 6, 11, 16 and 31).

A skill of a plugin sits in `<plugin>/skills/<name>/`; the plugin's own files (its shared
`references/`, its `scripts/`) sit at the plugin's root, two levels up, and a skill of a
repository's collection sits below the repository's top. Two text shapes name such a file
with a path that is missing from the skill:

- the words say it is the plugin's: "The plugin's bundled `references/rules.md`", "**Read**
  (plugin) `./references/VOICE.md`", a list led in by "from the plugin's `references/`
  folder:" or under a heading "Shared references (plugin level)";
- the text cites a source file as where something is done, not as a file to open or run:
  a gloss in brackets after what it does ("one transparent risk score
  (`scripts/lib/risk.mjs`)", "`--incremental` (`scripts/config.py`, Rules 2/3)"), the
  subject of what it does, alone or named with a word or two for what it is
  ("`scripts/check-banner.mjs` fails CI if ...", "The helper `scripts/init.sh` never
  writes the block"), or the agent of a participle ("values ... read via
  `scripts/config.sh`", "the gates are implemented in `scripts/gates.py`"), in a sentence
  that gives no instruction ("run", "read", "see", "use" ...). A plugin's skills write its
  scripts bare so when they describe the plugin's own code; the same skill running the
  bare path is SF301's finding, and stays one.

Either is read so only when the file is on disk where the words put it: at the plugin's
root (the nearest folder above the skill that holds `.claude-plugin/plugin.json`, or a
`plugins/<name>/` folder) or, for a cited source, at the repository's top (the folder that
holds `.git`, or the top of the repository's `skills/` collection). Then the finding is a
warning that names the file found and where; a path found nowhere stays an error, as does
one the text sends the agent to open in the skill without saying it is the plugin's. A
copied skill (no plugin root or top on disk) keeps its finding, with one exception: a copy
of a plugin that kept only its skills and manifest cannot show its root's files, and there
a cited source another skill of the plugin gives from `${CLAUDE_PLUGIN_ROOT}/` is a warning
naming that skill.
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
    r"|import|use|edit|modify|copy|check|review|inspect|look|follow|start|launch|verify"
    r"|ensure|confirm|test|make\s+sure)\b",
    re.IGNORECASE,
)
# A gloss: the path opens a bracket right after a word ("risk score (`x`", "`--flag` (`x`").
_GLOSS_BEFORE = rx(r"[\w`*]\s*\(\s*`?$")
# After the gloss's path: the bracket closes, or a locator follows ("`x`, Rules 2/3)").
_GLOSS_AFTER = rx(r"^`?\s*(?:\)|,[^()\n]{0,40}\))")
# The subject of what it does: a verb in the third person after the path ("`x` fails CI",
# "`x` never writes the block"), the path opening its clause, alone or after a word or two
# for what it is ("The helper `x` ...", "and the bundled hook `x` ...").
_DOES_AFTER = rx(r"^`?\s+(?:(?:also|only|still|never|always|just|already|automatically)\s+)?"
                 r"(?!is\b|has\b|was\b)[a-z]{3,}s\b(?!`)")
_SUBJECT_BEFORE = rx(r"(?:^[\s>*+\d.)-]*|\b(?:and|but|while|whereas)\s+|[;:,]\s+)"
                     r"(?:(?:the|this|that|our|its)\s+[\w'’-]+\s+(?:[\w'’-]+\s+)?)?`?$",
                     re.IGNORECASE)
# The agent of what is done, after a participle: "values read via `x`", "the gates are
# implemented in `x`", "handled by `x`": the file does the work described.
_DONE_BY_BEFORE = rx(r"\b(?:[a-z]{2,}ed|read|written|built|done|kept|run|set|made)"
                     r"\s+(?:via|by|through|in)\s+`?$", re.IGNORECASE)


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
    if (_GLOSS_BEFORE.search(before) and _GLOSS_AFTER.match(after)) or _DONE_BY_BEFORE.search(
            before):
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
    if plugin is not None and (given := _given_by_plugin_skill(plugin, root, rel)) is not None:
        return (f"the text cites it as the source of what it describes, not as a file to "
                f"open; the plugin's `{given[0]}` skill gives it as `{given[1]}`, and this "
                "copy of the plugin holds only its skills and manifest")
    return None


_ROOT_VARS = ("${CLAUDE_PLUGIN_ROOT}/", "$CLAUDE_PLUGIN_ROOT/")


def _given_by_plugin_skill(plugin: Path, root: Path, rel: str) -> tuple[str, str] | None:
    """(name, as written) of a skill of `plugin` other than the one at `root` whose SKILL.md
    gives `rel` from the plugin's root variable (`${CLAUDE_PLUGIN_ROOT}/scripts/x.sh`), read
    only when the plugin's folder holds nothing but `skills/` and its manifest: a copy that
    left the plugin's own files out, where its other skills witness what its root ships."""
    try:
        if not {p.name for p in plugin.iterdir()} <= {"skills", ".claude-plugin"}:
            return None
        own = root.resolve()
        for skill_md in sorted((plugin / "skills").glob("*/SKILL.md")):
            if skill_md.parent.resolve() == own:
                continue
            text = skill_md.read_text("utf-8", errors="replace")
            for var in _ROOT_VARS:
                if var + rel in text:
                    return skill_md.parent.name, var + rel
    except OSError:
        return None
    return None


def _from(root: Path, top: Path, rel: str) -> str:
    """`rel` at `top`, written from the skill's root (`../../references/x.md`)."""
    depth = len(root.relative_to(top).parts)
    return "../" * depth + rel
