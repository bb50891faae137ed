"""Round trips: every sample skill's cases, and generated ones, through every format and back.

Equal up to what the conversion reports as not carried over: a field a format cannot hold
must be named in the loss list, and every other field must come back unchanged.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillforge.evalformats import registry
from skillforge.models.evals import CASE_FIELDS, EvalCase, EvalSet, load_evals

SAMPLES = sorted((Path(__file__).parents[2] / "sample_skills").iterdir())
# What each format cannot hold of the sample skills' cases (every case has a grader script
# and input files or none; none has checks, notes or reference_turns).
EXPECTED_LOSSES = {
    "cc-plugin-eval": {"files", "grader"},
    "waza": {"grader"},
    "vally": {"grader"},
    "skill-creator": {"kind", "expected_skill", "expected_script", "grader"},
    "nvidia": {"kind", "grader"},
    "skillforge": set(),
}


def round_trip(evalset: EvalSet, fmt: str) -> tuple[EvalSet, set[tuple[str, str]], set[str]]:
    out = Path(tempfile.mkdtemp()) / "out"
    losses = registry.write(evalset, fmt, out)
    back = registry.read(out)
    assert back.issues == [], back.issues
    assert back.evalset is not None
    return back.evalset, {(x.case_id, x.field) for x in losses}, {x.field for x in losses}


def differences(a: EvalSet, b: EvalSet, lost: set[tuple[str, str]]) -> list[str]:
    by_id = {str(c.id): c for c in b.cases}
    out = []
    for case in a.cases:
        other = by_id.get(str(case.id))
        if other is None:
            out.append(f"{case.id}: missing")
            continue
        for name in [*CASE_FIELDS, *case.extra]:
            if (str(case.id), name) in lost or name == "id":
                continue
            if name == "kind":
                mine, theirs = case.effective_kind, other.effective_kind
            elif name == "should_trigger":
                if (str(case.id), "kind") in lost:
                    continue
                mine, theirs = case.is_negative, other.is_negative
            elif name == "checks":  # a set: plugin-eval keeps graders as files, in name order
                mine, theirs = (sorted(json.dumps(c, sort_keys=True) for c in x.checks)
                                for x in (case, other))
            elif name in CASE_FIELDS:
                mine, theirs = getattr(case, name), getattr(other, name)
            else:
                mine, theirs = case.extra[name], other.extra.get(name)
            if mine != theirs:
                out.append(f"{case.id}.{name}: {mine!r} != {theirs!r}")
    return out


@pytest.mark.parametrize("fmt", registry.WRITABLE)
@pytest.mark.parametrize("skill", SAMPLES, ids=lambda p: p.name)
def test_sample_cases_survive_every_format(skill, fmt):
    evalset, issues = load_evals(skill / "evals" / "evals.json")
    assert issues == []
    back, lost, fields = round_trip(evalset, fmt)
    assert differences(evalset, back, lost) == []
    assert fields == EXPECTED_LOSSES[fmt]
    assert {str(c.id) for c in back.cases} == {str(c.id) for c in evalset.cases}


text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
               min_size=1, max_size=40).map(str.strip).filter(bool)
name = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
check = st.one_of(
    st.builds(lambda t, n: {"type": "tool_used", "tool": t, "min": 0, "max": 0} if n else
              {"type": "tool_used", "tool": t}, st.sampled_from(["Bash", "Read", "Write"]),
              st.booleans()),
    st.builds(lambda p, neg: {"type": "regex", "pattern": p,
                              "match": "not_contains" if neg else "contains"},
              name, st.booleans()),
    st.builds(lambda p, e: {"type": "file_exists", "path": p} if e else
              {"type": "file_exists", "path": p, "exists": False}, name, st.booleans()),
)


@st.composite
def cases(draw):
    ids = draw(st.lists(name, min_size=1, max_size=4, unique=True))
    out = []
    for cid in ids:
        negative = draw(st.booleans())
        out.append(EvalCase(
            id=cid, kind="negative" if negative else draw(st.sampled_from(
                ["explicit", "implicit", "contextual"])),
            prompt=draw(text), expected_skill=None if negative else "demo-skill",
            expected_script=None if negative else draw(st.none() | st.just("scripts/run.py")),
            ground_truth=draw(st.none() | text), notes=draw(st.none() | text),
            expected_behavior=draw(st.lists(text, max_size=3)),
            checks=draw(st.lists(check, max_size=3))))
    return EvalSet(skill_name="demo-skill", cases=out)


@pytest.mark.parametrize("fmt", ["cc-plugin-eval", "waza", "vally"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evalset=cases())
def test_generated_cases_survive_the_yaml_formats(fmt, evalset):
    back, lost, _ = round_trip(evalset, fmt)
    assert differences(evalset, back, lost) == []


def test_the_loss_table_of_docs_evalformats():
    """docs/evalformats.md's table: cases per field not carried, over the sample skills."""
    table: dict[str, dict[str, int]] = {fmt: {} for fmt in registry.WRITABLE}
    for skill in SAMPLES:
        evalset, _ = load_evals(skill / "evals" / "evals.json")
        for fmt in registry.WRITABLE:
            losses = registry.write(evalset, fmt, Path(tempfile.mkdtemp()) / "o")
            for case_id, field in {(x.case_id, x.field) for x in losses}:
                table[fmt][field] = table[fmt].get(field, 0) + 1
    assert table == {
        "skillforge": {},
        "cc-plugin-eval": {"grader": 18, "files": 13},
        "waza": {"grader": 18},
        "vally": {"grader": 18},
        "skill-creator": {"grader": 18, "kind": 18, "expected_skill": 12, "expected_script": 12},
        "nvidia": {"grader": 18, "kind": 9},
    }
