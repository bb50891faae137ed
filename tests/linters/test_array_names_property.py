"""SF603's reading of shellcheck's SC1087 (linters/external/array_names.py), stated as a
property and tried on generated scripts: a name the script makes an array anywhere, in any of
bash's ways, keeps the error; a name it only ever gives a plain value is the warning.

The use (`echo "$name[1]"`) sits before or after the assignment, among unrelated lines, so
the reading cannot lean on order or on the two being near each other.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.external.array_names import not_an_array
from tests.hypothesis_budget import examples

_NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda n: n not in {"if", "fi", "do", "done", "then", "for", "in", "read", "local",
                        "declare", "mapfile", "readarray", "typeset", "readonly", "export"})

# Every way bash makes `{n}` an array (indexed or associative).
_MAKES_ARRAY = [
    "{n}=(alpha beta)", "{n}=()", "{n}+=(gamma)", "{n}[0]=x", "{n}[$i]+=y", '{n}["k"]=v',
    "declare -a {n}", "declare -ga {n}", "local -a {n}", "typeset -A {n}", "declare -A {n}=()",
    "readonly -a {n}=(x y)", 'read -r -a {n} <<< "$line"', "read -ra {n}",
    "IFS=, read -r -a {n} <<< \"$csv\"", "mapfile -t {n} < list.txt", "mapfile {n} < list.txt",
    "readarray -d '' {n} < <(find . -print0)", "readarray -t {n} < <(ls)",
]
# Ways that give `{n}` only a plain value.
_PLAIN = [
    "{n}=x", '{n}="$(date +%s)"', "export {n}=1", "local {n}", "declare {n}=2", "read -r {n}",
    'read -p "Name: " {n}', "for {n} in a b; do :; done", "{n}=${{other:-x}}", ': "${{{n}:=z}}"',
]
_FILLER = ["set -euo pipefail", "i=0", 'line="a b"', "csv=a,b", 'echo "start"', "cd /tmp",
           "other=(p q)", 'grep -q x file || true', "arr2=(1 2)", "# a comment (not code)"]


def _script(name: str, making: str, before: bool, filler: list[str]) -> tuple[str, int, int]:
    use = f'echo "value: ${name}[1]"'
    body = list(filler)
    cut = len(body) // 2
    made = making.splitlines()
    lines = body[:cut] + ([use, *made] if before else [*made, use]) + body[cut:]
    row = lines.index(use) + 1
    return "#!/bin/bash\n" + "\n".join(lines) + "\n", row + 1, use.index("$") + 1


@settings(max_examples=examples(400), deadline=None)
@given(_NAMES, st.sampled_from(_MAKES_ARRAY), st.booleans(),
       st.lists(st.sampled_from(_FILLER), max_size=12))
def test_a_name_made_an_array_anywhere_keeps_the_error(name, form, before, filler):
    text, line, column = _script(name, form.format(n=name), before, filler)
    assert not_an_array(text, line, column) is None, text


@settings(max_examples=examples(400), deadline=None)
@given(_NAMES, st.lists(st.sampled_from(_PLAIN), min_size=1, max_size=3), st.booleans(),
       st.lists(st.sampled_from(_FILLER), max_size=12))
def test_a_name_only_given_plain_values_is_the_warning(name, forms, before, filler):
    if name in {"other", "arr2"}:  # the filler makes these two arrays
        return
    making = "\n".join(f.format(n=name) for f in forms)
    text, line, column = _script(name, making, before, filler)
    assert not_an_array(text, line, column) == name, text
