"""MCP tool names (SF318): written `Server:tool`, so the agent finds the right one when
several servers are connected."""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from linters.subjects import mentions_mcp
from skillforge.models.findings import Finding

_TOOL_NAME = rx(r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
# How prose introduces a tool: "call `x`", "**Tool:** `x`" before it, "`x` tool" after it.
_TOOL_BEFORE = rx(
    r"(?:\b(?:call|invoke|execute)(?:\s+the)?|\btool\*{0,2}:?\*{0,2})\s*$", re.IGNORECASE
)
_TOOL_AFTER = rx(r"^\s+(?:MCP\s+)?tools?\b", re.IGNORECASE)
_MCP_DUNDER = rx(r"\bmcp__([\w-]+?)__([\w-]+)")
# Harness and API tools that are not MCP tools: they need no server prefix.
_NOT_MCP = rx(
    r"^(?:web_search|web_fetch|present_files|code_execution(?:_\d+)?|text_editor\w*|"
    r"str_replace\w*|bash_\d+|computer(?:_\d+)?|tool_search\w*)$",
    re.IGNORECASE,
)
MAX_MCP_FINDINGS = 5


@check("SF318")
def mcp_tool_names(ctx: LintContext) -> Iterator[Finding]:
    """MCP tools are named `Server:tool` so the agent finds the right one among servers."""
    if not mentions_mcp(ctx):
        return
    found: dict[str, tuple[int, int, str]] = {}
    if "mcp__" in ctx.body_low:
        for no, line in ctx.body.prose_lines():
            for m in _MCP_DUNDER.finditer(line) if "mcp__" in line else ():
                msg = (f"`{m.group(0)}` is one harness's internal tool id; write MCP tools as "
                       f"`{m.group(1)}:{m.group(2)}` (server, colon, tool) as the skill "
                       "guidelines ask.")
                found.setdefault(m.group(0), (no, m.start() + 1, msg))
    lines = ctx.body.lines
    for span in ctx.body.inline_code:
        name = span.text
        if name in found or not _TOOL_NAME.fullmatch(name) or _NOT_MCP.match(name):
            continue
        line = lines[span.line - ctx.body.first_line]
        start = span.column - 1
        end = line.find("`", line.find(name, start)) + 1
        if _TOOL_BEFORE.search(line[:start]) or _TOOL_AFTER.match(line[end:]):
            msg = (f"The MCP tool `{name}` is named without its server; write it as "
                   f"`ServerName:{name}` so the agent finds it when several servers are "
                   "connected.")
            found[name] = (span.line, span.column, msg)
    items = sorted(found.values())
    for k, (no, col, msg) in enumerate(items[:MAX_MCP_FINDINGS]):
        if k == MAX_MCP_FINDINGS - 1 and len(items) > MAX_MCP_FINDINGS:
            msg = msg[:-1] + f" ({len(items) - k - 1} more tool names below need the same fix)."
        yield ctx.finding("SF318", msg, line=no, column=col)
