"""Correctness rules (SF1xx): is this a valid skill by the Agent Skills specification?

Loading problems, `name`, `description`, unknown keys and the empty body live here. The
optional fields (`optional_fields.py`), links (`links.py`), portable paths
(`portable_paths.py`) and code fences (`fences.py`) have modules of their own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# Importing these registers their checks: SF113-SF115, SF116, SF120, SF122-SF123.
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.correctness.bom import bom_finding
from linters.correctness.name_mismatch import name_mismatch
from linters.correctness.optional_fields import plain, yaml_kind
from linters.correctness.outside_plugin_skills import outside_reason
from linters.correctness.plugin_layout import missing_frontmatter, missing_name
from linters.registry import check
from skillforge.models.findings import Finding, Severity

MAX_NAME = 64
MAX_DESCRIPTION = 1024
SPEC_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
RESERVED_WORDS = ("anthropic", "claude")

# The `name:` line of the raw frontmatter, and a generator's slot (`{{NAME}}`, `{{ name }}`).
_RAW_NAME = rx(r"^name:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
_TEMPLATE_SLOT = rx(r"\{\{\s*[\w.-]+\s*\}\}")
_NAME_OK = rx(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SLUG_DROP = rx(r"[^a-z0-9]+")
_QUOTES = "`'\"()[],.;:"


@check("SF101", "SF102", "SF103", "SF104", "SF105", "SF118", "SF124")
def load_problems(ctx: LintContext) -> Iterator[Finding]:
    """Turn what the loader could not read into findings."""
    for issue in ctx.skill.issues:
        if issue.kind == "no_skill_md":
            yield ctx.finding(
                "SF101",
                "No SKILL.md in this folder; create SKILL.md with `name` and `description` "
                "frontmatter (or run `skillforge new NAME`).",
                path=None,
            )
        elif issue.kind == "missing":
            yield missing_frontmatter(ctx)
        elif issue.kind == "not_top":
            yield ctx.finding(
                "SF102",
                f"The frontmatter starts at line {issue.line}, not at the very top; move the "
                "`---` block to line 1 (nothing, not even a blank line, may come before it).",
                line=issue.line,
            )
        elif issue.kind == "unclosed":
            yield ctx.finding(
                "SF103",
                "The frontmatter opened on line 1 is never closed; add a `---` line after the "
                "last frontmatter key.",
                line=1,
            )
        elif issue.kind == "invalid_yaml":
            yield ctx.finding(
                "SF104",
                f"The frontmatter is not valid YAML ({issue.detail}); fix the line shown, for "
                "example by quoting a value that contains `: ` or starts with a special character.",
                line=issue.line,
                column=issue.column,
            )
        elif issue.kind == "not_mapping":
            yield ctx.finding(
                "SF105",
                f"The frontmatter is a {issue.detail} value, not a mapping; write it as "
                "`key: value` lines (`name: my-skill`, `description: ...`).",
                line=issue.line,
            )
        elif issue.kind == "not_utf8":
            yield ctx.finding("SF118", _not_utf8_message(issue.path, issue.detail),
                              path=issue.path, line=_line_of(issue.detail))
        elif issue.kind == "bom":
            yield bom_finding(ctx, issue.path or "SKILL.md")
        elif issue.kind == "unreadable":
            yield ctx.finding(
                "SF124",
                f"{issue.path} cannot be read ({issue.detail}); fix its permissions or remove "
                "it, since an agent cannot read it either.",
                path=issue.path,
            )


_LINE_IN_DETAIL = rx(r"\bon line (\d+)")


def _not_utf8_message(path: str, detail: str) -> str:
    """A NUL byte in text that is otherwise UTF-8 is not an encoding to re-save from: the
    byte itself is the defect (tools take the file for binary), so the message says that."""
    nul = _NUL_IN_UTF8.fullmatch(detail)
    if nul:
        return (f"{path} holds a NUL byte at byte offset {nul.group(1)}, so grep, git and many "
                "editors take it for a binary file; delete it, or write it as an escape "
                "(`\\x00`) where the text means that character.")
    return f"{path} is not UTF-8 ({detail}); re-save it as UTF-8."


_NUL_IN_UTF8 = rx(r"it holds a NUL byte at byte offset (\d+)")


def _line_of(detail: str) -> int | None:
    m = _LINE_IN_DETAIL.search(detail)
    return int(m.group(1)) if m else None


@check("SF103")
def closed_with_dots(ctx: LintContext) -> Iterator[Finding]:
    """A frontmatter closed by YAML's `...` end marker instead of `---`."""
    fm = ctx.skill.frontmatter
    if fm is None or fm.end_line is None:
        return
    lines = ctx.skill_md_text.splitlines()
    # The loader accepts `...` (it ends a YAML document), but the spec, skills-ref and most
    # harnesses look for a second `---` and would read the whole file as frontmatter.
    if fm.end_line <= len(lines) and lines[fm.end_line - 1].rstrip() == "...":
        yield ctx.finding(
            "SF103",
            f"The frontmatter is closed with `...` on line {fm.end_line}; close it with `---`, "
            "the only closing line harnesses look for.",
            line=fm.end_line,
        )


# --- frontmatter fields ----------------------------------------------------------------------


def name_problems(name: str) -> list[str]:
    """What keeps `name` from the spec's form: lowercase ASCII letters, digits, single hyphens."""
    if _NAME_OK.fullmatch(name):
        return []
    problems = []
    if any(c.isupper() for c in name):
        problems.append("uppercase letters")
    if any(c.isspace() for c in name):
        problems.append("spaces")
    if "_" in name:
        problems.append("underscores")
    if any(ord(c) > 127 and not c.isspace() for c in name):
        problems.append("non-ASCII characters")
    others = sorted(
        {c for c in name if c.isascii() and not (c.isalnum() or c in "-_" or c.isspace())}
    )
    if others:
        problems.append("the character" + ("s " if len(others) > 1 else " ") + " ".join(
            f"`{c}`" for c in others))
    if name.startswith("-") or name.endswith("-"):
        problems.append("a leading or trailing hyphen")
    if "--" in name:
        problems.append("consecutive hyphens")
    return problems or ["characters outside a-z, 0-9 and `-`"]


def suggest_name(value: str) -> str:
    """A spec-valid name close to `value` ("Ahrefs Automation" -> "ahrefs-automation")."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return _SLUG_DROP.sub("-", folded.lower()).strip("-")[:MAX_NAME].strip("-")


def upload_severity(ctx: LintContext) -> Severity:
    """How severe a claude.ai upload rule (SF117, SF121) is: an error only when the author
    targets that product (`--target claude-ai`), a warning for any other harness, whose spec
    has no such rule."""
    return Severity.error if ctx.config.target == "claude-ai" else Severity.warning


def _folder_name(ctx: LintContext) -> str:
    root = ctx.skill.root
    return root.name or root.resolve().name


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

_BRACKETS = rx(r"\S*[<>]\S*")
_TAG = rx(r"<([^<>\s]+)>")


@check("SF106", "SF108", "SF109", "SF110", "SF117", "SF121")
def name_field(ctx: LintContext) -> Iterator[Finding]:
    """`name`: present, spec-shaped, at most 64 characters, the folder's name, no reserved word."""
    if not ctx.frontmatter_ok:
        return
    fm = ctx.skill.frontmatter
    folder = _folder_name(ctx)
    proposal = folder if _NAME_OK.fullmatch(folder) else suggest_name(folder) or "my-skill"
    line = ctx.fm_line("name") or 1
    if "name" not in fm.data:
        yield missing_name(ctx, proposal)
        return
    value = plain(fm.data["name"])
    if value is None or (isinstance(value, str) and not value.strip()):
        yield ctx.finding(
            "SF106", f"`name` is empty; set it to `{proposal}`, the folder's name.", line=line
        )
        return
    if not isinstance(value, str):
        raw = _RAW_NAME.search(fm.raw)
        slot = raw.group(1) if raw else ""
        if _TEMPLATE_SLOT.fullmatch(slot):
            # `name: {{NAME}}`: a generator's template, filled in before any harness reads it;
            # YAML sees a mapping only in the unfilled copy.
            yield ctx.finding(
                "SF108",
                f"`name` is the template placeholder `{slot}`, which YAML reads as a mapping "
                f"until it is filled in; quote it (`name: \"{slot}\"`) so the template itself "
                "parses.",
                line=line, severity=Severity.warning,
            )
            return
        yield ctx.finding(
            "SF108",
            f"`name` is {yaml_kind(value)} in YAML, not a string; write it as lowercase letters, "
            f"digits and hyphens, quoted if it is all digits (`name: \"{value}\"`).",
            line=line,
        )
        return
    problems = name_problems(value)
    if problems:
        fixed = suggest_name(value)
        hint = f", for example `{fixed}`" if fixed else ""
        outside = outside_reason(ctx)
        if outside is not None:  # a plugin's non-skill file: no lookup by name (holdout27)
            yield ctx.finding(
                "SF108",
                f"`name` \"{value}\" has {_join(problems)}, but {outside}; if another tool "
                f"installs it as a skill, use only lowercase letters, digits and single "
                f"hyphens{hint}.",
                line=line, severity=Severity.warning,
            )
        else:
            yield ctx.finding(
                "SF108",
                f"`name` \"{value}\" has {_join(problems)}; use only lowercase letters, digits "
                f"and single hyphens{hint}.",
                line=line,
            )
    if len(value) > MAX_NAME:
        yield ctx.finding(
            "SF109",
            f"`name` is {len(value)} characters long; shorten it to at most {MAX_NAME} and rename "
            "the folder to match.",
            line=line,
        )
    if unicodedata.normalize("NFC", value) != unicodedata.normalize("NFC", folder):
        yield name_mismatch(ctx, value, folder, line)
    if "<" in value or ">" in value:
        yield ctx.finding(
            "SF117",
            f"`name` \"{value}\" contains `<` or `>`; remove them, since claude.ai's skill upload "
            "rejects angle brackets in frontmatter as XML.",
            line=line,
            severity=upload_severity(ctx),
        )
    lowered = value.lower()
    for word in RESERVED_WORDS:
        if word in lowered:
            rest = suggest_name(lowered.replace(word, "-"))
            hint = f" (for example `{rest}`)" if rest else ""
            yield ctx.finding(
                "SF121",
                f"`name` \"{value}\" contains the reserved word `{word}`, which claude.ai's skill "
                f"upload rejects; choose a name without it{hint}.",
                line=line,
                severity=upload_severity(ctx),
            )


@check("SF107", "SF111", "SF117")
def description_field(ctx: LintContext) -> Iterator[Finding]:
    """`description`: present, text, at most 1024 characters, no angle brackets."""
    if not ctx.frontmatter_ok:
        return
    fm = ctx.skill.frontmatter
    line = ctx.fm_line("description") or 1
    hint = ("one sentence on what the skill does and one on when to use it, since it is all an "
            "agent reads before choosing the skill")
    if "description" not in fm.data:
        yield ctx.finding("SF107", f"The frontmatter has no `description`; add {hint}.", line=1)
        return
    value = plain(fm.data["description"])
    if value is None or (isinstance(value, str) and not value.strip()):
        yield ctx.finding("SF107", f"`description` is empty; write {hint}.", line=line)
        return
    if not isinstance(value, str):
        yield ctx.finding(
            "SF107",
            f"`description` is {yaml_kind(value)} in YAML, not text; write it as a string (quote "
            "it, or use a `>` folded block for several lines).",
            line=line,
        )
        return
    if len(value) > MAX_DESCRIPTION:
        yield ctx.finding(
            "SF111",
            f"`description` is {len(value):,} characters long; cut it to at most "
            f"{MAX_DESCRIPTION} (what the skill does and when to use it) and move the details "
            "into the body.",
            line=line,
        )
    # (Only a text with a bracket is searched: `\S*` makes the regex retry every word.)
    brackets = _BRACKETS.search(value) if "<" in value or ">" in value else None
    if brackets:
        tag = _TAG.search(value)
        if tag:
            word = tag.group(1)
            instead = f"`{word}`, or `{word.upper().replace('-', '_')}` for a placeholder"
        else:
            instead = 'words such as "less than"'
        shown = brackets.group(0).strip(_QUOTES)[:40]
        yield ctx.finding(
            "SF117",
            f"`description` contains `{shown}`; remove `<` and `>` (write {instead}), since "
            "claude.ai's skill upload rejects angle brackets in frontmatter as XML.",
            line=line,
            severity=upload_severity(ctx),
        )


# --- body ------------------------------------------------------------------------------------

_COMMENT = rx(r"<!--.*?(?:-->|$)", re.DOTALL)


@check("SF119")
def empty_body(ctx: LintContext) -> Iterator[Finding]:
    """SKILL.md has frontmatter and nothing after it."""
    fm = ctx.skill.frontmatter
    if fm is None or fm.end_line is None:
        return
    if not _COMMENT.sub("", ctx.skill.body).strip():
        yield ctx.finding(
            "SF119",
            "SKILL.md has no body after the frontmatter; add the instructions the agent follows "
            "once it picks the skill (a title, the steps, an example).",
            line=fm.end_line,
        )


