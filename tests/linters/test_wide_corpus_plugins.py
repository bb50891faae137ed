"""tools/wide_corpus.py copies a sampled plugin skill's Claude Code manifest
(<plugin>/.claude-plugin/plugin.json, tools/wide_corpus_plugins.py) beside the skill folders,
so SF106 reads the skill as part of its plugin; the manifest is no skill file (issue 36)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _load(monkeypatch):
    spec = importlib.util.spec_from_file_location("wide_corpus", ROOT / "tools" / "wide_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "wide_corpus", mod)  # its dataclasses look themselves up
    spec.loader.exec_module(mod)
    return mod


def _repo(tmp_path) -> tuple:
    """A git repository with two plugins (one with a manifest) and a manifest at its root,
    two levels above a plugin's root; (git dir, commit)."""
    files = {
        "kits/notes/.claude-plugin/plugin.json": '{"name": "notes"}\n',
        "kits/notes/skills/jot/SKILL.md": "---\ndescription: Jots a note.\n---\nJot it.\n",
        "kits/bare/skills/tidy/SKILL.md": "---\ndescription: Tidies notes.\n---\nTidy.\n",
        ".claude-plugin/plugin.json": '{"name": "top"}\n',
        "kits/notes/README.md": "not copied\n",
    }
    wt = tmp_path / "src"
    for rel, text in files.items():
        (wt / rel).parent.mkdir(parents=True, exist_ok=True)
        (wt / rel).write_text(text, "utf-8")
    env = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "-A"], [*env, "commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(wt), *args], check=True, capture_output=True)
    head = subprocess.run(["git", "-C", str(wt), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    return wt / ".git", head


def test_a_plugin_skill_brings_its_plugin_manifest_and_nothing_else(tmp_path, monkeypatch):
    mod = _load(monkeypatch)
    git_dir, commit = _repo(tmp_path)
    entry = {"repo": "someone/kits", "commit": commit, "split": "tune", "skills": 2}
    stage = tmp_path / "stage"
    result = mod.RepoResult("someone/kits", "tune", commit)
    mod.build_repo(entry, git_dir, stage, result)

    got = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file())
    assert got == ["MANIFESTS.json", "kits/bare/skills/tidy/SKILL.md",
                   "kits/notes/.claude-plugin/plugin.json", "kits/notes/skills/jot/SKILL.md"]
    assert (stage / "kits/notes/.claude-plugin/plugin.json").read_text("utf-8") == \
        '{"name": "notes"}\n'
    manifests = json.loads((stage / "MANIFESTS.json").read_text("utf-8"))
    assert sorted(manifests) == ["kits/bare/skills/tidy", "kits/notes/skills/jot"]
    assert all(f["path"] == "SKILL.md" for m in manifests.values() for f in m["files"])
    assert result.skills == 2 and result.copied == 3


def test_the_manifest_path_is_the_plugin_root_above_skills(monkeypatch):
    _load(monkeypatch)  # puts tools/ on sys.path
    from wide_corpus_plugins import plugin_manifest_paths

    assert plugin_manifest_paths(["skills/a", "p/skills/b", "p/skills/c", "p/other/d", "."]) \
        == [".claude-plugin/plugin.json", "p/.claude-plugin/plugin.json"]
