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
    """Equal values of the same types, with the same key order, line/column data and flow
    style of every mapping and list, and the same fold positions of a folded scalar."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict | list):
        if (dict(a.lc.data) != dict(b.lc.data) or (a.lc.line, a.lc.col) != (b.lc.line, b.lc.col)
                or a.fa.flow_style() != b.fa.flow_style() or len(a) != len(b)):
            return False
        if isinstance(a, dict):
            return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b and getattr(a, "fold_pos", None) == getattr(b, "fold_pos", None)


@pytest.mark.parametrize("raw", [
    "name: pdf-tools\ndescription: Rotates PDFs. Use when the user asks to fix a PDF.\n",
    'name: x\ndescription: "Quoted: with a colon, a [bracket] and C#"\n',
    "name: x\ndescription: 'It''s single-quoted'\n",
    "name: x\nmetadata:\n  author: Ada\n  version: \"1.0\"\nlicense: MIT\n",
    "name: x\n\ndescription: Blank lines between keys are fine.\n",
    "name: café\ndescription: Überall — non-ASCII text, 中文.\n",
    "name: x\ndescription: C# and F# are languages\n",
    "name: -21risk-automation\ndisable-model-invocation: true\nuser-invocable: False\n",
    "name: x\nallowed-tools:\n  - Bash\n  - 'Read'\n",
    "name: x\nallowed-tools:\n- Bash\n- Read\nlicense: MIT\n",
    "name: x\nrequires:\n  mcp: [rube, jq ,gh]\n",
    "name: x\nrequires:\n  mcp:\n    - rube\n  bins:\n  - jq\nlicense: MIT\n",
    "name: x\ndescription: |\n  Line one.\n    indented\n\n  after a blank\nlicense: MIT\n",
    "name: x\ndescription: |-\n  kept\n  literally\n",
    "name: x\ndescription: |+\n  kept\n\n\nlicense: MIT\n",
    "name: x\ndescription: >\n  Folded\n  into one line.\n\n  New paragraph.\n    more indented\n  back\n",
    "name: x\ndescription: >-\n  Folded,\n  stripped.\n",
    "name: x\ndescription:\n  A plain scalar\n  on two lines.\n\n  And a second paragraph.\nlicense: MIT\n",
    "name: x\ndescription: Starts here\n  and goes on.\n",
    "name: x\nmetadata:\n  summary: |\n    nested block\n  author: Ada\n",
])
def test_simple_frontmatter_is_read_directly_and_matches_ruamel(raw):
    data = simple_mapping(raw)
    assert data is not None
    assert same(data, ruamel(raw))


@pytest.mark.parametrize("raw", [
    "name: x\ndescription: >2\n   folded\n",  # an indentation indicator
    "name: x\ndescription: |  # note\n  text\n",  # a comment after the header
    "name: x\ndescription: |\n\n  blank line first\n",  # blank lines before the text
    "name: x\ndescription: |\n  text\n   \n  spaces-only line\n",  # a line of spaces
    "name: x\nallowed-tools:\n  - - nested\n",  # a list in a list
    "name: x\nallowed-tools:\n  - key: value\n",  # a mapping in a list
    "name: x\nallowed-tools: [Bash, [Read]]\n",  # a flow list in a flow list
    "name: x\nmetadata: {a: b}\n",  # a flow mapping
    "name: x\nallowed-tools:\n  - Bash  # the shell\n",  # comment
    "name: x\ndescription: \"quoted\"\n  continued\n",  # a quoted scalar over two lines
    "name: x\ndescription: one\n  two: three\n",  # a mapping under a plain scalar
    "name: x  # comment\n",  # comment
    "name: x\nversion: 1.0\n",  # a float to ruamel
    "name: x\ndescription:\n",  # null
    "name: x\nname: y\n",  # duplicate key: ruamel raises
    "name: x\ndescription: a: b\n",  # a mapping inside a plain scalar: ruamel raises
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
    assert checked >= 150  # every shape the corpus uses takes the direct path


_KEYS = st.sampled_from(["name", "description", "metadata", "a", "x-y", "b_c", "true", "y"])
_TEXT = st.text(
    alphabet=st.sampled_from(list("abc XYZ019-_:#'\"\\.,[]{}&*!|>%@`?~=<+/()\u00a0é中\t\r\x85\x0b\x00\x7f\x1b")),
    max_size=12,
)
_LINE_PARTS = st.tuples(st.sampled_from(["", "", "  ", " "]), _KEYS, st.sampled_from([": ", ":", ":  "]),
                  st.sampled_from(["", '"', "'"]), _TEXT, st.sampled_from(["", " "]))


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINE_PARTS, min_size=1, max_size=5))
def test_the_direct_reader_never_disagrees_with_ruamel(lines):
    raw = "".join(f"{ind}{key}{sep}{q}{text}{q}{tail}\n" for ind, key, sep, q, text, tail in lines)
    data = simple_mapping(raw)
    if data is not None:
        assert same(data, ruamel(raw)), raw


def test_what_ruamel_read_is_cached_and_handed_out_as_copies():
    raw = "name: cached-skill\nallowed-tools:\n  - Read\n  - Grep  # a comment: ruamel's\n"
    y = YAML(typ="rt")
    first = load_frontmatter(raw, y)
    first["allowed-tools"].append("Bash")
    again = load_frontmatter(raw, y)
    assert list(again["allowed-tools"]) == ["Read", "Grep"]
    assert same(again, ruamel(raw))


# Documents built from the shapes the direct reader takes (and near misses): block scalars,
# lists, nested mappings and plain scalars over several lines, with awkward text.
# Mostly ordinary words (so the direct reader has something to read), sometimes awkward ones.
_WORD = st.one_of(
    st.text(alphabet=st.sampled_from(list("abZ09 -.,é")), min_size=0, max_size=8),
    st.text(alphabet=st.sampled_from(list("ab Z09-_:#'\".,[]{}&*!|>%@`?~=/()é")), max_size=8),
)
_HEADER = st.sampled_from(["|", "|-", "|+", ">", ">-", ">+", "|2", "| ", ">  "])


@st.composite
def _entry(draw, indent: int, depth: int) -> str:
    pad = " " * indent
    key = draw(_KEYS)
    kind = draw(st.sampled_from(["scalar", "plain", "below", "block", "flow", "list", "map"]))
    if kind == "scalar":
        return f"{pad}{key}: {draw(_WORD)}\n"
    if kind == "plain":
        more = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 4), _WORD), max_size=3))
        return f"{pad}{key}: {draw(_WORD)}\n" + "".join(
            "\n" * blanks + " " * (indent + step) + word + "\n" for blanks, step, word in more)
    if kind == "below":
        step = draw(st.integers(1, 3))
        return f"{pad}{key}:\n{' ' * (indent + step)}{draw(_WORD)}\n"
    if kind == "block":
        step = draw(st.integers(1, 3))
        lines = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), _WORD),
                              min_size=1, max_size=4))
        body = "".join("\n" * blanks + " " * (indent + step + extra) + word + "\n"
                       for blanks, extra, word in lines)
        return f"{pad}{key}: {draw(_HEADER)}\n{body}" + "\n" * draw(st.integers(0, 2))
    if kind == "flow":
        return f"{pad}{key}: [{', '.join(draw(st.lists(_WORD, max_size=3)))}]\n"
    if kind == "list":
        at = " " * (indent + draw(st.sampled_from([0, 2])))
        items = draw(st.lists(_WORD, min_size=1, max_size=3))
        return f"{pad}{key}:\n" + "".join(f"{at}- {item}\n" for item in items)
    if depth >= 2:
        return f"{pad}{key}: x\n"
    children = draw(st.lists(_entry(indent + 2, depth + 1), min_size=1, max_size=3))
    return f"{pad}{key}:\n" + "".join(children)


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_entry(0, 0), min_size=1, max_size=4))
def test_every_shape_the_direct_reader_takes_reads_as_ruamel_reads_it(entries):
    raw = "".join(entries)
    data = simple_mapping(raw)
    if data is not None:
        assert same(data, ruamel(raw)), raw
