"""The Coding Verifier of Skill Mode, on its own: names, syntax with context, quality, runner output."""

from __future__ import annotations

import pytest

from skillforge.agent.skill_runner import MARKER
from skillforge.agent.skill_verifier import (
    SkillInputError,
    check_args,
    check_name,
    check_parameters,
    parse_runner_output,
    quality_problems,
    syntax_problem,
)
from tests.trials.scripted_skill_mode import BROKEN_CODE, BROKEN_LINE, SKILL_CODE


def test_a_syntax_error_names_its_line_and_shows_the_lines_around_it():
    assert syntax_problem(SKILL_CODE, "csv_column_stats") is None
    problem = syntax_problem(BROKEN_CODE, "csv_column_stats")
    assert problem is not None and f"at line {BROKEN_LINE}" in problem
    lines = problem.splitlines()
    marked = [ln for ln in lines if ln.startswith(">")]
    assert marked == [f"> {BROKEN_LINE:>3} | for name in (rows[0].keys() if rows else [])"]
    # Two lines of context either side.
    assert any(f"  {BROKEN_LINE - 2:>3} | " in ln for ln in lines)
    assert any(f"  {BROKEN_LINE + 2:>3} | " in ln for ln in lines)


def test_compiling_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    assert syntax_problem(f"open({str(marker)!r}, 'w').write('x')", "s") is None
    assert not marker.exists()


@pytest.mark.parametrize("name", ["csv_stats", "Top-Region2", "a"])
def test_good_names(name):
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["", "2fast", "../x", "has space", "a" * 65, None, 7])
def test_bad_names_say_what_a_name_is(name):
    with pytest.raises(SkillInputError, match="letters, digits"):
        check_name(name)


def test_parameters_and_args_are_objects():
    assert check_parameters(["path", "column"]) == {"path": "", "column": ""}
    assert check_parameters('{"path": "a file"}') == {"path": "a file"}
    assert check_args(None) == {}
    assert check_args('{"path": "a.csv"}') == {"path": "a.csv"}
    with pytest.raises(SkillInputError, match="`args` must be a JSON object"):
        check_args("path=a.csv")
    with pytest.raises(SkillInputError, match="object of name"):
        check_parameters(3)


@pytest.mark.parametrize(("result", "bad"), [
    ({"region": "Unknown", "revenue": 0, "orders": None, "note": "ok"}, ["region", "revenue",
                                                                         "orders"]),
    ([{"name": "a", "total": 0}, {"name": "N/A", "total": 0.0}], ["[0].total", "[1].name",
                                                                 "[1].total"]),
    ({}, ["result"]),
    (None, ["result"]),
    ("  ", ["result"]),
])
def test_mostly_empty_results_are_silent_failures(result, bad):
    assert quality_problems(result) == bad


@pytest.mark.parametrize("result", [
    {"region": "North", "revenue": 2232.68, "orders": 0},   # half empty is not over half
    {"ok": False, "count": 3},                               # False is an answer
    0, 42, "North", [1, 2, 0],
])
def test_results_with_content_pass(result):
    assert quality_problems(result) == []


def test_the_runner_line_is_read_even_after_printed_noise():
    out = f"noise\n{MARKER}" + '{"ok": true, "has_result": true, "result": {"a": 1}}\n'
    got = parse_runner_output(out, MARKER)
    assert got is not None and got.ok and got.result == {"a": 1}
    assert parse_runner_output("no marker", MARKER) is None
    assert parse_runner_output(MARKER + "{not json", MARKER) is None
