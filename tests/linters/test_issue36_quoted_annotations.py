"""Issue 36, from the `test` part (read after its one measurement): ruff's F821 on a name
that appears only inside a quoted annotation is a warning.

A map script imports PIL inside its functions and annotates `-> "Image.Image"`: Python never
evaluates the quoted annotation when the script runs, so the script works. The same name used
in code (`Image.new(...)`) with no import stays an error. Each text is written for this file.
"""

from __future__ import annotations

import pytest

from linters import lint_skill
from tests.linters.test_security import make_skill

QUOTED = '''\
def tile(size: int) -> "Image.Image":
    from PIL import Image
    return Image.new("RGB", (size, size))


def blank(tiles: "list[Image.Image]", fill: "Colour") -> int:
    return len(tiles)


print(tile(4))
'''


def _f821(tmp_path, script: str) -> list[tuple[int, str]]:
    skill = make_skill(tmp_path, "# Tiles\n\nRun `python scripts/tiles.py`.\n",
                       {"scripts/tiles.py": script})
    return sorted((f.line or 0, f.severity.value) for f in lint_skill(skill).findings
                  if f.rule == "SF602" and f.code == "F821")


def test_a_name_only_in_quoted_annotations_is_a_warning(tmp_path):
    """Before: four errors (Image on lines 1 and 6, Colour on line 6)."""
    found = _f821(tmp_path, QUOTED)
    assert found and all(sev == "warning" for _line, sev in found), found
    assert {line for line, _sev in found} == {1, 6}


@pytest.mark.parametrize("script", [
    # used in code, not in an annotation: the script fails when it runs
    'def tile(size: int):\n    return Image.new("RGB", (size, size))\n\n\nprint(tile(4))\n',
    # an unquoted annotation is evaluated when the function is defined
    'def tile(size: int) -> Image.Image:\n    return None\n\n\nprint(tile(4))\n',
    # a string that merely mentions the name is not what ruff reports; the call is
    'label = "Image"\nprint(label, Image.open(label))\n',
    # an f-string's field runs (holdout3's tokenizer printing its supported versions)
    'print(f\'  versions: {", ".join(get_versions())}\')\n',
    'print(F"{get_versions()}", rf"{get_versions()}")\n',
])
def test_an_undefined_name_the_script_evaluates_stays_an_error(tmp_path, script):
    assert any(sev == "error" for _line, sev in _f821(tmp_path, script))
