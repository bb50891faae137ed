"""Per-harness compatibility rules (SF701-SF707): each profile rule fires on its failing
fixture and stays quiet on its passing one, and the profiles say where their facts come from.

Fixtures: tests/fixtures/compat/<case>/{fail,pass}/ are small trees laid out as a project
(the test marks the tree's root as the repository with a `.git` folder), with `home/` as
$HOME when the case needs installed skills. The passing tree is the failing one fixed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters import catalogue, lint_skill
from linters.compat.profiles import BASES, profiles
from skillforge.models.findings import Category, Severity
from skillforge.models.lint_config import HARNESSES, LintConfig, parse_harnesses
from tests.conftest import ROOT
from tests.hypothesis_budget import examples

FIXTURES = ROOT / "tests" / "fixtures" / "compat"
LONG_NAME = "release-notes-" + "-".join(["drafted"] * 8)

# (case, harness, rule, the skill inside the failing tree, inside the passing tree, severity)
CASES = [
    ("SF701-codex", "codex", "SF701", "drafts/release-notes",
     ".agents/skills/release-notes", Severity.info),
    ("SF701-claude-code", "claude-code", "SF701", ".claude/skills/team/release-notes",
     ".claude/skills/release-notes", Severity.warning),
    ("SF702-codex", "codex", "SF702", ".agents/skills/release-notes",
     ".agents/skills/release-notes", Severity.warning),
    ("SF703-opencode", "opencode", "SF703", ".opencode/skills/release-notes",
     ".opencode/skills/release-notes", Severity.error),
    ("SF703-codex", "codex", "SF703", f".agents/skills/{LONG_NAME}",
     ".agents/skills/release-notes", Severity.error),
    ("SF704-codex", "codex", "SF704", ".agents/skills/release-notes",
     ".agents/skills/release-notes", Severity.error),
    ("SF705-claude-code", "claude-code", "SF705", ".claude/skills/release-notes",
     ".claude/skills/release-notes", Severity.warning),
    ("SF706-claude-code", "claude-code", "SF706", "notes-plugin/extras/release-notes",
     "notes-plugin/skills/release-notes", Severity.warning),
    ("SF706-gemini-cli", "gemini-cli", "SF706", "notes-plugin/skills/release-notes",
     "notes-extension/skills/release-notes", Severity.info),
    ("SF707-codex", "codex", "SF707", ".agents/skills/release-notes",
     ".agents/skills/release-notes", Severity.warning),
]


def tree(case: str, which: str, tmp_path: Path, monkeypatch) -> Path:
    """A copy of the fixture tree as a repository of its own, its `home/` as $HOME."""
    dest = tmp_path / which
    shutil.copytree(FIXTURES / case / which, dest)
    (dest / ".git").mkdir()
    (dest / "home").mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(dest / "home"))
    return dest


def fired(skill: Path, harness: str, rule: str) -> list:
    report = lint_skill(skill, LintConfig(harness=[harness], scripts=False), external=False)
    return [f for f in report.findings if f.rule == rule]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_failing_fixture_fires_and_names_its_harness(case, tmp_path, monkeypatch):
    name, harness, rule, failing, _passing, severity = case
    found = fired(tree(name, "fail", tmp_path, monkeypatch) / failing, harness, rule)
    assert found, f"{rule} did not fire for {harness}"
    title = profiles()[harness].title
    for f in found:
        assert f.category == Category.compatibility
        assert f.code == harness
        assert f.message.startswith(f"{title} ")
        # the profile table's basis and version close the message
        assert any(f"({b}: " in f.message for b in BASES), f.message
        assert f.message.endswith(")."), f.message
    assert severity in {f.severity for f in found}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_passing_fixture_is_clean(case, tmp_path, monkeypatch):
    name, harness, rule, _failing, passing, _severity = case
    found = fired(tree(name, "pass", tmp_path, monkeypatch) / passing, harness, rule)
    assert not found, [f.message for f in found]


def test_every_compat_rule_has_a_case_and_runs_only_when_asked():
    compat = {r.id for r in catalogue().values() if r.category == Category.compatibility}
    assert compat == {f"SF70{i}" for i in range(1, 8)}
    assert {c[2] for c in CASES} == compat
    assert all(catalogue()[r].phase == "harness" for r in compat)


def test_no_harness_no_compat_finding_and_the_same_score(tmp_path, monkeypatch):
    skill = tree("SF704-codex", "fail", tmp_path, monkeypatch) / ".agents/skills/release-notes"
    plain = lint_skill(skill, LintConfig(scripts=False), external=False)
    everyone = lint_skill(skill, LintConfig(harness=list(HARNESSES), scripts=False), external=False)
    checked = lint_skill(skill, LintConfig(harness=["codex"], scripts=False), external=False)
    assert {f.code for f in everyone.findings if f.rule.startswith("SF7")} == set(HARNESSES)
    assert not [f for f in plain.findings if f.rule.startswith("SF7")]
    assert [f for f in checked.findings if f.rule.startswith("SF7")]
    # never scored: the structural score is the same; the gate counts Codex's refusal (error)
    assert checked.score == plain.score and checked.categories == plain.categories

    def errors(report):
        return sum(f.severity == Severity.error for f in report.findings)

    assert errors(checked) == errors(plain) + 1
    assert checked.gate_reasons != plain.gate_reasons


def test_codex_counts_the_description_after_collapsing_whitespace(tmp_path, monkeypatch):
    skill = tree("SF704-codex", "pass", tmp_path, monkeypatch) / ".agents/skills/release-notes"
    raw = lint_skill(skill, LintConfig(scripts=False), external=False)
    assert "SF111" in {f.rule for f in raw.findings}  # over 1,024 as written (the spec rule)
    assert not fired(skill, "codex", "SF704")  # but Codex collapses the runs of spaces first


# (case, harness, rule, the failing skill, what its one finding says, a harness it does not
# fire for). The listing cut quotes the lost trigger and its place, and Codex documents no
# per-skill cut; the namesake message names the other copy, and Claude Code does not read
# ~/.codex/skills, so it has no namesake there.
MESSAGES = [
    ("SF705-claude-code", "claude-code", "SF705", ".claude/skills/release-notes",
     ["cuts off 'Use when' (character 1,813)",
      "lists only the first 1,536 characters of description and when_to_use"], "codex"),
    ("SF707-codex", "codex", "SF707", ".agents/skills/release-notes",
     ["~/.codex/skills/old-release-notes/SKILL.md"], "claude-code"),
]


@pytest.mark.parametrize("case", MESSAGES, ids=lambda c: c[0])
def test_the_message_says_what_and_where_for_its_harness_only(case, tmp_path, monkeypatch):
    name, harness, rule, failing, says, other = case
    skill = tree(name, "fail", tmp_path, monkeypatch) / failing
    [f] = fired(skill, harness, rule)
    for text in says:
        assert text in f.message
    assert not fired(skill, other, rule)


def test_every_profile_table_states_source_version_and_basis():
    for harness, p in profiles().items():
        assert p.harness == harness
        for table in (p.discovery, p.name, p.description, p.listing, p.keys, p.plugin):
            assert table.source.strip() and table.version.strip(), (harness, table)
            assert table.basis in BASES
            if table.basis == "assumed":
                # an assumption says so in its source text rather than citing a page
                assert "no " in table.source.lower() or "assumed" in table.source.lower(), table


def test_harness_ids_parse_and_unknown_ones_are_named():
    assert parse_harnesses("codex,claude-code") == ["claude-code", "codex"]
    assert parse_harnesses("all") == list(HARNESSES)
    with pytest.raises(ValueError, match="'cursor'"):
        parse_harnesses("codex,cursor")


_FRONTMATTER = st.sampled_from([
    "name: release-notes\n", "name: Release Notes\n", "name: -x--y-\n", "name: 7\n", "name:\n",
    "description: Use when asked.\n", "description: |\n  a\n\n  b   c\n", "description: [1, 2]\n",
    f"description: {'word ' * 300}\n", "when_to_use: Use when the user asks.\n", "when_to_use: 3\n",
    "metadata:\n  short-description: " + "s" * 600 + "\n", "metadata: 4\n", "metadata:\n  - a\n",
    "disable-model-invocation: true\n", "allowed-tools: Bash\n", "context: fork\n", "1: x\n",
    "paths: ['*.md']\n", "hooks: {}\n",
])


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_FRONTMATTER, max_size=8).map("".join), st.booleans())
def test_any_frontmatter_lints_for_every_harness_and_keeps_its_score(tmp_path, monkeypatch,
                                                                      fm, in_agents):
    """Whatever the frontmatter, the harness rules never raise, every finding names a known
    harness and reads as a sentence, and the structural score is the one without them."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / (".agents/skills/release-notes" if in_agents else "drafts/release-notes")
    root.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(f"---\n{fm}---\n\n# Release notes\n\nDo it.\n", "utf-8")
    plain = lint_skill(root, LintConfig(scripts=False), external=False)
    checked = lint_skill(root, LintConfig(harness=list(HARNESSES), scripts=False), external=False)
    assert (checked.score, checked.categories) == (plain.score, plain.categories)
    extra = [f for f in checked.findings if f.rule.startswith("SF7")]
    assert [f for f in checked.findings if not f.rule.startswith("SF7")] == plain.findings
    for f in extra:
        assert f.code in HARNESSES and f.message.endswith(").")


def test_a_plugin_the_harness_does_not_read_is_said_once(tmp_path, monkeypatch):
    """SF706 says where to install the skill instead; SF701 does not say it again."""
    skill = tree("SF706-gemini-cli", "fail", tmp_path, monkeypatch) / "notes-plugin/skills/release-notes"
    report = lint_skill(skill, LintConfig(harness=list(HARNESSES), scripts=False), external=False)
    compat = sorted((f.code, f.rule) for f in report.findings if f.rule.startswith("SF7"))
    assert compat == sorted([(h, "SF706") for h in HARNESSES if h != "claude-code"])
