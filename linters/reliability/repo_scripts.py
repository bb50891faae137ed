"""Scripts a command runs from a repository rather than from the skill (SF301; issue 36,
holdout13). Both readings make a missing script a warning that names the assumption, never
silence it:

- the command works on a folder of the user's that its comment or lead-in names: "# Build
  the coverage layer from your rule set" over `python3 scripts/to_layer.py rules/`. The
  relative folder `rules/`, which the skill lacks, is "your rule set": the command runs in
  the user's repository, where its relative script path is read too.
- a project skill: a skill kept in a repository's own `.claude/skills/<name>/` (or
  `.agents/`, `.codex/`, `.github/`) whose text says it works on "this repo" runs from the
  repository's top, so `python3 scripts/validate.py` there is the repository's script.
  When the repository's top is on disk (it holds `.git`) the script is looked up there:
  found, nothing is reported, words of "this repo" or none (a Catalan skill says it
  otherwise; holdout20); absent, the finding stays. A copied skill (no `.git` above
  it) cannot be checked: a warning that says what to check. Not when the skill has the
  script's first folder (`scripts/`): then the path names its own file, misspelt or lost.
  A skill in a repository's top `skills/<name>/` that keeps the collection ("orphans not
  linked from any SKILL.md") runs from that top the same way, as does one of a collection
  kept flat at the top (`<repo>/<name>/`, beside other skills). A run whose line or block
  lead-in names the repository ("Run the repo's validator:"), or of a tool named for the
  collection's skills (`scripts/validate-skills.py`), is the repository's maintainer step
  when the script is at the repository's top on disk: a warning that says where
  (`project_top.collection_run`).
- a block that also runs a test suite in a tests folder the skill lacks (`pytest
  tests/unit`, before or after the script): the check block of the project the skill works
  on, whose `uv run scripts/lint.py` is that project's (holdout 31). Not when the skill has
  a script of that name under another suffix: then it is its own, misspelt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath

from linters.reliability.command_context import lead_in
from linters.reliability.commands import (
    PYTHON_PROGRAM,
    Command,
    program,
    segments,
    words,
)
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.project_top import from_project_top
from linters.text.paths.project_top_scripts import script_stem
from skillforge.models.skill import SCRIPT_SUFFIXES

__all__ = ["builds_project_here", "checks_project_suite", "commits_users_files",
           "from_project_top", "users_folder"]

# "your rule set", "the user's own detections": up to three words naming what is theirs.
_YOURS = rx(r"\b(?:your|the\s+user['’]s)\s+(?:own\s+)?((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)",
            re.IGNORECASE)
_COMMENT_REACH = 4  # block lines above a command searched for its comment


def users_folder(doc: MarkdownDoc, cmd: Command, has: Callable[[str], bool]) -> str | None:
    """The reason the command runs in the user's repository, or None: a relative folder it
    takes (`rules/`), which the skill lacks (`has(top)` is False), is what the words over
    it call the user's ("from your rule set")."""
    words_said = [w.lower() for m in _YOURS.finditer(_said_over(doc, cmd))
                  for w in m.group(1).split()]
    if not words_said:
        return None
    for seg in segments(cmd.text):
        for arg in words(seg)[1:]:
            folder = arg.removeprefix("./")
            top = folder.split("/", 1)[0]
            if not folder.endswith("/") or not top or not top[0].isalpha() or has(top):
                continue
            for w in words_said:
                if _same_stem(w, top.lower()):
                    return (f"it reads `{folder}`, which the text calls the user's (\"your "
                            f"{w}\"), so it likely runs in the user's repository; check that "
                            "the script is the skill's")
    return None


def _same_stem(a: str, b: str) -> bool:
    """`rule` and `rules`, `detection` and `detections`: one word, singular or plural."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n >= 4 and n >= min(len(a), len(b)) - 1


def _lines_above(doc: MarkdownDoc, cmd: Command, reach: int) -> Iterator[str]:
    """The lines of a fenced command's block above it, nearest first, at most `reach`."""
    first = doc.first_line
    for no in range(cmd.line - 1, max(cmd.block, cmd.line - reach - 1), -1):
        yield doc.lines[no - first] if 0 <= no - first < len(doc.lines) else ""


def _said_over(doc: MarkdownDoc, cmd: Command) -> str:
    """The words over a block's command: its trailing comment, the nearest comment above
    it in its block, and the block's lead-in ("" for an inline command)."""
    if cmd.inline:
        return ""
    said = [cmd.text.partition(" #")[2]]
    for line in _lines_above(doc, cmd, _COMMENT_REACH):
        line = line.strip()
        if not line:
            break
        if line.startswith("#") and not line.startswith("#!"):
            said.append(line)
            break
    said.append(lead_in(doc, cmd.block))
    return " ".join(said)


# --- a block that commits the user's files ----------------------------------------------

# `git add rules/x.yml`: the block stages a file under a relative folder.
_GIT_ADD = rx(r"^\s*git\s+add\s+(?:-\S+\s+)*\.?/?([A-Za-z][\w.-]*)/\S")
_BLOCK_REACH = 30  # block lines above a command searched for its `git add`


def commits_users_files(doc: MarkdownDoc, cmd: Command, has: Callable[[str], bool]) -> str | None:
    """The reason a fenced command runs in the user's repository, or None: earlier in its
    block, `git add rules/x.yml` stages a file under a folder the skill lacks, so the block
    works in the user's checkout, where a relative script path is read too."""
    if cmd.inline:
        return None
    for line in _lines_above(doc, cmd, _BLOCK_REACH):
        m = _GIT_ADD.match(line)
        if m and not has(m.group(1)):
            return (f"its block commits `{m.group(1)}/` files with git, so it likely runs "
                    "in the user's repository; check that the script is the skill's")
    return None


# A command that works on the current folder as a project and needs the file named:
# `docker build -t x .` (a Dockerfile), `make test` (a Makefile), `npm test` (package.json),
# `cargo test` (Cargo.toml), `go test ./...` (go.mod).
_PROJECT_RUNS = (
    (rx(r"^\s*(?:sudo\s+)?docker\s+(?:buildx\s+)?build\s+(?!(?:.*\s)?(?:-f|--file)[\s=])(?:.*\s)?\.\s*$"),
     "Dockerfile", "builds the current folder from its Dockerfile"),
    (rx(r"^\s*make(?:\s+[\w.-]+)*\s*$"), "Makefile", "runs its Makefile"),
    (rx(r"^\s*(?:npm|pnpm|yarn)\s+(?:install|ci|test|run\s+[\w:.-]+)\b"), "package.json",
     "runs its package.json"),
    (rx(r"^\s*cargo\s+(?:build|test|run|check)\b"), "Cargo.toml", "builds its Cargo.toml"),
    (rx(r"^\s*go\s+(?:build|test|vet)\s+\./\.\.\."), "go.mod", "builds its go.mod"),
)


def builds_project_here(doc: MarkdownDoc, cmd: Command, has: Callable[[str], bool]) -> str | None:
    """The reason a fenced command runs in a project's checkout, or None: earlier in its
    block, a command works on the current folder as a project (`docker build -t x .`) whose
    file (a Dockerfile) the skill lacks, so the folder is the project's, where a relative
    script path is read too."""
    if cmd.inline:
        return None
    for line in _lines_above(doc, cmd, _BLOCK_REACH):
        for seg in segments(line):
            for pattern, needs, does in _PROJECT_RUNS:
                if pattern.match(seg) and not has(needs):
                    return (f"its block first runs `{seg.strip()[:60]}`, which {does}, a file "
                            f"the skill lacks: it likely runs in the project's checkout; check "
                            "that the script is the skill's")
    return None


# --- a block that checks a project with its test suite ------------------------------------

# Runners of a test suite, after `uv run`, `python -m`, `npx`...: `pytest tests/unit`.
_SUITE_RUNNERS = frozenset({"pytest", "py.test", "jest", "vitest", "mocha", "rspec", "phpunit"})
_RUN_PREFIXES = frozenset({"uv", "poetry", "pipenv", "hatch", "pdm", "rye", "run", "exec",
                           "npx", "pnpm", "yarn", "bunx", "-m"})
# The suite's folder: `tests/unit`, `./test`, `spec/models`, `__tests__`.
_SUITE_FOLDER = rx(r"^(?:\./)?(tests?|specs?|__tests__|e2e)(?:/|$)")


def _suite_run(seg: str) -> tuple[str, str] | None:
    """(the command, its suite folder) when `seg` runs a test runner over a relative tests
    folder (`uv run pytest tests/unit -x`), else None."""
    ws = words(seg)
    i = program(ws)
    while i < len(ws) and (ws[i] in _RUN_PREFIXES or PYTHON_PROGRAM.match(ws[i])):
        i += 1
    if i >= len(ws) or ws[i] not in _SUITE_RUNNERS:
        return None
    for arg in ws[i + 1:]:
        if (m := _SUITE_FOLDER.match(arg)) is not None:
            return seg.strip(), m.group(1)
    return None


def checks_project_suite(doc: MarkdownDoc, cmd: Command, rel: str,
                         has: Callable[[str], bool], paths: tuple[str, ...]) -> str | None:
    """The reason a fenced command is a check of the project the skill works on, or None:
    its block (above or below it: lint, type-check and test run in any order) runs a test
    suite in a tests folder the skill lacks (`pytest tests/unit` with no `tests/`), so the
    block is that project's check block, run in its checkout, where a relative script path
    (`uv run scripts/lint.py`) is read too. Not when the skill has a file of the script's
    name elsewhere (`scripts/lint.sh` for `scripts/lint.py`; `paths`: the skill's files):
    then the path is its own, misspelt or moved."""
    fence = next((f for f in doc.fences if f.start == cmd.block), None)
    if cmd.inline or fence is None:
        return None
    stem = script_stem(rel)
    if any(script_stem(p) == stem for p in paths
           if PurePosixPath(p).suffix.lower() in SCRIPT_SUFFIXES):
        return None
    for line in fence.body:
        for seg in segments(line.split(" #", 1)[0]):
            found = _suite_run(seg)
            if found is not None and not has(found[1]):
                return (f"its block runs `{found[0][:60]}`, a test suite in a `{found[1]}/` "
                        "the skill lacks: the check block of the project the skill works on, "
                        "run in that project's checkout; check that the script is the skill's")
    return None


# --- a script the text says is not written yet ------------------------------------------

# "(M4 — planned, not yet shipped) — `python3 scripts/replay.py`"
PLANNED = rx(r"\bplanned\b|\bnot\s+yet\s+(?:shipped|written|implemented|available|added|"
             r"released|built)\b|\bcoming\s+soon\b|\bunreleased\b",
             re.IGNORECASE)
