"""tests/corpus_wide/real_checkout.py makes a checkout of a whole repository at a pinned commit
from a bare snapshot (the check of the wide corpus's artefact labels): every file of that
commit, a symlink as a symlink, a later commit's files not at all, and a second call reuses it."""

from __future__ import annotations

import subprocess

from tests.corpus_wide.real_checkout import checkout


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_a_checkout_holds_the_pinned_commits_files(tmp_path):
    work = tmp_path / "work"
    (work / "skills" / "a").mkdir(parents=True)
    (work / "skills" / "a" / "SKILL.md").write_text("---\nname: a\n---\nSee ../../ROOT.md\n")
    (work / "ROOT.md").write_text("root\n")
    (work / "link.md").symlink_to("ROOT.md")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one")
    pinned = _git(work, "rev-parse", "HEAD")
    (work / "LATER.md").write_text("later\n")
    _git(work, "add", "-A")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "two")
    mirror = tmp_path / "mirror"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirror / "o+r" / "repo")],
                   check=True)

    out = checkout(mirror, "o/r", pinned, tmp_path / "real")
    assert (out / "skills" / "a" / "SKILL.md").read_text().endswith("See ../../ROOT.md\n")
    assert (out / "ROOT.md").read_text() == "root\n"
    assert (out / "link.md").is_symlink() and (out / "link.md").read_text() == "root\n"
    assert not (out / "LATER.md").exists()
    (out / "ROOT.md").write_text("changed\n")
    assert checkout(mirror, "o/r", pinned, tmp_path / "real") == out
    assert (out / "ROOT.md").read_text() == "changed\n"  # made once, then reused
