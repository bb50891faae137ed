"""Files of the folder a skill runs in, not files of the skill (SF116; issue 36, holdout21).

A skill run by a worker (a scanner, a CI job, an evaluation harness) often opens by listing
the folder the worker prepares for it:

    ## Workspace
    - `./src` — the repository to analyse
    - `./context.json` — the run's settings
    - `./report.json` — write the report here

and its steps then say "Read `./context.json`" or run `python3 scripts/scan.py > ./out.json`.
Those `./` paths are the run folder's inputs and outputs, put there by the worker or written
by the agent at run time; no skill ships them. A document gives a `./` path as the run
folder's when
- a section whose heading names the run folder lists it: "Workspace", "The workspace",
  "Working directory", "Run folder", "Workspace layout", "Workspace and provenance", "Files
  in the workspace", "Inputs", "Outputs", "Inputs and outputs" (not "Output format", whose
  paths may be the skill's templates); or a list led in by a line that names it
  ("Workspace layout:");
- or its steps write it: a shell redirect (`> ./report.json`, in a block or in a code span),
  a sentence that writes or saves something to it ("write the summary to `./out.md`",
  "Write `./report.json`"), or a script a block runs whose stem it shares, when the
  paragraph right after that block names it (`bash scripts/preflight.sh`, then "Read
  `./setup/preflight.json`"; a data file, not a `.md` to follow).
Every mention of such a path in that document is then the run folder's, and so is a path
below a folder it lists (`./src/app.py` when `./src` is listed).

Only `./` paths outside the skill's own folders are read so (`path_context.cwd_relative`):
a section like that listing `references/x.md` or `./scripts/y.py`, which the skill lacks,
still names a missing file of the skill, and a Markdown link is always checked.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import without_dot_slash

# The folder the skill runs in, as a section heading or a list's lead-in names it.
_FOLDER = (r"(?:workspace|work(?:ing)?\s+(?:director(?:y|ies)|dir|folder|tree|area)"
           r"|run(?:time)?\s+(?:folder|director(?:y|ies)|dir)|current\s+(?:directory|folder)"
           r"|cwd|sandbox|scratch\s+(?:space|directory|dir|folder))")
# A heading that is the name of that folder, with a word or two before ("The workspace",
# "Teaching workspace") or after ("Workspace layout"), or the run's inputs and outputs.
_RUN_FOLDER_TITLE = rx(
    r"^\W*(?:(?:the|your|our|this|a|an)\s+)?(?:[\w-]+\s+)?" + _FOLDER
    + r"(?:\s+(?:layout|structure|contents?|files|inputs?|outputs?|setup))?"
    r"(?:\s*(?:and|&|/)\s*[\w-]+)?\W*$"
    r"|^\W*(?:files|inputs?|outputs?)\s+(?:in|of)\s+(?:the\s+|your\s+)?" + _FOLDER + r"\W*$"
    r"|^\W*(?:(?:run|job|task|skill)\s+)?(?:inputs?|outputs?|input\s+files|output\s+files)"
    r"(?:\s*(?:and|&|/)\s*(?:inputs?|outputs?))?\W*$",
    re.IGNORECASE,
)
# A list's lead-in line that names the folder: "Workspace layout:", "The working directory
# holds:", "Files in the run folder:".
_RUN_FOLDER_LEAD = rx(r"\b" + _FOLDER + r"\b[^:\n]{0,60}:\s*$", re.IGNORECASE)
# A path in a code span, with or without its `./`.
_SPAN_PATH = rx(r"`((?:\./)*[\w.][^`\s]*)`")
# What the steps write: a shell redirect into a file of the working folder...
_REDIRECT = rx(r"(?<![<>&\d])>{1,2}[ \t]*((?:\./)+[\w.][^\s`;|&)<>\"']*)")
# ...or a sentence that writes or saves something to a path ("write `{...}` to
# `./report.json`"), or writes the path itself ("Write `./report.json` as:").
_WRITE_TO = rx(
    r"\b(?:write|writes|save|saves|dump|dumps|emit|emits|output|outputs|store|stores"
    r"|redirect|redirects|pipe|pipes)\b((?:[^.;:\n`]|`[^`\n]*`){0,80}?)"
    r"\b(?:to|into|as)\s+`((?:\./)+[\w.][^`\s]*)`"
    r"|\b(?:write|overwrite|create|produce)\s+`((?:\./)+[\w.][^`\s]*)`",
    re.IGNORECASE,
)
# Words between the verb and the path that make the path a guide to write by, not the
# file written: "write the code according to `./style.md`", "write it following `./x.md`".
_BY_GUIDE = rx(r"\b(?:according|following|per|conform\w*|adher\w*|refer\w*|similar|next"
               r"|using|see|format|template|instructions?|rules?|guide\w*)\b",
               re.IGNORECASE)
_LIST_ITEM = rx(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")
# A block's line that runs a script: the script as the command, or as an interpreter's file
# (`bash x/preflight.sh`, `python3 scripts/scan.py --json`, `./check.sh`); its stem.
_RUNS_SCRIPT = rx(
    r"^\s*(?:\$\s+)?(?:\w+=\S*\s+)*(?:(?:sudo|exec)\s+)?"
    r"(?:(?:bash|sh|zsh|source|python3?|node|ruby|perl|pwsh|tsx|(?:uv|deno|bun)\s+run"
    r"|npx\s+tsx)\s+(?:-[\w-]+\s+)*)?[\"']?(?:[^\s\"'`]*/)?([\w][\w.-]*?)"
    r"\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1)[\"']?(?=[\s;&|)]|$)"
)
# What a script leaves for the next step to read: data, not a document to follow.
_DATA_SUFFIXES = (".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".txt", ".log", ".xml",
                  ".yaml", ".yml", ".sarif", ".html")
_LEAD_REACH = 30  # lines a lead-in's list is followed down


def run_folder_path(doc: MarkdownDoc, path: str) -> bool:
    """The document gives the `./` path `path` as a file of the folder the skill runs in
    (see the module's docstring): listed in a section or list of that folder, or written by
    the skill's steps, itself or a folder above it."""
    names = _names(doc)
    if not names:
        return False
    rest = without_dot_slash(path).rstrip("/")
    parts = rest.split("/")
    return any("/".join(parts[:i]) in names for i in range(1, len(parts) + 1))


def _names(doc: MarkdownDoc) -> frozenset[str]:
    """The paths (without `./`) the document gives as the run folder's, read once."""
    key = __name__ + ".names"
    found = doc.memo.get(key)
    if found is None:
        found = doc.memo[key] = frozenset(
            _clean(p) for p in _listed(doc) | written_paths(doc.text) | _script_outputs(doc))
    return found


def _clean(path: str) -> str:
    return without_dot_slash(path).rstrip("/.,:")


def _listed(doc: MarkdownDoc) -> set[str]:
    """Paths in code spans of the sections whose heading names the run folder, and of the
    lists a line naming it leads in."""
    out: set[str] = set()
    heads = doc.headings
    for i, h in enumerate(heads):
        if not _RUN_FOLDER_TITLE.match(h.text.strip(" #*_`")):
            continue
        # The section runs to the next heading of its level or above (its subsections too).
        end = next((n.line for n in heads[i + 1:] if n.level <= h.level),
                   doc.first_line + len(doc.lines))
        out |= _spans(doc, h.line + 1, end)
    if "`" not in doc.text:
        return out
    for no, line in doc.prose_lines():
        if line.rstrip().endswith(":") and _RUN_FOLDER_LEAD.search(line):
            out |= _spans(doc, no + 1, _list_end(doc, no + 1))
    return out


def _list_end(doc: MarkdownDoc, start: int) -> int:
    """The line after the list that opens at `start` (across one blank line), or `start`
    when none does."""
    lines, first = doc.lines, doc.first_line
    i = start - first
    if i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not _LIST_ITEM.match(lines[i]):
        return start
    stop = min(len(lines), i + _LEAD_REACH)
    while i < stop and lines[i].strip() and (
            _LIST_ITEM.match(lines[i]) or lines[i][:1] in " \t"):
        i += 1
    return i + first


def _spans(doc: MarkdownDoc, start: int, end: int) -> set[str]:
    """The paths in code spans of the prose lines in [start, end)."""
    out: set[str] = set()
    for no in range(start, end):
        line = doc.lines[no - doc.first_line]
        if "`" in line and not doc.is_code(no):
            out.update(m.group(1) for m in _SPAN_PATH.finditer(line))
    return out


def _script_outputs(doc: MarkdownDoc) -> set[str]:
    """`./` data files (`./setup/preflight.json`) named in the paragraph right after a block
    that runs a script of the same stem (`bash scripts/preflight.sh`; `scan.py` for
    `./scan_results.csv`): the script's output, read where it ran. Only that paragraph:
    the same name further on is no longer tied to the run."""
    out: set[str] = set()
    lines, first = doc.lines, doc.first_line
    for fence in doc.fences:
        if fence.end is None:
            continue
        stems = {m.group(1).lower() for line in fence.body
                 if not line.lstrip().startswith("#") and (m := _RUNS_SCRIPT.match(line))}
        if not stems:
            continue
        i = fence.end + 1 - first
        while i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and lines[i].strip() and not doc.is_code(i + first):
            for m in _SPAN_PATH.finditer(lines[i]):
                path = m.group(1)
                name = path.rstrip("/").rsplit("/", 1)[-1].lower()
                stem, dot, suffix = name.rpartition(".")
                if (path.startswith("./") and dot and f".{suffix}" in _DATA_SUFFIXES
                        and any(stem == s or stem.startswith((f"{s}_", f"{s}-", f"{s}."))
                                for s in stems)):
                    out.add(path)
            i += 1
    return out


def written_paths(text: str) -> set[str]:
    """Paths the document's steps write: redirect targets and the objects of write verbs."""
    out: set[str] = set()
    if ">" in text:
        for m in _REDIRECT.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start:m.start()].strip():  # not a blockquote's `>`
                out.add(m.group(1))
    for m in _WRITE_TO.finditer(text):
        if m.group(3):
            out.add(m.group(3))
        elif not _BY_GUIDE.search(m.group(1)):
            out.add(m.group(2))
    return out
