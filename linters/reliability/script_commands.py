"""Scripts SKILL.md runs (SF301, SF305): they must exist, and those run as `./x` must be
executable with a shebang line.

Where a command runs is followed through its code block (`command_dirs`): after
`cd ~/work/proj` a relative path is the user's, and `$SKILL_DIR/run.sh` is read through a
`SKILL_DIR=...` of this block or an earlier one. Once a block has cloned a repository and
entered it (`git clone .../LLaVA && cd LLaVA`), the later blocks run in that checkout too.
A missing script is not reported when inline code shows it as an example or
counter-example ("never include ..., e.g. `./scripts/deploy.sh`"), when the text shows the
command as a thing not to do or as a run in the user's project (`command_context`), nor
when a skill nested in another runs the enclosing skill's scripts, nor when the text says
its scripts are relative to a folder that holds this one (`stated_bases`: "# Scripts are
relative to ../shared-tools/"), nor when the command itself expects the script may be
absent (`scripts/x.sh pending || echo "no tasks"`, `[ -f scripts/x.sh ] && ...`). A path
followed by a section sign or a section's name (`chunks/02 §Procedure`) points into a
document (`section_pointers`), and is no run; nor is an entry of a fence that lists files
(`linters.text.file_listing`). A command inside a message the text gives
the agent to say to the user ("Confirm: > \"Done! Add teams with `scripts/add.ts`\"") is the
user's to run from their folder: a warning (`said_to_user`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from linters.reliability.command_context import lead_in, not_the_skills_run
from linters.reliability.command_dirs import BlockShell
from linters.reliability.commands import (
    Command,
    commands,
    program,
    segment_run,
    segments,
    words,
)
from linters.reliability.placeholder_runs import placeholder_run
from linters.reliability.said_to_user import said_to_user
from linters.reliability.project_adapters import absence_handled, linked_into_project
from linters.reliability.section_pointers import section_pointer
from linters.reliability.repo_scripts import (
    PLANNED,
    builds_project_here,
    checks_project_suite,
    commits_users_files,
    from_project_top,
    users_folder,
)
from linters.context import LintContext
from linters.text.paths.chezmoi import chezmoi_source, installs_executable
from linters.text.paths.link_resolver import enclosing_roots, on_disk
from linters.text.paths.outside_home import homes_of, outside_home
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph
from linters.text.paths.project_layout import project_layout
from linters.text.paths.shared_helpers import given_own_name, synced_beside
from linters.text.paths.stated_bases import resolved_from, stated_bases
from linters.text.paths.variable_bases import chain_base_reason
from linters.text.paths.path_owner import (
    NEAR,
    installed_template,
    other_skill_has,
    owned_by_other,
    placed_outside,
    rooted_paths,
    scaffolded_from,
    template_files,
)
from linters.registry import check
from linters.text.vendored_copy import vendored_reason
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SCRIPT_SUFFIXES

_EXEC_PATH = rx(r"^[\w{}$~./@+-]*/[\w.@+-]*\w$")


def _cloned(ws: list[str]) -> str | None:
    """The folder `git clone URL [DIR]` makes, or None for another command."""
    if ws[:2] != ["git", "clone"]:
        return None
    args = [w for w in ws[2:] if not w.startswith("-")]
    if not args:
        return None
    if len(args) > 1:
        return args[1].rstrip("/")
    name = args[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return name[:-4] if name.endswith(".git") else name


def _paths(ctx: LintContext) -> tuple[str, ...]:
    """The skill's file paths, relative to its root."""
    return ctx.memo(("skill_paths",), lambda: tuple(f.path for f in ctx.skill.files))


def _runs(ctx: LintContext) -> Iterator[tuple[Command, str, bool]]:
    """(command, skill-relative script path, direct) for SKILL.md's script runs."""
    variables: dict[str, str | None] = {}  # folder variables, shared by the blocks
    shell = BlockShell(ctx.skill, variables)
    block: int | None = None
    clones: set[str] = set()
    # After `git clone https://github.com/x/LLaVA && cd LLaVA` the agent works in the
    # checkout: later blocks' `bash scripts/train.sh` are the project's, not the skill's.
    in_checkout = False
    # Relative scripts run after a `cd` into another tree (`cd "$LAB/kernel"` then
    # `scripts/config ...`): that tree's. A later block that runs the same path without a
    # `cd` of its own is still at work there, not in the skill.
    foreign: set[str] = set()
    moved = False  # this shell has changed folder
    for cmd in commands(ctx):
        if cmd.inline or cmd.block != block:
            # A new shell: a new block, or one inline command (the variables stay).
            shell = BlockShell(ctx.skill, variables)
            block = None if cmd.inline else cmd.block
            moved = False
            if in_checkout:
                shell.cwd = None
        shell.assign_line(cmd.text)
        for seg in segments(cmd.text):
            ws = words(seg)
            name = _cloned(ws)
            if name:
                clones.add(name)
            moved = moved or ws[:1] in (["cd"], ["pushd"])
            if ws[:1] == ["cd"] and len(ws) > 1 and ws[1].strip("\"'").split("/")[0] in clones:
                in_checkout = True
            if shell.step(seg, ws) or "/" not in seg and shell.cwd in ("", None):
                continue
            run = segment_run(ws)
            if run is not None and placeholder_run(ws, run.path):
                continue  # `scripts/script_name.py [arguments]`: the shape of every run
            if run is not None:
                if run.direct:
                    suffix = PurePosixPath(run.path).suffix.lower()
                    if not _EXEC_PATH.match(run.path) or suffix not in SCRIPT_SUFFIXES:
                        continue  # `(scripts/, references/)` in prose, `docs/guide.md`
                    # A lone path in a bare fence or inline code is a mention, not a run.
                    lone = cmd.text.strip() == run.path
                    if lone and not cmd.fenced_shell and run.path[:1] not in "./{$":
                        continue
                    # `chunks/02 §Procedure`: a section of a document, not a run.
                    rest = ws[program(ws) + 1:]
                    if section_pointer(run.path, rest, _paths(ctx)) is not None:
                        continue
                rel, known = shell.script(run.path)
                plain = run.path.strip("\"'").removeprefix("./")
                if rel is None and not known and plain[:1] not in "/~${<":
                    foreign.add(plain)
                elif rel is not None and not moved and plain in foreign:
                    continue  # the other tree's script again (see `foreign`)
                elif rel is not None:
                    yield cmd, rel, run.direct


def _missing(ctx: LintContext, rel: str, cmd: Command) -> bool:
    if ctx.skill.exists(rel):
        return False
    # Where SKILL.md says the scripts folder is (`$SKILL_DIR/../../scripts/x.py`), on disk.
    placed = outside_home(homes_of(ctx), rel)
    if placed is not None and on_disk(ctx.skill.root, placed[1]):
        return False
    # The text says its scripts are relative to a folder ("# Scripts are relative to
    # ../shared-tools/"): the script is there when it is on disk there.
    if any(on_disk(ctx.skill.root, p) for p in _from_stated_bases(ctx, cmd, rel)):
        return False
    # A skill nested in another (spark-video/references/spark-video-cast/) runs from the
    # enclosing skill's folder, as SF116 accepts its links there.
    outer = ctx.memo(("enclosing_roots",), lambda: enclosing_roots(ctx.skill.root))
    if any(on_disk(root, rel) for root in outer):
        return False
    # A project skill (`<repo>/.claude/skills/<name>/`) runs from the repository's top.
    return _at_project_top(ctx, rel, cmd) is not True


def _from_stated_bases(ctx: LintContext, cmd: Command, rel: str) -> list[str]:
    """`rel` read from each folder the command's document says scripts are relative to
    (`linters.text.paths.stated_bases`), as paths from the skill's root."""
    doc = ctx.doc(cmd.path)
    if doc is None:
        return []
    bases = ctx.memo(("stated_bases", cmd.path), lambda: stated_bases(doc.text))
    return resolved_from(bases, posixpath.dirname(cmd.path), rel)


def _at_project_top(ctx: LintContext, rel: str, cmd: Command) -> bool | str | None:
    """`repo_scripts.from_project_top` for this skill's SKILL.md and the command's line."""
    f = ctx.skill.file("SKILL.md")
    doc = ctx.doc(cmd.path)
    idx = cmd.line - doc.first_line if doc is not None else -1
    near = doc.lines[idx] if doc is not None and 0 <= idx < len(doc.lines) else ""
    lead = lead_in(doc, cmd.block) if doc is not None and not cmd.inline else ""
    return from_project_top(ctx.skill.root, f.text if f is not None and f.text else "", rel,
                            ctx.skill.exists(rel.split("/", 1)[0]), near, lead)


def _shared_helper(ctx: LintContext, rel: str, cmd: Command) -> str | None:
    """`linters.text.paths.shared_helpers`: the run gives the script this skill's own name,
    or SKILL.md says shared files are synced beside the skills."""
    names = {ctx.skill.root.name, ctx.skill.name or ""}
    for seg in segments(cmd.text):
        ws = words(seg)
        at = next((i for i, w in enumerate(ws) if w.strip("\"'").endswith(rel)), None)
        if at is not None and (own := given_own_name(ws[at + 1:], names)) is not None:
            return own
    f = ctx.skill.file("SKILL.md")
    return synced_beside(f.text if f is not None and f.text else "", rel)


def _not_an_instruction(ctx: LintContext, cmd: Command) -> bool:
    """The text shows the command as an example, a thing not to do or a run in the user's
    project, not as the skill's instruction to run its script."""
    doc = ctx.doc(cmd.path)
    if doc is None:
        return False
    if cmd.inline:
        idx = cmd.line - doc.first_line
        if not 0 <= idx < len(doc.lines):
            return False
        para = Paragraph(doc, idx)
        offset = para.offset_of(idx, cmd.column)
        if para.counter_example(offset) or para.after_example_label():
            return True
    return not_the_skills_run(doc, cmd)


def _inline_place(ctx: LintContext,
                  cmd: Command) -> tuple[MarkdownDoc, Paragraph, int] | None:
    """The document and paragraph of an inline command and the command's offset in the
    paragraph; None for a command in a block, or one whose document is not read."""
    doc = ctx.doc(cmd.path)
    idx = cmd.line - doc.first_line if doc is not None else -1
    if not cmd.inline or doc is None or not 0 <= idx < len(doc.lines):
        return None
    para = Paragraph(doc, idx)
    return doc, para, para.offset_of(idx, cmd.column)


def _owner(ctx: LintContext, cmd: Command) -> str | None:
    """The other skill an inline command's text gives the script as a file of ("the
    `other-skill` `scripts/x.sh`"), or None."""
    if (place := _inline_place(ctx, cmd)) is None:
        return None
    _doc, para, offset = place
    start = max(para.sentence(offset)[0], offset - NEAR)
    return owned_by_other(para.text[start:offset], ctx.skill.root.name)


def _other_base(ctx: LintContext, rel: str, cmd: Command) -> str | None:
    """`variable_bases.chain_base_reason` for an inline command's paragraph."""
    if (place := _inline_place(ctx, cmd)) is None:
        return None
    doc, para, offset = place
    return chain_base_reason(para.text[:offset], rel, doc.text)


def _project_layout(ctx: LintContext, rel: str, cmd: Command) -> str | None:
    """`project_layout`: the script of the user's project whose layout the skill documents
    (a block's command has no sentence before it, so only the document's reading applies)."""
    doc = ctx.doc(cmd.path)
    if doc is None:
        return None
    place = _inline_place(ctx, cmd)
    sentence, at = "", 0
    if place is not None:
        para, offset = place[1], place[2]
        start, end = para.sentence(offset)
        sentence, at = para.text[start:end], offset - start
    return project_layout(ctx.skill.exists, doc.text, sentence, at, rel)


def _planned(ctx: LintContext, cmd: Command) -> bool:
    """The sentence holding an inline command says it is not written yet ("planned, not
    yet shipped")."""
    place = _inline_place(ctx, cmd)
    return place is not None and place[1].sentence_has(PLANNED, place[2])


def _elsewhere(ctx: LintContext, rel: str, cmd: Command) -> str | None:
    """Why the script is meant somewhere else: the user's project, where the skill installs
    it, or another skill not found beside this one (`linters.text.paths.path_owner`), or None."""
    template = scaffolded_from(ctx.memo(("template_files",), lambda: template_files(ctx.skill)), rel)
    if template is not None:
        return f"the skill ships `{template}`, which it installs there in the user's project"
    home = ctx.memo(("installed_template",), lambda: installed_template(ctx.skill.root))
    if home is not None:
        return (f"the skill is a template in `{home}/`, installed into the user's project, "
                "where the script is the project's")
    placed = outside_home(homes_of(ctx), rel)
    if placed is not None:
        return f"SKILL.md places it outside the skill folder, at `{placed[0].written}`"
    doc = ctx.doc(cmd.path)
    if doc is not None:  # the same path in full from a root (`migrations/<project>/...`)
        rooted = ctx.memo(("rooted_paths", cmd.path),
                          lambda: rooted_paths(doc.text, ctx.skill.root.name))
        if (where := placed_outside(rooted, "", rel)) is not None:
            return where
    if isinstance(top := _at_project_top(ctx, rel, cmd), str):
        return top
    if (shared := _shared_helper(ctx, rel, cmd)) is not None:
        return shared
    if doc is not None and (yours := users_folder(doc, cmd, ctx.skill.exists)) is not None:
        return yours
    if doc is not None and (ours := commits_users_files(doc, cmd, ctx.skill.exists)):
        return ours
    if doc is not None and (built := builds_project_here(doc, cmd, ctx.skill.exists)):
        return built
    if doc is not None and (suite := checks_project_suite(doc, cmd, rel, ctx.skill.exists,
                                                          _paths(ctx))):
        return suite
    if doc is not None and (linked := linked_into_project(doc, rel)) is not None:
        return linked
    if doc is not None and (absent := absence_handled(doc, cmd)) is not None:
        return absent
    if _planned(ctx, cmd):
        return "the text says the script is planned, not written yet"
    if doc is not None and said_to_user(doc, cmd):
        return "it is in a message the agent says to the user, who runs it from their own folder"
    if (chained := _other_base(ctx, rel, cmd)) is not None:
        return chained
    if (layout := _project_layout(ctx, rel, cmd)) is not None:
        return layout
    owner = _owner(ctx, cmd)
    if owner is not None:
        has = other_skill_has(ctx.skill.root, owner, rel)
        if has is not False:  # a skill beside this one without it: a broken run
            return f"the text gives it as a script of `{owner}`" + (
                ", which has it" if has else ", not found beside this skill")
    return vendored_reason(ctx.skill.root, "the script, left out of the copy,")


# A run that expects the script may be absent: `scripts/x.sh pending || echo "none"`,
# `[ -f scripts/x.sh ] && bash scripts/x.sh`.
_GUARDED = rx(r"\|\|\s*(?:echo|true|:|printf)\b|\[\[?\s+-[fex]\s")

_INTERPRETER = {".py": "python3", ".js": "node", ".mjs": "node", ".cjs": "node", ".rb": "ruby"}


@check("SF301", "SF305")
def script_commands(ctx: LintContext) -> Iterator[Finding]:
    """Scripts SKILL.md runs must exist, and those run as `./x` must be executable."""
    seen: set[tuple[str, bool]] = set()
    for cmd, rel, direct in _runs(ctx):
        line, text = cmd.line, cmd.text
        # Once per script for SF301; a direct run is checked for SF305 even when the same
        # script was run with an interpreter first.
        if (rel, direct) in seen:
            continue
        first = (rel, not direct) not in seen
        seen.add((rel, direct))
        f = ctx.skill.file(rel)
        # A chezmoi source tree keeps `jira-sync` as `executable_jira-sync`.
        source = chezmoi_source(ctx.skill, rel) if f is None else None
        f = ctx.skill.file(source) if source is not None else f
        if f is None and _missing(ctx, rel, cmd):
            if not first or _not_an_instruction(ctx, cmd) or _GUARDED.search(text):
                continue
            shown = text if len(text) <= 80 else text[:77] + "..."
            why = _elsewhere(ctx, rel, cmd)
            yield ctx.finding(
                "SF301",
                f"`{shown}` runs {rel}, which is not in the skill; add the script or correct "
                "the path (paths are relative to the skill folder)."
                + (f" (A warning only: {why}.)" if why else ""),
                line=line,
                severity=Severity.warning if why else None,
            )
            continue
        if not direct or f is None or not f.present or f.is_dir:
            continue
        interpreter = _INTERPRETER.get(f.suffix, "bash")
        fixes = []
        if not f.executable and not (source and installs_executable(source)):
            fixes.append(f"run `chmod +x {rel}` (git keeps the bit)")
        if f.text is not None and not f.text.startswith("#!"):
            fixes.append(f"add a first line such as `#!/usr/bin/env {interpreter}`")
        if fixes:
            yield ctx.finding(
                "SF305",
                f"SKILL.md runs {rel} directly, so it needs a shebang line and the run bit; "
                f"{' and '.join(fixes)}, or put the interpreter in front (`{interpreter} {rel}`).",
                path=f.path,
                line=1,
            )
