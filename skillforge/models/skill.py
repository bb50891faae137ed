"""A skill folder as a typed model (CONTRACTS.md section 1): its files, its frontmatter, its body.

Loading lives in `skillforge.models.skill_loader`; `load_skill` and `parse_skill_text` are
importable from here too. Loading never raises on bad content: a missing SKILL.md, broken
frontmatter, undecodable bytes or unreadable files are recorded as `LoadIssue`s, which the
correctness linter turns into findings.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

from ruamel.yaml.comments import TaggedScalar

if TYPE_CHECKING:
    from skillforge.models.skill_loader import load_skill, parse_skill_text

__all__ = [
    "JUNK_DIRS", "MAX_TEXT_BYTES", "SCRIPT_SUFFIXES", "SKILL_MD", "SKIP_DIRS", "TEXT_SUFFIXES",
    "FileKind", "Frontmatter", "FrontmatterStatus", "LoadIssue", "Skill", "SkillFile",
    "classify", "load_skill", "parse_skill_text", "plain", "stem_suffix",
]

SKILL_MD = "SKILL.md"
# Files over this size are inventoried (size, hash) but their text is not kept: linting a
# 50 MB asset line by line helps nobody, and SF404 already reports it.
MAX_TEXT_BYTES = 1024 * 1024
# Folders that are never part of a skill's content. Junk folders are still inventoried as
# one entry each so SF405 can report them, but nothing below them is read.
SKIP_DIRS = {".git", ".hg", ".svn", ".skillforge"}
JUNK_DIRS = {"__pycache__", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

TEXT_SUFFIXES = {
    ".md", ".markdown", ".txt", ".rst", ".json", ".jsonl", ".yaml", ".yml", ".toml", ".ini",
    ".cfg", ".csv", ".tsv", ".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts",
    ".tsx", ".jsx", ".rb", ".pl", ".r", ".go", ".rs", ".java", ".kt", ".swift", ".c", ".h",
    ".cpp", ".hpp", ".cs", ".php", ".lua", ".sql", ".html", ".htm", ".css", ".scss", ".xml",
    ".svg", ".tex", ".sty", ".bib", ".env", ".example", ".tmpl", ".j2", ".jinja", ".ps1",
    ".bat", ".cmd", ".dot", ".mdx", ".ipynb",
}
SCRIPT_SUFFIXES = {
    ".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".r", ".ps1",
    ".bat", ".cmd", ".lua", ".php", ".go", ".swift", "",
}

FileKind = Literal["skill_md", "script", "reference", "asset", "eval", "doc", "other"]
FrontmatterStatus = Literal[
    "ok", "no_skill_md", "undecodable", "missing", "not_top", "unclosed", "invalid_yaml",
    "not_mapping",
]


@dataclass(kw_only=True)
class SkillFile:
    """One file of the skill, by its POSIX path relative to the skill root."""

    path: str
    size: int
    sha256: str | None = None
    kind: FileKind = "other"
    executable: bool = False
    # False for files known to exist but not on this disk (for example the corpus lists
    # code files it did not copy). Their names count for link checks; there is no text.
    present: bool = True
    binary: bool = False
    is_dir: bool = False
    text: str | None = field(default=None, repr=False)
    raw: bytes | None = field(default=None, repr=False)
    decode_error: str | None = None
    read_error: str | None = None
    bom: bool = False

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def suffix(self) -> str:
        # String operations, not PurePosixPath: rules call this in tight loops.
        name = self.name
        dot = name.rfind(".")
        return name[dot:].lower() if dot > 0 else ""

    @property
    def top(self) -> str:
        """The first path component ("scripts" for "scripts/run.py")."""
        return self.path.split("/", 1)[0]

    def lines(self) -> list[str]:
        return self.text.splitlines() if self.text is not None else []


@dataclass(kw_only=True)
class LoadIssue:
    """Something the loader could not make sense of; the linters turn it into a finding."""

    kind: FrontmatterStatus | Literal["bom", "unreadable", "not_utf8"]
    path: str
    line: int | None = None
    column: int | None = None
    detail: str = ""


def plain(value: Any) -> Any:
    """`value` with an explicit `!!str` tag unwrapped (ruamel keeps it as a TaggedScalar)."""
    if isinstance(value, TaggedScalar) and str(value.tag) == "tag:yaml.org,2002:str":
        return str(value.value)
    return value


@dataclass(kw_only=True)
class Frontmatter:
    """The YAML block at the top of SKILL.md, kept in ruamel's round-trip form."""

    raw: str = ""
    # 1-based line numbers in SKILL.md of the opening and closing `---`.
    start_line: int = 1
    end_line: int | None = None
    data: Any = field(default=None, repr=False)
    key_lines: dict[str, int] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        if isinstance(self.data, dict):
            return plain(self.data.get(key, default))
        return default

    def line_of(self, key: str) -> int | None:
        return self.key_lines.get(key)


@dataclass(kw_only=True)
class Skill:
    """A loaded skill folder: SKILL.md split into frontmatter and body, plus its files."""

    root: Path
    files: list[SkillFile] = field(default_factory=list)
    frontmatter: Frontmatter | None = None
    frontmatter_status: FrontmatterStatus = "ok"
    body: str = ""
    # 1-based line in SKILL.md where the body starts.
    body_start_line: int = 1
    issues: list[LoadIssue] = field(default_factory=list)
    # Relative paths of nested skills' files: they belong to their own skill, but links
    # into them are not broken.
    nested_paths: set[str] = field(default_factory=set)

    @property
    def folder_name(self) -> str:
        return self.root.name

    @property
    def skill_md(self) -> SkillFile | None:
        return self.file(SKILL_MD)

    @property
    def name(self) -> str | None:
        value = self.frontmatter.get("name") if self.frontmatter else None
        return value if isinstance(value, str) else None

    @property
    def description(self) -> str | None:
        value = self.frontmatter.get("description") if self.frontmatter else None
        return value if isinstance(value, str) else None

    @property
    def display_name(self) -> str:
        return self.name or self.folder_name

    def file(self, path: str) -> SkillFile | None:
        return self._index().get(path)

    def exists(self, path: str) -> bool:
        """True when `path` (relative, POSIX) is a file or folder of the skill."""
        path = path.strip("/")
        if not path or path == ".":
            return True
        if path in self._index() or path in self.nested_paths:
            return True
        return path in self._folders()

    def of_kind(self, kind: FileKind) -> list[SkillFile]:
        return [f for f in self.files if f.kind == kind]

    @property
    def scripts(self) -> list[SkillFile]:
        return self.of_kind("script")

    @property
    def references(self) -> list[SkillFile]:
        return self.of_kind("reference")

    def _index(self) -> dict[str, SkillFile]:
        idx = self.__dict__.get("_idx")
        if idx is None or len(idx) != len(self.files):
            idx = {f.path: f for f in self.files}
            self.__dict__["_idx"] = idx
        return idx

    def _folders(self) -> set[str]:
        """Every `a`, `a/b` that a file (or nested skill's file) path runs through: the paths
        P with some path starting with P + "/". Made once, not a scan of every path per
        question (rules ask about many paths that are not files)."""
        key = (len(self.files), len(self.nested_paths))
        cached = self.__dict__.get("_dirs")
        if cached is None or cached[0] != key:
            dirs: set[str] = set()
            for p in (*self._index(), *self.nested_paths):
                cut = p.find("/")
                while cut >= 0:
                    dirs.add(p[:cut])
                    cut = p.find("/", cut + 1)
            cached = self.__dict__["_dirs"] = (key, dirs)
        return cached[1]

    def content_hash(self) -> str:
        """sha256 over every file's path and hash: the identity of this version of the skill."""
        h = hashlib.sha256()
        for f in sorted(self.files, key=lambda f: f.path):
            h.update(f.path.encode())
            h.update(b"\0")
            h.update((f.sha256 or "").encode())
            h.update(b"\n")
        return h.hexdigest()


def stem_suffix(path: str) -> tuple[str, str]:
    """PurePosixPath(path)'s (stem, suffix), by string operations for clean relative paths
    (the loader classifies every file, and pathlib is slow)."""
    if "//" in path or "/." in path or path.startswith("./") or path.endswith("/") or path in (".", ".."):
        p = PurePosixPath(path)
        return p.stem, p.suffix
    name = path.rsplit("/", 1)[-1]
    i = name.rfind(".")
    if 0 < i < len(name) - 1:
        return name[:i], name[i:]
    return name, ""


def classify(path: str) -> FileKind:
    """Which part of a skill a relative path belongs to, by the spec's folder conventions."""
    if path == SKILL_MD:
        return "skill_md"
    parts = path.split("/")
    top = parts[0]
    stem, suffix = stem_suffix(path)
    suffix = suffix.lower()
    if top == "evals":
        return "eval"
    if top == "scripts":
        return "script" if suffix in SCRIPT_SUFFIXES else "asset"
    if top in ("references", "reference"):
        return "reference"
    if top in ("assets", "templates"):
        return "asset"
    if len(parts) == 1 and suffix in (".md", ".markdown", ".mdx"):
        upper = stem.upper()
        if upper.startswith(("README", "LICENSE", "CHANGELOG", "CONTRIBUTING", "NOTICE")) or upper in (
            "AGENTS", "CLAUDE", "GEMINI"
        ) or "LOG" in upper.split("-"):
            # Docs for humans or for other harnesses, not on-demand parts of the skill.
            return "doc"
        # Top-level Markdown beside SKILL.md (FORMS.md, reference.md) is a reference in the
        # progressive-disclosure sense: read on demand, linked from SKILL.md.
        return "reference"
    return "other"


def __getattr__(name: str) -> Any:
    # `load_skill` and `parse_skill_text` live in skill_loader, which imports this module:
    # resolved on first use, so either module can be imported first.
    if name in ("load_skill", "parse_skill_text"):
        from skillforge.models import skill_loader

        return getattr(skill_loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
