"""SF603 (shellcheck) SC1087 on a name the script never makes an array: bash expands `$name`
and keeps the brackets after it as written, which is what a grep pattern or a message means.
A warning, not a broken script; on a real array it stays an error. Real shellcheck runs.

Every script here is written for this file; the warning tests failed before the reading.
"""

from __future__ import annotations

from linters import lint_skill
from tests.linters.test_security import make_skill

_PATTERN = """\
#!/usr/bin/env bash
set -euo pipefail
for lib in lodash ramda; do
  grep -rn "from ['\\"]$lib['\\"]" src || true
done
"""

_MESSAGE = """\
#!/usr/bin/env bash
i=0
for hook in $(jq -r 'keys[]' hooks.json); do
  echo "checking $hook[$i]"
  i=$((i + 1))
done
"""

_ARRAY = """\
#!/usr/bin/env bash
libs=(lodash ramda)
echo "first: $libs[0]"
"""


def _sc1087(tmp_path, script: str) -> list[tuple[int, str, str]]:
    skill = make_skill(tmp_path, "# Imports\n\nRun `bash scripts/check.sh`.\n",
                       {"scripts/check.sh": script})
    return [(f.line, f.severity.value, f.message) for f in lint_skill(skill).findings
            if f.rule == "SF603" and "SC1087" in f.message]


def test_brackets_after_a_plain_variable_in_a_pattern_are_a_warning(tmp_path):
    found = _sc1087(tmp_path, _PATTERN)
    assert [(line, sev) for line, sev, _m in found] == [(4, "warning")]
    assert "`lib` is never an array" in found[0][2]


def test_brackets_after_a_loop_variable_in_a_message_are_a_warning(tmp_path):
    assert [(line, sev) for line, sev, _m in _sc1087(tmp_path, _MESSAGE)] == [(4, "warning")]


def test_a_real_array_without_braces_stays_an_error(tmp_path):
    assert [(line, sev) for line, sev, _m in _sc1087(tmp_path, _ARRAY)] == [(3, "error")]


def test_an_array_made_by_read_or_mapfile_stays_an_error(tmp_path):
    for made in ("read -r -a libs <<< \"a b\"", "mapfile -t libs < list.txt",
                 "declare -a libs", "libs[0]=lodash"):
        script = f"#!/usr/bin/env bash\n{made}\necho \"first: $libs[0]\"\n"
        found = _sc1087(tmp_path / str(abs(hash(made))), script)
        assert [(line, sev) for line, sev, _m in found] == [(3, "error")], made
