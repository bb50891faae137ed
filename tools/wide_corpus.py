#!/usr/bin/env python3
"""Rebuild the wide skills corpus (issue 36) from tests/corpus_wide/manifest.json.

The manifest pins, for every repository, the commit, the split ("tune", "test", "holdout",
"holdout2" to "holdout32"), the number of skill folders, and the skill folders dropped as
duplicates. This script copies every other skill folder (a folder holding a
regular file named SKILL.md; nested ones count on their own) at the pinned commit into

    <out>/<split>/<owner>__<name>/<path of the skill in the repository>/

and writes <out>/<split>/<owner>__<name>/MANIFESTS.json, shaped like the shared corpus's: for
each skill path, every file of the folder (nested folders included) with its size and whether
it was copied. Files over 1 MB, binary files (a NUL byte in the first 8000 bytes), symlinks,
submodules and blobs absent from the git data are not copied; they are listed with
"copied": false and a "reason". Files inside a nested skill folder that the manifest drops (or,
in a held-out split, leaves out of the sample) are neither copied nor listed. The executable
bit is kept. Beside a taken skill folder <plugin>/skills/<skill>/, the plugin's Claude Code
manifest <plugin>/.claude-plugin/plugin.json is copied too when the repository has one
(wide_corpus_plugins.py); it is no skill file, so MANIFESTS.json does not list it.

The held-out splits, "holdout" (repositories chosen after the tune/test figures were first
measured; never tuned on) and "holdout2" to "holdout32" (each chosen, on 2026-12-05, -06 or -07,
after the one before had been measured once, most of them then tuned on; never looked at before
its own one measurement), take a sample of each repository: its entry's "sample" lists the skill
paths, which must be the first SAMPLE_MAX (40) of the skill folders left after de-duplication,
sorted by sha256("owner/name:" + path) hex digest ascending (sample_order); only those are
copied, and a sample that does not follow the rule at the pinned commit is a failure.

Where the git data comes from:
  --mirror DIR   a folder of bare git directories (or folders holding one, e.g. DIR/owner+name/repo
                 or DIR/owner+name/repo/.git); a repository's candidates are the entries of DIR
                 named owner+name, owner__name or owner/name (any case, optionally followed by a
                 suffix such as .git), searched a few levels down for a directory with HEAD and
                 objects/. The first one holding the pinned commit is used.
  otherwise      git clone --filter=blob:none --no-checkout from --url (default
                 https://github.com/{repo}.git), a sparse checkout of the skill folders, and
                 checkout of the pinned commit (only the blobs of the skill folders are fetched).
                 --cache DIR keeps those clones (as DIR/owner+name) so that a later run, or
                 --mirror DIR, can reuse them.

Re-running replaces what a repository had in <out> (built aside, then swapped in); a full run
also removes repositories the manifest no longer names. The output is never committed
(.gitignore lists /.corpus-wide/). Exit status: 0 when every repository was rebuilt and its
skill count matches the manifest, 1 otherwise (each failure says why), 2 for bad arguments.

Standard library only; needs git >= 2.27 on PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = ROOT / "tests" / "corpus_wide" / "manifest.json"
DEFAULT_OUT = ROOT / ".corpus-wide"
DEFAULT_URL = "https://github.com/{repo}.git"
MAX_BYTES = 1_000_000
SPLITS = ("tune", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5",
          "holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11",
          "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17",
          "holdout18", "holdout19", "holdout20", "holdout21", "holdout22",
          "holdout23", "holdout24", "holdout25", "holdout26", "holdout27",
          "holdout28", "holdout29", "holdout30", "holdout31", "holdout32")
# The held-out splits: a sample of each repository.
SAMPLED = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6",
           "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13",
           "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
           "holdout20", "holdout21", "holdout22", "holdout23", "holdout24",
           "holdout25", "holdout26", "holdout27", "holdout28",
           "holdout29", "holdout30", "holdout31", "holdout32")
SAMPLE_MAX = 40  # skill folders per held-out repository
HEX40 = re.compile(r"[0-9a-f]{40}")

# The git plumbing lives beside this script (also when a test loads it by path).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from wide_corpus_git import (  # noqa: E402
    Entry, RepoError, checkout_folders, clone, contents, from_mirror, list_tree, sizes,
)
from wide_corpus_plugins import write_plugin_manifests  # noqa: E402


@dataclass
class RepoResult:
    repo: str
    split: str
    commit: str
    skills: int = 0
    copied: int = 0
    not_copied: int = 0
    bytes_copied: int = 0


def skill_dirs(entries: list[Entry]) -> list[str]:
    """Folders holding a regular SKILL.md file ("." for the repository root)."""
    out = set()
    for e in entries:
        p = PurePosixPath(e.path)
        if p.name == "SKILL.md" and e.kind == "blob" and e.mode in ("100644", "100755"):
            out.add(str(p.parent) if str(p.parent) != "." else ".")
    return sorted(out)


def sample_order(repo: str, paths: list[str]) -> list[str]:
    """Skill paths sorted by sha256("owner/name:" + path), hex digest ascending (the held-out
    splits' sampling rule: the first SAMPLE_MAX of the de-duplicated ones)."""
    return sorted(paths, key=lambda p: hashlib.sha256(f"{repo}:{p}".encode("utf-8")).hexdigest())


def chosen_skills(entry: dict, all_skills: list[str]) -> list[str]:
    """The skill folders the corpus takes from a repository: all but the dropped ones, or for a
    sampled (held-out) entry its sample, checked against the sampling rule."""
    kept = [s for s in all_skills if s not in {d["path"] for d in entry.get("dropped", [])}]
    if "sample" not in entry:
        return kept
    sample = entry["sample"]["paths"]
    want = sample_order(entry["repo"], kept)[:SAMPLE_MAX]
    at = entry["commit"][:12]
    if sample != want:
        extra = sorted(set(sample) - set(want))
        why = "not chosen by it: " + ", ".join(extra[:3]) if extra else "order differs"
        raise RepoError(f"the manifest's sample does not follow the rule at {at} "
                        f"({len(sample)} listed, {len(want)} by the rule; {why})")
    if entry["sample"].get("from") != len(kept):
        raise RepoError(f"{len(kept)} skill folders after de-duplication at {at}, the "
                        f"manifest's sample says {entry['sample'].get('from')}")
    return sorted(sample)


def inside(path: str, folder: str) -> bool:
    return folder == "." or path == folder or path.startswith(folder + "/")


def rel_to(path: str, folder: str) -> str:
    return path if folder == "." else path[len(folder) + 1:]


# --- one repository --------------------------------------------------------------------------

def build_repo(entry: dict, git_dir: Path, stage: Path, result: RepoResult) -> None:
    repo, commit = entry["repo"], entry["commit"]
    tree = list_tree(git_dir, commit)
    all_skills = skill_dirs(tree)
    dropped = {d["path"] for d in entry.get("dropped", [])}
    unknown = sorted(dropped - set(all_skills))
    if unknown:
        raise RepoError(f"the manifest drops skill folders that are not at {commit[:12]}: "
                        f"{', '.join(unknown[:5])}")
    kept = chosen_skills(entry, all_skills)
    if len(kept) != entry["skills"]:
        raise RepoError(f"{len(kept)} skill folders at {commit[:12]}, the manifest says "
                        f"{entry['skills']}")
    # The skill folders not taken (dropped, or outside a held-out sample): their files are left
    # out of an enclosing skill folder that is taken.
    dropped_dirs = sorted(set(all_skills) - set(kept))
    files: dict[str, list[Entry]] = {s: [] for s in kept}
    for e in tree:
        if ".git" in PurePosixPath(e.path).parts:
            continue
        for s in kept:
            if inside(e.path, s) and not any(
                    inside(e.path, d) and inside(d, s) and d != s for d in dropped_dirs):
                files[s].append(e)
    wanted = sorted({e.oid for fs in files.values() for e in fs
                     if e.kind == "blob" and e.mode in ("100644", "100755")})
    size = sizes(git_dir, wanted)
    small = [o for o in wanted if size.get(o) is not None and size[o] <= MAX_BYTES]
    data = contents(git_dir, small)
    link_size = sizes(git_dir, sorted({e.oid for fs in files.values() for e in fs
                                       if e.mode == "120000"}))

    manifests: dict[str, dict] = {}
    written: set[str] = set()
    skipped: set[str] = set()
    for s in kept:
        records = []
        for e in sorted(files[s], key=lambda e: e.path):
            rec: dict = {"path": rel_to(e.path, s)}
            reason = None
            if e.kind == "commit":
                rec["bytes"], reason = 0, "submodule"
            elif e.mode == "120000":
                rec["bytes"], reason = link_size.get(e.oid) or 0, "symlink"
            elif size.get(e.oid) is None:
                rec["bytes"], reason = 0, "absent from the git data"
            elif size[e.oid] > MAX_BYTES:
                rec["bytes"], reason = size[e.oid], "larger than 1 MB"
            else:
                blob = data.get(e.oid)
                rec["bytes"] = size[e.oid]
                if blob is None:
                    reason = "absent from the git data"
                elif b"\0" in blob[:8000]:
                    reason = "binary"
            rec["copied"] = reason is None
            if reason:
                rec["reason"] = reason
            elif e.path not in written:
                target = stage.joinpath(*PurePosixPath(e.path).parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data[e.oid])
                if e.mode == "100755":
                    target.chmod(0o755)
                written.add(e.path)
                result.copied += 1
                result.bytes_copied += rec["bytes"]
            records.append(rec)
            if reason:
                skipped.add(e.path)
        manifests[s] = {"commit": commit, "files": records, "path": s, "source_repo": repo}
    result.copied += write_plugin_manifests(git_dir, tree, kept, stage, written)
    if "MANIFESTS.json" in written:
        raise RepoError("the repository's own MANIFESTS.json (in a skill at its root) would be "
                        "overwritten by the corpus's")
    stage.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifests, indent=1, sort_keys=True, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8: keep it as escapes
        text = json.dumps(manifests, indent=1, sort_keys=True)
    (stage / "MANIFESTS.json").write_text(text + "\n", "utf-8")
    result.skills = len(kept)
    result.not_copied = len(skipped)


def remove(p: Path) -> None:
    if p.is_symlink() or p.is_file():
        p.unlink()
    elif p.exists():
        shutil.rmtree(p)


def repo_dirname(repo: str) -> str:
    return repo.replace("/", "__", 1)


def rebuild(entry: dict, args: argparse.Namespace, out: Path) -> RepoResult:
    repo, commit, split = entry["repo"], entry["commit"], entry["split"]
    result = RepoResult(repo, split, commit)
    tmp_root = Path(tempfile.mkdtemp(prefix=".build-", dir=out))
    try:
        if args.mirror:
            gd = from_mirror(args.mirror, repo, commit)
        else:
            dest = args.cache / repo.replace("/", "+", 1) if args.cache else tmp_root / "clone"
            owner, name = repo.split("/", 1)
            url = args.url.format(repo=repo, owner=owner, name=name)
            gd = clone(url, commit, dest)
            kept = chosen_skills(entry, skill_dirs(list_tree(gd, commit)))
            # The outermost folders only: a nested one is inside its parent's pattern.
            checkout_folders(gd, dest, commit,
                             [s for s in kept if not any(o != s and inside(s, o) for o in kept)])
        stage = tmp_root / "stage"
        build_repo(entry, gd, stage, result)
        name = repo_dirname(repo)
        for sp in SPLITS:
            remove(out / sp / name)
        (out / split).mkdir(parents=True, exist_ok=True)
        stage.rename(out / split / name)
        return result
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)


# --- the whole corpus ------------------------------------------------------------------------

def good_sample(e: dict) -> bool:
    """A held-out entry (SAMPLED) has a "sample" (its skill paths, at most SAMPLE_MAX, in
    sample_order, as many as "skills"); an entry of another split has none."""
    if e.get("split") not in SAMPLED:
        return "sample" not in e
    s = e.get("sample")
    if not (isinstance(s, dict) and isinstance(s.get("paths"), list)
            and isinstance(s.get("from"), int)
            and all(isinstance(p, str) and p for p in s["paths"])):
        return False
    paths = s["paths"]
    return (len(paths) == e.get("skills") and 1 <= len(paths) <= SAMPLE_MAX
            and len(set(paths)) == len(paths) and paths == sample_order(e["repo"], paths)
            and len(paths) == min(SAMPLE_MAX, s["from"]))


def load_manifest(path: Path) -> dict:
    try:
        man = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise SystemExit(f"wide_corpus: cannot read the manifest {path}: {e}")
    repos = man.get("repositories")
    if not isinstance(repos, list) or not repos:
        raise SystemExit(f"wide_corpus: {path} has no \"repositories\" list")
    for e in repos:
        if not (isinstance(e, dict) and re.fullmatch(r"[\w.-]+/[\w.-]+", str(e.get("repo", "")))
                and HEX40.fullmatch(str(e.get("commit", ""))) and e.get("split") in SPLITS
                and isinstance(e.get("skills"), int) and good_sample(e)):
            raise SystemExit(f"wide_corpus: bad manifest entry in {path}: {e!r:.200}")
    return man


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="wide_corpus.py",
        description="Rebuild the wide skills corpus (issue 36) from its manifest: every skill "
                    "folder of every pinned repository (of a held-out one, its sample), copied "
                    "into <out>/<split>/<owner>__<name>/<skill path>/ with a MANIFESTS.json per "
                    "repository. The output is gitignored and never committed.",
        epilog="Examples:\n"
               "  python3 tools/wide_corpus.py                       # clone from GitHub\n"
               "  python3 tools/wide_corpus.py --mirror /srv/mirrors # use local bare git dirs\n"
               "  python3 tools/wide_corpus.py --repo mattpocock/skills --split test\n"
               "  python3 tools/wide_corpus.py --mirror /srv/mirrors --split holdout32\n"
               "Exit status: 0 all rebuilt, 1 a repository could not be had or does not match "
               "the manifest, 2 bad arguments.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST,
                    help="the manifest (default: tests/corpus_wide/manifest.json)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT,
                    help="output folder (default: .corpus-wide/ at the repository root)")
    ap.add_argument("--mirror", type=Path, metavar="DIR",
                    help="folder of bare git directories to read instead of cloning "
                         "(entries named owner+name*, owner__name* or owner/name*)")
    ap.add_argument("--url", default=DEFAULT_URL,
                    help="clone URL template without --mirror; {repo}, {owner}, {name} are "
                         "replaced (default: %(default)s)")
    ap.add_argument("--cache", type=Path, metavar="DIR",
                    help="keep the clones in DIR/owner+name (reused by later runs); default: "
                         "temporary, removed")
    ap.add_argument("--repo", action="append", metavar="OWNER/NAME",
                    help="rebuild only this repository (repeatable); others are left as they are")
    ap.add_argument("--split", choices=SPLITS, help="rebuild only the repositories of this split")
    args = ap.parse_args(argv)

    man = load_manifest(args.manifest)
    entries = man["repositories"]
    if args.repo:
        names = {e["repo"].lower() for e in entries}
        unknown = [r for r in args.repo if r.lower() not in names]
        if unknown:
            ap.error(f"not in the manifest: {', '.join(unknown)}")
        want = {r.lower() for r in args.repo}
        entries = [e for e in entries if e["repo"].lower() in want]
    if args.split:
        entries = [e for e in entries if e["split"] == args.split]
    if args.mirror and not args.mirror.is_dir():
        ap.error(f"--mirror {args.mirror} is not a folder")
    if shutil.which("git") is None:
        print("wide_corpus: git is not on PATH", file=sys.stderr)
        return 1
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob(".build-*"):
        shutil.rmtree(stale, ignore_errors=True)

    done: list[RepoResult] = []
    failed: list[tuple[str, str]] = []
    for entry in entries:
        try:
            r = rebuild(entry, args, out)
        except (RepoError, OSError) as e:
            failed.append((entry["repo"], str(e)))
            print(f"FAIL  {entry['split']:8}  {entry['repo']}: {e}", flush=True)
            continue
        done.append(r)
        print(f"ok    {r.split:8}  {r.repo:<55} {r.commit[:12]}  {r.skills:4} skills  "
              f"{r.copied:5} files copied ({r.bytes_copied / 1e6:.1f} MB), "
              f"{r.not_copied} not copied", flush=True)

    full_run = not args.repo and not args.split
    if full_run and not failed:
        names = {repo_dirname(e["repo"]) for e in man["repositories"]}
        for sp in SPLITS:
            for d in sorted((out / sp).glob("*")) if (out / sp).is_dir() else []:
                if d.name not in names:
                    remove(d)
                    print(f"removed {d.relative_to(out)} (not in the manifest)")
    by = {sp: [r for r in done if r.split == sp] for sp in SPLITS}
    # tune and test always (as before the held-out splits), a held-out one when the run had some.
    shown = [sp for sp in SPLITS
             if sp in ("tune", "test") or any(e["split"] == sp for e in entries)]
    print("total: " + ", ".join(
        f"{sp} {len(by[sp])} repos / {sum(r.skills for r in by[sp])} skills" for sp in shown)
        + f"; {len(done)} repos, {sum(r.skills for r in done)} skills, "
          f"{sum(r.copied for r in done)} files copied into {out}")
    if failed:
        print(f"wide_corpus: {len(failed)} of {len(entries)} repositories could not be rebuilt "
              "(their previous copy, if any, is left in place):", file=sys.stderr)
        for repo, why in failed:
            print(f"  {repo}: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
