"""The wide corpus's manifest (issue 36): its shape, and a split nobody can have tuned.

tests/corpus_wide/manifest.json pins the public repositories of the wide corpus (rebuilt by
tools/wide_corpus.py into the gitignored .corpus-wide/). The split into "tune" and "test" is by
repository and follows from the repository names alone, so it is recomputed here. The third
split, "holdout", holds repositories chosen after the tune/test figures were first measured
(never tuned on), each a sample of at most 40 skill folders chosen by a stated hash rule, which
is recomputed here too. The fourth, "holdout2", was chosen the same way after "holdout" had
been read and tuned on: repositories none of the other parts holds, sampled by the same rule;
the fifth, "holdout3", likewise after "holdout2" had been measured once and then tuned on;
the sixth, "holdout4", likewise after "holdout3" had been measured once; the seventh,
"holdout5", likewise after "holdout4" had been measured once; the eighth, "holdout6", likewise
after "holdout5" had been measured once and then tuned on; the ninth, "holdout7", likewise after
"holdout6" had been measured once and then tuned on; the tenth, "holdout8", likewise after
"holdout7" had been measured once and then tuned on; the eleventh, "holdout9", likewise after
"holdout8" had been measured once and then tuned on; the twelfth, "holdout10", likewise after
"holdout9" had been measured once and then tuned on; the thirteenth, "holdout11", likewise
after "holdout10" had been measured once; the fourteenth, "holdout12", likewise after
"holdout11" had been measured once and then tuned on; the fifteenth, "holdout13", likewise
after "holdout12" had been measured once and then tuned on; the sixteenth, "holdout14",
likewise after "holdout13" had been measured once and then tuned on; the seventeenth,
"holdout15", likewise after "holdout14" had been measured once and then tuned on; the
eighteenth, "holdout16", likewise after "holdout15" had been measured once; the nineteenth,
"holdout17", likewise after "holdout16" had been measured once and then tuned on; the
twentieth, "holdout18", likewise after "holdout17" had been measured once; the twenty-first,
"holdout19", likewise after "holdout18" had been measured once and then tuned on; the
twenty-second, "holdout20", likewise after "holdout19" had been measured once and then tuned on;
the twenty-third, "holdout21", likewise after "holdout20" had been measured once and then tuned
on; the twenty-fourth, "holdout22", likewise after "holdout21" had been measured once and then
tuned on; the twenty-fifth, "holdout23", likewise after "holdout22" had been measured once and
then tuned on; the twenty-sixth, "holdout24", likewise after "holdout23" had been measured once
and then tuned on; the twenty-seventh, "holdout25", likewise after "holdout24" had been measured
once and then tuned on; the twenty-eighth, "holdout26", likewise after "holdout25" had been
measured once and then tuned on; the twenty-ninth, "holdout27", likewise after "holdout26" had
been measured once; the thirtieth, "holdout28", likewise after "holdout27" had been measured
once and then tuned on; the thirty-first, "holdout29", likewise after "holdout28" had been
measured once and then tuned on; the thirty-second, "holdout30", likewise after "holdout29" had
been measured once and then tuned on; the thirty-third, "holdout31", likewise after "holdout30"
had been measured once and then tuned on; the thirty-fourth, "holdout32", likewise after
"holdout31" had been measured once and then tuned on.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys

import pytest

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
SPLITS = ("tune", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6",
          "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13",
          "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
          "holdout20", "holdout21", "holdout22", "holdout23", "holdout24",
          "holdout25", "holdout26", "holdout27", "holdout28", "holdout29",
          "holdout30", "holdout31", "holdout32")
HELD_OUT = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6",
            "holdout7", "holdout8", "holdout9", "holdout10", "holdout11",
            "holdout12", "holdout13", "holdout14", "holdout15", "holdout16",
            "holdout17", "holdout18", "holdout19", "holdout20", "holdout21",
            "holdout22", "holdout23", "holdout24", "holdout25",
            "holdout26", "holdout27", "holdout28", "holdout29", "holdout30",
            "holdout31", "holdout32")  # sampled
HOLDOUT = [e for e in REPOS if e["split"] in HELD_OUT]
SAMPLE_MAX = 40
HOLDOUT_NOTE = ("holdout: repositories chosen after the tune/test figures were first measured; "
                "never tuned on")
HOLDOUT2_NOTE = ("holdout2: repositories chosen on 2026-12-05 after the first holdout was read "
                 "and tuned on; never looked at before its one measurement")
HOLDOUT3_NOTE = ("holdout3: repositories chosen on 2026-12-05 after holdout2 had been measured "
                 "once and then tuned on; never looked at before its one measurement")
HOLDOUT4_NOTE = ("holdout4: repositories chosen on 2026-12-05 after holdout3 had been measured "
                 "once; never looked at before its one measurement")
HOLDOUT5_NOTE = ("holdout5: repositories chosen on 2026-12-05 after holdout4 had been measured "
                 "once; never looked at before its one measurement")
HOLDOUT6_NOTE = ("holdout6: repositories chosen on 2026-12-05 after holdout5 had been measured "
                 "once and then tuned on; never looked at before its one measurement")
HOLDOUT7_NOTE = ("holdout7: repositories chosen on 2026-12-05 after holdout6 had been measured "
                 "once and then tuned on; never looked at before its one measurement")
HOLDOUT8_NOTE = ("holdout8: repositories chosen on 2026-12-05 after holdout7 had been measured "
                 "once and then tuned on; never looked at before its one measurement")
HOLDOUT9_NOTE = ("holdout9: repositories chosen on 2026-12-05 after holdout8 had been measured "
                 "once and then tuned on; never looked at before its one measurement")
HOLDOUT10_NOTE = ("holdout10: repositories chosen on 2026-12-05 after holdout9 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT11_NOTE = ("holdout11: repositories chosen on 2026-12-06 after holdout10 had been measured "
                  "once; never looked at before its one measurement")
HOLDOUT12_NOTE = ("holdout12: repositories chosen on 2026-12-06 after holdout11 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT13_NOTE = ("holdout13: repositories chosen on 2026-12-06 after holdout12 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT14_NOTE = ("holdout14: repositories chosen on 2026-12-06 after holdout13 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT15_NOTE = ("holdout15: repositories chosen on 2026-12-06 after holdout14 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
# Chosen while holdout15 was still being tuned on (holdout11 likewise, after holdout10).
HOLDOUT16_NOTE = ("holdout16: repositories chosen on 2026-12-06 after holdout15 had been measured "
                  "once; never looked at before its one measurement")
HOLDOUT17_NOTE = ("holdout17: repositories chosen on 2026-12-06 after holdout16 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT18_NOTE = ("holdout18: repositories chosen on 2026-12-06 after holdout17 had been measured "
                  "once; never looked at before its one measurement")
HOLDOUT19_NOTE = ("holdout19: repositories chosen on 2026-12-06 after holdout18 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT20_NOTE = ("holdout20: repositories chosen on 2026-12-06 after holdout19 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT21_NOTE = ("holdout21: repositories chosen on 2026-12-06 after holdout20 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT22_NOTE = ("holdout22: repositories chosen on 2026-12-07 after holdout21 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT23_NOTE = ("holdout23: repositories chosen on 2026-12-07 after holdout22 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT24_NOTE = ("holdout24: repositories chosen on 2026-12-07 after holdout23 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT25_NOTE = ("holdout25: repositories chosen on 2026-12-07 after holdout24 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT26_NOTE = ("holdout26: repositories chosen on 2026-12-07 after holdout25 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT27_NOTE = ("holdout27: repositories chosen on 2026-12-07 after holdout26 had been measured "
                  "once; never looked at before its one measurement")
HOLDOUT28_NOTE = ("holdout28: repositories chosen on 2026-12-07 after holdout27 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT29_NOTE = ("holdout29: repositories chosen on 2026-12-07 after holdout28 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT30_NOTE = ("holdout30: repositories chosen on 2026-12-07 after holdout29 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT31_NOTE = ("holdout31: repositories chosen on 2026-12-07 after holdout30 had been measured "
                  "once and then tuned on; never looked at before its one measurement")
HOLDOUT32_NOTE = ("holdout32: repositories chosen on 2026-12-07 after holdout31 had been measured "
                  "once and then tuned on; never looked at before its one measurement")


def in_language(kind: str, lang: str) -> bool:
    """A non-English entry's kind ends with the language its skills are written in ("...,
    Czech", "Chinese (Simplified)"); a topic named after a country ("plugin (Dutch income tax)",
    English skills) is no language."""
    return re.search(rf"(^|, ){re.escape(lang)}( \(.*\))?$", kind) is not None


def sample_key(repo: str, path: str) -> str:
    return hashlib.sha256(f"{repo}:{path}".encode()).hexdigest()


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
        assert e["split"] in SPLITS, e
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
    # The alternation is over the tune and test entries; holdout ones came later.
    order = sorted((e for e in REPOS if e["split"] not in HELD_OUT),
                   key=lambda e: hashlib.sha256(e["repo"].encode("utf-8")).hexdigest())
    for i, e in enumerate(order):
        assert e["split"] == ("tune" if i % 2 == 0 else "test"), e["repo"]
    splits = {e["split"] for e in REPOS}
    assert splits == set(SPLITS)


def test_holdout_is_documented():
    for note in (HOLDOUT_NOTE, HOLDOUT2_NOTE, HOLDOUT3_NOTE, HOLDOUT4_NOTE, HOLDOUT5_NOTE,
                 HOLDOUT6_NOTE, HOLDOUT7_NOTE, HOLDOUT8_NOTE, HOLDOUT9_NOTE, HOLDOUT10_NOTE,
                 HOLDOUT11_NOTE, HOLDOUT12_NOTE, HOLDOUT13_NOTE, HOLDOUT14_NOTE, HOLDOUT15_NOTE,
                 HOLDOUT16_NOTE, HOLDOUT17_NOTE, HOLDOUT18_NOTE, HOLDOUT19_NOTE,
                 HOLDOUT20_NOTE, HOLDOUT21_NOTE, HOLDOUT22_NOTE, HOLDOUT23_NOTE,
                 HOLDOUT24_NOTE, HOLDOUT25_NOTE, HOLDOUT26_NOTE, HOLDOUT27_NOTE,
                 HOLDOUT28_NOTE, HOLDOUT29_NOTE, HOLDOUT30_NOTE, HOLDOUT31_NOTE,
                 HOLDOUT32_NOTE):
        assert note in MAN["description"]
        assert note in MAN["split_rule"]
    assert all(n in MAN["selection"]
               for n in (HOLDOUT3_NOTE, HOLDOUT4_NOTE, HOLDOUT5_NOTE, HOLDOUT6_NOTE,
                         HOLDOUT7_NOTE, HOLDOUT8_NOTE, HOLDOUT9_NOTE, HOLDOUT10_NOTE,
                         HOLDOUT11_NOTE, HOLDOUT12_NOTE, HOLDOUT13_NOTE, HOLDOUT14_NOTE,
                         HOLDOUT15_NOTE, HOLDOUT16_NOTE, HOLDOUT17_NOTE,
                         HOLDOUT18_NOTE, HOLDOUT19_NOTE, HOLDOUT20_NOTE,
                         HOLDOUT21_NOTE, HOLDOUT22_NOTE, HOLDOUT23_NOTE, HOLDOUT24_NOTE,
                         HOLDOUT25_NOTE, HOLDOUT26_NOTE, HOLDOUT27_NOTE,
                         HOLDOUT28_NOTE, HOLDOUT29_NOTE, HOLDOUT30_NOTE,
                         HOLDOUT31_NOTE, HOLDOUT32_NOTE))
    for sp in HELD_OUT:
        assert sp in MAN["sample_rule"] and sp in MAN["skill_folder"], sp
    assert "sha256" in MAN["sample_rule"]
    assert all(f"Holdout{n}" in MAN["dedupe"] for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                                               14, 15, 16, 17, 18, 19, 20,
                                                               21, 22, 23))


def test_holdout_entries_are_samples_by_the_stated_rule():
    for sp in HELD_OUT:
        assert 10 <= sum(e["split"] == sp for e in REPOS) <= 12, sp
    left_out = {x["repo"].lower() for x in MAN["left_out"]}
    for e in REPOS:
        assert ("sample" in e) == (e["split"] in HELD_OUT), e["repo"]
    for e in HOLDOUT:
        assert e["repo"].lower() not in left_out, f"{e['repo']} is still under left_out"
        s = e["sample"]
        assert set(s) == {"rule", "from", "paths"}, e["repo"]
        assert "sha256" in s["rule"] and str(SAMPLE_MAX) in s["rule"]
        paths = s["paths"]
        assert 1 <= len(paths) <= SAMPLE_MAX, e["repo"]
        assert len(set(paths)) == len(paths), e["repo"]
        keys = [sample_key(e["repo"], p) for p in paths]
        assert keys == sorted(keys), f"{e['repo']}: the sample is not in sha256 order"
        assert e["skills"] == len(paths) == min(SAMPLE_MAX, s["from"]), e["repo"]
        # Sampled from the skill folders left after de-duplication.
        assert s["from"] == e["skill_md_in_repo"] - len(e["dropped"]), e["repo"]
        assert not set(paths) & {d["path"] for d in e["dropped"]}, e["repo"]


def test_totals_match_the_entries():
    t = MAN["totals"]
    assert t["repos"] == len(REPOS)
    assert t["skills"] == sum(e["skills"] for e in REPOS)
    for sp in SPLITS:
        part = [e for e in REPOS if e["split"] == sp]
        assert {k: t[sp][k] for k in ("repos", "skills")} == {
            "repos": len(part), "skills": sum(e["skills"] for e in part)}
        assert part
    for sp in HELD_OUT:
        assert t[sp]["skills_after_dedupe"] == sum(e["sample"]["from"] for e in HOLDOUT
                                                   if e["split"] == sp)
    assert t["skill_md_in_repos"] == sum(e["skill_md_in_repo"] for e in REPOS)
    assert t["dropped_as_duplicates"] == sum(len(e.get("dropped", [])) for e in REPOS)


def test_the_rebuild_script_reads_it_and_the_output_is_ignored(monkeypatch):
    spec = importlib.util.spec_from_file_location("wide_corpus", ROOT / "tools" / "wide_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "wide_corpus", mod)  # its dataclasses look themselves up
    spec.loader.exec_module(mod)
    assert mod.load_manifest(MANIFEST)["repositories"] == REPOS
    # Without a trailing slash: a worktree's .corpus-wide is a symlink, which "/.corpus-wide/"
    # (folders only) would let git track.
    assert "/.corpus-wide" in (ROOT / ".gitignore").read_text("utf-8").splitlines()


@pytest.mark.parametrize("part", ["holdout2", "holdout3", "holdout4", "holdout5", "holdout6",
                                  "holdout7", "holdout8", "holdout9", "holdout10", "holdout11",
                                  "holdout12", "holdout13", "holdout14", "holdout15",
                                  "holdout16", "holdout17", "holdout18", "holdout19",
                                  "holdout20", "holdout21", "holdout22", "holdout23",
                                  "holdout24", "holdout25", "holdout26", "holdout27",
                                  "holdout28", "holdout29", "holdout30", "holdout31",
                                  "holdout32"])
def test_a_later_held_out_part_holds_only_repositories_new_to_the_corpus(part):
    """Chosen after the rest was read: no repository of another part (nor one with the same
    name under another owner, a likely fork or translation), none excluded or left out, and
    every skill folder it drops as a copy names where the original is."""
    mine = [e for e in REPOS if e["split"] == part]
    assert mine
    others = [e for e in REPOS if e["split"] != part]
    before = ({e["repo"].lower() for e in others} | {r.lower() for r in EXCLUDED}
              | {x["repo"].lower() for x in MAN["excluded"]})
    taken_names = {r.split("/", 1)[1].lower() for r in before}
    for e in mine:
        repo = e["repo"].lower()
        assert repo not in before, e["repo"]
        # Generic names ("skills", "agent-skills", "agents") are shared by unrelated repositories.
        if repo.split("/", 1)[1] not in {"skills", "agent-skills", "claude-skills",
                                         "security-skills", "devops-skills", "agents"}:
            assert repo.split("/", 1)[1] not in taken_names, e["repo"]
        assert e["commit_date"] < "2026-12-05", e["repo"]
        for d in e["dropped"]:
            cited = d["reason"].rsplit(" (", 1)[-1].rstrip(")")
            assert d["reason"].endswith("in this repository") or cited in {
                "shared corpus", "wide corpus, tune/test", "wide corpus, holdout",
                *(f"wide corpus, {p}" for p in HELD_OUT[:HELD_OUT.index(part) + 1]),
                # From holdout21 on, the 7 reserved repositories are compared too.
                *(("reserved repository",) if HELD_OUT.index(part) >= HELD_OUT.index("holdout21")
                  else ())}, d


def test_holdout3_is_varied_and_its_candidates_are_recorded():
    """The kinds the part was chosen for, at least 5 skill folders in each repository, and the
    candidates looked at and not used left under left_out with a reason, so no later part
    looks at them again."""
    h3 = [e for e in REPOS if e["split"] == "holdout3"]
    kinds = [e["kind"] for e in h3]
    assert sum(k.startswith("security") for k in kinds) == 4, kinds
    assert sum(k == "vendor" for k in kinds) == 2, kinds
    assert sum(k.startswith("devops") for k in kinds) == 1, kinds
    assert sum("Chinese" in k for k in kinds) == 2, kinds
    assert all(e["skill_md_in_repo"] - len(e["dropped"]) >= 5 for e in h3)
    reasons = [x for x in MAN["left_out"] if "holdout3" in x["reason"]]
    assert len(reasons) >= 5 and all(x["reason"].strip() for x in MAN["left_out"])


@pytest.mark.parametrize(("part", "languages"), [("holdout4", ("French", "Portuguese")),
                                               ("holdout5", ("Spanish", "Italian")),
                                               ("holdout6", ("Polish", "Indonesian")),
                                               ("holdout7", ("Russian", "Thai")),
                                               ("holdout8", ("Ukrainian", "Czech")),
                                               ("holdout9", ("Norwegian", "Swedish")),
                                               ("holdout10", ("Finnish", "Malay")),
                                               ("holdout11", ()),
                                               ("holdout12", ("Latvian",)),
                                               ("holdout13", ()),
                                               ("holdout14", ()),
                                               ("holdout15", ()),
                                               ("holdout16", ("Dutch",)),
                                               ("holdout17", ("Vietnamese",)),
                                               ("holdout18", ("Hebrew", "Arabic")),
                                               ("holdout19", ()),
                                               ("holdout20", ("Catalan",)),
                                               ("holdout21", ()),
                                               ("holdout22", ()),
                                               ("holdout23", ()),
                                               ("holdout24", ()),
                                               ("holdout25", ()),
                                               ("holdout26", ()),
                                               ("holdout27", ()),
                                               ("holdout28", ()),
                                               ("holdout29", ()),
                                               ("holdout30", ()),
                                               ("holdout31", ()),
                                               ("holdout32", ())])
def test_a_later_part_is_varied_and_its_candidates_are_recorded(part, languages):
    """As holdout3: the kinds it was chosen for (its non-English ones in languages no other part
    holds), at least 5 skill folders in each repository after de-duplication, and the
    candidates looked at and not used under left_out."""
    mine = [e for e in REPOS if e["split"] == part]
    kinds = [e["kind"] for e in mine]
    assert len(mine) == 12
    assert sum(k.startswith("security") for k in kinds) == 4, kinds
    # A non-English slot with no usable repository in a new language goes to a vendor.
    assert sum(k == "vendor" for k in kinds) == 4 - len(languages), kinds
    assert sum(k.startswith("devops") for k in kinds) == 1, kinds
    assert sum(k in ("personal collection", "plugin marketplace") for k in kinds) == 3, kinds
    for lang in languages:
        assert sum(in_language(k, lang) for k in kinds) == 1, kinds
        assert not any(in_language(e["kind"], lang) for e in REPOS if e["split"] != part), lang
    assert all(e["skill_md_in_repo"] - len(e["dropped"]) >= 5 for e in mine)
    reasons = [x for x in MAN["left_out"] if part in x["reason"]]
    assert len(reasons) >= 5 and all(x["reason"].strip() for x in MAN["left_out"])
    assert len({x["repo"].lower() for x in MAN["left_out"]}) == len(MAN["left_out"])
