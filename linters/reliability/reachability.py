"""Files SKILL.md never points to (SF302-SF304): scripts and references an agent cannot find.

An agent reads SKILL.md and follows what it names. A script nobody mentions is never run; a
reference reached only through another reference is two hops away (the spec asks for one).
A file counts as mentioned when its path, its name, its Python module path or its own folder
appears as a path-like word of the text.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.text.literal_search import lowered
from linters.registry import check
from skillforge.models.findings import Finding
from skillforge.models.skill import SkillFile

_TEST_FILE = rx(
    r"(?:^|/)(?:tests?/|test_[^/]*$|[^/]*_test\.\w+$|conftest\.py$|[^/]*\.(?:test|spec)\.\w+$)"
)
_IMPORT_LINE = rx(
    r"^.*\b(?:import|from|require|source|include)\b.*$|^\s*\.\s+\S.*$", re.MULTILINE
)
_NAME = rx(r"[\w-]+")
# Extensionless files that live beside scripts but are not run by the agent.
_NOT_SCRIPTS = {"Makefile", "Dockerfile", "LICENSE", "README", "CODEOWNERS", "Gemfile", "Procfile"}
_IMAGE = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
_FAMILY = {".py": "py", ".js": "js", ".mjs": "js", ".cjs": "js", ".ts": "js", ".sh": "sh",
           ".bash": "sh", ".zsh": "sh", "": "sh"}


_PATH_WORD = rx(r"\w[\w./-]*")


class PathWords:
    """Every path-like word of a text, lower-cased, plus each of its trailing `/` parts:
    `{baseDir}/scripts/lib/run.py` gives scripts/lib/run.py, lib/run.py and run.py.

    Rules only ask whether a few file names are among them. A name is looked for in the
    text and checked where it occurs (`_word_at`), which is far cheaper than listing every
    word of a long reference; only a text asked about very often gets the full list."""

    __slots__ = ("_asked", "_low", "_text", "_words")

    # After this many questions, listing the words is the cheaper way to answer.
    SEARCHES = 100

    def __init__(self, text: str) -> None:
        # Lower-cased on the first question: a reference whose files are all reached
        # already is never asked one.
        self._text = text
        self._low: str | None = None
        self._words: frozenset[str] | None = None
        self._asked = 0

    def __contains__(self, key: str) -> bool:
        if self._words is not None:
            return key in self._words
        low = self._low
        if low is None:
            low = self._low = lowered(self._text)
        self._asked += 1
        if self._asked > self.SEARCHES:
            self._words = _all_path_words(low)
            return key in self._words
        pos = low.find(key)
        if pos < 0 or not key or key[-1] in "./-" or not all(map(_is_path_char, key)):
            return False  # a word ends with a name character and holds path characters only
        while pos >= 0:
            if _word_at(low, pos, len(key)):
                return True
            pos = low.find(key, pos + 1)
        return False


def _is_path_char(ch: str) -> bool:
    # `[\w./-]`, the characters of a path word (`\w` is str.isalnum() or "_").
    return ch.isalnum() or ch in "_./-"


def _word_at(low: str, pos: int, n: int) -> bool:
    """The `n` characters at `pos` are one of the path words `_all_path_words` lists."""
    # After it, up to the end of the run of path characters: only the `./-` a word drops.
    j = pos + n
    while j < len(low) and _is_path_char(low[j]):
        if low[j] not in "./-":
            return False
        j += 1
    # Before it, in the same run: a word character means it is a `/` part of a longer word
    # (so a "/" must precede it); none means it must start the word itself.
    i = pos - 1
    while i >= 0 and _is_path_char(low[i]):
        if low[i] not in "./-":
            return low[pos - 1] == "/"
        i -= 1
    return low[pos] == "_" or low[pos].isalnum()


def _all_path_words(low: str) -> frozenset[str]:
    out: set[str] = set()
    for tok in set(_PATH_WORD.findall(low)):
        tok = tok.rstrip("./-")
        out.add(tok)
        while "/" in tok:
            tok = tok.split("/", 1)[1]
            out.add(tok)
    return frozenset(out)


@lru_cache(maxsize=512)
def path_words(text: str) -> PathWords:
    """The path-like words of `text` (see PathWords), cached by text."""
    return PathWords(text)


def mentions(words: PathWords, f: SkillFile) -> bool:
    """The text behind `words` names the file: by path, file name, Python module path
    (`scripts.report`) or its own folder below the top (`scripts/lib/`). Case is ignored: an
    author who writes FORMS.md for forms.md meant it (SF116 reports the broken link)."""
    return any(key in words for key in _mention_keys(f.path))


@lru_cache(maxsize=4096)
def _mention_keys(path: str) -> tuple[str, ...]:
    path = path.lower()
    parent, _, name = path.rpartition("/")
    keys = [path, name]
    if name.endswith(".py"):
        keys.append(path[:-3].replace("/", "."))
    if "/" in parent:
        keys.append(parent)
    return tuple(keys)


def skill_md_words(ctx: LintContext) -> PathWords:
    """The path-like words of SKILL.md (frontmatter included)."""
    return path_words(ctx.skill_md_text)


def _direct_references(ctx: LintContext) -> list[SkillFile]:
    words = skill_md_words(ctx)
    return [f for f in ctx.skill.references if not f.is_dir and mentions(words, f)]


@check("SF302")
def unmentioned_scripts(ctx: LintContext) -> Iterator[Finding]:
    """Every script is reachable: named in SKILL.md or a reference it names, or used by such
    a script (import, require, source, or its file name in the code)."""
    scripts = [f for f in ctx.skill.scripts if not f.is_dir and not f.name.startswith(".")
               and not _TEST_FILE.search(f.path) and f.name.split(".")[0] not in _NOT_SCRIPTS]
    if not scripts:
        return
    texts = [skill_md_words(ctx)] + [path_words(f.text) for f in _direct_references(ctx) if f.text]
    reached = [f for f in scripts if any(mentions(t, f) for t in texts)]
    changed = True
    while changed:
        changed = False
        for f in scripts:
            if f not in reached and any(_uses(g, f) for g in reached):
                reached.append(f)
                changed = True
    unknown = {_FAMILY.get(g.suffix, g.suffix) for g in reached if g.text is None}
    for f in scripts:
        # A script we cannot read (not on disk) may import f: do not guess.
        if f in reached or f.name == "__init__.py" or _FAMILY.get(f.suffix, f.suffix) in unknown:
            continue
        runner = {".py": "python3 ", ".sh": "bash ", ".js": "node ", ".mjs": "node "}
        yield ctx.finding(
            "SF302",
            f"{f.path} is never mentioned in SKILL.md, so an agent will not know it exists; "
            f"say when to run it (for example `{runner.get(f.suffix, '')}{f.path} --help`) or "
            "delete it.",
            path=f.path,
        )


def _uses(user: SkillFile, f: SkillFile) -> bool:
    """`user`'s code names f's file, or imports/sources its module name."""
    if user is f or user.text is None:
        return False
    if f.name.lower() in path_words(user.text):
        return True
    return PurePosixPath(f.name).stem in _imported(user.text)


@lru_cache(maxsize=512)
def _imported(code: str) -> frozenset[str]:
    """Names on the import/require/source lines of a script."""
    return frozenset(w for m in _IMPORT_LINE.finditer(code) for w in _NAME.findall(m.group(0)))


def _reference_links(ctx: LintContext, doc_file: SkillFile) -> Iterator[tuple[int, SkillFile]]:
    """(line, reference) for each link or backticked path in a document to a reference."""
    if may_link_to_reference(ctx, doc_file):
        yield from _links_to_references(ctx, doc_file)


def may_link_to_reference(ctx: LintContext, doc_file: SkillFile) -> bool:
    """False when `_links_to_references` surely finds nothing, told without parsing: a
    target is a link or inline code, and one that resolves to a reference holds that
    reference's file name as written (targets are not unescaped; resolving only drops or
    pops folders)."""
    text = doc_file.text or ""
    if "[" not in text and "`" not in text:
        return False
    names = ctx.memo("reference names", lambda: sorted(
        {posixpath.basename(r.path) for r in ctx.skill.references}))
    if len(names) > _NAMES_SEARCHED:
        return True  # one search per name would cost more than the parse it may spare
    own = posixpath.basename(doc_file.path)
    return any(name in text for name in names if name != own or _twin(ctx, doc_file, own))


# Past this many reference names, parsing a document is cheaper than a search for each.
_NAMES_SEARCHED = 32


def _twin(ctx: LintContext, doc_file: SkillFile, name: str) -> bool:
    """Another reference has the same file name as `doc_file`."""
    return any(r is not doc_file and posixpath.basename(r.path) == name
               for r in ctx.skill.references)


def _links_to_references(ctx: LintContext, doc_file: SkillFile) -> Iterator[tuple[int, SkillFile]]:
    doc = ctx.doc(doc_file.path)
    if doc is None:
        return
    base = posixpath.dirname(doc_file.path)
    targets = [(ln.line, ln.target) for ln in doc.links if not ln.image]
    targets += [(s.line, s.text) for s in doc.inline_code if "." in s.text and " " not in s.text]
    for line, target in targets:
        target = target.split("#", 1)[0].split("?", 1)[0].strip()
        if not target or "://" in target or target.startswith(("mailto:", "/")):
            continue
        for cand in (_normalize(f"{base}/{target}"), _normalize(target)):
            ref = ctx.skill.file(cand) if cand else None
            if ref is not None and ref.kind == "reference" and ref is not doc_file:
                yield line, ref
                break


def _normalize(path: str) -> str | None:
    """A relative POSIX path with `.`, `..` and empty parts resolved; None above the root."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part and part != ".":
            parts.append(part)
    return "/".join(parts)


@check("SF303", "SF304")
def reference_reach(ctx: LintContext) -> Iterator[Finding]:
    """References sit one level below SKILL.md: named by it, not reached only via another."""
    refs = [f for f in ctx.skill.references if not f.is_dir]
    if not refs:
        return
    direct = _direct_references(ctx)
    direct_paths = {f.path for f in direct}
    via: set[str] = set()
    for doc_file in direct:
        if doc_file.suffix not in (".md", ".markdown", ".mdx") or doc_file.text is None:
            continue
        deeper: dict[str, int] = {}
        for line, ref in _reference_links(ctx, doc_file):
            via.add(ref.path)
            if ref.path not in direct_paths and ref.suffix not in _IMAGE:
                deeper.setdefault(ref.path, line)
        words = path_words(doc_file.text)
        # Only files not yet known to be reached need asking about.
        via.update(r.path for r in refs if r is not doc_file and r.path not in via
                   and r.path not in direct_paths and mentions(words, r))
        if deeper:
            names = list(deeper)
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            them = "them" if len(names) > 1 else "it"
            yield ctx.finding(
                "SF304",
                f"{doc_file.path} sends the agent on to {shown}, which SKILL.md never "
                f"mentions; link {them} from SKILL.md directly so every reference is one level "
                "deep.",
                path=doc_file.path,
                line=next(iter(deeper.values())),
            )
    # A data file a script loads (references/schema.json) is used without the agent reading it.
    for script in ctx.skill.scripts:
        if script.text is not None:
            words = path_words(script.text)
            via.update(r.path for r in refs if r.path not in via and r.path not in direct_paths
                       and mentions(words, r))
    for f in refs:
        if f.path in direct_paths or f.path in via:
            continue
        yield ctx.finding(
            "SF303",
            f"{f.path} is never mentioned in SKILL.md, so an agent will not read it; link it "
            "with a line saying when it is needed, or delete it.",
            path=f.path,
        )
