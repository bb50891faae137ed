"""The parts of a skill an ablation can remove, read from SKILL.md and the skill's files.

    parts = skill_parts(load_skill(path))          # `skillforge parts PATH`
    parts = parts_of(skill_md_text, files)          # the same from staged bytes

Parts, in this order: the `description`; each `##` section of SKILL.md's body by heading
(`section:<slug>`, up to the next heading of level 1 or 2); the `examples` (every section,
at any level from `##` down, whose heading the linter's SF309 counts as an example heading,
and every fenced block introduced by example prose such as "For example:"); each reference
file (`reference:<path>`); each script (`script:<path>`) and all of them (`scripts`); and
the `allowed-tools` grant when the frontmatter has one. Token costs use the tokenizer SF402
uses (`linters.text.tokens`). The text before the first `##` heading (the title and the opening
lines) is not a part: it is what the skill says it is.

Two parts that remove exactly the same lines or files (the `examples` of a skill whose only
example is its `## Example` section) are one part: the first keeps its id and lists the
other in `same_as`, so `--ablate all` never runs two identical conditions, and the other id
still names it (`find_parts`, `part_index`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from linters.text import tokens
from linters.reliability.completeness import _EXAMPLE_HEADING, _EXAMPLE_PROSE
from linters.text.markdown import MarkdownDoc
from skillforge.models.parts import SkillPart, is_part_id
from skillforge.models.skill import Skill, classify, parse_skill_text

_SLUG_BAD = re.compile(r"[^a-z0-9]+")
_SAFE_PATH = re.compile(r"[^A-Za-z0-9._@+/-]+")


class PartsError(ValueError):
    """A skill whose parts cannot be read; the message names the file and the fix."""


def slug(text: str) -> str:
    """`Quick start (5 min)` -> `quick-start-5-min`."""
    return _SLUG_BAD.sub("-", text.lower()).strip("-")[:60].strip("-") or "section"


def _file_id(prefix: str, path: str, taken: set[str]) -> str:
    """`reference:<path>`, the path made id-safe (unusual characters become `-`)."""
    safe = _SAFE_PATH.sub("-", path).strip("/")
    safe = "/".join(seg.lstrip(".-") or "file" for seg in safe.split("/"))
    base = f"{prefix}:{safe}"
    pid, n = base, 2
    while pid in taken or not is_part_id(pid):
        pid = f"{base}-{n}"
        n += 1
        if n > 50:
            raise PartsError(f"cannot give {path!r} a part id; rename the file to letters, "
                             "digits, dots, dashes and slashes")
    taken.add(pid)
    return pid


def _count(text: str) -> int:
    return tokens.count_tokens(text) if text else 0


def _lines_text(lines: Sequence[str], spans: Sequence[tuple[int, int]]) -> str:
    return "".join("".join(lines[a - 1:b]) for a, b in spans)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _key_span(lines: Sequence[str], key_line: int, next_lines: Sequence[int],
              close: int) -> tuple[int, int]:
    """The SKILL.md lines of one top-level frontmatter key (trailing blanks/comments left)."""
    end = min([n for n in next_lines if n > key_line] + [close]) - 1
    while end > key_line and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return key_line, end


def _sections(doc: MarkdownDoc, last_line: int) -> list[tuple[str, int, int, int]]:
    """(heading, level, first line, last line) of every heading's section, in order."""
    heads = doc.headings
    out = []
    for i, h in enumerate(heads):
        end = next((n.line - 1 for n in heads[i + 1:] if n.level <= h.level), last_line)
        out.append((h.text, h.level, h.line, end))
    return out


def _example_spans(doc: MarkdownDoc, sections, first_body: int) -> list[tuple[int, int]]:
    spans = [(a, b) for text, level, a, b in sections
             if level >= 2 and _EXAMPLE_HEADING.search(text)]
    for fence in doc.fences:
        if fence.end is None or any(a <= fence.start <= b for a, b in spans):
            continue
        # The nearest non-blank line above the fence, if it is prose that announces an example.
        i = fence.start - 1
        while i >= first_body and not doc.lines[i - doc.first_line].strip():
            i -= 1
        if i >= first_body and not doc.is_code(i) and \
                _EXAMPLE_PROSE.search(doc.lines[i - doc.first_line]):
            spans.append((fence.start, fence.end))
    return _merge(spans)


def parts_of(skill_md: str, files: Mapping[str, str | None]) -> list[SkillPart]:
    """The parts of a skill from SKILL.md's text and its other files ({path: text or None})."""
    status, fm, body, body_start, _issue = parse_skill_text(skill_md)
    if status != "ok" or fm is None:
        raise PartsError(f"SKILL.md's frontmatter cannot be read ({status}); fix it first "
                         "(`skillforge lint` says where)")
    lines = skill_md.splitlines(keepends=True)
    out: list[SkillPart] = []
    close = fm.end_line or body_start - 1
    key_lines = sorted(fm.key_lines.values())
    desc = fm.get("description")
    if isinstance(desc, str) and fm.line_of("description"):
        span = _key_span(lines, fm.line_of("description") or 0, key_lines, close)
        out.append(SkillPart(id="description", kind="description", title="description",
                             tokens=_count(desc), loaded="always", spans=[span]))
    doc = MarkdownDoc(body, body_start)
    sections = _sections(doc, len(lines))
    taken: set[str] = set()
    for text, level, a, b in sections:
        if level != 2:
            continue
        base = f"section:{slug(text)}"
        pid, n = base, 2
        while pid in taken:
            pid, n = f"{base}-{n}", n + 1
        taken.add(pid)
        out.append(SkillPart(id=pid, kind="section", title=text,
                             tokens=_count(_lines_text(lines, [(a, b)])), spans=[(a, b)]))
    examples = _example_spans(doc, sections, body_start)
    if examples:
        out.append(SkillPart(id="examples", kind="examples", title="examples",
                             tokens=_count(_lines_text(lines, examples)), spans=examples))
    taken = set()
    kinds = {path: classify(path) for path in sorted(files)}
    for path, kind in kinds.items():
        if kind == "reference":
            out.append(SkillPart(id=_file_id("reference", path, taken), kind="reference",
                                 title=path, tokens=_count(files[path] or ""),
                                 loaded="when read", files=[path]))
    scripts = [p for p, k in kinds.items() if k == "script"]
    for path in scripts:
        out.append(SkillPart(id=_file_id("script", path, taken), kind="script", title=path,
                             tokens=_count(files[path] or ""), loaded="when read",
                             files=[path]))
    if len(scripts) > 1:
        out.append(SkillPart(id="scripts", kind="scripts", title="all scripts",
                             tokens=sum(_count(files[p] or "") for p in scripts),
                             loaded="when read", files=scripts))
    grant = fm.line_of("allowed-tools")
    if grant:
        span = _key_span(lines, grant, key_lines, close)
        out.append(SkillPart(id="allowed-tools", kind="allowed-tools", title="allowed-tools",
                             tokens=_count(_lines_text(lines, [span])), spans=[span]))
    return _dedupe(out)


def _dedupe(parts: list[SkillPart]) -> list[SkillPart]:
    """One part per distinct removal: a later part removing exactly what an earlier one
    does becomes a `same_as` id of the earlier one."""
    kept: dict[tuple, SkillPart] = {}
    for part in parts:
        key = (tuple(_merge(list(part.spans))), tuple(sorted(part.files)))
        first = kept.get(key)
        if first is None:
            kept[key] = part
        else:
            kept[key] = first.model_copy(update={"same_as": [*first.same_as, part.id]})
    return list(kept.values())


def part_index(parts: Sequence[SkillPart]) -> dict[str, SkillPart]:
    """{id: part} for every part, and for each `same_as` id the part it is the same as."""
    out = {alias: p for p in parts for alias in p.same_as}
    out.update({p.id: p for p in parts})
    return out


def same_as_note(part: SkillPart) -> str:
    """`examples is the same lines as section:example: measured once, as section:example`."""
    if not part.same_as:
        return ""
    others = ", ".join(part.same_as)
    verb = "is" if len(part.same_as) == 1 else "are"
    what = "lines" if part.spans else "files"
    return f"{others} {verb} the same {what} as {part.id}: measured once, as {part.id}"


def skill_parts(skill: Skill) -> list[SkillPart]:
    """The parts of a loaded skill (`skillforge.models.skill.load_skill`)."""
    md = skill.skill_md
    if md is None or md.text is None:
        raise PartsError(f"{skill.root}/SKILL.md is missing or unreadable; a skill needs one")
    files = {f.path: f.text for f in skill.files
             if f.kind in ("script", "reference") and not f.is_dir}
    return parts_of(md.text, files)


def find_parts(parts: Sequence[SkillPart], wanted: Sequence[str],
               where: str = "the skill") -> list[SkillPart]:
    """The parts named by id (`all`: every part), in the skill's order, each once (a
    `same_as` id names the part it is the same as); PartsError naming the ids that do not
    exist and the ones that do."""
    if any(w == "all" for w in wanted):
        return list(parts)
    known = part_index(parts)
    missing = [w for w in wanted if w not in known]
    if missing:
        raise PartsError(f"{where} has no part {', '.join(map(repr, missing))}; its parts: "
                         + ", ".join(p.id for p in parts)
                         + " (`skillforge parts PATH` lists them)")
    chosen = {known[w].id for w in wanted}
    return [p for p in parts if p.id in chosen]
