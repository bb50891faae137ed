"""SF513: a package runner asked for a Python interpreter that runs a local script (issue 36).

`uvx python ...` and `uvx --from python --with pydantic python scripts/x.py` do not fetch a
package called `python` from PyPI: uv reads `python` (`python3.12`, `python@3.12`, `pypy`)
as a request for an interpreter, and the interpreter runs the script file named after it,
a file on the user's machine (the skill's own, or one the repository holds). No tool the
registry serves is handed the user's data; the `--with` libraries are unpinned, which is a
reproducibility matter, not a trust one. So the finding is `info`, naming them.

Not when the interpreter runs what a package brings (`python -m tool`, `python -c ...`), or
the script is fetched from a URL, or `--from` names a real package: the registry's code
then does the work, and the finding keeps its weight.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# What uv reads as an interpreter request, with an optional version.
_INTERPRETER = rx(r"^(?:c?python|pypy)(?:\d+(?:\.\d+)*)?(?:(?:@|==?)\d+(?:\.\d+)*)?$",
                  re.IGNORECASE)
_FROM = rx(r"--from[= ]+[\"']?([^\s\"']+)")
_WITH = rx(r"--with[= ]+[\"']?([^\s\"']+)")
# The interpreter's first argument after its plain flags (`-u`, `-B`; not `-c` or `-m`,
# which run something else, nor `-X`, which takes a value): a script file by its extension.
_SCRIPT = rx(r"(?:\s+-[A-WYZa-bd-ln-z]+)*\s+[\"']?(?P<script>[^\s\"';&|<>]+\.pyw?)[\"']?"
             r"(?=[\s;&|)\"'\\]|$)")


def local_script(pkg: str, opts: str, text: str, end: int) -> str | None:
    """The local script a runner's Python interpreter runs (`scripts/x.py` in `uvx --from
    python python scripts/x.py`), or None: `pkg` is the command after the runner's options
    `opts`, `end` where it ends in `text`."""
    source = _FROM.search(opts)
    if not _INTERPRETER.match(source.group(1) if source else pkg):
        return None
    if not _INTERPRETER.match(pkg):
        return None  # `--from python` and another command: not the interpreter
    m = _SCRIPT.match(text, end)
    if m is None or "://" in m.group("script"):
        return None
    return m.group("script")


def note(script: str, opts: str) -> str:
    """Why the run is info, naming any unpinned `--with` libraries."""
    libs = [w for w in _WITH.findall(opts) if not re.search(r"(?:==|@)\d", w)]
    pin = (f"; the libraries it adds ({', '.join(f'`{w}`' for w in libs)}) are unpinned, so "
           "pin them (`--with pydantic==2.7.1`) for a run that repeats") if libs else ""
    return (f"the runner is asked for a Python interpreter, which runs the local script "
            f"`{script}`: no package the registry serves is handed the data{pin}")
