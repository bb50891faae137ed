"""Paths of the user's project (or of a project the skill describes) that the words around
them give as such, not as files of the skill (SF116; issue 36, holdout12).

- the sentence says the repository already has the file ("Repo already has a bootstrap
  script (`scripts/bootstrap.sh` etc.)"): one found in the user's repository;
- the path glosses a thing the text gives as the repository's ("the repository's nightly
  check (`scripts/check.py`)", "저장소의 주간 점검(`scripts/audit.py`)");
- the list holding the path is led in as a sample for a typical repository ("Sample split
  for a typical repo:") or as what a file would contain ("Root `_INDEX.md` would contain:");
- the sentence runs over every candidate file of the kinds it lists, some by a pattern
  ("For every candidate `Makefile`, `*.mk`, `scripts/dev.sh`: read it"): files found in the
  project, not files the skill names;
- `./app.config.json` in a document that says a run "creates `app.config.json`": a file
  made in the working folder, not shipped by the skill;
- `./.hooks/x.sh`: a hidden folder at the top of the working folder, which the skill lacks;
- the path is one of a signature's files, whose presence identifies a checkout the
  skill detects ("accepted only on the full signature (`mkdocs.yml` + `scripts/x.py`)");
- the list or table holding it is led in as signatures, fingerprints or indicators
  ("**Framework Signatures:**" over "| React Native | `assets/index.android.bundle` |"): what
  to look for inside the app, archive or system under study. Only when the skill lacks the
  path's first folder: "Signatures:" over `rules/malware.yar` in a skill with `rules/` names
  its own file;
- a release or archive the paragraph says this folder does not hold carries it, a copy
  lacked it, or it is "in this plugin" when the skill lacks its folder (`release_paths`);
- the sentence calls it the repository's own (`REPO_OWNED`: "the repository's own",
  "project-local") or says where it is varies between projects (`LOCATION_VARIES`).

And one that makes the finding a warning (`not_run_by_it`): the sentence says a tool does
not run it ("it does **not** run `scripts/sync.py`"), what another program leaves alone,
likely a file of the project that program works in.

Not "the skill's nightly check (`scripts/check.py`)", nor a list led in with the skill's
files: those are the skill's, and a missing one is reported.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph, without_dot_slash
from linters.text.paths.path_owner import list_lead_in
from linters.text.paths.release_paths import in_another_release, said_elsewhere

_REPO = r"(?:repo(?:sitory)?|project|codebase|monorepo)"
_ALREADY_HAS = rx(rf"\b{_REPO}\s+already\s+(?:has|have|contains|includes|ships|provides)\b",
                  re.IGNORECASE)
# "the repository's weekly check (`" right before the path: a gloss of the repository's
# thing; in Korean, "저장소의 주간 점검(`" (the possessive particle 의).
_REPOS_THING = rx(rf"\b{_REPO}['’]s\s+(?:[\w-]+\s+){{0,3}}[\w-]+\s*\(\s*`?$"
                  r"|(?:저장소|리포지토리|레포지토리|레포)의\s*(?:\S+\s+){0,3}\S*?\(\s*`?$",
                  re.IGNORECASE)
_GLOSS_REACH = 80
# A list's lead-in that gives a sample of some repository's files, or what a file would
# contain: "Sample grouping for a typical repo:", "The root index would contain:".
_SAMPLE_LEAD = rx(rf"\b(?:for|in|of)\s+(?:a|an|the|your)\s+(?:typical|sample|example"
                  rf"|hypothetical|given|target)\s+{_REPO}\b"
                  r"|\bwould\s+(?:contain|include|hold|look\s+like)\s*:\s*$",
                  re.IGNORECASE)
_EVERY_CANDIDATE = rx(r"^\W*for\s+(?:every|each|any|all)\s+(?:candidate|matching|found)\b",
                      re.IGNORECASE)
_DOES_NOT_RUN = rx(r"\b(?:does\s+(?:\*\*|__)?not(?:\*\*|__)?|doesn['’]t)\s+(?:run|call|invoke"
                   r"|execute|touch)\s+`?$|\bnever\s+(?:runs|calls|invokes|executes|touches)\s+`?$",
                   re.IGNORECASE)
# The path is one of the files whose presence identifies another checkout: "accepted only
# on the full 4-part signature (`mkdocs.yml` + `scripts/build.py` + ...)", or a list led in
# by "...only if it carries the full **signature**:". Not "check the signature with `...`".
_SIGNATURE = rx(r"\b(?:signature|fingerprint|marker\s+files?)(?:\*\*|__)?\s*\([^()]*$",
                re.IGNORECASE)
_SIGNATURE_LEAD = rx(r"\b(?:signature|fingerprint|marker\s+files?)\W*:\s*$", re.IGNORECASE)
# The same lead-in in the plural, or naming indicators: "**Framework Signatures:**",
# "Indicators of compromise:", "Fingerprints:".
_SIGNATURES_LEAD = rx(r"\b(?:signatures?|fingerprints?|indicators?|marker\s+files?)\b[^:]{0,40}"
                      r":\W*$", re.IGNORECASE)
_TABLE_ROW = rx(r"^\s{0,3}\|")
_GLOB_SPAN = rx(r"`[^`\s]*\*[^`\s]*`")
# The sentence gives the path to the repository the skill lives in, not to the skill:
# "The commands are the repository's own: its check runner, `scripts/validate_repo.py`",
# "skipped in a repository where `scripts/validate_repo.py` is detected", "Prefer
# project-local scripts (`./scripts/run_gate.sh`, `make test`)".
REPO_OWNED = rx(
    r"\b(?:repository|repo|project|codebase)['’]s\s+own\b"
    r"|\bin\s+(?:a|the|any|your)\s+(?:repository|repo|project|codebase)\s+(?:where|that\s+has)\b"
    r"|\b(?:project|repo|repository|workspace)[-\s]local\b",
    re.IGNORECASE,
)
# The sentence says where the file is depends on the repository at hand: "Script location
# varies: `scripts/Init.s.sol` or `scripts/solidity/Init.s.sol`", "the folder differs between
# projects". A skill's own file has one place; this names the user's, wherever it is.
LOCATION_VARIES = rx(
    r"\b(?:locations?|paths?|places?|folders?|director(?:y|ies)|layouts?)\s+(?:(?:may|can"
    r"|might|will|often)\s+)?(?:vary|varies|differs?)\b"
    r"|\b(?:vary|varies|differs?)\s+(?:by|per|between|across|from)\s+(?:the\s+|one\s+)?"
    r"(?:projects?|repos?|repositories|codebases?|setups?)\b",
    re.IGNORECASE,
)


def project_path(doc: MarkdownDoc, para: Paragraph, offset: int, path: str,
                 has_top: bool) -> bool:
    """The words around the path at `offset` of `para` give it as a file of the user's
    project (see the module's docstring). `has_top`: the skill has the path's first
    folder."""
    if hidden_top(path) and not has_top:
        return True
    if not has_top and created_in_place(doc.text, path):
        return True  # a file a command makes in the working folder, not one the skill ships
    start, end = para.sentence(offset)
    if para.said_before(_ALREADY_HAS, offset):
        return True
    if _REPOS_THING.search(para.text, max(start, offset - _GLOSS_REACH), offset):
        return True
    if (_EVERY_CANDIDATE.match(para.text[start:min(offset, start + _GLOSS_REACH)])
            and para.sentence_has(_GLOB_SPAN, offset)):
        return True
    if _SIGNATURE.search(para.text, max(start, offset - 2 * _GLOSS_REACH), offset):
        return True  # one of the files that identify a checkout the skill detects
    if in_another_release(para, offset):
        return True  # carried by an archived release, which this folder does not hold
    if said_elsewhere(para, offset, path, has_top):
        return True  # what a copy lacked, or the plugin's file
    line_idx, _col, _line = para.where(offset)
    lead = list_lead_in(doc.lines, line_idx, blanks=1)
    if lead is not None and bool(_SAMPLE_LEAD.search(lead) or _SIGNATURE_LEAD.search(lead)):
        return True
    if has_top:
        return False
    lead = lead if lead is not None else table_lead_in(doc.lines, line_idx)
    return lead is not None and bool(_SIGNATURES_LEAD.search(lead))


def table_lead_in(lines: list[str], idx: int) -> str | None:
    """The line ending in ":" above the table whose row is line `idx` (across one blank
    line), or None when `idx` is no table row or nothing leads the table in."""
    if not 0 <= idx < len(lines) or not _TABLE_ROW.match(lines[idx]):
        return None
    i = idx
    while i > 0 and _TABLE_ROW.match(lines[i - 1]):
        i -= 1
    for j in range(i - 1, max(-1, i - 3), -1):
        if lines[j].strip():
            return lines[j] if lines[j].rstrip().rstrip("*_").rstrip().endswith(":") else None
    return None


def not_run_by_it(para: Paragraph, offset: int) -> str | None:
    """Why the path at `offset` of `para` is likely not the skill's: the words just before
    it say a tool does not run it; None when they do not."""
    start = max(para.sentence(offset)[0], offset - _GLOSS_REACH)
    if _DOES_NOT_RUN.search(para.text, start, offset):
        return "the text names it as a script another tool does not run"
    return None


_MAKES = r"(?:creates?|generates?|writes?|produces?|scaffolds?|emits?)"


def created_in_place(text: str, path: str) -> bool:
    """`./wix.config.json` in a document that says a run "creates `wix.config.json`": a
    file made in the working folder (the user's project), not one the skill ships."""
    if not path.startswith("./"):
        return False
    rest = without_dot_slash(path)
    if not rest or rest.endswith("/"):
        return False
    return rest in made_names(text)


# "creates `x`", "writes a new `x`", "`x` is generated": the file a command makes.
_MADE = rx(rf"\b{_MAKES}\s+(?:an?\s+|the\s+|its\s+)?(?:new\s+)?`(?:\./)*([^`\s]+)`"
           r"|`(?:\./)*([^`\s]+)`\s+(?:is|gets|will\s+be)\s+(?:created|generated|written"
           r"|scaffolded)\b", re.IGNORECASE)


@lru_cache(maxsize=8)
def made_names(text: str) -> frozenset[str]:
    """The file names a document says a command makes (read once per document, not once
    per path: a document may hold thousands of paths)."""
    return frozenset(m.group(1) or m.group(2) for m in _MADE.finditer(text))


def hidden_top(path: str) -> bool:
    """`./.hooks/x.sh`: a path under a hidden folder at the top of the working folder."""
    if not path.startswith("./"):
        return False
    rest = without_dot_slash(path)
    top, sep, _ = rest.partition("/")
    return bool(sep) and top.startswith(".") and top not in (".", "..")
