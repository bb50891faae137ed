"""What a check sees: the loaded skill, the config, and parsed documents cached per run."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cached_property
from typing import TypeVar

from linters.text.anchor_index import AnchorIndex, file_bytes
from linters.text.literal_search import folds_safely
from linters.text.markdown import MarkdownDoc
from linters.registry import rule
from skillforge.models.lint_config import LintConfig
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import Skill, SkillFile

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")

T = TypeVar("T")


class LintContext:
    """One lint pass over one skill. Parsed Markdown is cached so rules share the work."""

    def __init__(self, skill: Skill, config: LintConfig | None = None) -> None:
        self.skill = skill
        self.config = config or LintConfig()
        self._docs: dict[str, MarkdownDoc] = {}
        self._anchors: dict[str, AnchorIndex] = {}
        self._memo: dict[Hashable, object] = {}

    def finding(
        self,
        rule_id: str,
        message: str,
        path: str | None = "SKILL.md",
        line: int | None = None,
        column: int | None = None,
        *,
        severity: Severity | None = None,
        source: str = "skillforge",
        code: str | None = None,
    ) -> Finding:
        r = rule(rule_id)
        return Finding(
            rule=rule_id,
            category=r.category,
            severity=severity or r.severity,
            message=message,
            path=path,
            line=line,
            column=column,
            source=source,
            code=code,
        )

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()` once per lint pass: derived data several rules (or the score) need."""
        try:
            return self._memo[key]  # type: ignore[return-value]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # --- documents --------------------------------------------------------------------

    @cached_property
    def body(self) -> MarkdownDoc:
        """SKILL.md's body, with line numbers as in SKILL.md."""
        return MarkdownDoc(self.skill.body, self.skill.body_start_line)

    def doc(self, path: str) -> MarkdownDoc | None:
        """A Markdown file of the skill, parsed once; SKILL.md gives its body."""
        if path == "SKILL.md":
            return self.body
        if path not in self._docs:
            f = self.skill.file(path)
            if f is None or f.text is None:
                return None
            self._docs[path] = MarkdownDoc(f.text)
        return self._docs[path]

    def anchors(self, f: SkillFile) -> AnchorIndex:
        """The declared needles' places in a file (linters.text.anchor_index), found once per pass
        for every rule that asks."""
        index = self._anchors.get(f.path)
        if index is None:
            # The file's own bytes, unless they did not decode as UTF-8 (replaced bytes, NULs,
            # UTF-16): then the text's.
            raw = f.raw if f.raw is not None and f.decode_error is None else None
            index = self._anchors[f.path] = AnchorIndex(file_bytes(f.text or "", raw))
        return index

    def markdown_files(self) -> list[SkillFile]:
        """Markdown files that are part of the skill's instructions (not evals, not docs)."""
        return [
            f
            for f in self.skill.files
            if f.text is not None
            and f.suffix in MARKDOWN_SUFFIXES
            and f.kind in ("skill_md", "reference", "asset", "other")
        ]

    def text_files(self) -> list[SkillFile]:
        """Every decoded text file except evaluation assets (never shown to the agent)."""
        return [f for f in self.skill.files if f.text is not None and f.kind != "eval"]

    @cached_property
    def skill_md_text(self) -> str:
        md = self.skill.skill_md
        return md.text if md is not None and md.text is not None else ""

    @cached_property
    def body_low(self) -> str:
        """SKILL.md's body lower-cased, shared by the rules that look for words in it."""
        return self.skill.body.lower()

    @cached_property
    def heading_texts(self) -> tuple[str, ...]:
        """The texts of SKILL.md's body headings."""
        return tuple(h.text for h in self.body.headings)

    @cached_property
    def heading_lows(self) -> tuple[str, ...] | None:
        """`heading_texts` lower-cased, or None when that would not find what a
        case-insensitive search finds (see linters.text.literal_search.folds_safely)."""
        lows = tuple(t.lower() for t in self.heading_texts)
        if all(folds_safely(t, low) for t, low in zip(self.heading_texts, lows)):
            return lows
        return None

    @cached_property
    def frontmatter_ok(self) -> bool:
        return self.skill.frontmatter_status == "ok"

    def fm_line(self, key: str) -> int | None:
        fm = self.skill.frontmatter
        return fm.line_of(key) if fm is not None else None
