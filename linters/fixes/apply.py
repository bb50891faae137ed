"""Turn chosen fixes into new file contents, checked, with a unified diff; write nothing.

`plan_fixes(skill, fixes)` applies the fixes in order to the skill's files in memory. A fix
is refused, with the reason, when its edits overlap or point outside the file, when it
touches a file an earlier fix of the same plan already changed (positions would be stale:
lint again and ask for fixes again), or when a file it changes would no longer parse
(SKILL.md's frontmatter, a JSON, YAML, TOML or Python file). The exception: fixes that only
edit Markdown text in place (`COMBINABLE`: a link's path, a contents list inserted) share a
file when their edits do not overlap; all of them are applied to the file as it was, so no
position is stale, and a folder of 300 pages with four broken links each is fixed in one
round instead of one link per page per round. `skillforge.workspace.fixing`
writes a plan to disk.
"""

from __future__ import annotations

import ast
import difflib
import json
import tomllib
from dataclasses import dataclass, field

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.fixes.edits import EditConflict, apply_edits
from skillforge.models.fixes import Fix
from skillforge.models.skill import SKILL_MD, Skill, parse_skill_text


@dataclass
class FileChange:
    """One file before and after a plan. None: the file does not exist (before: created;
    after: deleted). `is_dir`: a folder deleted whole."""

    path: str
    before: bytes | None
    after: bytes | None
    is_dir: bool = False
    before_encoding: str = "utf-8"


@dataclass
class FixPlan:
    """What applying some fixes would do to a skill's files."""

    changes: dict[str, FileChange] = field(default_factory=dict)
    applied: list[Fix] = field(default_factory=list)
    refused: list[tuple[Fix, str]] = field(default_factory=list)
    # Per file, the edits of the COMBINABLE fixes applied to it so far (against its text as
    # loaded); a file changed by any other fix has no entry.
    combined: dict[str, list] = field(default_factory=dict)

    def diff(self, prefix: str = "", context: int = 3) -> str:
        """A unified diff of every change (paths as `a/<prefix><path>`, `b/<prefix><path>`)
        with `context` lines around each change; `git apply` takes it from the folder
        `prefix` is relative to."""
        return "".join(file_diff(c, prefix, context)
                       for c in sorted(self.changes.values(), key=lambda c: c.path))


def file_diff(change: FileChange, prefix: str = "", context: int = 3) -> str:
    name = prefix + change.path
    if change.is_dir:
        return f"# delete folder {name}/ and everything in it\n"
    old = _text(change.before, change.before_encoding)
    new = _text(change.after, "utf-8")
    head_a = f"a/{name}" if change.before is not None else "/dev/null"
    head_b = f"b/{name}" if change.after is not None else "/dev/null"
    note = ""
    if change.before is not None and change.after is not None and change.before_encoding != "utf-8":
        shown = ENCODING_NAMES.get(change.before_encoding, change.before_encoding)
        note = f"# {name}: re-encoded from {shown} to UTF-8 (the text is unchanged)\n"
    if old is None or new is None and change.after is not None:
        return note + f"# {name}: binary file {'deleted' if change.after is None else 'changed'}\n"
    lines = difflib.unified_diff(old.splitlines(keepends=True),
                                 (new or "").splitlines(keepends=True), head_a, head_b, n=context)
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
    return note + body


def _text(data: bytes | None, encoding: str) -> str | None:
    """The text of `data` (None when it is binary or does not decode)."""
    if data is None:
        return ""
    if b"\0" in data and not encoding.startswith(("utf-16", "utf-32")):
        return None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


ENCODING_NAMES = {"utf-8-sig": "UTF-8 with a byte-order mark", "cp1252": "Windows-1252",
                  "latin-1": "Latin-1", "utf-16": "UTF-16", "utf-32": "UTF-32",
                  "utf-16-le": "UTF-16 LE", "utf-16-be": "UTF-16 BE"}


class _Refused(Exception):
    pass


def plan_fixes(skill: Skill, fixes: list[Fix]) -> FixPlan:
    """Apply `fixes` in order to `skill`'s files in memory (see the module docstring)."""
    plan = FixPlan()
    for fix in fixes:
        try:
            staged = _stage(skill, plan, fix)
        except _Refused as exc:
            plan.refused.append((fix, str(exc)))
            continue
        for path in staged:
            if fix.rule in COMBINABLE and not fix.file_ops and (
                    path in plan.combined or path not in plan.changes):
                plan.combined.setdefault(path, []).extend(e for e in fix.edits if e.path == path)
            else:
                plan.combined.pop(path, None)
        plan.changes.update(staged)
        plan.applied.append(fix)
    return plan


# Rules whose fixes only edit Markdown text in place, each edit computed on the file as
# loaded and independent of the others: they may share a file in one plan.
COMBINABLE = frozenset({"SF116", "SF403"})


def _stage(skill: Skill, plan: FixPlan, fix: Fix) -> dict[str, FileChange]:
    touched = fix.paths & set(plan.changes)
    combinable = fix.rule in COMBINABLE and not fix.file_ops
    if touched and not (combinable and touched <= set(plan.combined)):
        raise _Refused(f"{sorted(touched)[0]} is already changed by another fix; lint again "
                       "and apply this one then")
    staged: dict[str, FileChange] = {}
    for op in fix.file_ops:
        f = skill.file(op.path)
        if f is None or not f.present:
            raise _Refused(f"{op.path} is not in the skill")
        if op.kind == "delete":
            staged[op.path] = FileChange(op.path, f.raw, None, is_dir=f.is_dir)
        elif op.kind == "reencode":
            if f.raw is None:
                raise _Refused(f"{op.path} could not be read")
            try:
                text = f.raw.decode(op.encoding or "utf-8")
            except (UnicodeDecodeError, LookupError) as exc:
                raise _Refused(f"{op.path} does not read as {op.encoding}: {exc}") from None
            staged[op.path] = FileChange(op.path, f.raw, text.encode("utf-8"),
                                         before_encoding=op.encoding or "utf-8")
        else:  # rename
            if not op.new_path or skill.file(op.new_path) is not None:
                raise _Refused(f"cannot rename {op.path} to {op.new_path}: that name is taken")
            staged[op.path] = FileChange(op.path, f.raw, None)
            staged[op.new_path] = FileChange(op.new_path, None, f.raw)
    by_path: dict[str, list] = {}
    for e in fix.edits:
        by_path.setdefault(e.path, []).append(e)
    for path, edits in by_path.items():
        f = skill.file(path)
        if f is None or f.text is None or f.raw is None:
            raise _Refused(f"{path} has no text to edit")
        if f.decode_error:
            raise _Refused(f"{path} is not UTF-8; re-encode it first (SF118)")
        earlier = plan.combined.get(path, []) if combinable else []
        try:
            new = apply_edits(f.text, [*earlier, *edits])
        except EditConflict as exc:
            if earlier:
                raise _Refused(f"{path} is already changed by another fix where this one "
                               "edits; lint again and apply this one then") from None
            raise _Refused(f"{path}: {exc}") from None
        data = (b"\xef\xbb\xbf" if f.bom else b"") + new.encode("utf-8")
        staged[path] = FileChange(path, f.raw, data)
    for change in staged.values():
        problem = parse_problem(change, fix.rule)
        if problem:
            raise _Refused(problem)
    return staged


def parse_problem(change: FileChange, rule: str) -> str | None:
    """Why the file after `change` would not parse, when it did before (or when the fix is
    the one meant to make it parse); None when it is fine."""
    if change.after is None or change.is_dir:
        return None
    after = _text(change.after.removeprefix(b"\xef\xbb\xbf"), "utf-8")
    if after is None:
        return f"{change.path} would not be UTF-8"
    before = _text((change.before or b"").removeprefix(b"\xef\xbb\xbf"), change.before_encoding)
    check = _CHECKS.get(change.path.rsplit(".", 1)[-1].lower() if change.path != SKILL_MD else SKILL_MD)
    if check is None:
        return None
    problem = check(after)
    if problem is None:
        return None
    if before is not None and check(before) is not None and rule not in _MEANT_TO_PARSE:
        return None  # it did not parse before either; this fix is about something else
    return f"{change.path} would not parse after this fix ({problem}); nothing was written"


def _skill_md(text: str) -> str | None:
    status, _fm, _body, _line, issue = parse_skill_text(text)
    if status == "ok":
        return None
    where = f"line {issue.line}: " if issue is not None and issue.line else ""
    return where + (issue.detail if issue is not None and issue.detail else status.replace("_", " "))


def _yaml(text: str) -> str | None:
    try:
        YAML(typ="safe").load(text)
    except YAMLError as exc:
        return str(exc).splitlines()[0]
    return None


def _json(text: str) -> str | None:
    try:
        json.loads(text)
    except ValueError as exc:
        return str(exc)
    return None


def _toml(text: str) -> str | None:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return str(exc)
    return None


def _python(text: str) -> str | None:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        return str(exc)
    return None


_CHECKS = {SKILL_MD: _skill_md, "json": _json, "yaml": _yaml, "yml": _yaml, "toml": _toml,
           "py": _python}
# Fixes whose whole point is to make the file parse: refused unless it does afterwards.
_MEANT_TO_PARSE = {"SF104"}
