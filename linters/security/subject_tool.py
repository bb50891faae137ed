"""SF513 and the skill's subject (issue 36): the package a skill is about.

An unpinned package run hands the user's data to whatever version the registry serves. When
that package is the very tool the skill is about (its name, description or title names it:
an `mcp-use` client skill running `npx mcp-use client ...`, a `scan-for-secrets` skill
running `uvx scan-for-secrets`), the run is the tool's documented use, at the user's
request; pinning it is hygiene, so the finding is medium. A run that sends the data on (an
upload verb, a network client on the same command) or auto-confirms (`--yes`) stays high:
that is what the skill does with the data, whatever it is about.

A runner word followed by an English word in prose ("shipped via uvx or a bootstrap
script") names the runner; it runs no package called `or`.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from skillforge.models.skill import Skill

# The words of a sentence that can follow a runner's name without being a package.
ENGLISH_WORDS = frozenset({
    "a", "an", "and", "or", "nor", "but", "the", "to", "with", "without", "via", "for", "from",
    "in", "into", "on", "of", "as", "at", "by", "is", "are", "was", "be", "it", "its", "if",
    "then", "than", "that", "this", "these", "those", "which", "when", "where", "while",
    "instead", "also", "only", "not", "so", "first", "again", "directly", "itself",
})

# What sends the data on: an upload verb as the package's command, a network client or a
# remote shell later on the command line.
_SENDS_ON = rx(
    r"\s(?:upload|send|submit|share|post|publish|report|export|sync|push)\b"
    r"|\b(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|mail|sendmail|"
    r"invoke-webrequest|invoke-restmethod)\b",
    re.IGNORECASE,
)
_CONFIRMS = rx(r"(?:^|\s)(?:-y|--yes|--force|--no-confirm|--assume-yes)\b", re.IGNORECASE)


def own_package(name: str, opts: str, rest: str) -> str:
    """The package `name` a run may hand the data to as the skill's own tool, or "": not
    when the run's options auto-confirm (`npx --yes`) or the command after the package
    (`rest`, to the end of the command line) confirms or sends the data on."""
    if _CONFIRMS.search(opts) or _CONFIRMS.search(rest) or _SENDS_ON.search(rest):
        return ""
    return name


# A first-level heading of SKILL.md's body: the skill's title.
_TITLE = rx(r"^#\s+(.+)$", re.MULTILINE)


def subject_text(skill: Skill, skill_md: str) -> str:
    """The words by which a skill states what it is about: its name (and folder), its
    description and its title (the first `# ` heading of SKILL.md)."""
    parts: list[str] = []
    fm = skill.frontmatter
    if fm is not None:
        parts.extend(str(v) for v in (fm.get("name"), fm.get("description")) if v)
    parts.append(skill.folder_name or "")
    title = _TITLE.search(skill_md)
    if title:
        parts.append(title.group(1))
    return " ".join(parts).lower()


def names_package(subject: str, package: str) -> bool:
    """The subject text names `package` as a word (`mcp-use` in "build-mcp-use-client" and
    "the mcp-use SDK"); for a scoped package (`@acme/deploy-cli`) its scope and name
    together or its distinctive name. Short or generic names never count."""
    low = package.lower().strip("'\"")
    candidates = {low}
    if low.startswith("@") and "/" in low:
        scope, base = low[1:].split("/", 1)
        candidates |= {f"{scope}/{base}", base if base not in _GENERIC else ""}
    return any(len(c) >= 4 and c not in _GENERIC and re.search(
        rf"(?<![\w.@/]){re.escape(c)}(?![\w])", subject) for c in candidates if c)


# Package names that say nothing about which tool they are.
_GENERIC = frozenset({"cli", "core", "server", "client", "tool", "tools", "sdk", "app", "node",
                      "create", "init", "run", "mcp", "test", "dev", "build", "utils"})
