"""Plugin manifests for tools/wide_corpus.py: a skill of a Claude Code plugin
(`<plugin>/skills/<skill>/SKILL.md` beside `<plugin>/.claude-plugin/plugin.json`) is read by the
linter as such (SF106: Claude Code names such a skill after its folder), so the corpus keeps,
beside the sampled skill folders, the manifest of each plugin one of them belongs to, at the
same path. It is not a skill file: no MANIFESTS.json entry lists it, and it holds no SKILL.md,
so the skills found in the corpus are the same."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from wide_corpus_git import Entry, git

PLUGIN_MANIFEST = ".claude-plugin/plugin.json"
MAX_MANIFEST_BYTES = 100_000


def plugin_manifest_paths(skills: list[str]) -> list[str]:
    """The path a Claude Code plugin manifest would have for each skill folder whose parent
    is named `skills` (the plugin root is the folder above that), one per plugin root."""
    out = set()
    for s in skills:
        p = PurePosixPath(s)
        if s != "." and p.parent.name == "skills":
            out.add(str(p.parent.parent / PLUGIN_MANIFEST))  # "." / x is x
    return sorted(out)


def write_plugin_manifests(git_dir: Path, tree: list[Entry], skills: list[str], stage: Path,
                           written: set[str]) -> int:
    """Write into `stage` the plugin manifests of `skills` that the tree holds (regular files
    of at most MAX_MANIFEST_BYTES, not already written as a skill's file); how many."""
    want = set(plugin_manifest_paths(skills)) - written
    count = 0
    for e in tree:
        if e.path not in want or e.kind != "blob" or e.mode not in ("100644", "100755"):
            continue
        # `cat-file blob` fetches the blob from the promisor remote in a blob-less clone.
        data = git(git_dir, "cat-file", "blob", e.oid)
        if len(data) > MAX_MANIFEST_BYTES:
            continue
        target = stage.joinpath(*PurePosixPath(e.path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.add(e.path)
        count += 1
    return count
