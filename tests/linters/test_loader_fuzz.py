"""The loader and the fast linters never raise on hostile input: only findings come back."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from linters.context import LintContext
from linters.engine import build_report, fast_findings
from skillforge.models.skill import load_skill, parse_skill_text
from tests.conftest import fresh_dir
from tests.hypothesis_budget import examples

FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

yaml_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=60), st.sampled_from(["", "-", "--a", "Claude Helper", "x" * 70, "<tag>", "a\nb"]),
)
yaml_values = st.recursive(
    yaml_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)
frontmatter_maps = st.dictionaries(
    st.sampled_from(["name", "description", "license", "compatibility", "metadata", "allowed-tools", "model", "x"])
    | st.text(max_size=10),
    yaml_values,
    max_size=7,
)


def _dump(data) -> str:
    import io

    buf = io.StringIO()
    YAML().dump(data, buf)
    return buf.getvalue()


def _lint_dir(path):
    skill = load_skill(path)
    ctx = LintContext(skill)
    return build_report(ctx, fast_findings(ctx))


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes_as_skill_md(fresh_root, data):
    root = fresh_dir(fresh_root) / "fuzzed-skill"
    root.mkdir()
    (root / "SKILL.md").write_bytes(data)
    report = _lint_dir(root)
    assert 0 <= report.score <= 100 and 0 <= report.security_score <= 100


@FUZZ
@given(frontmatter_maps, st.text(max_size=500))
def test_random_yaml_frontmatter(fresh_root, fm, body):
    root = fresh_dir(fresh_root) / "fuzzed-skill"
    root.mkdir()
    (root / "SKILL.md").write_text(f"---\n{_dump(fm)}---\n{body}", encoding="utf-8")
    report = _lint_dir(root)
    assert report.grade in "ABCDF"


lines = st.lists(
    st.sampled_from(["---", "...", "name: x", "description: y", "  - a", "# T", "```", "<!-- c", "-->", ""])
    | st.text(alphabet=string.printable, max_size=40),
    max_size=30,
)


@FUZZ
@given(lines)
def test_random_line_structure_splits_without_raising(ls):
    status, fm, _body, body_line, issue = parse_skill_text("\n".join(ls))
    assert status in {"ok", "missing", "not_top", "unclosed", "invalid_yaml", "not_mapping"}
    assert body_line >= 1
    if status == "ok":
        assert fm is not None and issue is None
    else:
        assert issue is not None


@FUZZ
@given(st.dictionaries(st.sampled_from(["scripts/run.py", "scripts/x.sh", "references/a.md", "evals/evals.json",
                                        "assets/t.txt", "SKILL.md", "README.md"]), st.binary(max_size=800), max_size=6))
def test_random_files_in_a_skill(fresh_root, files):
    root = fresh_dir(fresh_root) / "fuzzed-skill"
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    root.mkdir(exist_ok=True)
    report = _lint_dir(root)
    assert isinstance(report.findings, list)
