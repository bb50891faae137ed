"""skillforge and skills-ref (the reference validator, PyPI `skills-ref`) agree.

CONTRACTS.md section 1: skills-ref's checks are a subset of skillforge's correctness rules,
so skillforge must never pass a skill that skills-ref fails, except where the two read the
same file differently for a reason written down here. Both validators run in process over
every corpus skill, the SF1xx rule fixtures and a few small skills that pin the documented
differences down. Every claim about skills-ref below was checked against its source
(skills_ref/parser.py, skills_ref/validator.py) and StrictYAML's (strictyaml/parser.py).

DOCUMENTED_DIFFERENCES is the list the README cites.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from skills_ref.validator import validate as skills_ref_validate

from linters import lint_skill
from skillforge.models.findings import Category, Finding, Severity
from skillforge.models.skill import Skill, load_skill
from tests.conftest import RULE_FIXTURES
from tests.corpus import corpus_id, corpus_skill_dirs, load_corpus_skill


@dataclass(frozen=True)
class Difference:
    """A documented way in which skills-ref and skillforge judge the same skill differently."""

    key: str
    stricter: str  # "skills-ref", "skillforge", or "both ways"
    rules: tuple[str, ...]  # skillforge rules involved
    reason: str


DOCUMENTED_DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "strictyaml",
        "skills-ref",
        ("SF104",),
        "skills-ref parses the frontmatter with StrictYAML (parser.py: strictyaml.load), which "
        "refuses valid YAML: flow collections (`mcp: [rube]`, `{author: me}`), anchors and "
        "aliases, explicit tags (`!!str`) and sibling mappings indented differently "
        "(strictyaml/parser.py: StrictYAMLScanner.check_token, "
        "StrictYAMLConstructor.construct_mapping). Harnesses read these with ordinary YAML "
        "parsers, and so does skillforge (ruamel.yaml, YAML 1.2): SF104 does not fire.",
    ),
    Difference(
        "dash-split",
        "both ways",
        ("SF103", "SF104", "SF106", "SF107", "SF111"),
        "skills-ref finds the frontmatter with content.split('---', 2) (parser.py: "
        "parse_frontmatter), so `---` inside a value (`description: A---B`) ends the "
        "frontmatter there: it then validates a truncated description, or misses the keys "
        "after it. skillforge splits on lines that are exactly `---`.",
    ),
    Difference(
        "claude-code-keys",
        "skills-ref",
        ("SF112",),
        "Both reject frontmatter keys outside the spec, but for keys Claude Code documents "
        "for skills (`disable-model-invocation`, `effort`, `model`, ...) skillforge reports "
        "SF112 as a warning, not an error: the key works in one harness.",
    ),
    Difference(
        "lowercase-skill-md",
        "skillforge",
        ("SF101",),
        "skills-ref accepts `skill.md` as well as `SKILL.md` (parser.py: find_skill_md); "
        "the spec names the file SKILL.md and harnesses on case-sensitive filesystems look "
        "for exactly that name.",
    ),
    Difference(
        "unicode-names",
        "skillforge",
        ("SF108", "SF110"),
        "skills-ref strips whitespace, applies NFKC and accepts any Unicode letter "
        "(validator.py: _validate_name uses str.isalnum); the spec allows only lowercase "
        "ASCII letters, digits and hyphens, so `données-csv` or `\"pdf-tools \"` fail.",
    ),
    Difference(
        "typed-scalars",
        "skillforge",
        ("SF107", "SF108", "SF113"),
        "StrictYAML reads every scalar as a string, so skills-ref accepts `name: 2024`, "
        "`description: true` or `compatibility: 3.11`; the YAML parsers harnesses use type "
        "those as numbers and booleans, and the spec requires strings.",
    ),
    Difference(
        "empty-compatibility",
        "skillforge",
        ("SF113",),
        "StrictYAML reads an empty `compatibility:` as '' and skills-ref only checks the "
        "type and the 500-character limit; the spec requires 1-500 characters.",
    ),
    Difference(
        "files-not-checked",
        "skillforge",
        ("SF116", "SF118", "SF124"),
        "skills-ref validates SKILL.md's frontmatter only; skillforge also checks the skill's "
        "other files: that links and referenced files exist, that every file is UTF-8 and "
        "readable, since an agent that follows a broken or unreadable reference finds nothing.",
    ),
    Difference(
        "anthropic-upload-rules",
        "skillforge",
        ("SF117", "SF121"),
        "Anthropic's skill upload (claude.ai, Claude API) rejects `<`/`>` in name and "
        "description and the reserved words `anthropic`/`claude` in the name; these are "
        "platform rules outside the open spec, which skills-ref implements, so skillforge "
        "reports them as warnings, and as errors only with `--target claude-ai`.",
    ),
)
DIFFERENCES = {d.key: d for d in DOCUMENTED_DIFFERENCES}

# skills-ref's messages (validator.py, parser.py) and the skillforge rules that say the same.
SKILLS_REF_TO_RULES: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (needle, frozenset(rules))
    for needle, rules in (
        ("Missing required file: SKILL.md", {"SF101"}),
        ("must start with YAML frontmatter", {"SF102", "SF118"}),
        ("not properly closed", {"SF103"}),
        ("Invalid YAML in frontmatter", {"SF104", "SF103"}),
        ("must be a YAML mapping", {"SF105"}),
        ("Unexpected fields in frontmatter", {"SF112"}),
        ("Missing required field in frontmatter: name", {"SF106"}),
        ("Missing required field in frontmatter: description", {"SF107"}),
        ("Field 'name' must be a non-empty string", {"SF106", "SF108"}),
        ("Field 'description' must be a non-empty string", {"SF107"}),
        ("exceeds 64 character limit", {"SF109"}),
        ("must be lowercase", {"SF108"}),
        ("cannot start or end with a hyphen", {"SF108"}),
        ("consecutive hyphens", {"SF108"}),
        ("contains invalid characters", {"SF108"}),
        ("Directory name", {"SF110"}),
        ("Description exceeds", {"SF111"}),
        ("Field 'compatibility' must be a string", {"SF113"}),
        ("Compatibility exceeds", {"SF113"}),
        ("skills-ref crashed", {"SF118", "SF124"}),  # read_text() raises on bad UTF-8
    )
)
_STRICTYAML_ONLY = ("flow mapping", "anchor token", "tag tokens", "indentation inconsistent")

# Small skills that pin each documented difference down (folder name, files).
SYNTHETIC: dict[str, tuple[str, dict[str, str]]] = {
    "flow-metadata": ("pdf-rotate", {"SKILL.md": (
        "---\nname: pdf-rotate\ndescription: Rotates PDF pages. Use when pages are sideways.\n"
        "metadata: {author: docs-team}\n---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf "
        "out.pdf`.\n")}),
    "anchor": ("pdf-rotate", {"SKILL.md": (
        "---\nname: pdf-rotate\ndescription: &d Rotates PDF pages. Use when pages are "
        "sideways.\n---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
    "dash-in-description": ("pdf-rotate", {"SKILL.md": (
        "---\ndescription: Rotates PDF pages---one or all. Use when pages are sideways.\n"
        "name: pdf-rotate\n---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
    "dots-closer": ("pdf-rotate", {"SKILL.md": (
        "---\nname: pdf-rotate\ndescription: Rotates PDF pages. Use when pages are sideways.\n"
        "...\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
    "lowercase-skill-md": ("pdf-rotate", {"skill.md": (
        "---\nname: pdf-rotate\ndescription: Rotates PDF pages. Use when pages are sideways.\n"
        "---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
    "unicode-name": ("données-csv", {"SKILL.md": (
        "---\nname: données-csv\ndescription: Nettoie des fichiers CSV. Use when a French CSV "
        "export needs cleaning.\n---\n\n# Données CSV\n\nRun `csvclean data.csv`.\n")}),
    "number-name": ("2048", {"SKILL.md": (
        "---\nname: 2048\ndescription: Plays the 2048 puzzle. Use when the user wants to play "
        "2048.\n---\n\n# 2048\n\nStart with two tiles.\n")}),
    "number-compatibility": ("pdf-rotate", {"SKILL.md": (
        "---\nname: pdf-rotate\ndescription: Rotates PDF pages. Use when pages are sideways.\n"
        "compatibility: 3.11\n---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
    "empty-compatibility": ("pdf-rotate", {"SKILL.md": (
        "---\nname: pdf-rotate\ndescription: Rotates PDF pages. Use when pages are sideways.\n"
        "compatibility:\n---\n\n# PDF rotate\n\nRun `qpdf --rotate=+90 in.pdf out.pdf`.\n")}),
}


@dataclass
class Verdict:
    case: str
    path: Path
    skill: Skill
    skills_ref: list[str]
    findings: list[Finding] = field(default_factory=list)  # skillforge, correctness only

    @property
    def rules(self) -> set[str]:
        return {f.rule for f in self.findings}

    @property
    def error_rules(self) -> set[str]:
        return {f.rule for f in self.findings if f.severity == Severity.error}


def _skills_ref(path: Path) -> list[str]:
    try:
        return skills_ref_validate(path)
    except Exception as exc:  # noqa: BLE001 - read_text() raises on undecodable files
        return [f"skills-ref crashed: {exc!r}"]


def _verdict(case: str, path: Path, skill: Skill) -> Verdict:
    report = lint_skill(skill, external=False)
    found = [f for f in report.findings if f.category == Category.correctness]
    return Verdict(case, path, skill, _skills_ref(path), found)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> list[Verdict]:
    out = [_verdict(f"corpus:{corpus_id(d)}", d, load_corpus_skill(d)) for d in corpus_skill_dirs()]
    for d in sorted(RULE_FIXTURES.glob("SF1*/*/*")):
        if d.is_dir():
            case = f"fixture:{d.parent.parent.name}/{d.parent.name}"
            out.append(_verdict(case, d, load_skill(d)))
    base = tmp_path_factory.mktemp("agreement")
    for case, (folder, files) in SYNTHETIC.items():
        root = base / case / folder
        root.mkdir(parents=True)
        for rel, text in files.items():
            (root / rel).write_text(text, "utf-8")
        out.append(_verdict(f"synthetic:{case}", root, load_skill(root)))
    return out


# --- explaining a difference -------------------------------------------------------------


def _frontmatter_raw(v: Verdict) -> str:
    fm = v.skill.frontmatter
    return fm.raw if fm is not None else ""


def skills_ref_stricter_reason(v: Verdict, message: str) -> str | None:
    """The documented difference that explains a skills-ref message skillforge has no rule for."""
    body = _frontmatter_raw(v)
    if any("---" in ln and ln.strip() != "---" for ln in body.splitlines()):
        return "dash-split"
    strict_only = any(marker in message for marker in _STRICTYAML_ONLY)
    if message.startswith("Invalid YAML") and v.skill.frontmatter_status == "ok" and strict_only:
        return "strictyaml"
    return None


def skillforge_stricter_reason(v: Verdict, rule: str) -> str | None:
    """The documented difference that justifies a skillforge error on a skill skills-ref accepts."""
    fm = v.skill.frontmatter
    data = fm.data if fm is not None and isinstance(fm.data, dict) else {}
    name = data.get("name")
    if rule == "SF101" and (v.path / "skill.md").is_file():
        return "lowercase-skill-md"
    if rule in ("SF108", "SF110") and isinstance(name, str):
        stripped = unicodedata.normalize("NFKC", name.strip())
        if not name.isascii() or stripped != name:
            return "unicode-names"
    if rule in ("SF107", "SF108", "SF113"):
        key = {"SF107": "description", "SF108": "name", "SF113": "compatibility"}[rule]
        value = data.get(key)
        if value is not None and not isinstance(value, (str, dict, list)):
            return "typed-scalars"
        if rule == "SF113" and (value is None or value == ""):
            return "empty-compatibility"
    if rule == "SF116" or (rule in ("SF118", "SF124") and _only_other_files(v, rule)):
        return "files-not-checked"
    if rule in ("SF117", "SF121"):
        return "anthropic-upload-rules"
    if any("---" in ln and ln.strip() != "---" for ln in _frontmatter_raw(v).splitlines()):
        return "dash-split"
    return None


def _only_other_files(v, rule: str) -> bool:
    """Every finding of `rule` is about a file other than SKILL.md."""
    return all(f.path != "SKILL.md" for f in v.findings if f.rule == rule)


# --- the tests -----------------------------------------------------------------------------


def test_skillforge_never_passes_what_skills_ref_rejects(verdicts):
    """Each skill skills-ref rejects gets a correctness finding, unless a difference explains it."""
    unexplained = []
    for v in verdicts:
        if not v.skills_ref or v.findings:
            continue
        reasons = {skills_ref_stricter_reason(v, m) for m in v.skills_ref}
        if None in reasons:
            unexplained.append((v.case, v.skills_ref))
    assert not unexplained, f"skills-ref rejects, skillforge is silent: {unexplained}"


def test_each_skills_ref_error_has_its_skillforge_rule(verdicts):
    """Finer: each skills-ref message is matched by the skillforge rule that says the same."""
    missing = []
    for v in verdicts:
        for message in v.skills_ref:
            expected = next((rules for needle, rules in SKILLS_REF_TO_RULES if needle in message),
                            None)
            assert expected is not None, f"{v.case}: unmapped skills-ref message {message!r}"
            if expected & v.rules or skills_ref_stricter_reason(v, message):
                continue
            missing.append((v.case, message[:120], sorted(expected), sorted(v.rules)))
    assert not missing, f"skills-ref errors without the matching skillforge rule: {missing}"


def test_skillforge_errors_on_accepted_skills_are_documented(verdicts, capsys):
    """Where skillforge errors and skills-ref accepts, the spec (or a platform) is stricter."""
    undocumented = []
    seen: Counter[str] = Counter()
    lines = []
    for v in verdicts:
        if v.skills_ref or not v.error_rules:
            continue
        reasons = {rule: skillforge_stricter_reason(v, rule) for rule in sorted(v.error_rules)}
        lines.append(f"  {v.case}: " + ", ".join(f"{r} ({why})" for r, why in reasons.items()))
        for rule, why in reasons.items():
            if why is None or rule not in DIFFERENCES[why].rules:
                undocumented.append((v.case, rule))
            else:
                seen[why] += 1
    with capsys.disabled():
        print("\nskillforge errors where skills-ref accepts:")
        print("\n".join(lines) or "  none")
    assert not undocumented, f"skillforge errors without a documented difference: {undocumented}"


def test_every_documented_difference_is_observed(verdicts):
    """The list stays honest: each difference shows up on at least one real or pinned case."""
    observed: set[str] = set()
    for v in verdicts:
        if v.skills_ref:
            observed.update(r for m in v.skills_ref if (r := skills_ref_stricter_reason(v, m)))
            if "SF112" in v.rules and "SF112" not in v.error_rules:
                observed.add("claude-code-keys")
        else:
            reasons = (skillforge_stricter_reason(v, rule) for rule in v.error_rules)
            observed.update(r for r in reasons if r)
            if {"SF117", "SF121"} & v.rules:  # warnings unless the target is claude.ai
                observed.add("anthropic-upload-rules")
    assert set(DIFFERENCES) <= observed, f"never observed: {sorted(set(DIFFERENCES) - observed)}"


def test_summary(verdicts, capsys):
    """Print how often the two validators agree, on the corpus and on everything."""
    def tally(vs: list[Verdict]) -> Counter[str]:
        c: Counter[str] = Counter()
        for v in vs:
            ref = "rejects" if v.skills_ref else "accepts"
            ours = "errors" if v.error_rules else ("warns" if v.findings else "clean")
            c[f"skills-ref {ref} / skillforge {ours}"] += 1
        return c

    corpus = [v for v in verdicts if v.case.startswith("corpus:")]
    with capsys.disabled():
        print(f"\nskills-ref vs skillforge on {len(corpus)} corpus skills:")
        for k, n in sorted(tally(corpus).items()):
            print(f"  {k}: {n}")
        print(f"all {len(verdicts)} cases (corpus, SF1xx fixtures, pinned differences):")
        for k, n in sorted(tally(verdicts).items()):
            print(f"  {k}: {n}")
        print("documented differences: " + ", ".join(d.key for d in DOCUMENTED_DIFFERENCES))
    assert corpus
