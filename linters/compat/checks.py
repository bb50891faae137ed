"""Per-harness frontmatter rules (SF702-SF705): what each harness named by `lint --harness`
does with the skill's keys, name and description.

Each finding names its harness (in the message, and as the finding's `code`) and cites the
profile table it rests on (profiles/<harness>.toml), so "Codex will not load this skill"
says whether that is Codex's source, its docs, or an assumption. The rules run only for
the harnesses in `[lint] harness` / `--harness`; with none they cost nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from linters.compat.profiles import DescriptionRule, NameRule, Profile, Provenance, profile
from linters.context import LintContext
from linters.registry import check
from linters.text.trigger_words import TRIGGER
from skillforge.models.findings import Finding, Severity

# Codex's metadata.short-description, under the spellings its loader accepts.
SHORT_DESCRIPTION_KEYS = ("short-description", "shortDescription", "short_description")


def harness_finding(ctx: LintContext, rule: str, p: Profile, why: Provenance, text: str,
                    line: int | None = None, severity: Severity | None = None,
                    path: str | None = "SKILL.md") -> Finding:
    """A finding that names its harness and cites the profile table behind it."""
    return ctx.finding(rule, f"{p.title} {text} ({why.basis}: {why.version}).", path=path,
                       line=line, severity=severity, code=p.harness)


@check("SF702", "SF703", "SF704", "SF705")
def frontmatter_rules(ctx: LintContext) -> Iterator[Finding]:
    """Keys each harness ignores, and its name, description and listing limits."""
    if not ctx.config.harness or not ctx.frontmatter_ok:
        return
    for harness in ctx.config.harness:
        p = profile(harness)
        yield from _ignored_keys(ctx, p)
        yield from _name(ctx, p)
        yield from _description(ctx, p)
        yield from _listing(ctx, p)


def _short_description(ctx: LintContext) -> tuple[str, str] | None:
    meta = ctx.skill.frontmatter.get("metadata") if ctx.skill.frontmatter else None
    if isinstance(meta, dict):
        for key in SHORT_DESCRIPTION_KEYS:
            if isinstance(meta.get(key), str):
                return key, meta[key]
    return None


def _ignored_keys(ctx: LintContext, p: Profile) -> Iterator[Finding]:
    data = ctx.skill.frontmatter.data if ctx.skill.frontmatter else None
    if not isinstance(data, dict):
        return
    for key, effect in p.keys.ignored.items():
        if key == "metadata.short-description":
            if _short_description(ctx) is not None:
                yield harness_finding(ctx, "SF702", p, p.keys,
                                      f"ignores `metadata.short-description`: {effect}",
                                      ctx.fm_line("metadata"))
        elif key in data:
            yield harness_finding(ctx, "SF702", p, p.keys, f"ignores `{key}`: {effect}",
                                  ctx.fm_line(key))


def _refusal(refuses: bool) -> tuple[Severity, str]:
    """Error when the harness keeps the skill out, warning when it only may misbehave."""
    if refuses:
        return Severity.error, "will not load this skill"
    return Severity.warning, "may not load or list this skill"


def _max_basis(rule: NameRule | DescriptionRule) -> Provenance:
    """The table's provenance, with the basis of its length limit when that one differs."""
    return replace(rule, basis=rule.max_basis) if rule.max_basis else rule


def _name(ctx: LintContext, p: Profile) -> Iterator[Finding]:
    rule = p.name
    sev, effect = _refusal(rule.refuses)
    folder = ctx.skill.folder_name
    name = ctx.skill.name
    line = ctx.fm_line("name")
    if name is None or not name.strip():
        if rule.required:
            yield harness_finding(ctx, "SF703", p, rule, f"{effect} without a `name`; add "
                                  f"`name: {folder}`", severity=sev)
        return
    name = name.strip()
    if rule.max and len(name) > rule.max:
        yield harness_finding(ctx, "SF703", p, _max_basis(rule), f"{effect}: its name is {len(name)} "
                              f"characters, over {rule.max}; shorten it", line, sev)
    if rule.pattern and not re.fullmatch(rule.pattern, name):
        yield harness_finding(ctx, "SF703", p, rule, f"{effect}: the name `{name}` does not "
                              f"match `{rule.pattern}`; use lowercase letters, digits and "
                              "single hyphens", line, sev)
    if rule.must_match_dir and name != folder:
        yield harness_finding(ctx, "SF703", p, rule, f"{effect}: the name `{name}` differs "
                              f"from its folder `{folder}`; rename one to match the other",
                              line, sev)


def _description(ctx: LintContext, p: Profile) -> Iterator[Finding]:
    rule = p.description
    sev, effect = _refusal(rule.refuses)
    desc = ctx.skill.description
    line = ctx.fm_line("description")
    if desc is None or not desc.strip():
        if rule.required:
            yield harness_finding(ctx, "SF704", p, rule, f"{effect} without a `description`; "
                                  "add one saying what the skill does and when to use it",
                                  line, sev)
        return
    text = " ".join(desc.split()) if rule.collapse_whitespace else desc.strip()
    if rule.max and len(text) > rule.max:
        how = " after whitespace is collapsed" if rule.collapse_whitespace else ""
        yield harness_finding(ctx, "SF704", p, _max_basis(rule), f"{effect}: its description is "
                              f"{len(text):,} characters{how}, over {rule.max:,}; shorten it",
                              line, sev)
    short = _short_description(ctx)
    if rule.short_max and short is not None:
        key, value = short
        n = len(" ".join(value.split()))
        if n > rule.short_max:
            yield harness_finding(ctx, "SF704", p, rule, f"{effect}: `metadata.{key}` is "
                                  f"{n:,} characters, over {rule.short_max:,}; shorten it",
                                  ctx.fm_line("metadata"), sev)


def listed_text(ctx: LintContext, p: Profile) -> str:
    """The text the harness's skill listing is cut from: its fields, joined by a space."""
    parts = []
    for key in p.listing.fields:
        value = ctx.skill.frontmatter.get(key) if ctx.skill.frontmatter else None
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
    return " ".join(parts)


def _listing(ctx: LintContext, p: Profile) -> Iterator[Finding]:
    cut = p.listing.cut
    text = listed_text(ctx, p)
    if not cut or len(text) <= cut:
        return
    triggers = list(TRIGGER.finditer(text))
    lost = [m for m in triggers if m.end() > cut]
    if not lost:
        return
    kept = len(triggers) - len(lost)
    fields = " and ".join(p.listing.fields)
    quoted = ", ".join(f"'{m.group(0)}' (character {m.start() + 1:,})" for m in lost[:3])
    what = ("none of its trigger wording is left" if not kept
            else f"{kept} trigger phrase{'s' if kept != 1 else ''} survive")
    yield harness_finding(
        ctx, "SF705", p, p.listing,
        f"lists only the first {cut:,} characters of {fields} "
        f"({len(text):,} here), which cuts off {quoted}, so {what}; put when to use the "
        "skill first", ctx.fm_line(p.listing.fields[0]),
        Severity.warning if not kept else Severity.info)
