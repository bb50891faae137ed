"""Scripts the text says the user's project supplies (SF301; issue 36, holdout16). Each
reading makes a missing script a warning that names the assumption, never silences it:

- a setup step that puts files into the project's script folder: `ln -s
  "$SKILLS_DIR/x/scripts/run.sh" scripts/run` (or `cp ... scripts/`) makes `scripts/` the
  project's folder, so the skill's `./scripts/...` runs are read there.
- text that handles the script's absence or names it as the project's: "Run
  `./scripts/digest` when available", "If the command is missing, ...", "the digest is the
  required project adapter", "your project's `scripts/`". A skill whose own script is lost
  says none of this, and stays an error.
"""

from __future__ import annotations

import re

from linters.reliability.command_context import lead_in
from linters.reliability.commands import Command, segments, words
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

__all__ = ["absence_handled", "linked_into_project"]

# `ln -sfn SRC DEST`, `cp -r SRC DEST`: a command that places a file at DEST.
_PLACES = ("ln", "cp", "install")


def linked_into_project(doc: MarkdownDoc, rel: str) -> str | None:
    """The reason `rel` is the project's, or None: a fenced command of the skill links or
    copies a file into `rel`'s folder (relative, so the user's working folder)."""
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    if not folder:
        return None
    for i, line in enumerate(doc.lines):
        if not doc.is_code(i + doc.first_line):
            continue
        for seg in segments(line):
            ws = words(seg)
            if ws[:1] == ["sudo"]:
                ws = ws[1:]
            if not ws or ws[0] not in _PLACES:
                continue
            args = [w.strip("\"'") for w in ws[1:] if not w.startswith("-")]
            if len(args) < 2:
                continue
            dest = args[-1].removeprefix("./").rstrip("/")
            if dest[:1] in "/~$" or not dest:
                continue
            dest_folder = dest if args[-1].endswith("/") else dest.rsplit("/", 1)[0]
            if "/" in dest and dest_folder == folder or dest == folder:
                return (f"a setup step places files into the project's `{folder}/` "
                        f"(`{ws[0]} ... {ws[-1]}`), so `{rel}` is read in the "
                        "user's project; check that the project has it")
    return None


# The text expects the script may be absent, or says the project supplies it.
_ABSENCE = rx(
    r"\b(?:when|if|where)\s+(?:it\s+|they\s+|the\s+(?:command|script|executable|tool|"
    r"adapter)s?\s+)?(?:is\s+|are\s+)?(?:available|present|exists?|missing|absent|"
    r"installed|not\s+found)\b"
    r"|\bproject\s+adapters?\b"
    r"|\b(?:your|the\s+user['’]s)\s+(?:own\s+)?(?:project|repo(?:sitory)?)['’]s\s+`?\.?/?scripts/"
    r"|\bthe\s+(?:project|repo(?:sitory)?)\s+(?:must|should)\s+(?:provide|supply|define)\b",
    re.IGNORECASE)
_AFTER = 12  # lines after a command (or its block) searched for the words
# A line that starts the next item of a top-level list: the command's item ends there.
_NEXT_ITEM = rx(r"^(?:\d+[a-z]?[.)]|[-*+])\s")


def absence_handled(doc: MarkdownDoc, cmd: Command) -> str | None:
    """The reason the script is the project's, or None: the command's sentence, its block's
    lead-in or the prose right after it says what to do when the script is absent, or
    calls it the project's."""
    first = doc.first_line
    said = [lead_in(doc, cmd.block)] if not cmd.inline else []
    start = cmd.line - first
    if cmd.inline and 0 <= start < len(doc.lines):
        # the command's paragraph from its line: "Run `x` when available."
        said.append(doc.lines[start])
    i = start + 1
    while not cmd.inline and i < len(doc.lines) and doc.is_code(i + first):
        i += 1  # past the rest of the block
    n = 0
    while i < len(doc.lines) and n < _AFTER:
        raw = doc.lines[i]
        line = raw.strip()
        if doc.is_code(i + first) or line.startswith("#") or _NEXT_ITEM.match(raw):
            break
        said.append(line)
        i += 1
        n += 1
    m = _ABSENCE.search(" ".join(said))
    if m is None:
        return None
    return (f"the text says what to do when it is absent or names it as the project's "
            f"(\"{m.group(0)}\"), so it is likely the user's project's; check the skill "
            "does not ship it")
