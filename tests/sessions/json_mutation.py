"""Arbitrary JSON and one-value mutations of real records, for the importers' fuzz tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8) |
                    st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def mutate(obj: Any, data: st.DataObject, depth: int = 0) -> Any:
    """Replace one value somewhere inside obj with arbitrary JSON."""
    if depth > 6 or not isinstance(obj, (dict, list)) or not obj or \
            data.draw(st.integers(0, 3)) == 0:
        return data.draw(JSON)
    if isinstance(obj, dict):
        key = data.draw(st.sampled_from(sorted(obj)))
        return {**obj, key: mutate(obj[key], data, depth + 1)}
    i = data.draw(st.integers(0, len(obj) - 1))
    return [*obj[:i], mutate(obj[i], data, depth + 1), *obj[i + 1:]]
