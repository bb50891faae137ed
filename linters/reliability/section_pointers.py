"""Pointers to a section of one of the skill's documents, read as such and not as a script
run (SF301; issue 36, holdout25: an audit collection's summary tables write
`chunks/02 §Procedure` and `chunks/04 §Output template`).

A path followed by words looks like `x arg` to a shell reader, and an extensionless path is
a possible script. Two readings say it is a document reference instead:

- the words after the path begin with a section sign (`§Procedure`, `§ 4.2`): no shell
  argument is written so; it names a section of the file the path names;
- the path is an extensionless stem that names one of the skill's documents by its prefix
  (`chunks/02` while the skill has `chunks/02-impact-levels.md`, and no script of that
  stem), and the words after it read as a section's name, not as arguments (no option,
  path, variable, quote, assignment or redirection): `chunks/02 Procedure`.

An explicit `./x` run, a run through an interpreter (`bash chunks/run.sh`), a script with a
suffix, and a stem followed by an option (`./tools/check --all`) keep their readings.
"""

from __future__ import annotations

from collections.abc import Iterable

from linters.text.compiled_regex import rx
from skillforge.models.skill import SCRIPT_SUFFIXES

__all__ = ["section_pointer"]

# Files a section pointer can name: prose documents, not programs.
_DOCUMENT_SUFFIXES = (".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".pdf", ".html")
# A word of a section's title: letters, digits and light punctuation, no shell syntax.
_TITLE_WORD = rx(r"^[^\W_][\w.,:()&'’+-]*$")
# How a stem runs on into a document's name: `02-impact.md`, `02_impact.md`, `02.md`.
_JOINERS = ("-", "_", ".", " ")


def _documents_of(stem: str, files: Iterable[str]) -> tuple[list[str], bool]:
    """The skill's documents whose names start with `stem` and a joiner, and whether a
    script (or the stem itself) goes by that stem too."""
    docs: list[str] = []
    script = False
    for path in files:
        if path == stem:
            script = True
            continue
        if not path.startswith(stem) or path[len(stem):len(stem) + 1] not in _JOINERS:
            continue
        name = path.rsplit("/", 1)[-1]
        dot = name.rfind(".")
        suffix = name[dot:].lower() if dot > 0 else ""
        if suffix in _DOCUMENT_SUFFIXES:
            docs.append(path)
        elif suffix in SCRIPT_SUFFIXES:
            script = True
    return docs, script


def section_pointer(path: str, rest: list[str], files: Iterable[str]) -> str | None:
    """The document (or "" when only the section sign says so) a direct "run" of `path`
    with the words `rest` points into, or None when it reads as a run. `files` are the
    skill's paths, relative to its root."""
    if rest and rest[0].startswith("§"):
        return ""
    plain = path.strip("\"'")
    if plain.startswith("./") or not rest or "." in plain.rsplit("/", 1)[-1]:
        return None
    if not all(_TITLE_WORD.match(w) for w in rest):
        return None  # `--all`, `out/x.json`, `$DIR`, `>log`: arguments of a command
    docs, script = _documents_of(plain, files)
    if script or len(docs) != 1:
        return None
    return docs[0]
