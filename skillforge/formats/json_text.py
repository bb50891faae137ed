"""`json.dumps(doc, indent=2, ensure_ascii=False)`, faster for the documents we print.

With `indent`, the standard library encodes in pure Python, one generator per container:
~10 ms for the corpus's lint document, about 1% of a whole-corpus lint (issue 14). Here the
strings go through the same C encoder `json` uses and the rest is joined directly. Only
plain data is handled (dict with str keys, list, tuple, str, int, float, bool, None, of
exactly those types); anything else is handed to `json.dumps`, so the text is always the
one `json.dumps` gives (tests/linters/test_perf_json_text.py checks both on random data).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any


class _Other(Exception):
    """A value this encoder leaves to json.dumps."""


def dumps_indented(doc: Any, indent: int = 2) -> str:
    """`json.dumps(doc, indent=indent, ensure_ascii=False)`."""
    parts: list[str] = []
    try:
        _encode(doc, parts, "\n", " " * indent)
    except (_Other, RecursionError):
        return json.dumps(doc, indent=indent, ensure_ascii=False)
    return "".join(parts)


def _encode(o: Any, parts: list[str], newline: str, step: str) -> None:
    t = type(o)
    if t is str:
        parts.append(encode_basestring(o))
    elif o is None:
        parts.append("null")
    elif o is True:
        parts.append("true")
    elif o is False:
        parts.append("false")
    elif t is int:
        parts.append(int.__repr__(o))
    elif t is float:
        parts.append(_float(o))
    elif t is dict:
        if not o:
            parts.append("{}")
            return
        inner = newline + step
        sep = "{" + inner
        for key, value in o.items():
            if type(key) is not str:
                raise _Other
            parts.append(sep)
            parts.append(encode_basestring(key))
            parts.append(": ")
            _encode(value, parts, inner, step)
            sep = "," + inner
        parts.append(newline + "}")
    elif t is list or t is tuple:
        if not o:
            parts.append("[]")
            return
        inner = newline + step
        sep = "[" + inner
        for value in o:
            parts.append(sep)
            _encode(value, parts, inner, step)
            sep = "," + inner
        parts.append(newline + "]")
    else:
        raise _Other


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == float("inf"):
        return "Infinity"
    if o == -float("inf"):
        return "-Infinity"
    return float.__repr__(o)
