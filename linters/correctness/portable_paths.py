"""Portable paths (SF122, SF123): no Windows separators, no paths from the author's machine."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.correctness.link_gates import link_target_starts
from linters.text.paths.path_refs import CONVENTIONAL_DIRS, DRIVE, MD_ESCAPE, SCHEME
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import hedged, line_col
from linters.registry import check
from skillforge.models.findings import Finding
from skillforge.models.skill import Skill

_BACKSLASH_PATH = rx(
    r"(?<![\w\\:.%$-])(?:\.{1,2}\\)?(?:[\w.-]++\\)+[\w-][\w.-]*\.[A-Za-z0-9]{1,8}\b"
)
_WINDOWS_FENCES = {"powershell", "ps1", "pwsh", "bat", "cmd", "batch", "dos", "ps"}

# `/Users/alice/...`, `/home/bob/...`, `C:\Users\carol\...` (also as file:// URLs).
_HOME_PATH = rx(
    r"(?<![\w.~$%-])(?:/Users/|/home/|/mnt/[a-z]/Users/|[A-Za-z]:(?:\\{1,2}|/)Users(?:\\{1,2}|/))"
    r"(?P<user>[A-Za-z0-9][\w.-]*)(?=[\\/\s\"'`)\]>:,;]|$)"
)
# Every match holds one of these (lower-cased here): a file without any is not searched.
_HOME_ANCHORS = declare(b"/home/", b"users/", b"users\\")
# User names that are placeholders or generic container/CI accounts, not somebody's laptop.
GENERIC_USERS = frozenset({
    "user", "username", "user-name", "user_name", "users", "you", "your", "yourname",
    "your-name", "your_name", "yourusername", "your-username", "your_username", "youruser",
    "me", "myuser", "myname", "name", "example", "someone", "somebody", "foo", "bar", "test",
    "tester", "demo", "guest", "default", "shared", "public", "runner", "ubuntu", "ec2-user",
    "node", "vscode", "codespace", "codespaces", "jovyan", "admin", "dev", "developer", "app",
    "pi", "root", "jdoe", "johndoe", "janedoe", "john.doe", "jane.doe", "john-doe", "jane-doe",
    "xxx", "xxxx",
})

_HTTP_VERB = rx(r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD)\s+\S*$")
_ID_LIKE = rx(r"[0-9a-fA-F-]{8,}|\d+")


def _real_user(user: str) -> bool:
    """A user name that is somebody's, not a placeholder, a service account or an id."""
    return user.lower() not in GENERIC_USERS and not _ID_LIKE.fullmatch(user)

_PATH_END = rx(r"[\s\"'`)\]>,;]")


# --- SF122 backslashes ---------------------------------------------------------------------


@check("SF122")
def backslash_paths(ctx: LintContext) -> Iterator[Finding]:
    """Windows-style paths to the skill's own files, in links, inline code, prose or commands."""
    heads: tuple[str, ...] | None = None
    for f in ctx.markdown_files():
        # Looked for in the file's text first: a file without a backslash is never parsed.
        text = f.text or ""
        if "\\" not in text:
            continue
        if heads is None:
            tops = {sf.path.split("/", 1)[0] for sf in ctx.skill.files if "/" in sf.path}
            heads = (".\\", *(t + "\\" for t in sorted(tops | set(CONVENTIONAL_DIRS))))
        # Nor is one where no word names a folder of the skill with a backslash after it and
        # no link target holds a backslash (most backslashes are escapes in code).
        if not _head_before_backslash(text, heads) and not any(
                "\\" in t for t in link_target_starts(text)):
            continue
        doc = ctx.doc(f.path)
        if doc is None or "\\" not in doc.text:
            continue
        reported: set[int] = set()
        for link in doc.links:
            if "\\" not in link.target:
                continue
            t = MD_ESCAPE.sub(r"\1", link.target)
            if "\\" in t and not DRIVE.match(t) and not SCHEME.match(t):
                reported.add(link.line)
                yield _backslash(ctx, f.path, link.line, link.column, link.target)
        for no, line in _lines_with(doc, "\\"):
            if no in reported:
                continue
            in_code = doc.is_code(no)
            if in_code and _fence_lang(doc, no) in _WINDOWS_FENCES:
                continue
            hit = _backslash_token(ctx.skill, line, in_code, heads)
            if hit is not None:
                yield _backslash(ctx, f.path, no, hit[0] + 1, hit[1])


def _head_before_backslash(text: str, heads: tuple[str, ...]) -> bool:
    """Some head (`scripts\\`, `.\\`, ...) occurs in `text`: looked for at the backslashes
    when they are few (one search per head otherwise)."""
    if text.count("\\", 0, len(text)) > _BACKSLASHES_VISITED:
        return any(h in text for h in heads)
    pos = text.find("\\")
    while pos >= 0:
        if text.endswith(heads, 0, pos + 1):
            return True
        pos = text.find("\\", pos + 1)
    return False


_BACKSLASHES_VISITED = 64


def _backslash_token(
    skill: Skill, line: str, in_code: bool, heads: tuple[str, ...]
) -> tuple[int, str] | None:
    """(offset, path) of the first backslash path into the skill on a line, if any."""
    # Word by word, and only words naming one of the skill's folders: lines with
    # backslashes are often long escaped JSON, where a regex over everything is slow.
    for word in _words_with_backslash(line):
        if not any(h in word for h in heads):
            continue
        token = word.strip("`'\"()[]<>,;:*")
        code = in_code or word.startswith("`")
        text = token if code else MD_ESCAPE.sub(r"\1", token)
        m = _BACKSLASH_PATH.search(text)
        if m is None or not _points_into_skill(skill, m.group(0)):
            continue
        offset = line.find(token)
        if not hedged(line, offset):
            return offset, m.group(0)
    return None


def _lines_with(doc: MarkdownDoc, needle: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of each line of `doc` that contains `needle`."""
    text = doc.text
    pos = text.find(needle)
    idx = last = 0
    while pos >= 0 and idx < len(doc.lines):
        idx += text.count("\n", last, pos)
        last = pos
        if idx < len(doc.lines):
            yield idx + doc.first_line, doc.lines[idx]
        end = text.find("\n", pos)
        pos = text.find(needle, end) if end >= 0 else -1


def _fence_lang(doc: MarkdownDoc, line_no: int) -> str:
    for fence in doc.fences:
        if fence.start <= line_no and (fence.end is None or line_no <= fence.end):
            return fence.lang
    return ""


def _words_with_backslash(line: str) -> Iterator[str]:
    pos = line.find("\\")
    while pos >= 0:
        start = line.rfind(" ", 0, pos) + 1
        end = line.find(" ", pos)
        end = len(line) if end < 0 else end
        yield line[start:end]
        pos = line.find("\\", end)


def _points_into_skill(skill: Skill, raw: str) -> bool:
    path = raw.replace("\\", "/")
    bare = path.lstrip("./")
    return bare.split("/", 1)[0] in CONVENTIONAL_DIRS or skill.exists(posixpath.normpath(path))


def _backslash(ctx: LintContext, path: str, line: int, column: int | None, raw: str) -> Finding:
    fixed = raw.replace("\\", "/")
    return ctx.finding(
        "SF122",
        f"`{raw}` uses backslashes; write `{fixed}`, since forward slashes work on every "
        "platform and backslashes break on macOS and Linux.",
        path=path,
        line=line,
        column=column,
    )


# --- SF123 machine-specific paths ----------------------------------------------------------


def _home_paths(text: str) -> Iterator[re.Match[str]]:
    """`_HOME_PATH.finditer(text)`, trying the regex only where a match can start: its
    look-behind start makes `re` try every character of the file otherwise. Each match
    starts at "/Users/", "/home/" or "/mnt/", or at a drive letter 3 or 4 characters before
    "Users" (`C:\\Users`, `C:/Users`, `C:\\\\Users`)."""
    starts: set[int] = set()
    for literal in ("/Users/", "/home/", "/mnt/"):
        pos = text.find(literal)
        while pos >= 0:
            starts.add(pos)
            pos = text.find(literal, pos + 1)
    pos = text.find("Users")
    while pos >= 0:
        starts.update(s for s in (pos - 3, pos - 4) if s >= 0)
        pos = text.find("Users", pos + 1)
    end = 0
    for start in sorted(starts):
        if start < end:
            continue  # inside the previous match, as finditer goes on from its end
        m = _HOME_PATH.match(text, start)
        if m is not None:
            end = m.end()
            yield m


@check("SF123")
def machine_paths(ctx: LintContext) -> Iterator[Finding]:
    """Home-directory paths of a real user (`/Users/alice/...`) in any file the agent sees."""
    for f in ctx.text_files():
        text = f.text or ""
        if not ctx.anchors(f).held(_HOME_ANCHORS):
            continue  # (lower-cased, in the pass every file gets: "Users/" as "users/")
        last_line = 0
        for m in _home_paths(text):
            if not _real_user(m.group("user")):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _HTTP_VERB.search(text, line_start, m.start()):
                continue  # `GET /Users/2819c223`: a REST resource (SCIM), not a folder
            idx, col = line_col(text, m.start())
            if idx + 1 == last_line:
                continue
            last_line = idx + 1
            shown = _PATH_END.split(text[m.start():m.start() + 80], maxsplit=1)[0]
            yield ctx.finding(
                "SF123",
                f"`{shown}` is a path on the author's machine (user `{m.group('user')}`); use a "
                "path relative to the skill or the working directory, or `~`/`$HOME`, so it "
                "works for everyone.",
                path=f.path,
                line=idx + 1,
                column=col,
            )
