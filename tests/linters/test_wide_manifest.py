"""The wide corpus's manifest (issue 36): its shape, and a split nobody can have tuned.

tests/corpus_wide/manifest.json pins the public repositories of the wide corpus (rebuilt by
tools/wide_corpus.py into the gitignored .corpus-wide/). The split into "tune" and "test" is by
repository and follows from the repository names alone, so it is recomputed here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys

from tests.conftest import ROOT

MANIFEST = ROOT / "tests" / "corpus_wide" / "manifest.json"
# Already in ../shared/corpus, or reserved to measure the result (issue 36).
EXCLUDED = {
    "anthropics/skills", "openai/skills", "obra/superpowers", "trailofbits/skills",
    "vercel-labs/agent-skills", "ComposioHQ/awesome-claude-skills",
    "K-Dense-AI/claude-scientific-skills", "Lbstrydom/claude-engineering-skills",
    "modelstudioai/skills",
    "UiPath/skills", "terrylica/cc-skills", "getsentry/skills", "hashicorp/agent-skills",
    "expo/skills", "wshobson/agents", "alirezarezvani/claude-skills",
}
MAN = json.loads(MANIFEST.read_text("utf-8"))
REPOS = MAN["repositories"]


def test_enough_repositories_and_skills():
    assert len(REPOS) >= 30
    assert sum(e["skills"] for e in REPOS) >= 1000
    assert all(isinstance(e["skills"], int) and e["skills"] >= 1 for e in REPOS)


def test_entries_are_well_formed():
    names = [e["repo"] for e in REPOS]
    assert len({n.lower() for n in names}) == len(names), "a repository is listed twice"
    for e in REPOS:
        assert re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", e["repo"]), e["repo"]
        assert re.fullmatch(r"[0-9a-f]{40}", e["commit"]), e
        assert e["split"] in ("tune", "test"), e
        assert e["license"] is None or isinstance(e["license"], str), e
        for d in e.get("dropped", []):
            assert set(d) == {"path", "reason"} and d["path"] and d["reason"], d


def test_no_excluded_repository():
    present = {e["repo"].lower() for e in REPOS}
    assert not present & {r.lower() for r in EXCLUDED}
    listed = {x["repo"].lower() for x in MAN["excluded"]}
    assert listed >= {r.lower() for r in EXCLUDED}, "the manifest should say what it excluded"


def test_split_is_the_stated_rule_of_the_names():
    assert "sha256" in MAN["split_rule"]
    order = sorted(REPOS, key=lambda e: hashlib.sha256(e["repo"].encode("utf-8")).hexdigest())
    for i, e in enumerate(order):
        assert e["split"] == ("tune" if i % 2 == 0 else "test"), e["repo"]
    splits = {e["split"] for e in REPOS}
    assert splits == {"tune", "test"}


def test_totals_match_the_entries():
    t = MAN["totals"]
    assert t["repos"] == len(REPOS)
    assert t["skills"] == sum(e["skills"] for e in REPOS)
    for sp in ("tune", "test"):
        part = [e for e in REPOS if e["split"] == sp]
        assert t[sp] == {"repos": len(part), "skills": sum(e["skills"] for e in part)}
        assert part
    assert t["dropped_as_duplicates"] == sum(len(e.get("dropped", [])) for e in REPOS)


def test_the_rebuild_script_reads_it_and_the_output_is_ignored(monkeypatch):
    spec = importlib.util.spec_from_file_location("wide_corpus", ROOT / "tools" / "wide_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "wide_corpus", mod)  # its dataclasses look themselves up
    spec.loader.exec_module(mod)
    assert mod.load_manifest(MANIFEST)["repositories"] == REPOS
    assert "/.corpus-wide/" in (ROOT / ".gitignore").read_text("utf-8").splitlines()
