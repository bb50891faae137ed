"""Links and referenced paths (SF116): do the files a skill points to exist?

What counts as a reference, in SKILL.md's body and the skill's other Markdown files:
- Markdown links, images and reference definitions (outside code), resolved relative to the
  file that holds them, as a Markdown renderer would;
- inline code or prose that is clearly a path into the skill: a conventional folder
  (`scripts/`, `references/`, `assets/`, ...) or `./` followed by a file name with an
  extension. Agents resolve those from the skill root, so either base is accepted.
Fenced code is left to the command rules (SF301): a path in a shell block is a command.

A path that does not resolve is reported only when the text presents it as a file of the skill
to read or run (`linters.text.paths.path_context`): not an example of a path or link format, a
file the agent is told to write, the user's project file (`./package.json`), a file of the
folder the skill runs in (`./context.json` under "## Workspace"), a file a clause says was
removed, an index entry "(coming soon)", or a footnote. No heading switches the rule off: a
changelog's list items record what files were, so a broken path in one is a warning rather
than an error, and every other line (a title included) is checked like the rest.

Whose file a path names (a block's caption, a template the skill installs, a plugin-root
file, another skill's) is `linters.text.paths.path_owner`'s reading (the component a table
row is about, `row_subject`'s); a script of the user's project a skill documenting its
layout names, `project_layout`'s. How a reference is read off the text is `path_refs`, and a
link commented out or a template's blank is no link (`disabled_links`); the gates that spare
parsing a file are `linters.correctness.link_gates`.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.correctness.link_gates import all_resolve, may_refer
from linters.text.paths.link_resolver import Resolver, on_disk
from linters.text.paths.optional_paths import read_if_present
from linters.text.paths.outside_home import homes_of, outside_home
from linters.text.paths.owner_roots import at_owner_root
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import (Paragraph, cwd_relative, paragraph_of,
                                             project_file)
from linters.text.nested_templates import nested_template_lines
from linters.text.paths.other_roots import foreign_root_of, not_the_skills
from linters.text.paths.other_skill_links import installs_other_skill, placeholder_path
from linters.text.paths.plugin_starter import other_layout
from linters.text.paths.project_paths import LOCATION_VARIES, REPO_OWNED, not_run_by_it, project_path
from linters.text.paths.project_layout import project_layout
from linters.text.paths.local_files import local_file
from linters.text.paths.disabled_links import commented_out, template_slot
from linters.text.paths.run_folder import run_folder_path
from linters.text.paths.row_subject import row_subject
from linters.text.paths.run_outputs import run_output
from linters.text.paths.project_top import climbs_to_project_top, from_project_top
from linters.text.paths.built_copies import built_copy_reason
from linters.text.paths.shared_helpers import synced_beside
from linters.text.paths.variable_bases import chain_base_reason
from linters.text.paths.listed_aside import listed_aside
from linters.text.paths.path_owner import (NEAR, example_of, installed_template, names_other_file,
                                     other_skill_has, owned_by_other, placed_outside,
                                     rooted_paths, scaffolded_from, template_files)
from linters.text.paths.path_refs import PROSE_PATH, PathRef, anchor_offsets, clean_link, mention
from linters.text.placement import aside_file
from linters.text.vendored_copy import vendored_reason
from linters.correctness.mention_weight import from_repo_root, prose_mention_aside
from linters.registry import check
from linters.text.sections import changelog_entry
from linters.text.paths.siblings import (distributed_sibling_has, named_sibling_has,
                                   sibling_written_elsewhere)
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SCRIPT_SUFFIXES, Skill, SkillFile

OUTPUT_SAMPLE_DIRS = ("examples", "example", "samples", "sample")
# A file that is a changelog by its name (not by its title): its list items are entries.
_CHANGELOG_NAMES = ("CHANGELOG", "CHANGES", "HISTORY", "RELEASE_NOTES", "RELEASE-NOTES", "RELEASES")

# Links, reference definitions and autolinks: a path inside them is the link's business.
_MD_LINK = rx(
    r"!?\[[^\]\n]*\]\([^)\n]*\)|^ {0,3}\[[^\]\n]+\]:[^\n]*|<[a-z]+://[^>\n]*>", re.MULTILINE
)
_URL = rx(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)


# --- finding references --------------------------------------------------------------------


def references(doc: MarkdownDoc, path: str,
               paragraphs: dict[int, Paragraph] | None = None) -> Iterator[PathRef]:
    """Every link and every path mention in one Markdown document (whether the text presents
    a mention as a file of the skill is judged later, and only if it does not resolve).
    `paragraphs`: the document's paragraphs read so far, by line index (filled in)."""
    for link in doc.links:
        if link.text.startswith("^") or commented_out(doc, link.line, link.column):
            continue  # a footnote (`[^t]: The package ships ...`), or a link commented out
        cleaned = clean_link(link.target)
        if cleaned is not None:
            yield PathRef(path, link.line, link.column, link.target, cleaned[0], True, cleaned[1])
    text = doc.text
    if paragraphs is None:
        paragraphs = {}
    done: set[tuple[int, int]] = set()
    link_spans: dict[int, _Spans] = {}
    idx = pos = 0
    # Paths are rare: find their anchors first and parse only the paragraphs around them.
    for start in anchor_offsets(text):
        idx += text.count("\n", pos, start)
        pos = start
        if idx >= len(doc.lines) or doc.is_code(idx + doc.first_line):
            continue
        para = paragraph_of(doc, idx, paragraphs)
        offset = para.offsets[idx - para.first] + start - (text.rfind("\n", 0, start) + 1)
        span = para.span_at(offset)
        if span is not None:
            if (para.first, span[0]) in done:
                continue
            done.add((para.first, span[0]))
            body = " ".join(span[2].split())
            if " " not in body:
                cleaned = mention(body)
                if cleaned is not None:
                    line_idx, col, _line = para.where(span[0])
                    no = line_idx + doc.first_line
                    yield PathRef(path, no, col, body, cleaned[0], False, cleaned[1],
                                  para, span[0])
            continue
        m = PROSE_PATH.match(para.text, offset)
        if m is None or (para.first, m.end()) in done:
            continue
        done.add((para.first, m.end()))
        line_idx, col, line = para.where(m.start())
        spans = link_spans.get(line_idx)
        if spans is None:
            spans = link_spans[line_idx] = _Spans(_link_spans(line))
        if col - 1 in spans:
            continue
        yield PathRef(path, line_idx + doc.first_line, col, m.group(1), m.group(1), False,
                      False, para, m.start())


def presented_as_skill_file(doc: MarkdownDoc, ref: PathRef, skill: Skill,
                            paragraphs: dict[int, Paragraph] | None = None) -> bool:
    """The text around a path that does not resolve presents it as a file of the skill to
    read or run: not an example, an output, the user's file, a removed file or a planned
    entry.
    `paragraphs`: as for `references`, so that many links in one paragraph read it once."""
    para, offset = ref.para, ref.offset
    if ref.link and ref.line in nested_template_lines(doc):
        return False  # a template's link, relative to where its copy will be written
    if para is None:  # a link: its paragraph is read only now
        idx = ref.line - doc.first_line
        if not 0 <= idx < len(doc.lines) or doc.is_code(ref.line):
            return True  # a reference definition the paragraph reader cannot place
        para = paragraph_of(doc, idx, {} if paragraphs is None else paragraphs)
        offset = para.offset_of(idx, ref.column or 1)
        if para.link_example(offset):
            return False
    elif para.hedged(offset):
        return False
    if para.removed(offset) or placeholder_path(ref.path) or not_the_skills(
            doc, para, offset, ref, skill) or template_slot(ref.path, ref.file, doc, ref.line):
        return False
    if named_sibling_has(skill, ref.path, para.with_lead_in()) or distributed_sibling_has(
            skill, ref.path, para.text[max(0, offset - 60):offset]):
        return False
    if para.sentence_has(REPO_OWNED, offset) or project_path(
            doc, para, offset, ref.path, skill.exists(_top(ref.path))) or (
            ref.link and installs_other_skill(
                ref.path, ref.file, para.text[slice(*para.sentence(offset))])):
        return False  # the repository's or project's file; another skill, installed alone
    if para.sentence_has(LOCATION_VARIES, offset) and not skill.exists(_top(ref.path)):
        return False  # where the user's repository keeps it, in a folder the skill lacks
    if not ref.link and cwd_relative(ref.path, skill.exists(_top(ref.path))):
        if project_file(ref.path) or run_folder_path(doc, ref.path) or run_output(
                skill.root, para, offset, ref.raw, ref.path):
            return False  # the user's project's file, or the run folder's (a run writes it)
        rest = para.text[offset:]
        ticks = len(rest) - len(rest.lstrip("`"))
        return para.sends_to_read(offset, offset + ticks + len(ref.raw))
    return True


def _top(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path.split("/", 1)[0]


def _link_spans(line: str) -> list[tuple[int, int]]:
    """Where a line's links, reference definitions, autolinks and URLs are."""
    return [m.span() for rx in (_MD_LINK, _URL) for m in rx.finditer(line)]


class _Spans:
    """Possibly overlapping [start, end) spans, asked whether they hold an offset in
    O(log n): a line of a generated index may hold thousands of links."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        spans.sort()
        self._starts = [a for a, _b in spans]
        self._reach: list[int] = []  # the furthest end among spans[: i + 1]
        reach = -1
        for _a, b in spans:
            reach = max(reach, b)
            self._reach.append(reach)

    def __contains__(self, offset: int) -> bool:
        i = bisect.bisect_right(self._starts, offset) - 1
        return i >= 0 and self._reach[i] > offset


@check("SF116")
def broken_references(ctx: LintContext) -> Iterator[Finding]:
    """Links and path mentions in Markdown that point at files the skill does not have."""
    resolver = Resolver(ctx.skill)
    seen: set[tuple[str, int, str]] = set()
    for f in ctx.markdown_files():
        # Templates and sample outputs hold links for the document the agent will write,
        # relative to wherever that ends up, not to the skill.
        if f.kind == "asset" or f.top in OUTPUT_SAMPLE_DIRS:
            continue
        index = ctx.anchors(f)
        if not may_refer(f.text or "", index):
            continue  # no link and no path: not worth parsing
        if all_resolve(f.text or "", f.path, resolver, index):
            continue  # every path it may name is there: nothing to report
        doc = ctx.doc(f.path)
        if doc is None:
            continue
        paragraphs: dict[int, Paragraph] = {}
        for ref in references(doc, f.path, paragraphs):
            if "\\" in ref.path:
                ref = ref._replace(path=ref.path.replace("\\", "/"))
            key = (ref.file, ref.line, ref.path)
            if key in seen or resolver.exists(ref):
                continue
            if not presented_as_skill_file(doc, ref, ctx.skill, paragraphs):
                continue
            base = posixpath.dirname(ref.file) if ref.link and not ref.from_root else ""
            if (sibling := sibling_written_elsewhere(ctx.skill, ref.path, base)) is not None:
                seen.add(key)
                yield ctx.finding(
                    "SF116", f"{ref.file} {'links to' if ref.link else 'mentions'} `{ref.raw}`, "
                    f"the file of the sibling skill `{sibling[0]}` written from the wrong "
                    f"folder; write `{sibling[1]}`, the path that finds it from here.",
                    path=ref.file, line=ref.line, column=ref.column, severity=Severity.warning)
                continue
            para, offset = _place(doc, ref, paragraphs)
            if para is not None and not ref.link and names_other_file(
                    doc, ref.raw, ref.line, para, offset):
                continue  # a caption, a quoted phrase, another skill's file...
            placed = _placed_by_skill_md(ctx, ref)
            if placed == "":
                continue  # where SKILL.md puts it, outside the skill, it is there
            seen.add(key)
            yield _broken(ctx, resolver, ref, _entry(doc, f, ref.line),
                          placed or _elsewhere(ctx, doc, ref, para, offset))


def _placed_by_skill_md(ctx: LintContext, ref: PathRef) -> str | None:
    """Where SKILL.md places the missing path outside the skill (`linters.text.paths.outside_home`):
    "" when it is there on disk, the reason for a warning when it is not, None when SKILL.md
    does not place it."""
    if ref.link and "/" in ref.file:
        return None  # a link from a subfolder is read from there, not as shorthand
    homes = homes_of(ctx)
    placed = outside_home(homes, ref.path)
    if placed is None:
        return None
    home, target = placed
    if on_disk(ctx.skill.root, target):
        return ""
    return f"SKILL.md places it outside the skill folder, at `{home.written}`"


def _place(doc: MarkdownDoc, ref: PathRef,
           paragraphs: dict[int, Paragraph]) -> tuple[Paragraph | None, int]:
    """The paragraph holding `ref` and its offset there (None for a line out of reach)."""
    if ref.para is not None:
        return ref.para, ref.offset
    idx = ref.line - doc.first_line
    if not 0 <= idx < len(doc.lines):
        return None, 0
    para = paragraph_of(doc, idx, paragraphs)
    return para, para.offset_of(idx, ref.column or 1)


def _elsewhere(ctx: LintContext, doc: MarkdownDoc, ref: PathRef, para: Paragraph | None,
               offset: int) -> str | None:
    """Why the text means a file outside the skill (`linters.text.paths.path_owner`), or None."""
    if ref.link and (layout := other_layout(ctx.skill.root, ref.file, ref.path, doc.text)):
        return layout
    template = scaffolded_from(ctx.memo(("template_files",), lambda: template_files(ctx.skill)), ref.path)
    if template is not None:
        return (f"the skill ships `{template}`, which it installs at that path in the "
                "user's project")
    home = ctx.memo(("installed_template",), lambda: installed_template(ctx.skill.root))
    if home is not None:
        return (f"the skill is a template in `{home}/`, installed into the user's project, "
                "where the path is the project's")
    if (example := example_of(ctx.skill, ref.path)) is not None:
        return f"the skill ships `{example}`, an example of the user's own copy at that path"
    if (local := local_file(ref.path, para, offset)) is not None:
        return local
    skill_md = ctx.skill.file("SKILL.md")
    text = skill_md.text if skill_md and skill_md.text else ""
    base = "" if ref.from_root else posixpath.dirname(ref.file)
    top = climbs_to_project_top(ctx.skill.root, posixpath.normpath(posixpath.join(base, ref.path)))
    if top is None:
        top = from_project_top(ctx.skill.root, text, ref.path, ctx.skill.exists(_top(ref.path)))
    if top is not None and top is not False:
        return top if isinstance(top, str) else "it is at the repository's top"
    if (owner := at_owner_root(ctx.skill.root, doc, para, offset, ref.path)) is not None:
        return owner  # the plugin's or the repository's file, found where the words put it
    if PurePosixPath(ref.path).suffix.lower() in SCRIPT_SUFFIXES and (
            shared := synced_beside(text, ref.path)):
        return shared
    if (listed := listed_aside(doc, ref, para, offset)) is not None:
        return listed  # a list of files planned, written by the run or no longer shipped
    if read_if_present(doc, ref.line, para, offset):
        return "the text has the agent read it only if it exists (if available)"
    if not ref.link and (output := run_output(ctx.skill.root, para, offset, ref.raw,
                                              ref.path)) is not None:
        return output  # another skill's, command's or script's output, written at run time
    if para is None:
        return None
    start, end = para.sentence(offset)
    owner = owned_by_other(para.text[max(start, offset - NEAR):offset], ctx.skill.root.name,
                           ref.path) or row_subject(para, offset, ctx.skill.root.name)
    if owner is not None and other_skill_has(ctx.skill.root, owner, ref.path) is None:
        # A skill beside this one lacking the file is a broken reference (one that has it
        # was accepted by `named_sibling_has`); one not found here cannot be checked.
        return f"the text gives it as a file of `{owner}`, not found beside this skill"
    rooted = ctx.memo(("rooted_paths", ref.file),
                      lambda: rooted_paths(doc.text, ctx.skill.root.name))
    sentence = para.text[max(start, offset - NEAR):min(end, offset + NEAR)]
    return (placed_outside(rooted, sentence, ref.path) or not_run_by_it(para, offset)
            or chain_base_reason(para.text[:offset], ref.path, doc.text)
            or foreign_root_of(doc.text, ref.path, ctx.skill.exists(_top(ref.path)))
            or project_layout(ctx.skill.exists, doc.text, para.text[start:end], offset - start,
                              ref.path))


def _entry(doc: MarkdownDoc, f: SkillFile, line: int) -> bool:
    """The line is a changelog entry: a list item of a changelog section, or of a file named
    as a changelog."""
    if f.path.rsplit("/", 1)[-1].rsplit(".", 1)[0].upper() in _CHANGELOG_NAMES:
        return changelog_entry(doc, line, whole_file=True)
    return changelog_entry(doc, line)


def _broken(ctx: LintContext, resolver: Resolver, ref: PathRef, entry: bool,
            elsewhere: str | None = None) -> Finding:
    what = "links to" if ref.link else "mentions"
    # A template, an example, vendored text or a test fixture holds links for another place
    # (linters.placement): worth a look, not a broken instruction.
    f = ctx.skill.file(ref.file)
    aside = aside_file(ref.file, f.text if f is not None else None)
    # A file meant elsewhere is not a misspelt file of the skill: no file to point it at.
    guess = resolver.suggestion(ref) if elsewhere is None else None
    base = posixpath.dirname(ref.file)
    if guess is not None:
        shown = posixpath.relpath(guess, base) if ref.link and base else guess
        fix = f"point it at `{shown}` (the file with that name)"
    else:
        fix = "add the file or fix the path"
    if elsewhere is None and guess is not None and from_repo_root(ctx.skill, ref.path, guess):
        elsewhere = f"written from the repository's root, it names this skill's `{guess}`"
    if elsewhere is None and aside is None:
        elsewhere = (vendored_reason(ctx.skill.root, "the file, left out of the copy,")
                     or built_copy_reason(ctx.skill.root, ref, ctx.memo))
    if elsewhere is None and aside is None and prose_mention_aside(ctx.skill, ref):
        elsewhere = ("a path named in the prose of a reference file, not a link, is often "
                     "another project's file; link it if the skill means its own")
    note = f" (A warning only: the file is {aside}.)" if aside else ""
    if elsewhere:
        note = f" (A warning only: {elsewhere}.)"
    if ref.link and base and guess is not None and guess == posixpath.normpath(ref.path):
        # Written from the skill's root, as the Agent Skills spec words file references and
        # as an agent resolves them: it works for the agent, not in a Markdown viewer.
        return ctx.finding(
            "SF116",
            f"{ref.file} links to `{ref.raw}`, which exists from the skill's root but not from "
            f"{base}/, where a Markdown viewer looks; {fix} so both find it.{note}",
            path=ref.file, line=ref.line, column=ref.column, severity=Severity.warning)
    return ctx.finding(
        "SF116", f"{ref.file} {what} `{ref.raw}`, which does not exist in the skill; {fix}, "
        f"since an agent that follows it finds nothing.{note}",
        path=ref.file, line=ref.line, column=ref.column,
        # A changelog entry names what a file was: worth fixing, not a broken instruction.
        severity=Severity.warning if entry or aside or elsewhere else None,
    )
