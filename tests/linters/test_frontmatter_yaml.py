"""The direct reader for simple frontmatter builds exactly what ruamel builds, or steps aside."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from skillforge.models.frontmatter_yaml import load_frontmatter, simple_mapping
from skillforge.models.skill import parse_skill_text
from tests.corpus import corpus_skill_dirs
from tests.hypothesis_budget import examples


def ruamel(raw: str):
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    try:
        return y.load(raw)
    except Exception as exc:  # noqa: BLE001 - compared, not raised
        return exc


def same(a, b) -> bool:
    """Equal values of the same types, with the same key order and line/column data."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return (list(a) == list(b) and a.lc.data == b.lc.data
                and all(same(a[k], b[k]) for k in a))
    return a == b


@pytest.mark.parametrize("raw", [
    "name: pdf-tools\ndescription: Rotates PDFs. Use when the user asks to fix a PDF.\n",
    'name: x\ndescription: "Quoted: with a colon, a [bracket] and C#"\n',
    "name: x\ndescription: 'It''s single-quoted'\n",
    "name: x\nmetadata:\n  author: Ada\n  version: \"1.0\"\nlicense: MIT\n",
    "name: x\n\ndescription: Blank lines between keys are fine.\n",
    "name: café\ndescription: Überall — non-ASCII text, 中文.\n",
    "name: x\ndescription: C# and F# are languages\n",
])
def test_simple_frontmatter_is_read_directly_and_matches_ruamel(raw):
    data = simple_mapping(raw)
    assert data is not None
    assert same(data, ruamel(raw))


@pytest.mark.parametrize("raw", [
    "name: x\ndescription: >\n  folded\n",  # block scalar
    "name: x\nallowed-tools:\n  - Bash\n",  # list
    "name: x  # comment\n",  # comment
    "name: x\nversion: 1.0\n",  # a float to ruamel
    "name: x\ndraft: true\n",  # a bool
    "name: x\ndescription:\n",  # null
    "name: x\nname: y\n",  # duplicate key: ruamel raises
    "name: x\ndescription: a: b\n",  # a mapping inside a plain scalar: ruamel raises
    "name: x\ndescription: first line\n  continued\n",  # multi-line plain scalar
    'name: x\ndescription: "escaped \\" quote"\n',  # escapes
    "name: x\ndescription:\tTab\n",  # tab
    "name: x\r\ndescription: CRLF\r\n",  # carriage return
    "name: x\ndescription: line\u2028separator\n",  # a YAML 1.1 line break
    "name: x\x0b\n",  # a control character: ruamel rejects the file
    "metadata:\n  a: b\n    c: d\n",  # uneven nesting
])
def test_anything_else_is_left_to_ruamel(raw):
    assert simple_mapping(raw) is None


def test_every_corpus_frontmatter_reads_the_same_either_way():
    checked = 0
    for d in corpus_skill_dirs():
        _status, fm, *_ = parse_skill_text((d / "SKILL.md").read_text("utf-8", "replace"))
        if fm is None:
            continue
        data = simple_mapping(fm.raw)
        if data is not None:
            assert same(data, ruamel(fm.raw)), d
            checked += 1
    assert checked > 100  # most real frontmatters take the direct path


_KEYS = st.sampled_from(["name", "description", "metadata", "a", "x-y", "b_c", "true", "y"])
_TEXT = st.text(
    alphabet=st.sampled_from(list("abc XYZ019-_:#'\"\\.,[]{}&*!|>%@`?~=<+/()\u00a0é中\t\r\x85\x0b\x00\x7f\x1b")),
    max_size=12,
)
_LINE = st.tuples(st.sampled_from(["", "", "  ", " "]), _KEYS, st.sampled_from([": ", ":", ":  "]),
                  st.sampled_from(["", '"', "'"]), _TEXT, st.sampled_from(["", " "]))


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=5))
def test_the_direct_reader_never_disagrees_with_ruamel(lines):
    raw = "".join(f"{ind}{key}{sep}{q}{text}{q}{tail}\n" for ind, key, sep, q, text, tail in lines)
    data = simple_mapping(raw)
    if data is not None:
        assert same(data, ruamel(raw)), raw


def test_what_ruamel_read_is_cached_and_handed_out_as_copies():
    raw = "name: cached-skill\nallowed-tools:\n  - Read\n  - Grep\n"  # a list: ruamel's
    y = YAML(typ="rt")
    first = load_frontmatter(raw, y)
    first["allowed-tools"].append("Bash")
    again = load_frontmatter(raw, y)
    assert list(again["allowed-tools"]) == ["Read", "Grep"]
    assert same(again, ruamel(raw))
