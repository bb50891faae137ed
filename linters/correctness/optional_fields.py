"""Optional frontmatter fields (SF113-SF115): `compatibility`, `metadata`, `allowed-tools`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from ruamel.yaml.comments import TaggedScalar

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding
from skillforge.models.skill import plain

MAX_COMPATIBILITY = 500
_TOOL = rx(r"[A-Za-z_][\w.:*-]*")


def yaml_kind(value: Any) -> str:
    """How YAML typed a value, in words for a message ("a number", "a list")."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, date):
        return "a date"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, TaggedScalar):
        return f"a value tagged `{value.tag}`"
    return f"a {type(value).__name__}"


def split_tools(text: str) -> tuple[list[str], str | None]:
    """Split `allowed-tools` on spaces outside parentheses; second item names a problem."""
    tokens: list[str] = []
    buf: list[str] = []
    depth = 0
    commas = False
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return tokens, "has a `)` without its `(`"
        if depth == 0 and (ch.isspace() or ch == ","):
            commas = commas or ch == ","
            if buf:
                tokens.append("".join(buf))
                buf = []
            continue
        buf.append(ch)
    if depth > 0:
        return tokens, f"has an unclosed `(` in `{''.join(buf)}`"
    if buf:
        tokens.append("".join(buf))
    if commas:
        return tokens, "separates tool names with commas"
    for tok in tokens:
        m = _TOOL.match(tok)
        rest = tok[m.end():] if m else tok
        if not m or (rest and not (rest.startswith("(") and rest.endswith(")"))):
            return tokens, f"has `{tok}`, which is not a tool name or `Tool(pattern)`"
    return tokens, None


@check("SF113", "SF114", "SF115")
def optional_fields(ctx: LintContext) -> Iterator[Finding]:
    """`compatibility` (string, <= 500), `metadata` (string -> string), `allowed-tools` (string)."""
    if not ctx.frontmatter_ok:
        return
    data = ctx.skill.frontmatter.data
    if "compatibility" in data:
        yield from _compatibility(ctx, plain(data["compatibility"]))
    if "metadata" in data:
        yield from _metadata(ctx, plain(data["metadata"]))
    if "allowed-tools" in data:
        yield from _allowed_tools(ctx, plain(data["allowed-tools"]))


def _compatibility(ctx: LintContext, value: Any) -> Iterator[Finding]:
    line = ctx.fm_line("compatibility")
    if not isinstance(value, str) or not value.strip():
        kind = "empty" if value is None or isinstance(value, str) else f"{yaml_kind(value)}"
        yield ctx.finding(
            "SF113",
            f"`compatibility` is {kind}; write one string of at most {MAX_COMPATIBILITY} "
            "characters (for example `compatibility: Requires Python 3.11+ and network "
            "access`) or remove the key.",
            line=line,
        )
    elif len(value) > MAX_COMPATIBILITY:
        yield ctx.finding(
            "SF113",
            f"`compatibility` is {len(value)} characters long; shorten it to at most "
            f"{MAX_COMPATIBILITY} (the environment the skill needs) and move the rest into the "
            "body.",
            line=line,
        )


def _metadata(ctx: LintContext, value: Any) -> Iterator[Finding]:
    line = ctx.fm_line("metadata")
    if not isinstance(value, dict):
        yield ctx.finding(
            "SF114",
            f"`metadata` is {yaml_kind(value)}; write it as a mapping of string keys to string "
            "values (`metadata:` then indented `author: ...` lines) or remove it.",
            line=line,
        )
        return
    lc = getattr(value, "lc", None)
    for key, item in value.items():
        item = plain(item)
        try:
            item_line = lc.key(key)[0] + 2 if lc is not None else line
        except (KeyError, TypeError, AttributeError):
            item_line = line
        if not isinstance(key, str):
            yield ctx.finding(
                "SF114",
                f"`metadata` key `{key}` is {yaml_kind(key)}; quote it so every harness reads "
                "the same string key.",
                line=item_line,
            )
        elif not isinstance(item, str):
            if isinstance(item, (dict, list)) or item is None:
                fix = "flatten it into a single string value"
            else:
                fix = f"quote it (`{key}: \"{item}\"`)"
            yield ctx.finding(
                "SF114",
                f"`metadata.{key}` is {yaml_kind(item)}, but metadata values must be strings; "
                f"{fix}.",
                line=item_line,
            )


def _allowed_tools(ctx: LintContext, value: Any) -> Iterator[Finding]:
    line = ctx.fm_line("allowed-tools")
    if isinstance(value, list):
        example = " ".join(str(v) for v in value[:5]) or "Read Grep"
        yield ctx.finding(
            "SF115",
            f"`allowed-tools` is a YAML list; the spec form is one space-separated string "
            f"(`allowed-tools: {example}`), which every harness reads.",
            line=line,
        )
        return
    if not isinstance(value, str) or not value.strip():
        kind = "empty" if value is None or isinstance(value, str) else yaml_kind(value)
        yield ctx.finding(
            "SF115",
            f"`allowed-tools` is {kind}; list the tools as one space-separated string "
            "(`allowed-tools: Read Grep Bash(git:*)`) or remove the key.",
            line=line,
        )
        return
    tokens, problem = split_tools(value.strip())
    if problem:
        fixed = " ".join(tokens) if "commas" in problem else "Read Grep Bash(git status:*)"
        yield ctx.finding(
            "SF115",
            f"`allowed-tools` {problem}; write space-separated tool names, each optionally with "
            f"a pattern in parentheses (`{fixed}`).",
            line=line,
        )
