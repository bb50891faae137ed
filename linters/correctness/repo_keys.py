"""SF112: a frontmatter key that the skill's own repository documents as its harness's
extension (issue 36, holdout16).

A repository that is itself a harness (an agent application with a skill loader) may add a
key to the SKILL.md format and document it beside the spec's: a Markdown document at the
repository's top or in its `docs/` shows a frontmatter sample (`name:`, `description:`, then
`targets: [...]   # AI-REO extension: which agents receive this skill`) or a field table
(`| targets | No (AI-REO extension) | ... |`). Such a key does something real in that
repository's harness, as a key Claude Code documents does in Claude Code, so it is a warning
naming the document. The line or row that documents the key must say it is an extension or
that a loader reads it: many skill collections document a schema of their own (`tags`,
`domain`, `author` next to name and description in CONTRIBUTING.md) that no harness reads,
and those keys stay errors (readers of every part labelled them true).

The same holds for a line of prose that lists the SKILL.md frontmatter (holdout31): it says
"frontmatter", names `name` and `description` in code spans, and shows the key with its value
(`` `slash: true` ``) in a sentence naming the harness as what reads it ("Add `slash: true`
when the skill is meant to be typed as `/<name>` in OpenCode v2.", "which is how OpenCode v2
decodes it"); a sentence saying the harness ignores or rejects the key or fails on it, or that
names a harness only in passing, documents nothing, and a prose line that names no harness is
the collection's own schema, an error as above. A validator script's list of allowed keys is not
read: it says what the repository accepts, not that anything reads the key.

The documents are looked for in the folders above the skill, up to the repository's top (a
folder holding `.git`) and at most four levels up (`<repo>/plugins/<p>/skills/<skill>/`), and
never in the user's home folder (`repo_docs.documents_above`). A copied skill whose
repository is not on disk keeps its error.
"""

from __future__ import annotations

import re
from pathlib import Path

from linters.correctness.harness_keys import documented_under_metadata
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.repo_docs import documents_above

_FENCE = rx(r"^\s{0,3}(`{3,}|~{3,})")
# The documenting line or row says the key is the harness's own: "AI-REO extension",
# "extension field", "read by the skill loader".
_EXTENSION = rx(r"\bextensions?\b|\bloader\b", re.IGNORECASE)
# A section of its own about the skill frontmatter holds a sample of keys; the document then
# says in so many words that a named agent harness's router or loader reads the key:
# "**Pi:** a local router maps `model-tier` to configured candidates". A repository's own
# search index or build script that reads its fields ("the MCP skill-router indexer builds
# embedding documents from these fields") names no harness: those keys are its own schema,
# which readers of every part labelled true.
_FRONTMATTER = rx(r"\bfront[- ]?matter\b", re.IGNORECASE)
_READER = rx(r"\brouters?\b|\bloaders?\b|\bextensions?\b", re.IGNORECASE)
_HARNESSES = (r"(?:Claude\s+Code|Codex|Gemini\s+CLI|[Oo]pen[Cc]ode|Copilot|Cursor|Pi|Hermes"
              r"|OpenClaw|Goose|Amp|Cline|Windsurf|Kiro|Aider|Crush)")
_HARNESS = rx(r"\b" + _HARNESSES + r"\b")


# A prose line about the frontmatter: its code spans (`name:`, `description`, `slash: true`)
# and its sentences. The sentence showing the key names a harness as what reads it ("typed as
# `/<name>` in OpenCode v2", "how OpenCode v2 decodes it", "read by Goose"), not as one it
# fails in or that ignores it; a harness merely named in the sentence is not enough (a
# project's notes: "would have caught ... lowercase `type: workflow` ... (those two files
# silently fail to register as Claude Code agents)", holdout15).
_CODE_SPAN = rx(r"`([^`\n]+)`")
_SENTENCE_END = rx(r"(?<=[.;!?])\s+")
_READ_BY_HARNESS = rx(
    r"\b(?:in|by|for)\s+" + _HARNESSES + r"\b"
    r"|\b" + _HARNESSES + r"(?:\s+v?\d[\w.]*)?\s+(?:reads?|decodes?|parses?|uses?|resolves?"
    r"|loads?|honou?rs?|supports?|understands?|recogni[sz]es?)\b")
_DENIED = rx(r"\b(?:ignores?|ignored|does\s+not|doesn't|don't|never|unknown|unsupported"
             r"|rejects?|rejected|fails?|failed)\b", re.IGNORECASE)


def _key_line(key: str) -> re.Pattern[str]:
    return re.compile(r"^" + re.escape(key) + r"\s*:")


def _row_key(line: str) -> str | None:
    """The first cell of a Markdown table row, without backticks or bold (`| `name` | ...`)."""
    m = re.match(r"^\s*\|\s*([`*]*)([\w.-]+)\1\s*\|", line)
    return m.group(2) if m else None


def _blocks(lines: list[str]) -> list[list[str]]:
    """The lines of each fenced code block."""
    found: list[list[str]] = []
    current: list[str] | None = None
    fence = ""
    for line in lines:
        m = _FENCE.match(line)
        if current is None and m:
            current, fence = [], m.group(1)
        elif current is not None and m and m.group(1).startswith(fence[0] * len(fence)):
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def documenting_line(text: str, key: str) -> str | None:
    """The line of a Markdown document that documents `key` as a SKILL.md frontmatter key
    of a harness (a frontmatter sample in a code block with `name:` and `description:`, or a
    field table with rows for both), saying it is an extension or that a loader reads it;
    None if the document does not."""
    lines = text.splitlines()
    own = _key_line(key)
    for block in _blocks(lines):
        keys = {m.group(1) for m in (re.match(r"^([\w.-]+)\s*:", ln) for ln in block) if m}
        if {"name", "description"} <= keys:
            for line in block:
                if own.match(line) and _EXTENSION.search(line):
                    return line.strip()
    rows = {_row_key(line) for line in lines}
    if {"name", "description"} <= rows:
        for line in lines:
            if _row_key(line) == key and _EXTENSION.search(line):
                return line.strip()
    if key in _frontmatter_section_keys(lines):
        named = f"`{key}`"
        for line in lines:
            if named in line and _READER.search(line) and _HARNESS.search(line):
                return line.strip()
    return _prose_sentence(lines, key)


def _prose_sentence(lines: list[str], key: str) -> str | None:
    """The sentence of a prose line listing the SKILL.md frontmatter (it says "frontmatter"
    and names `name` and `description` in code spans) that shows `key` with a value in a code
    span and names the harness reading it (`_READ_BY_HARNESS`), not denying it does; None if
    there is none."""
    shown = re.compile(r"`" + re.escape(key) + r"\s*:[^`]*`")
    if not any(shown.search(line) for line in lines):
        return None  # most documents: no code block parse
    for _no, line in MarkdownDoc("\n".join(lines)).prose_lines():
        if not (_FRONTMATTER.search(line) and shown.search(line)):
            continue
        named = {m.group(1).split(":")[0].strip() for m in _CODE_SPAN.finditer(line)}
        if not {"name", "description"} <= named:
            continue
        for sentence in _SENTENCE_END.split(line):
            if (shown.search(sentence) and _READ_BY_HARNESS.search(sentence)
                    and not _DENIED.search(sentence)):
                return sentence.strip()
    return None


def _frontmatter_section_keys(lines: list[str]) -> set[str]:
    """The keys of the code blocks under a heading about skill frontmatter ("## Skill
    frontmatter", then "Every active shared skill declares:" and a YAML sample that holds
    only the repository's own keys)."""
    keys: set[str] = set()
    heading = ""
    fence = ""
    for line in lines:
        m = _FENCE.match(line)
        if not fence and m:
            fence = m.group(1)
        elif fence and m and m.group(1).startswith(fence[0] * len(fence)):
            fence = ""
        elif fence:
            if _FRONTMATTER.search(heading) and (k := re.match(r"^([\w.-]+)\s*:", line)):
                keys.add(k.group(1))
        elif line.startswith("#"):
            heading = line
    return keys


def _markdown_doc(name: str) -> bool:
    return name.lower().endswith(".md") and name.upper() != "SKILL.MD"


def repository_docs(root: Path) -> list[tuple[str, str]]:
    """(path relative to the folder it was found in, text) of every Markdown document in the
    folders above the skill at `root` and their `docs/`, nearest first: listed and read once
    per lint, however many of the skill's keys are looked up in them."""
    return list(documents_above(root, _markdown_doc, ("docs",)))


def documented_by_repository(docs: list[tuple[str, str]], key: str) -> tuple[str, str] | None:
    """(the document and its documenting line) for a key the skill's own repository documents
    as its harness's extension (`docs` from `repository_docs`), or None."""
    for rel, text in docs:
        line = documenting_line(text, key)
        if line is not None:
            return rel, line
    return None


def repository_key(key: str, doc: str, shown: str) -> str:
    """SF112's warning for a key the skill's repository documents (`documented_by_repository`);
    the documenting line is shown without its code marks, which the message's quoting would
    break."""
    line = " ".join(shown.replace("`", "").split())
    line = line if len(line) <= 100 else line[:97].rstrip() + "..."
    return (f"`{key}` is not in the Agent Skills spec: this skill's repository documents it in "
            f"{doc} as a frontmatter key of the harness it is written for (`{line}`), but other "
            "harnesses ignore it and strict validators reject the skill, so keep it only if the "
            f"skill is meant for that harness.{documented_under_metadata(key)}")
