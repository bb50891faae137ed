"""The wide corpus's labels, and (where the corpus is built) precision on its held-out part.

The labels (tests/corpus_wide/labels/) are always checked: every row well-formed, every
unit read twice, every split and repository the manifest's. The corpus itself is gitignored
and rebuilt from GitHub by `python tools/wide_corpus.py` (a machine without GitHub cannot
build it); where it is built, every severe finding on every part must be labelled, the
held-out part must meet the issue's targets (severe precision >= 0.9, security >= 0.8), and
no finding labelled `tp` may stop being severe.

The parts, when each was chosen, what it read at its one measurement and what tuning on it
changed are in tests/corpus_wide/PARTS.md (the README's table holds the same figures); a
target still unmet on a part is a strict xfail below, naming why, so that meeting it turns
the test red and the mark goes.
`holdout2` to `holdout32` stay sealed: each is left out, even where built, unless its own
variable (WIDE_UNSEAL_HOLDOUT2=1, WIDE_UNSEAL_HOLDOUT3=1, WIDE_UNSEAL_HOLDOUT4=1,
WIDE_UNSEAL_HOLDOUT5=1, WIDE_UNSEAL_HOLDOUT6=1, WIDE_UNSEAL_HOLDOUT7=1,
WIDE_UNSEAL_HOLDOUT8=1, WIDE_UNSEAL_HOLDOUT9=1, WIDE_UNSEAL_HOLDOUT10=1,
WIDE_UNSEAL_HOLDOUT11=1, WIDE_UNSEAL_HOLDOUT12=1, WIDE_UNSEAL_HOLDOUT13=1,
WIDE_UNSEAL_HOLDOUT14=1, WIDE_UNSEAL_HOLDOUT15=1, WIDE_UNSEAL_HOLDOUT16=1,
WIDE_UNSEAL_HOLDOUT17=1, WIDE_UNSEAL_HOLDOUT18=1, WIDE_UNSEAL_HOLDOUT19=1,
WIDE_UNSEAL_HOLDOUT20=1, WIDE_UNSEAL_HOLDOUT21=1, WIDE_UNSEAL_HOLDOUT22=1,
WIDE_UNSEAL_HOLDOUT23=1, WIDE_UNSEAL_HOLDOUT24=1, WIDE_UNSEAL_HOLDOUT25=1,
WIDE_UNSEAL_HOLDOUT26=1, WIDE_UNSEAL_HOLDOUT27=1,
WIDE_UNSEAL_HOLDOUT28=1, WIDE_UNSEAL_HOLDOUT29=1,
WIDE_UNSEAL_HOLDOUT30=1, WIDE_UNSEAL_HOLDOUT31=1,
WIDE_UNSEAL_HOLDOUT32=1) is set.
tests/bench/bench_wide_lint.py prints the whole table with the gate pass rates of skills-ref and
agnix beside ours.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from tests.corpus_wide import dump_findings, wide
from tests.corpus_wide.wide import (
    HELD_OUT,
    MANIFEST,
    SEALED,
    SPLITS,
    UNSEAL_ENVS,
    available,
    iter_reports,
    load_labels,
    load_units,
    measurable,
    repo_of,
    severe_findings,
)

COUNTED = ("tp", "fp", "policy")


def test_the_labels_are_well_formed_and_every_unit_was_read_twice():
    units = load_units()
    labels = load_labels()
    assert len(units) > 900 and len(labels) > 20_000
    split_of = {r["repo"]: r["split"] for r in json.loads(MANIFEST.read_text())["repositories"]}
    for key, label in labels.items():
        split, skill = key[0], key[1]
        assert split_of.get(repo_of(skill)) == split, (key, "split is not the manifest's")
        assert label.unit in units
    assert {u["split"] for u in units.values()} <= set(SPLITS)
    assert all(len(u["readings"]) == 2 for u in units.values())


@pytest.mark.parametrize("part", SEALED)
def test_a_sealed_part_is_left_out_even_where_it_is_built(tmp_path, monkeypatch, part):
    monkeypatch.setattr(wide, "WIDE", tmp_path)
    for split in SPLITS:
        (tmp_path / split).mkdir()
    for env in UNSEAL_ENVS.values():
        monkeypatch.delenv(env, raising=False)
    assert [s for s in SPLITS if measurable(s)] == ["tune", "test", "holdout"]
    with pytest.raises(SystemExit):  # refused before anything is linted
        dump_findings.main(["--split", part, "-o", str(tmp_path / "out.jsonl")])
    assert not (tmp_path / "out.jsonl").exists()
    # Its own variable unseals it, and only it: the other sealed parts stay out.
    monkeypatch.setenv(UNSEAL_ENVS[part], "1")
    assert [s for s in SPLITS if measurable(s)] == ["tune", "test", "holdout", part]
    for env in UNSEAL_ENVS.values():
        monkeypatch.setenv(env, "1")
    assert [s for s in SPLITS if measurable(s)] == list(SPLITS)


@pytest.mark.parametrize("part", ["holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
                                  "holdout8", "holdout9", "holdout10", "holdout11",
                                  "holdout12", "holdout13", "holdout14", "holdout15",
                                  "holdout16", "holdout17", "holdout18", "holdout19",
                                  "holdout20", "holdout21", "holdout22", "holdout23",
                                  "holdout24", "holdout25", "holdout26", "holdout27",
                                  "holdout28", "holdout29", "holdout30", "holdout31",
                                  "holdout32"])
def test_a_later_part_is_held_out_and_every_sealed_part_has_its_own_variable(part):
    assert part in HELD_OUT and part in SEALED and set(SEALED) <= set(HELD_OUT)
    assert set(UNSEAL_ENVS) == set(SEALED)
    assert len(set(UNSEAL_ENVS.values())) == len(SEALED)


@pytest.fixture(scope="module")
def severe() -> dict[str, list]:
    # A sealed part is measured only when unsealed; the others must all be built.
    missing = [s for s in SPLITS if not available(s) and s not in SEALED]
    if missing:
        pytest.skip(f"the wide corpus is not built here ({', '.join(missing)}): "
                    "python tools/wide_corpus.py needs GitHub or a --mirror folder")
    out: dict[str, list] = {}
    for split in SPLITS:
        if not measurable(split):
            continue
        out[split] = []
        for skill, report in iter_reports(split):
            found = severe_findings(split, report, skill)
            out[split] += found
            if not report.passed_gate:
                _FAILING[split][skill] = found
            _DEMOTED.update((split, skill, f.path or "SKILL.md", int(f.line or 0), f.rule)
                            for f in report.findings
                            if f.rule == "SF116" and _PROSE_MENTION in f.message)
    return out


# A missing path a reference file names in prose, unlinked and unpointed, is a warning by
# design (linters/correctness/mention_weight.py): the one way a finding labelled tp may stop
# being severe, and it stays reported with this note.
_PROSE_MENTION = "a path named in the prose of a reference file, not a link"
_DEMOTED: set[tuple] = set()
# The severe findings of each skill that fails the default gate, by part.
_FAILING: dict[str, dict[str, list]] = defaultdict(dict)


def test_every_severe_finding_on_the_wide_corpus_is_labelled(severe):
    labels = load_labels()
    unlabelled = sorted({s.key for found in severe.values() for s in found
                         if s.key not in labels})
    assert not unlabelled, (f"{len(unlabelled)} severe findings have no label; dump them with "
                            f"python -m tests.corpus_wide.dump_findings --unlabelled: "
                            f"{unlabelled[:5]}")


def _held_out(severe, split: str) -> tuple[Counter, Counter]:
    if split not in severe:
        pytest.skip(f"{split} is sealed or not built ({UNSEAL_ENVS.get(split)}=1 to measure it)")
    labels = load_labels()
    total, security = Counter(), Counter()
    for s in severe[split]:
        lab = labels[s.key].of(s.message).label
        total[lab] += 1
        if s.key[4].startswith("SF5"):
            security[lab] += 1
    return total, security


def _precision(c: Counter) -> float:
    n = sum(c[k] for k in COUNTED)
    return c["tp"] / n if n else 1.0


def _unmet(figure: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"issue 36's target is not met: {figure}")


# holdout21's 0.598 severe at its one measurement (run-folder files a scanning collection's
# worker writes, listed in a Workspace section; skills without `name` or frontmatter in
# collections installed only into Claude Code; a byte-order mark in a reference nothing
# parses; a script run in a sibling skill's folder the prompt names) is 1.0 after tuning on
# it; its 18 policy findings are warnings in a full checkout, so artefacts of the copy.
# holdout23's 0.83 severe and 0.75 security at its one measurement (another skill's scripts a
# slides skill finds at run time, starter skills' link to the CONNECTORS.md of the plugin they
# are copied into, a gcloud identity token sent to a placeholder URL of the user's own
# function) are 0.957 and 1.0 after tuning on it; its 3 skills failing only on wrong findings
# are 0. holdout24's 0.877 severe and 0.586 security at its one measurement (a
# penetration-testing collection's LinPEAS on the target, printed hints and attack catalogue,
# gcloud token commands in a reconnaissance block; mkfs on a placeholder device; scripts a
# devops collection scaffolds into the user's repository; a metadata-server call of the user's
# workload) are 0.992 and 1.0 after tuning on it.
# holdout27's 0.711 security at its one measurement (a mail CLI's own --yolo, a sandbox-mode
# reference list, sample XML read as a disk write, base64 carrying the agent's own command) is
# 0.9 after tuning on it; its severe, 0.624, is 0.911 once a Claude Code-only skill without
# frontmatter over an introduction is a warning (holdout30's round, below).
# holdout26's 0.752 severe and 0.588 security at its one measurement (a vendor's source skill
# folders its build completes, a project skill's repository script, a bare plugin-root name,
# "never tell the user" a wrong estimate, Azure DevOps token mints) are 0.982 and 1.0 after
# tuning on it, the 44 findings a real checkout gives as warnings counted as artefacts.
# holdout30's 0.878 severe and 0 of 1 security at its one measurement (a file inside the APK
# a mobile skill analyses, a rule demanding openness read as hiding an act) are 0.9 and none
# after tuning on it, and 0.986 once SF102 reads a skill over an introduction that only
# Claude Code reads as a warning quoting the paragraph it takes as the description: its 7
# policy findings of that class are warnings in a full checkout, so artefacts of the copy.
# holdout32's 0.851 severe and 0.625 security at its one measurement (an SRE agent's Python
# plugin docs named SKILL.md, a vendor's names its own registry installs, a placeholder JWT, a
# unit test's hostile input, an attack list's metadata address, a template's `F##` slot) are
# 0.996 and 1.0 after tuning on it (the registry names are warnings in a full checkout, so
# artefacts of the copy).
SEVERE_UNMET: dict[str, pytest.MarkDecorator] = {}
# holdout16's 0.657 severe at its one measurement (two frontmatter keys a repository's own
# loader or router reads, scripts of the user's project) is 1.0 after tuning on it, once a
# full checkout showed both keys as warnings naming the repository's documents.
# holdout13's 0.449 severe at its one measurement (36 Claude Code plugin skills without
# `name`, DeepSeek Harness's `whenToUse`, vendored copies of another project's skills, paths
# inside an APK the skill analyses, a project skill's repository-root scripts) is 1.0 after
# tuning on it; its security figure, 0.273 at that measurement, is 1.0 after, once "never
# tell the user whether they are on a whitelist" (a vendor withholding a business fact, read
# as policy) was read as the user's standing in a list the service keeps, not an act of the
# agent hidden from the user. holdout14's 0.909 severe and 0.333 security at its one
# measurement (payload catalogues read as setup steps, cloud CLI token commands documented as
# attack techniques, a payload's explained bidi characters, a Chinese post-exploitation
# checklist) are 0.996 and 1.0 after tuning on it.
# holdout2's 0.568 severe at its one measurement read 0.899 after tuning on it until paths of
# the user's project were read as such (0.96). holdout12's 0.798 severe and 0.206 security at
# its one measurement (a skill running the CLI it teaches unpinned, an LLM red-team skill's
# payload catalogue, paths of the user's repository, companion-skill links written for
# another layout) are 0.966 and 1.0 after tuning on it.
# holdout9's 0.661 severe and 0.667 security at its one measurement (21 names that join the
# category folder to the skill folder, README templates' links; a recorded agent answer, a
# printed hint read as instructions) are 0.921 and 0.909 after tuning on it. holdout10's
# 0.517 security at its one measurement (a 1Password CLI skill's command reference, paths
# excluded from an rsync, the ~/.ssh folder, an attacking skill's metadata reads) is 0.909
# after tuning on it. holdout11's 0.714 security at its one measurement (an unpinned script
# runner on the skill's own script, a recorded test fixture, `ssh` in an op:// field name) is
# 0.938 after tuning on it, and its 0.677 severe (another plugin's files named from its
# `<plugin_dir>`, memory files the agent writes, OpenClaw's `homepage` key) is 0.985.
# A part measured next whose figure is under a target gets its strict mark here
# (`_unmet("...")`) until tuning meets it.
# holdout19's 0.333 security at its one measurement (a check that a revoked key no longer
# gets a Google Cloud token, read as a token read) is 1.0 after tuning on it.
# holdout25's 0.533 security at its one measurement (a database's documented default password
# in connection-string examples, prompt-injection inputs of eval cases, a vendor's own CLI run
# unpinned) is 0.941 after tuning on it (the last, policy, left).
# holdout20's 0.444 security at its one measurement (a judge told to ignore instructions
# inside the data it scores, `bypassPermissions` drawn in an example page, `uvx --from python`
# on the skill's own script, an install line's skill name read as the user's session) is 1.0
# after tuning on it.
# holdout29's 0.625 security at its one measurement (LinPEAS piped to sh on an engagement's
# target, an example script reading the droplet's own ID from the metadata service, the `chat`
# of a model id read as user data handed to `npx promptfoo`) is 1.0 after tuning on it.
SECURITY_UNMET: dict[str, pytest.MarkDecorator] = {
}


@pytest.mark.parametrize("split", [pytest.param(s, marks=SEVERE_UNMET.get(s, ()))
                                   for s in HELD_OUT])
def test_severe_precision_on_the_held_out_part_is_at_least_0_9(severe, split):
    total, _security = _held_out(severe, split)
    assert _precision(total) >= 0.90, dict(total)


@pytest.mark.parametrize("split", [pytest.param(s, marks=SECURITY_UNMET.get(s, ()))
                                   for s in HELD_OUT])
def test_security_precision_on_the_held_out_part_is_at_least_0_8(severe, split):
    _total, security = _held_out(severe, split)
    assert _precision(security) >= 0.80, dict(security)


def test_no_finding_labelled_true_stops_being_severe(severe):
    reported = {s.key for found in severe.values() for s in found}
    lost = sorted(k for k, lab in load_labels().items()
                  if k[0] in severe  # a sealed part's findings are not linted here
                  and any(x.label == "tp" for x in (lab, *lab.others)) and k not in reported
                  and k not in _DEMOTED)
    assert not lost, f"{len(lost)} findings labelled tp are no longer severe: {lost[:5]}"


# Parts where some skill still fails the gate only on findings labelled wrong or policy, with
# why; as for precision, a part measured next that has such a skill gets its strict mark here
# until tuning removes it.
# `test`'s 4 (3 Copilot Cowork skills on their `cowork:` settings block, a Hermes developer
# skill's run of the Hermes repository's test script) are 0 after readings of a block named
# for a platform the skill declares (platform_keys) and of a block that builds the current
# folder as a project first (repo_scripts.builds_project_here).
# holdout18's 33 at its one measurement are 0 once a Claude Code project skill without
# frontmatter, whose title names it by its folder as its command, is a warning
# (plugin_layout.missing_frontmatter). holdout21's 38 at its one measurement are 0 after tuning
# on it (run_folder, install_places).
# holdout20's 5 at its one measurement (a Catalan project skill's 2 runs of its repository's
# root scripts, a Python template's slots, a prompt-injection defence, a drawn
# bypassPermissions) are 0 after tuning on it; the project skill's 4 findings are warnings in a
# full checkout, so artefacts of the copy.
# holdout22's 3 skills failing only on wrong findings at its one measurement (run outputs a
# script's block or a sibling skill writes, a template's placeholder name) are 0 after tuning.
# holdout28's 2 at its one measurement (GitHub's documented sample OAuth tokens in a copied
# reference, whose checksums fail; a deployment guide's manual step copying the person's new
# deploy key to their own repository's secret) are 0 after tuning on it.
# holdout29's 1 at its one measurement (a privilege-escalation reference's LinPEAS piped to sh
# on the engagement's target) is 0 after tuning on it.
# holdout31's 0.761 severe at its one measurement (scripts run from the repository or a
# contributor's check block, described plugin scripts, another agent's references in a table
# row, `rm -rf /` in a never-run list, a pentest's probe of the target's `.env`) is 0.911 after
# tuning on it (51 tp, 5 policy), 1.0 once a sync guide is read folder by folder and a key a
# repository's documents say a harness reads is read there (the 5 policy findings are
# warnings in a full checkout, so artefacts of the copy); its security, 0.846, is 1.0; its 10
# skills failing only on wrong or policy findings are 0.
# holdout30's 9 at its one measurement (7 skills without frontmatter in a Claude Code-only
# plugin marketplace, SF102 policy; an APK's file; a rule demanding openness) are 0 after
# tuning on it: SF102 over an introduction that only Claude Code reads is a warning, the class
# readers of five parts read as policy (the 11 findings of it read as true before the class
# was settled, in holdout5 and tune, are relabelled policy). holdout24's last one, such a
# skill at a marketplace plugin's root whose README adds the marketplace through `claude
# /plugin`, is a warning in a full checkout too, so an artefact of the copy.
ONLY_WRONG_LEFT: dict[str, pytest.MarkDecorator] = {
    "holdout32": _unmet("1 after tuning on it (36 at its one measurement): a report-format "
                        "SKILL.md its repository's agents read by path (SF102, policy)"),
    "holdout27": _unmet("8 after tuning on it (35 at its one measurement; 10 before SF102's "
                        "Claude Code-only class became warnings): a harness's own `tags` key "
                        "(SF112, 7, policy), a sandbox-mode heading's example (SF512)"),
    "holdout26": _unmet("1 after tuning on it (14 at its one measurement): a scan skill naming "
                        "`templates/report-skeleton.html`, which only its sibling report skill "
                        "reads from the plugin root (SF116)"),
    "holdout25": _unmet("2 after tuning on it (6 at its one measurement): a squad's step "
                        "running the core plugin's `scripts/launch.ts` (SF301) and a playbook "
                        "naming the meta-squad's `scripts/aggregate.ts` (SF116); a quoted message "
                        "naming `scripts/onboard.ts` is a warning now"),
    "holdout12": _unmet("3: scripts of the user's infrastructure repository the text gives no "
                        "sign of being the user's (SF301; its 4 skills running the collection's "
                        "validator from the repository's top are warnings in a full checkout, "
                        "so their findings are artefacts of the copy)"),
    "holdout19": _unmet("2 after tuning on it (6 at its one measurement): a synced copy of "
                        "a tool-installed skill (SF116) and a name differing from its folder "
                        "in a Claude Code-only repository (SF110, policy)"),
}


@pytest.mark.parametrize("split", [pytest.param(s, marks=ONLY_WRONG_LEFT.get(s, ()))
                                   for s in ("test", *HELD_OUT)])
def test_no_skill_fails_the_gate_only_on_wrong_or_policy_findings(severe, split):
    """The issue's third target: a skill the gate fails has at least one finding that is true
    (or an artefact of the corpus copy); none fails on wrong or policy findings alone."""
    _held_out(severe, split)  # skips a sealed part
    labels = load_labels()
    only_wrong = {}
    for skill, found in _FAILING[split].items():
        labs = {labels[s.key].of(s.message).label for s in found}
        if found and labs <= {"fp", "policy"}:
            only_wrong[skill] = sorted({s.key[4] for s in found})
    assert not only_wrong, only_wrong
