"""The documents of the repository around a skill, read where an author's checkout has them.

Some readings weigh a finding by what the skill's repository says outside the skill folder:
the frontmatter keys its documents describe (`correctness.repo_keys`), where its README or
install script installs the skills (`text.install_places`). Both look in the folders above
the skill, up to the repository's top (the folder holding `.git`) and at most four levels up
(`project_top.folders_up`), never in the user's home folder, and in a subfolder or two of
each (`docs/`, `scripts/`). A copied skill whose repository is not on disk has none.

The texts are cached by path and mtime, so an edited README counts at the next lint, and the
folders are listed afresh each time: a document added while the TUI watches counts at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

from linters.text.paths.project_top import folders_up

LEVELS = 4
_MAX_BYTES = 512 * 1024


@functools.lru_cache(maxsize=128)
def _read(path: str, mtime: float) -> str:
    try:
        p = Path(path)
        if p.stat().st_size > _MAX_BYTES:
            return ""
        return p.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def _listed(folder: Path, subfolders: tuple[str, ...],
            wanted: Callable[[str], bool]) -> list[Path]:
    found = []
    for where in (folder, *(folder / s for s in subfolders)):
        try:
            entries = sorted(where.iterdir())
        except OSError:
            continue
        found += [p for p in entries if wanted(p.name) and p.is_file()]
    return found


def documents_above(root: Path, wanted: Callable[[str], bool],
                    subfolders: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """(path relative to the folder it was found in, text) of each file whose name `wanted`
    accepts, in the folders above the skill at `root` and their `subfolders`, nearest first
    (module docstring). A generator: a reading that has its answer stops listing."""
    for _folder, rel, text in documents_in_folders_above(root, wanted, subfolders):
        yield rel, text


def documents_in_folders_above(root: Path, wanted: Callable[[str], bool],
                               subfolders: tuple[str, ...] = ()
                               ) -> Iterator[tuple[Path, str, str]]:
    """`documents_above` with the folder each document was found in (resolved): a reading
    of the paths a document names, relative to that folder, needs it."""
    try:
        real = root.resolve()
        home = Path.home().resolve()
    except (OSError, RuntimeError):
        return
    for folder in folders_up(real.parent, LEVELS):
        if folder == home:
            return
        for doc in _listed(folder, subfolders, wanted):
            try:
                text = _read(str(doc), doc.stat().st_mtime)
            except OSError:
                continue
            yield folder, doc.relative_to(folder).as_posix(), text
