"""The three sample skills are exemplary: they lint to grade A, follow the house layout, and
their evals are consistent with their files and graders (scripts: test_sample_scripts.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linters import lint_skill
from skillforge.models.evals import KINDS, load_evals
from skillforge.models.findings import Category, Severity
from skillforge.models.skill import load_skill
from tests.samples.helpers import (
    SCRIPTS,
    SKILLS,
    run_script,
    skill_dir,
)

ROOT = Path(__file__).resolve().parents[2]


# --- the skills as a whole ----------------------------------------------------------------


@pytest.mark.parametrize("skill", SKILLS)
def test_lints_to_grade_a_without_errors_or_security_findings(skill):
    report = lint_skill(skill_dir(skill))
    summary = [(f.rule, f.path, f.line, f.message) for f in report.findings]
    assert report.grade == "A", summary
    assert not [f for f in report.findings if f.severity == Severity.error], summary
    assert not [f for f in report.findings if f.category == Category.security], summary
    assert report.security_score == 100


@pytest.mark.parametrize("skill", SKILLS)
def test_frontmatter_follows_the_house_rules(skill):
    loaded = load_skill(skill_dir(skill))
    assert loaded.name == skill
    description = loaded.description
    assert 100 <= len(description) <= 400
    assert "\n" not in description and not re.search(r"[`*_#\[]", description)
    assert re.match(r"^[A-Z][a-z]+s\b", description), "third person: 'Summarises ...'"
    assert "Use when" in description
    assert loaded.frontmatter.get("compatibility").startswith("Requires python3")
    assert all(isinstance(v, str) for v in loaded.frontmatter.get("metadata").values())
    assert len(loaded.body.splitlines()) < 200


@pytest.mark.parametrize("skill", SKILLS)
def test_body_has_the_sections_of_a_good_skill(skill):
    body = load_skill(skill_dir(skill)).body
    for heading in ("## Overview", "## When to use", "## When not to use", "## Workflow",
                    "## Verify", "## Example", "## Limitations", "## Reference"):
        assert f"\n{heading}\n" in body, heading
    assert f"python3 {SCRIPTS[skill]}" in body
    refs = list((skill_dir(skill) / "references").glob("*.md"))
    assert len(refs) == 1 and f"(references/{refs[0].name})" in body


@pytest.mark.parametrize("skill", SKILLS)
def test_long_references_start_with_a_table_of_contents(skill):
    for ref in (skill_dir(skill) / "references").glob("*.md"):
        lines = ref.read_text(encoding="utf-8").splitlines()
        if len(lines) > 100:
            assert "## Contents" in lines[:15], ref.name


@pytest.mark.parametrize("skill", SKILLS)
def test_scripts_and_graders_are_executable_stdlib_programs(skill):
    programs = [skill_dir(skill) / SCRIPTS[skill],
                *sorted((skill_dir(skill) / "evals" / "graders").glob("*.py"))]
    stdlib = set(sys.stdlib_module_names)
    for path in programs:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#!/usr/bin/env python3\n"), path.name
        assert os.stat(path).st_mode & 0o777 == 0o755, path.name
        imported = re.findall(r"^(?:from|import) (\w+)", text, re.MULTILINE)
        # Besides the standard library, a script may import its own sibling modules.
        siblings = {p.stem for p in path.parent.glob("*.py")}
        assert set(imported) - {"__future__"} <= stdlib | siblings, path.name
        assert "input(" not in text, path.name


def test_scripts_and_graders_pass_ruff_with_default_rules():
    ruff = shutil.which("ruff", path=str(ROOT / ".venv" / "bin")) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed")
    targets = [str(skill_dir(s) / d) for s in SKILLS for d in ("scripts", "evals/graders")]
    done = subprocess.run([ruff, "check", "--isolated", "--no-cache", *targets],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("skill", SKILLS)
def test_help_runs_and_shows_an_example(skill):
    done = run_script(skill, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: ")
    assert "Example: python3 " in done.stdout


# --- evals.json -------------------------------------------------------------------------


def _cases(skill: str):
    evals, issues = load_evals(skill_dir(skill) / "evals" / "evals.json")
    assert not issues, issues
    assert evals.skill_name == skill
    return evals.cases


@pytest.mark.parametrize("skill", SKILLS)
def test_evals_cover_the_four_kinds_with_concrete_assertions(skill):
    cases = _cases(skill)
    assert len(cases) >= 5
    assert {c.kind for c in cases} == set(KINDS)
    for case in cases:
        assert case.ground_truth, case.id
        assert 2 <= len(case.expected_behavior) <= 4, case.id
        if case.kind == "negative":
            assert case.expected_skill is None and case.expected_script is None, case.id
        else:
            assert case.expected_skill == skill, case.id
            assert case.expected_script == SCRIPTS[skill], case.id


@pytest.mark.parametrize("skill", SKILLS)
def test_eval_cases_name_files_that_exist_and_prompts_name_them(skill):
    root = skill_dir(skill)
    for case in _cases(skill):
        for rel in case.files:
            assert rel.startswith("evals/files/") and (root / rel).is_file(), rel
            # Files land in /workspace under their base name; the prompt must point there.
            assert Path(rel).name in case.prompt, (case.id, rel)
        if case.grader:
            grader = root / case.grader
            assert grader.is_file(), case.grader
            answers = re.findall(r'WORKSPACE / "([^"]+)"', grader.read_text(encoding="utf-8"))
            assert answers, case.grader
            for answer in answers:
                assert f"/workspace/{answer}" in case.prompt, (case.id, answer)


@pytest.mark.parametrize("skill", SKILLS)
def test_every_checkable_case_has_a_grader_and_every_grader_a_case(skill):
    cases = _cases(skill)
    assert all(c.grader for c in cases)
    graders = {f"evals/graders/{p.name}" for p in
               (skill_dir(skill) / "evals" / "graders").glob("*.py")}
    assert graders == {c.grader for c in cases}


def test_no_run_leaves_litter_in_the_sample_skills():
    litter = [p for s in SKILLS for p in skill_dir(s).rglob("*")
              if p.name in ("__pycache__", ".ruff_cache", ".pytest_cache") or p.suffix == ".pyc"]
    assert not litter, litter
