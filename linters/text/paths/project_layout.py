"""Scripts of the user's project that a skill documenting that project's layout names
(SF116, SF301; issue 36, holdout24).

A DevOps skill teaches a convention for the user's repository: a Makefile whose targets
are one-liners that call `scripts/local.sh`, `scripts/cloud.sh`, written there by a scaffold
tool. It names those scripts without shipping them, and they are not its files:

- the words just before the path call it the scaffold's ("the scaffolded
  `scripts/cloud.sh`", "the scaffold's `scripts/common.sh`");
- the sentence gives it as what a Make target runs, and the skill has no Makefile ("`make
  local-test` (Makefile target, uses `scripts/local.sh test`)", "`make deploy`, which calls
  `scripts/cloud.sh`"): the Makefile is the project's, and so is the script it runs;
- the skill has no folder of that name, and its document says a scaffold generates the
  folder in the project ("Scaffolding generates a Makefile, modular scripts in `scripts/`")
  or shows a Makefile recipe, which the skill does not ship, running scripts in it
  (`local-build:` then a tab and `@bash scripts/local.sh build`).

Each gives a warning naming the reading, not silence. Not when the sentence calls the
script the skill's own ("this skill's `scripts/build.sh`", "bundled"), when the skill has
the folder (a missing file in a folder it ships is a forgotten file), nor when the
scaffold the text speaks of makes a skill ("scaffolds a new skill with `scripts/`"): those
stay errors, as does a bare "run `scripts/build.sh`" in a skill that says nothing of the
project's layout.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from linters.text.compiled_regex import rx

_NEAR = 80
# "the scaffolded `", "the scaffold's `", "scaffold-generated `" right before the path.
_SCAFFOLDED = rx(r"\b(?:scaffolded|scaffold['’]s|scaffold[-\s]generated)\s+`?$", re.IGNORECASE)
# A Make target named before the path, then a verb of running it: "`make local-test` —
# Makefile target (preferred, uses `", "the `deploy` target calls `".
_MAKE_TARGET = rx(r"(?:`make\s+[\w.-]+`|\b(?:make(?:file)?|recipe)\s+targets?\b|`[\w.-]+`\s+"
                  r"(?:make\s+)?target\b)", re.IGNORECASE)
_RUNS = rx(r"\b(?:uses|runs|calls|invokes|wraps|dispatches\s+to|delegates\s+to|shells\s+out"
           r"\s+to)\s+`?$", re.IGNORECASE)
# The sentence gives the path as the skill's own.
_OWN = rx(r"\b(?:this|the|our)\s+skill['’]s\b|\bbundled\b|\bships?\s+(?:with\s+)?`?$"
          r"|\bin\s+(?:this|the)\s+skill\b", re.IGNORECASE)
# ...or right after it: "`scripts/build.sh`, bundled with this skill", "(in this skill)".
_OWN_AFTER = rx(r"\b(?:bundled|shipped|included)\s+(?:with|in)\s+(?:this|the)\s+skill\b"
                r"|\b(?:in|of|from)\s+(?:this|the)\s+skill(?:['’]s)?\b", re.IGNORECASE)
# A sentence saying a scaffold generates things, one of them a folder: "Scaffolding
# generates Makefile, modular scripts in `scripts/`, container files".
_SCAFFOLD_SAYS = rx(r"\bscaffold(?:s|ing|ed)?\b[^.!?\n]{0,60}?\b(?:generat|creat|writ|emit"
                    r"|produc|lay)\w*\b([^.!?]*)", re.IGNORECASE)
_FOLDER = rx(r"(?<![\w./$-])`?(?:\./)?([A-Za-z_][\w-]*)/`?(?![\w.-])")
_SKILL_WORD = rx(r"\bskills?\b", re.IGNORECASE)
# A Makefile rule: a target line, then recipe lines indented by a tab.
_RULE = rx(r"^[\w.%/-]+\s*:(?!=)[^\n]*\n((?:\t[^\n]*\n?)+)", re.MULTILINE)
_RECIPE_RUN = rx(r"(?<![\w/$.{}-])(?:\./)?([A-Za-z_][\w-]*)/[\w./-]*\.(?:sh|bash|py|js|mjs"
                 r"|ts|rb|pl)\b")


def project_layout(exists: Callable[[str], bool], doc_text: str, sentence: str, at: int,
                   path: str) -> str | None:
    """Why the missing `path` is a script of the user's project whose layout the skill
    documents (see the module's docstring), or None. `exists`: does the skill have a file
    or folder; `sentence`: the sentence holding the path, at offset `at` ("" for a command
    in a block)."""
    before = sentence[max(0, at - 2 * _NEAR):at]
    if _OWN.search(before) or _OWN_AFTER.search(sentence, at, at + _NEAR):
        return None
    if _SCAFFOLDED.search(before):
        return "the text gives it as the scaffold's file, written into the user's project"
    if (not exists("Makefile") and _RUNS.search(before[-_NEAR:])
            and _MAKE_TARGET.search(before)):
        return ("the text gives it as the script a Make target runs, and the skill has no "
                "Makefile: the user's project's")
    top = path.removeprefix("./").split("/", 1)[0]
    if "/" not in path.removeprefix("./") or exists(top):
        return None
    scaffolded, recipes = _layout(doc_text)
    if top in scaffolded:
        return (f"the skill documents the user's project's layout, where its scaffold "
                f"generates `{top}/`, a folder the skill does not have")
    if top in recipes and not exists("Makefile"):
        return (f"the skill documents the user's project's layout: the Makefile it shows, "
                f"which it does not ship, runs the scripts in `{top}/`")
    return None


@lru_cache(maxsize=8)
def _layout(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The folders a document says a scaffold generates (not when the sentence makes a
    skill), and the folders whose scripts its Makefile recipes run."""
    scaffolded: set[str] = set()
    for m in _SCAFFOLD_SAYS.finditer(text):
        if not _SKILL_WORD.search(m.group(0)):
            scaffolded.update(f.group(1) for f in _FOLDER.finditer(m.group(1)))
    recipes = {r.group(1) for rule in _RULE.finditer(text)
               for r in _RECIPE_RUN.finditer(rule.group(1))}
    return frozenset(scaffolded), frozenset(recipes)
