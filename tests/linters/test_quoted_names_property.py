"""SF602's quoted-annotation reading (linters/external/quoted_names.py) against the real ruff,
on generated Python: every F821 ruff reports for an undefined name placed only inside a quoted
annotation is read as such, and every F821 for the same name placed where Python evaluates it
(a call, an unquoted annotation, a default value, an f-string's field, a decorator) is not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.external.quoted_names import in_quoted_annotation
from tests.hypothesis_budget import examples

RUFF = Path(sys.executable).with_name("ruff")

# `{n}` is undefined at module level in each; `quoted` says whether Python never evaluates it.
_PLACES = [
    ('def f(x: "{n}") -> int:\n    return 1\n', True),
    ('def f() -> "{n}.Item":\n    return None\n', True),
    ('def f(xs: "list[{n}]") -> None:\n    pass\n', True),
    ('v: "{n} | None" = None\n', True),
    ('def f() -> \'dict[str, "{n}"]\':\n    return {{}}\n', True),
    ("def f() -> int:\n    return {n}()\n", False),
    ("def f() -> {n}:\n    return None\n", False),
    ("def f(x={n}):\n    return x\n", False),
    ('def f() -> str:\n    return f"{{{n}()}}"\n', False),
    ('def f() -> str:\n    return F"a {{ {n}.x }} b"\n', False),
    ("@{n}\ndef f():\n    pass\n", False),
]
_NAMES = st.from_regex(r"[A-Z][A-Za-z0-9]{0,8}", fullmatch=True).filter(
    lambda n: n not in {"None", "True", "False"})


def _f821(code: str) -> list[tuple[int, int]]:
    out = subprocess.run([str(RUFF), "check", "--isolated", "--no-cache", "--select", "F821",
                          "--output-format", "json", "-"], input=code, capture_output=True,
                         text=True, check=False)
    return [(r["location"]["row"], r["location"]["column"]) for r in json.loads(out.stdout)]


@settings(max_examples=examples(60), deadline=None)
@given(_NAMES, st.lists(st.sampled_from(range(len(_PLACES))), min_size=1, max_size=4,
                        unique=True), st.sampled_from(["", "import os\n", "x = 1\n\n"]))
def test_only_names_in_quoted_annotations_are_read_as_such(name, picks, head):
    parts, quoted_rows, row = [head], set(), head.count("\n") + 1
    for k in picks:
        text, quoted = _PLACES[k]
        text = text.format(n=name) + "\n"
        if quoted:
            quoted_rows.update(range(row, row + text.count("\n")))
        parts.append(text)
        row += text.count("\n")
    code = "".join(parts)
    found = _f821(code)
    assert found, code
    for line, column in found:
        assert in_quoted_annotation(code, line, column) == (line in quoted_rows), (code, line)
