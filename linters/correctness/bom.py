"""SF118 for a UTF-8 byte-order mark: how bad it is depends on what follows it."""

from __future__ import annotations

from linters.context import LintContext
from linters.correctness.frontmatter_files import frontmatter_reader
from skillforge.models.findings import Finding, Severity


def bom_finding(ctx: LintContext, path: str) -> Finding:
    """A UTF-8 byte-order mark breaks a file only where something must be its very first
    bytes: the frontmatter of SKILL.md and of a file of a known harness format
    (`frontmatter_files`: a subagent, a slash command, a Kiro steering file, a Cursor rule),
    whose parser then sees no frontmatter, and a script's `#!` line, which the system no
    longer recognises. Before the `---` of any other file (a reference the agent reads as
    text) it hides nothing from a parser: a warning that says so. Before anything else it is
    harmless (YAML and Markdown readers skip it; Windows PowerShell 5.1 even needs it to read
    a non-ASCII script): reported, as the loader promises, at info."""
    f = ctx.skill.file(path)
    text = (f.text if f is not None else None) or ""
    reader = frontmatter_reader(path)
    if path == "SKILL.md" or (reader is not None and text.startswith("---")):
        return ctx.finding(
            "SF118",
            f"{path} starts with a UTF-8 byte-order mark (EF BB BF); re-save it as UTF-8 "
            "without BOM so the frontmatter's `---` is really the first thing in the file"
            + ("." if path == "SKILL.md" else f" ({reader})."),
            path=path, line=1)
    if text.startswith("---"):
        return ctx.finding(
            "SF118",
            f"{path} starts with a UTF-8 byte-order mark (EF BB BF) before its `---`. A "
            "warning only: it is not SKILL.md nor a file of a harness format whose "
            "frontmatter is parsed (a subagent, a slash command, a steering file, a rule), "
            "so the mark hides that block from no parser and an agent reading the file as "
            "text is not misled; re-save it as UTF-8 without BOM all the same.",
            path=path, line=1, severity=Severity.warning)
    if text.startswith("#!"):
        return ctx.finding(
            "SF118",
            f"{path} starts with a UTF-8 byte-order mark (EF BB BF) before its `#!` line, so "
            "the system does not see the shebang and cannot run the script directly; re-save "
            "it as UTF-8 without BOM.",
            path=path, line=1)
    return ctx.finding(
        "SF118",
        f"{path} starts with a UTF-8 byte-order mark (EF BB BF); harmless here (no frontmatter "
        "or `#!` line follows it), but some tools show it as a stray character: re-save it "
        "as UTF-8 without BOM unless a tool needs the mark.",
        path=path, line=1, severity=Severity.info)
