"""Paths the text places in another release, version or archive of the skill, not in this
folder (SF116; issue 36, holdout12).

"The last working release is v0.8.0. It carries `scripts/codemap.py`. The release is the
snapshot; nothing in this directory reproduces it.": the sentence gives the path as
carried by a release (or "it", in a paragraph about one), and the paragraph says this
folder does not hold it. Both are needed: "The v1 release ships `scripts/run.py`; run it"
alone still names a file the agent is sent to, and a missing one is reported.

Two more places the words give for a path (`said_elsewhere`):
- what a copy lacked: "this one had drifted: it lacked the graph (`scripts/graph.py`)" says
  the file is not there, it does not send the agent to it; not "if the report lacks a
  summary, run `scripts/sum.py`", where a command comes between;
- the plugin's file: "the `templates/x.yaml` template in this plugin", when the skill has no
  such folder, is relative to the plugin's root, not the skill's folder.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.paths.path_context import Paragraph

_HOLDER = r"(?:release|version|archive|tarball|snapshot|tag)"
# The sentence's holder carries the path: "It carries `", "the archived release ships `".
_CARRIES = rx(rf"\b(?:it|{_HOLDER}|v\d+(?:\.\d+)+)\s+(?:carries|ships|contains|includes"
              r"|bundles|holds|had|has)\b[^.;:!?]*$", re.IGNORECASE)
# The paragraph is about a release, version or archive.
_ABOUT_RELEASE = rx(rf"\b(?:archived|{_HOLDER}s?)\b|\bv\d+(?:\.\d+)+\b", re.IGNORECASE)
# And says this folder does not hold it: "nothing in this directory reproduces it", "none
# of it is in this folder", "not part of this skill any more".
_NOT_HERE = rx(r"\b(?:nothing|none\s+of\s+(?:it|them|this))\s+(?:in|of)\s+this\s+(?:directory"
               r"|folder|skill|repo(?:sitory)?)\b"
               r"|\bnot\s+(?:in|part\s+of|shipped\s+(?:in|with))\s+this\s+(?:directory|folder"
               r"|skill)\b", re.IGNORECASE)


def in_another_release(para: Paragraph, offset: int) -> bool:
    """The path at `offset` of `para` is given as carried by a release, version or archive
    the paragraph says this folder does not hold (see the module's docstring)."""
    start, _end = para.sentence(offset)
    return (bool(_CARRIES.search(para.text[max(start, offset - _REACH):offset]))
            and bool(_ABOUT_RELEASE.search(para.text))
            and bool(_NOT_HERE.search(para.text)))


_LACKED = rx(r"\b(?:lacked|lacks|lacking|was\s+missing|were\s+missing|did\s+not\s+have"
             r"|didn['’]t\s+have)\b", re.IGNORECASE)
# A command or a new clause between "lacked" and the path: the path is not what was lacking.
_BREAK = rx(r"\b(?:run|use|call|read|see|execute|load|open|invoke|then|so|but|if|when)\b"
            r"|[.;:!?](?=\s|$)", re.IGNORECASE)
_IN_PLUGIN = rx(r"`?\s*(?:[\w.-]+\s+){0,2}(?:in|of|at|from|under)\s+(?:this|the)\s+plugin"
                r"(?:['’]s\s+root|\s+root)?\b(?!['’]s\s+skills?|\s+skills?\b)", re.IGNORECASE)
_REACH = 160


def said_elsewhere(para: Paragraph, offset: int, path: str, has_top: bool) -> bool:
    """The words give `path`, at `offset` of `para`, as what a copy lacked, or as the
    plugin's file when the skill lacks its first folder."""
    start, _end = para.sentence(offset)
    lead = para.text[max(start, offset - _REACH):offset]
    lacked = list(_LACKED.finditer(lead))
    if lacked and not _BREAK.search(lead, lacked[-1].end()):
        return True
    if has_top:
        return False
    at = para.text.find(path, offset, offset + len(path) + 2)
    return at >= 0 and bool(_IN_PLUGIN.match(para.text, at + len(path)))
