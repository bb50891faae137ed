"""Loading a skill folder: walk it, read and classify every file, split SKILL.md.

Loading never raises on bad content: a missing SKILL.md, broken frontmatter, undecodable
bytes or unreadable files are recorded as `LoadIssue`s, which the correctness linter turns
into findings. Only a programming error escapes as an exception.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from skillforge.models.frontmatter_yaml import load_frontmatter
from skillforge.models.skill import (
    JUNK_DIRS,
    MAX_TEXT_BYTES,
    SKILL_MD,
    SKIP_DIRS,
    TEXT_SUFFIXES,
    Frontmatter,
    FrontmatterStatus,
    LoadIssue,
    Skill,
    SkillFile,
    classify,
    stem_suffix,
)

_yaml_local = threading.local()


def _yaml() -> YAML:
    # ruamel's YAML objects are not thread-safe; lint runs in worker threads.
    y = getattr(_yaml_local, "yaml", None)
    if y is None:
        y = YAML(typ="rt")
        y.allow_duplicate_keys = False
        _yaml_local.yaml = y
    return y


def _is_text(path: str, raw: bytes) -> bool:
    if path == SKILL_MD:
        return True  # whatever its bytes, SKILL.md is meant as text: its encoding is reported
    suffix = stem_suffix(path)[1].lower()
    if suffix in TEXT_SUFFIXES and _utf16_or_32(raw) is not None:
        return True  # a text file saved in another Unicode encoding: reported, not skipped
    if b"\0" in raw[:8192]:
        return False
    return suffix in TEXT_SUFFIXES or suffix == "" or raw[:2] == b"#!"


# Byte-order marks of the Unicode encodings that are not UTF-8, longest first (the UTF-32 LE
# mark starts with the UTF-16 LE one).
_OTHER_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 LE"), (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 BE"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 LE"), (b"\xfe\xff", "utf-16-be", "UTF-16 BE"),
)


def _utf16_or_32(raw: bytes) -> tuple[bytes, str, str] | None:
    """(mark, codec, name) when `raw` starts with a UTF-16 or UTF-32 byte-order mark."""
    return next((b for b in _OTHER_BOMS if raw.startswith(b[0])), None)


def _decode(raw: bytes) -> tuple[str, str | None]:
    """(text, what is wrong with the encoding or None). Never raises.

    Not UTF-8 is reported by what was found: another Unicode encoding's byte-order mark, NUL
    bytes (UTF-16 saved without a mark), or the offset of the first byte that is not UTF-8.
    The text is still decoded as well as possible, so the rest of the skill can be checked.
    """
    other = _utf16_or_32(raw)
    if other is not None:
        mark, codec, name = other
        shown = " ".join(f"{b:02X}" for b in mark)
        text = raw[len(mark):].decode(codec, errors="replace")
        return text, f"it is {name}: it starts with the byte-order mark {shown}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return raw.decode("utf-8", errors="replace"), (
            f"the first bad byte is 0x{raw[exc.start]:02x} at byte offset {exc.start}, "
            f"on line {line}")
    nul = raw.find(b"\0")
    if nul >= 0:
        # ASCII text in UTF-16 has a NUL in every other byte; the side it is on says which.
        if raw[1::2].count(0) > len(raw) // 4:
            return raw.decode("utf-16-le", errors="replace"), (
                f"it looks like UTF-16 LE without a byte-order mark: NUL byte at offset {nul}")
        if raw[0::2].count(0) > len(raw) // 4:
            return raw.decode("utf-16-be", errors="replace"), (
                f"it looks like UTF-16 BE without a byte-order mark: NUL byte at offset {nul}")
        return text, f"it holds a NUL byte at byte offset {nul}"
    return text, None


_EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


def read_file(root: Path, rel: str, st: os.stat_result | None = None,
              raw: bytes | None = None) -> SkillFile:
    """Inventory one file; never raises for unreadable or undecodable content.

    `raw`, when given, is the file's content instead of what the disk holds (an editor's
    unsaved buffer, for `skillforge lsp`); the disk is then only asked for the run bit."""
    kind = classify(rel)
    if raw is not None:
        run_bit = st is not None and bool(st.st_mode & _EXEC_BITS)
        return _with_content({"path": rel, "size": len(raw), "kind": kind,
                              "executable": run_bit}, rel, raw)
    if st is None:
        try:
            st = (root / rel).stat()
        except OSError as exc:
            return SkillFile(path=rel, size=0, kind=kind, read_error=str(exc))
    # Every field is worked out first and the file built once, with its content.
    fields: dict = {"path": rel, "size": st.st_size, "kind": kind,
                    "executable": bool(st.st_mode & _EXEC_BITS)}
    try:
        with open(os.path.join(root, rel), "rb") as fh:
            # SKILL.md is read whatever its size: its frontmatter decides whether it is a
            # skill at all (SF404 reports the size).
            if st.st_size > MAX_TEXT_BYTES and rel != SKILL_MD:
                h = hashlib.sha256()
                head = fh.read(8192)
                h.update(head)
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
                return SkillFile(**fields, sha256=h.hexdigest(), binary=not _is_text(rel, head))
            raw = fh.read()
    except OSError as exc:
        return SkillFile(**fields, read_error=exc.strerror or str(exc))
    return _with_content(fields, rel, raw)


def _with_content(fields: dict, rel: str, raw: bytes) -> SkillFile:
    fields["sha256"] = hashlib.sha256(raw).hexdigest()
    fields["raw"] = raw
    if not _is_text(rel, raw):
        return SkillFile(**fields, binary=True)
    if raw.startswith(b"\xef\xbb\xbf"):
        fields["bom"] = True
        raw = raw[3:]
    fields["text"], fields["decode_error"] = _decode(raw)
    return SkillFile(**fields)


def _walk(root: Path) -> tuple[list[tuple[str, os.stat_result | None, bool]], set[str]]:
    """(relative path, stat, is_junk_dir) for every file; plus nested skills' paths."""
    out: list[tuple[str, os.stat_result | None, bool]] = []
    nested: set[str] = set()
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, rel_dir) if rel_dir else root))
        except OSError:
            if rel_dir:
                out.append((rel_dir, None, False))
            continue
        if rel_dir and any(e.name == SKILL_MD for e in entries):
            # A nested skill is its own skill: remember its paths for link checks only.
            for dirpath, _dirs, files in os.walk(root / rel_dir):
                base = Path(dirpath).relative_to(root).as_posix()
                nested.update(f"{base}/{f}" for f in files)
            continue
        for entry in sorted(entries, key=lambda e: e.name):
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                if entry.is_symlink() and not os.path.exists(entry.path):
                    out.append((rel, None, False))
                    continue
                if entry.is_dir():
                    if entry.name in SKIP_DIRS:
                        continue
                    if entry.name in JUNK_DIRS:
                        out.append((rel, None, True))
                        continue
                    stack.append(rel)
                    continue
                out.append((rel, entry.stat(), False))
            except OSError:
                out.append((rel, None, False))
    return out, nested


def load_skill(root: Path | str, extra_files: list[SkillFile] | None = None,
               overrides: Mapping[str, bytes] | None = None) -> Skill:
    """Load the skill at `root` (a folder, or a path to its SKILL.md).

    `extra_files` adds files known to exist elsewhere (present=False): they satisfy link and
    existence checks but have no content to lint. `overrides` maps relative paths to the
    bytes to use instead of the disk's (an editor's unsaved buffers); one not on disk yet
    is added.
    """
    root = Path(root)
    if root.name == SKILL_MD and not root.is_dir():
        root = root.parent
    skill = Skill(root=root)
    if not root.is_dir():
        skill.frontmatter_status = "no_skill_md"
        skill.issues.append(LoadIssue(kind="no_skill_md", path=SKILL_MD, detail="folder missing"))
        return skill
    entries, skill.nested_paths = _walk(root)
    overrides = overrides or {}
    for rel, st, junk in entries:
        if junk:
            skill.files.append(SkillFile(path=rel, size=0, kind=classify(rel), is_dir=True))
        elif st is None:
            skill.files.append(read_file(root, rel, raw=overrides.get(rel)))
        else:
            skill.files.append(read_file(root, rel, st, overrides.get(rel)))
    known = {f.path for f in skill.files}
    for rel, raw in overrides.items():
        if rel not in known:
            skill.files.append(read_file(root, rel, raw=raw))
            known.add(rel)
    for extra in extra_files or []:
        if extra.path not in known:
            skill.files.append(replace(extra, present=False, kind=classify(extra.path)))
    for f in skill.files:
        if f.read_error:
            skill.issues.append(LoadIssue(kind="unreadable", path=f.path, detail=f.read_error))
        if f.decode_error:
            skill.issues.append(LoadIssue(kind="not_utf8", path=f.path, detail=f.decode_error))
        if f.bom:
            skill.issues.append(LoadIssue(kind="bom", path=f.path, line=1))
    _split_skill_md(skill)
    return skill


def _split_skill_md(skill: Skill) -> None:
    md = skill.skill_md
    if md is None or not md.present:
        if md is None:
            skill.frontmatter_status = "no_skill_md"
            skill.issues.append(LoadIssue(kind="no_skill_md", path=SKILL_MD))
        return
    if md.text is None:
        skill.frontmatter_status = "undecodable"
        return
    status, fm, body, body_line, issue = parse_skill_text(md.text)
    skill.frontmatter_status = status
    skill.frontmatter = fm
    skill.body = body
    skill.body_start_line = body_line
    if issue is not None:
        skill.issues.append(issue)


def parse_skill_text(
    text: str,
) -> tuple[FrontmatterStatus, Frontmatter | None, str, int, LoadIssue | None]:
    """Split SKILL.md text into (status, frontmatter, body, body start line, issue)."""
    head = _frontmatter_head(text)
    if head is not None:
        return _parse_frontmatter(*head)
    lines = text.splitlines(keepends=True)
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        return "missing", None, "", 1, LoadIssue(kind="missing", path=SKILL_MD, line=1)
    if lines[first].rstrip("\r\n").rstrip() != "---":
        # A `---` later in the file that opens a YAML-looking block means the frontmatter
        # exists but is not at the very top.
        for i in range(first, min(len(lines), first + 40)):
            if lines[i].rstrip() == "---" and i + 1 < len(lines) and ":" in lines[i + 1]:
                return "not_top", None, text, 1, LoadIssue(kind="not_top", path=SKILL_MD, line=i + 1)
        return "missing", None, text, 1, LoadIssue(kind="missing", path=SKILL_MD, line=1)
    if first != 0:
        body = "".join(lines)
        return "not_top", None, body, 1, LoadIssue(kind="not_top", path=SKILL_MD, line=first + 1)
    close = next(
        (i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None
    )
    if close is None:
        return "unclosed", None, "", len(lines) + 1, LoadIssue(kind="unclosed", path=SKILL_MD, line=1)
    return _parse_frontmatter("".join(lines[1:close]), "".join(lines[close + 1 :]), close)


# Line breaks str.splitlines() honours besides "\n".
_ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _frontmatter_head(text: str) -> tuple[str, str, int] | None:
    """(frontmatter text, body, index of the closing line) when SKILL.md opens with `---` on
    its first line and closes it, found without splitting the whole file into lines; None
    for anything else (the general path decides)."""
    nl = text.find("\n")
    if nl < 0 or text[:nl].rstrip() != "---":
        return None
    start, close = nl + 1, 1
    while True:
        nl = text.find("\n", start)
        end = len(text) if nl < 0 else nl
        if text[start:end].rstrip() in ("---", "..."):
            break
        if nl < 0:
            return None
        start, close = nl + 1, close + 1
    body_at = end + 1 if nl >= 0 else end
    if any(c in text[:body_at] for c in _ODD_BREAKS):
        return None  # lines would split elsewhere than at "\n"
    return text[text.find("\n") + 1 : start], text[body_at:], close


def _parse_frontmatter(
    raw: str, body: str, close: int
) -> tuple[FrontmatterStatus, Frontmatter | None, str, int, LoadIssue | None]:
    body_line = close + 2
    fm = Frontmatter(raw=raw, start_line=1, end_line=close + 1)
    try:
        data = load_frontmatter(raw, _yaml()) if raw.strip() else None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 2) if mark is not None else 2
        col = (mark.column + 1) if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        return "invalid_yaml", fm, body, body_line, LoadIssue(
            kind="invalid_yaml", path=SKILL_MD, line=line, column=col, detail=str(problem)
        )
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:
        return "invalid_yaml", fm, body, body_line, LoadIssue(
            kind="invalid_yaml", path=SKILL_MD, line=2, detail=str(exc).splitlines()[0][:200]
        )
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "empty"
        return "not_mapping", fm, body, body_line, LoadIssue(
            kind="not_mapping", path=SKILL_MD, line=2, detail=kind
        )
    fm.data = data
    lc = getattr(data, "lc", None)
    for key in data:
        try:
            fm.key_lines[str(key)] = lc.key(key)[0] + 2 if lc is not None else 2
        except (KeyError, TypeError, AttributeError):
            fm.key_lines[str(key)] = 2
    return "ok", fm, body, body_line, None
