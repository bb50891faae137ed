"""Where a skill's repository says to install it: only into Claude Code? (issue 36, holdout19,
holdout21 and holdout31.)

A repository written for Claude Code alone says so where it tells the user how to install
it: its README (or INSTALL guide, or install script) clones it into a project's `.claude/`
(`git clone URL .claude`, or a submodule there), copies or links its skills into
`~/.claude/skills/` or `.claude/skills/`, or installs it as a Claude Code plugin
(`claude plugin install`, `/plugin marketplace add`, or `claude /plugin`, whose menu adds
a marketplace). Claude Code documents every frontmatter
field as optional (the folder's name stands in for `name`), so rules that exist for other
harnesses weigh less for such a skill.

Only when no other harness's place is named beside it: a document that also installs the
skills into `.codex/`, `.agents/skills/`, `.cursor/`, `.gemini/`, `.opencode/` or
`.github/skills/`, or with an installer that serves every agent (`npx skills add`), or with
another harness's own command (`codex plugin add`, `gemini extensions install`), installs
them where those rules hold. A harness named in prose is not a place: a README that syncs its
skills into `~/.claude/skills/` and says its framework "works with Claude Code, GitHub
Copilot and Cline" (whose Copilot part is prompt files) installs the skills into Claude Code
alone, as both readers of holdout19 read it; a collection for several agents says where each
finds the skills.

A document that says which of the repository's folders goes where speaks per folder
(holdout31): a sync script's map `claude/skills/<name>/ -> ~/.claude/skills/` beside
`skills/<name>/ -> ~/.claude/skills/ and ~/.agents/skills/` and `codex/skills/<name>/ ->
~/.agents/skills/` (or the same as a table, or `cp -r claude/skills/* ~/.claude/skills/`).
A line of that map is one naming a folder beside the document (a relative path ending in `/`,
the first such on the line) and a place; the lines whose folder holds the skill (its own
folder, its parent, a folder above) decide for it, and the other folders' lines say nothing
about it. Another harness's place named outside the map (the script's own code, copying
into the `.agents` folder the map names for the other folders) counts only when no other
folder's line names that harness: a stray `npx skills add` or `.cursor/skills` still serves
every folder. Only the skill's own lines can then name its Claude Code place. A document
with no line for the skill's folder reads as a whole, as before: since each line of the map
names a place, the per-folder reading can only find a skill read by Claude Code alone where
the whole document names another harness too, never the other way round.

The documents are looked for in the folders above the skill (and their `scripts/`), up to the
repository's top, as `repo_docs.documents_above` finds a repository's documents: an author's
checkout has them: a README, an INSTALL guide, a setup, bootstrap or sync script or guide
(`sync.md`, `sync.ps1`) or a Makefile. A copied skill whose repository is not on disk says
nothing either way, and its findings keep their weight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.repo_docs import documents_in_folders_above

# The documents that say how to install: READMEs (and their translations), INSTALL guides,
# install, setup or sync scripts and guides, a Makefile; in a folder above the skill or its
# `scripts/`.
_INSTALL_DOC = rx(r"^(?:readme|install(?:ation|er)?|setup|bootstrap|sync)(?:[-_.][\w.-]*)?$"
                  r"|^makefile$", re.IGNORECASE)
_NOT_DOC = rx(r"\.(?:py|pyc|json|ya?ml|toml|lock|cfg|png|jpe?g|gif|svg|webp)$", re.IGNORECASE)

# Claude Code's places: its skills folders (`~/.claude/skills`, a project's `.claude/skills`),
# a clone or a submodule into a project's `.claude/`, a plugin install or marketplace.
_CLAUDE_PLACE = rx(
    r"(?<![\w-])\.claude[/\\]skills\b"
    r"|\bgit\s+(?:clone|submodule\s+add)\b[^\n`]*?\s(?:\./)?\.claude/?(?=[\s`'\"]|$)"
    r"|(?:\bclaude\s+|(?<![\w/.-])/)plugins?\s+(?:install|marketplace\s+add)\b"
    # `claude /plugin`: the plugin manager, whose menu adds a marketplace (holdout24)
    r"|\bclaude\s+/plugins?(?![\w/.-])",
    re.IGNORECASE | re.MULTILINE,
)
# Another harness's place: its dot folder (`.codex/`, `~/.cursor`, `.github/skills`), its
# config folder, an installer that serves other agents (`npx skills add`, `openskills`) or
# another harness's own install command.
_OTHER_PLACE = rx(
    r"(?:^|[\s`'\"(=/~\\])\.(?:codex|agents?|cursor|gemini|opencode|windsurf|kiro|goose"
    r"|openclaw|hermes|copilot|roo|cline|clinerules|continue|amp|factory|augment|qwen|trae"
    r"|junie|kilocode|crush|aider)(?=[/\\\s`'\")]|$)"
    r"|\.github[/\\](?:skills|copilot|prompts|agents)\b"
    r"|\.config[/\\](?:opencode|goose|amp|crush|agents)\b"
    r"|\b(?:npx|bunx|pnpx|pnpm\s+dlx)\s+(?:-y\s+|--yes\s+)?"
    r"(?:skills|openskills|add-skill|skillkit)\b"
    r"|\bopenskills\s+(?:add|install)\b"
    r"|\bcodex\s+plugins?\s+(?:add|install|marketplace)\b"
    r"|\bgemini\s+extensions?\s+install\b",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class ClaudeCodeInstall:
    """Where a repository's document installs its skills into Claude Code."""

    doc: str  # the document, relative to the folder it was found in ("README.md")
    line: int
    shown: str  # the words naming the place ("git clone https://... .claude")

    def where(self) -> str:
        return f"{self.doc}, line {self.line}: `{self.shown}`"


def _install_doc(name: str) -> bool:
    return bool(_INSTALL_DOC.match(name)) and not _NOT_DOC.search(name)


def _shown(text: str, m: re.Match[str]) -> str:
    """The line of the match, trimmed to the command or path around it; without its code
    marks, which the message's own quoting would break (a table row: `claude/skills/<name>/ |
    ~/.claude/skills/<name>/`)."""
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    line = " ".join(text[start:end if end >= 0 else len(text)].replace("`", "").split())
    line = line.strip("|$>#").strip()
    return line if len(line) <= 80 else line[:77] + "..."


def _reading(root: str) -> tuple[ClaudeCodeInstall | None, bool]:
    """(the first Claude Code place named, whether another harness's place is named) in the
    install documents above the skill at `root`."""
    claude = None
    for folder, rel, text in documents_in_folders_above(Path(root), _install_doc, ("scripts",)):
        # `folder` is one of the resolved skill's parents: the skill's path from it
        skill = Path(root).resolve().relative_to(folder).parts
        place, other = _document_reading(text, skill, folder)
        if other:
            return None, True
        if claude is None and place is not None:
            claude = ClaudeCodeInstall(rel, *place)
    return claude, False


# A folder of the repository named as the source of an install: a relative path ending in `/`
# (`claude/skills/<name>/`, `skills/*`, `` `codex/` ``), not inside a longer path, a URL, a
# variable or a dot folder (`$HOME/.claude/skills/`, `"$DIR"/skills/`).
_SOURCE = rx(r"(?<![\w.~/\\$:@%-])([A-Za-z0-9_][\w.-]*(?:/[\w.-]+)*)/")
# Words of another harness's place that name no harness (`.config/opencode`, `npx -y skills`).
_NOT_HARNESS = frozenset({"config", "npx", "bunx", "pnpx", "pnpm", "dlx", "y", "yes"})


def _harness(place: str) -> str:
    """Which harness another harness's place names (`~/.agents/skills/` -> agents)."""
    words = [w for w in re.findall(r"[a-z]+", place.lower()) if w not in _NOT_HARNESS]
    return words[0] if words else place


def _source(line: str, folder: Path) -> tuple[str, ...] | None:
    """The path parts of the first folder beside the document that `line` names, or None."""
    for m in _SOURCE.finditer(line):
        try:
            if (folder / m.group(1)).is_dir():
                return tuple(m.group(1).split("/"))
        except OSError:
            continue
    return None


def _folder_map(lines: list[str], folder: Path) -> dict[int, tuple[str, ...]]:
    """{line index: the folder it installs} for each line that names a place and, before or
    after it, a folder beside the document (module docstring)."""
    found = {}
    for i, line in enumerate(lines):
        if _CLAUDE_PLACE.search(line) or _OTHER_PLACE.search(line):
            source = _source(line, folder)
            if source is not None:
                found[i] = source
    return found


def _document_reading(text: str, skill: tuple[str, ...], folder: Path
                      ) -> tuple[tuple[int, str] | None, bool]:
    """((line, shown) of the Claude Code place one document names for the skill at `skill`
    (path parts from the document's `folder`), or None; whether it names another harness's
    place for it)."""
    lines = text.splitlines()
    sources = _folder_map(lines, folder)
    own = {i for i, src in sources.items() if skill[:len(src)] == src}
    if not own:  # no line for the skill's folder: the document speaks for every skill
        if _OTHER_PLACE.search(text):
            return None, True
        m = _CLAUDE_PLACE.search(text)
        return ((text.count("\n", 0, m.start()) + 1, _shown(text, m)) if m else None), False
    served = {_harness(m.group(0)) for i in sources.keys() - own
              for m in _OTHER_PLACE.finditer(lines[i])}
    place = None
    for i, line in enumerate(lines):
        others = {_harness(m.group(0)) for m in _OTHER_PLACE.finditer(line)}
        if i in own:
            if others:
                return None, True
            m = _CLAUDE_PLACE.search(line) if place is None else None
            if m:
                place = (i + 1, _shown(line, m))
        elif i not in sources and others - served:
            return None, True
    return place, False


def install_reading(root: Path) -> tuple[ClaudeCodeInstall | None, bool]:
    """(where the repository of the skill at `root` installs it only into Claude Code, or
    None; whether its install documents name another harness's place), from one pass over
    those documents. Asked only for a finding that depends on it; the documents' texts are
    cached by mtime and the folders listed afresh, so an edited README counts at the next
    lint."""
    return _reading(str(root))


def claude_code_install(root: Path) -> ClaudeCodeInstall | None:
    """Where the repository of the skill at `root` says to install it into Claude Code, when
    its install documents name no other harness's place (see the module docstring); None
    otherwise, or when they are not on disk."""
    return _reading(str(root))[0]
