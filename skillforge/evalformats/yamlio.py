"""YAML as the case formats use it: safe loading, readable block-style writing."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from skillforge.models.fileio import atomic_write_text

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


def _same_yaml(path: Path, data: Any) -> bool:
    try:
        return load_yaml(path.read_text("utf-8")) == data
    except (OSError, UnicodeDecodeError, YAMLError):
        return False


def write_yaml(path: Path, data: Any) -> bool:
    """Write `data` to `path` unless the file already holds it (its comments and layout are
    then left alone); returns whether it wrote."""
    if _same_yaml(path, data):
        return False
    atomic_write_text(path, dump_yaml(data))
    return True


def write_markdown(path: Path, meta: dict[str, Any], body: str) -> bool:
    """A Markdown file with frontmatter, left alone when it already says the same."""
    try:
        old_meta, old_body = split_frontmatter(path.read_text("utf-8"))
        if old_meta == meta and old_body.strip("\n") == body.strip("\n"):
            return False
    except (OSError, UnicodeDecodeError, YAMLError):
        pass
    atomic_write_text(path, with_frontmatter(meta, body))
    return True


def write_text(path: Path, text: str) -> bool:
    try:
        if path.read_text("utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    atomic_write_text(path, text)
    return True
