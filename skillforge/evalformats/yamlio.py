"""YAML as the case formats use it: safe loading, readable block-style writing."""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

__all__ = ["YAMLError", "dump_yaml", "load_yaml", "split_frontmatter"]


def load_yaml(text: str) -> Any:
    """Plain Python data (dict, list, str, int...); raises YAMLError."""
    return YAML(typ="safe", pure=True).load(text)


def _literal(value: Any) -> Any:
    if isinstance(value, str) and "\n" in value:
        return LiteralScalarString(value)
    if isinstance(value, dict):
        return {k: _literal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_literal(v) for v in value]
    return value


def dump_yaml(data: Any) -> str:
    """Block style, keys in the given order, multi-line strings as `|` blocks."""
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    yaml.dump(_literal(data), buf)
    return buf.getvalue()


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter mapping, body) of a Markdown file; ({}, text) without frontmatter."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return {}, text
    for i, line in enumerate(lines[1:], 1):
        if line.strip() == "---":
            meta = load_yaml("".join(lines[1:i])) or {}
            if not isinstance(meta, dict):
                raise YAMLError("the frontmatter is not a mapping")
            return meta, "".join(lines[i + 1:])
    raise YAMLError("the frontmatter is not closed with ---")


def with_frontmatter(meta: dict[str, Any], body: str) -> str:
    head = dump_yaml(meta) if meta else ""
    return f"---\n{head}---\n{body if body.endswith(chr(10)) or not body else body + chr(10)}"
