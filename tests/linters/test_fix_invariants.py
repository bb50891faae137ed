"""`skillforge lint --fix` over whole corpora changes no meaning (issue 36).

Each corpus is copied to a scratch folder and every skill in it fixed as `skillforge lint
--fix <folder>` fixes it (the safe fixes, `fix_skill` then `write_plan`, skill by skill).
Every file a fix changed is checked against the skill's report from before the fix
(tests/linters/fix_invariants.py says what is checked): no edit inside code, links that
resolved still resolve to the same file, no edited line without a finding, the frontmatter
the same but for the keys moved under `metadata:`, its comments kept.

The shared corpus is always run; the wide corpus (`.corpus-wide/` at the repository root,
gitignored, built by its own script) too when it is there. The figures are printed and
written to tests/bench/out/fix_invariants.json.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest

from linters.fixes import fixable_rules
from skillforge.models.findings import Category, Finding, Severity
from skillforge.models.lint_config import LintConfig
from skillforge.workspace.discovery import find_all
from skillforge.workspace.fixing import findings_now, fix_skill, write_plan
from tests.conftest import ROOT
from tests.linters.corpus_copy import materialise
from tests.linters.fix_invariants import check_change

WIDE = ROOT / ".corpus-wide"
OUT = ROOT / "tests" / "bench" / "out" / "fix_invariants.json"


def fix_corpus(name: str, root: Path) -> dict:
    """Fix every skill under `root` in place; the figures and every invariant broken."""
    started = time.perf_counter()
    config = LintConfig()
    fixable = fixable_rules()
    skills = find_all([root])
    by_rule: Counter[str] = Counter()
    files = 0
    violations: list[dict] = []
    for skill_dir in skills:
        _skill, findings = findings_now(skill_dir, config)
        outcome = fix_skill(skill_dir, config, reported=findings)
        if not outcome.plan.changes:
            continue
        write_plan(skill_dir, outcome.plan, "skillforge lint --fix")
        by_rule.update(fix.rule for fix in outcome.applied)
        for change in outcome.plan.changes.values():
            files += 1
            before, after = _text(change.before, change.before_encoding), _text(change.after)
            if before is None or after is None:
                continue  # a binary file: no fix edits one
            for v in check_change(skill_dir, change.path, before, after, findings, fixable):
                violations.append({"skill": skill_dir.relative_to(root).as_posix(), "path": v.path,
                                   "invariant": v.invariant, "line": v.line, "detail": v.detail})
    return {"corpus": name, "skills": len(skills), "files_changed": files,
            "fixes_by_rule": dict(sorted(by_rule.items())), "violations": violations,
            "seconds": round(time.perf_counter() - started, 1)}


def _text(data: bytes | None, encoding: str = "utf-8") -> str | None:
    if data is None:
        return ""
    try:
        return data.decode("utf-8-sig" if encoding == "utf-8" else encoding)
    except (UnicodeDecodeError, LookupError):
        return None


# Where the wide corpus is built (2,367 skills), its --fix run takes 10 to 14 minutes on 2
# busy cores, past the suite's 900 s; on the shared corpus alone (CI), about 12 s.
@pytest.mark.timeout(2400)
def test_fix_changes_no_meaning_on_the_corpora(tmp_path: Path):
    results = [fix_corpus("shared", materialise(tmp_path / "shared"))]
    if WIDE.is_dir():
        results.append(fix_corpus("wide", materialise(tmp_path / "wide", WIDE)))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"version": 1, "corpora": results}, indent=2, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    for r in results:
        print(f"fix invariants, {r['corpus']} corpus: {r['skills']} skills, {r['files_changed']} "
              f"files changed, fixes {r['fixes_by_rule']}, {len(r['violations'])} violations, "
              f"{r['seconds']} s")
    broken = [v for r in results for v in r["violations"]]
    assert broken == [], "\n".join(f"{v['skill']}/{v['path']}:{v['line']} [{v['invariant']}] "
                                   f"{v['detail']}" for v in broken[:40])


def _finding(rule: str, path: str, line: int) -> Finding:
    return Finding(rule=rule, category=Category.correctness, severity=Severity.error,
                   message="", path=path, line=line)


FIXABLE = {"SF112", "SF116", "SF403"}
FM = "---\nname: demo\ndescription: Demo.\nowner: ap  # the team\n---\n\n# Demo\n"


@pytest.mark.parametrize(("before", "after", "findings", "broken"), [
    # An edit inside backticks, though a finding names the line.
    ("Run `a/b.sh` now.\n", "Run `b.sh` now.\n", [("SF116", 1)], "code"),
    # A fenced block's body.
    ("```sh\nrun a.sh\n```\n", "```sh\nrun b.sh\n```\n", [("SF116", 2)], "code"),
    # Lines inserted into a fence.
    ("```sh\nrun a.sh\n```\n", "```sh\nrun a.sh\nrun b.sh\n```\n", [("SF403", 1)], "code"),
    # A link that resolved now resolves to another file.
    ("See [a](a.md).\n", "See [a](b.md).\n", [("SF116", 1)], "link"),
    # A line no finding names.
    ("See [a](c.md).\nSee [b](d.md).\n", "See [a](a.md).\nSee [b](b.md).\n", [("SF116", 1)],
     "finding"),
], ids=["code-span", "fence", "into-fence", "link", "unnamed-line"])
def test_the_checker_catches_what_it_checks(tmp_path: Path, before, after, findings, broken):
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "b.md").write_text("# B\n")
    found = [_finding(rule, "guide.md", line) for rule, line in findings]
    kinds = {v.invariant for v in check_change(tmp_path, "guide.md", before, after, found, FIXABLE)}
    assert broken in kinds


def test_the_checker_catches_a_lost_yaml_comment_and_a_changed_key(tmp_path: Path):
    moved = FM.replace("owner: ap  # the team\n", "metadata:\n  owner: ap\n")
    found = [_finding("SF112", "SKILL.md", 4)]
    (v,) = check_change(tmp_path, "SKILL.md", FM, moved, found, FIXABLE)
    assert (v.invariant, v.detail) == ("frontmatter", "comment lost: '# the team'")
    kept = FM.replace("owner: ap  # the team\n", "metadata:\n  owner: ap  # the team\n")
    assert check_change(tmp_path, "SKILL.md", FM, kept, found, FIXABLE) == []
    renamed = kept.replace("name: demo", "name: demo2")
    assert {v.invariant for v in check_change(tmp_path, "SKILL.md", FM, renamed, found, FIXABLE)} == {
        "frontmatter", "finding"}
